// Which settings files a run reads, in settings order: ~/.claude/settings.json,
// $ZOT_HOME/settings.json (the user's own), then the folder's .claude/settings.json and
// .claude/settings.local.json (read by the settings hooks and the permission rules).
// Rule: nothing here reads or parses a file, so finding the files costs a start no schema.
import path from "node:path";
import { zotPaths } from "../config/home.ts";
import { realPathOf } from "../tools/sandbox.ts";
import type { SettingsSource } from "./settings-file.ts";

export interface SourcesOptions {
  /** the folder zot works in (CLAUDE_PROJECT_DIR) */
  cwd: string;
  /** $ZOT_HOME */
  home: string;
  /** the user's home directory (~) */
  userHome: string;
  /** the folder's workspace trust: its .claude files count only when trusted */
  projectTrusted: boolean;
}

/** The files, in settings order: the order updatedInput rewrites apply in. */
export function settingsSources(options: SourcesOptions): SettingsSource[] {
  const user: SettingsSource[] = [
    { file: path.join(options.userHome, ".claude", "settings.json"), label: "~/.claude/settings.json", scope: "user" },
    { file: zotPaths(options.home).settingsFile, label: "$ZOT_HOME/settings.json", scope: "user" },
  ];
  const project: SettingsSource[] = ["settings.json", "settings.local.json"].map((name) => ({
    file: path.join(options.cwd, ".claude", name),
    label: `.claude/${name}`,
    scope: "project",
  }));
  // One file reached two ways (zot started in ~, ZOT_HOME=~/.claude) counts once, as the user's.
  const seen = new Set<string>();
  return [...user, ...(options.projectTrusted ? project : [])].filter((source) => {
    const key = realPathOf(source.file);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
