// Claude Code's --setting-sources (the Claude Agent SDK's settingSources): which of Claude Code's
// settings files a run reads. Rule: `user` is ~/.claude/settings.json, `project` the folder's
// .claude/settings.json, `local` its .claude/settings.local.json; zot's own $ZOT_HOME/settings.json
// is read whatever the list says, as Claude Code reads its managed settings. Absent, all three are
// read (a folder's once it is trusted); an empty list reads none of them.
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
