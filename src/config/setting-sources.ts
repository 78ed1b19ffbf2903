// Claude Code's --setting-sources (the Claude Agent SDK's settingSources): which of Claude Code's
// files a run reads, as Claude Code's own setting sources decide them. Rule: `user` is
// ~/.claude/settings.json, ~/.claude/CLAUDE.md and rules, ~/.claude/skills and commands; `project`
// the folders' CLAUDE.md, .claude/CLAUDE.md and rules, .claude/settings.json, skills and commands;
// `local` CLAUDE.local.md and .claude/settings.local.json. zot's own files ($ZOT_HOME, .zot/,
// AGENTS.md) are read whatever the list says, as Claude Code reads its managed settings. Absent,
// all are read (a folder's once it is trusted); an empty list reads none of Claude Code's.
import { UsageError } from "./usage-error.ts";

export const SETTING_SOURCES = ["user", "project", "local"] as const;
export type SettingSourceName = (typeof SETTING_SOURCES)[number];

/** `user,project` → ["user", "project"]; "" → []; anything else is a UsageError naming what it takes. */
export function parseSettingSources(text: string): SettingSourceName[] {
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(SETTING_SOURCES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new UsageError(
      `--setting-sources takes ${SETTING_SOURCES.join(", ")} (comma-separated, or "" for none); ${unknown.map((name) => `"${name}"`).join(", ")} is not one`,
    );
  }
  return [...new Set(names as SettingSourceName[])];
}

/** Whether Claude Code's files of `source` are read under `only` (--setting-sources; undefined = all). */
export function sourceRead(only: readonly SettingSourceName[] | undefined, source: SettingSourceName): boolean {
  return only === undefined || only.includes(source);
}
