// Claude Code's --setting-sources, read from the command line: which of its setting sources a run
// reads (protocol/setting-sources.ts says which files each stands for). Rule: a name it does not
// know is a UsageError naming the three, before anything starts.
import { SETTING_SOURCES, type SettingSourceName } from "../protocol/setting-sources.ts";
import { UsageError } from "./usage-error.ts";

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
