// The names of Claude Code's setting sources (--setting-sources, the Claude Agent SDK's
// settingSources) and which files each stands for. Rule: `user` is ~/.claude/settings.json,
// ~/.claude/CLAUDE.md and rules, ~/.claude/skills and commands; `project` the folders' CLAUDE.md,
// .claude/CLAUDE.md and rules, .claude/settings.json, skills, commands and .mcp.json; `local` CLAUDE.local.md
// and .claude/settings.local.json. zot's own files ($ZOT_HOME, .zot/, AGENTS.md) are read whatever
// the list says, as Claude Code reads its managed settings. Absent, all are read (a folder's once it
// is trusted); an empty list reads none of Claude Code's. Reading the flag is config/setting-sources.ts.

export const SETTING_SOURCES = ["user", "project", "local"] as const;
export type SettingSourceName = (typeof SETTING_SOURCES)[number];

/** Whether Claude Code's files of `source` are read under `only` (--setting-sources; undefined = all). */
export function sourceRead(only: readonly SettingSourceName[] | undefined, source: SettingSourceName): boolean {
  return only === undefined || only.includes(source);
}
