// Which settings files a run reads, in settings order: ~/.claude/settings.json,
// $ZOT_HOME/settings.json (the user's own), then the folder's .claude/settings.json and
// .claude/settings.local.json (read by the settings hooks, the permission rules and the settings'
// model and env). --setting-sources leaves out those of Claude Code's it does not name
// (config/setting-sources.ts); $ZOT_HOME/settings.json is zot's own and always read.
// Rule: nothing here reads or parses a file, so finding the files costs a start no schema.
import path from "node:path";
import { zotPaths } from "../config/home.ts";
import type { SettingSourceName } from "../protocol/setting-sources.ts";
import { realPathOf } from "../tools/sandbox.ts";
import { statSafe } from "../config/quiet-fs.ts";
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
  /** --setting-sources: Claude Code's files it names; undefined = all of them */
  only?: readonly SettingSourceName[];
}

/** The files, in settings order: the order updatedInput rewrites apply in. */
export function settingsSources(options: SourcesOptions): SettingsSource[] {
  const named = (source: SettingSourceName) => options.only === undefined || options.only.includes(source);
  const user: SettingsSource[] = [
    ...(named("user") ? [{ file: path.join(options.userHome, ".claude", "settings.json"), label: "~/.claude/settings.json", scope: "user" as const }] : []),
    { file: zotPaths(options.home).settingsFile, label: "$ZOT_HOME/settings.json", scope: "user" },
  ];
  const project: SettingsSource[] = (
    [
      ["settings.json", "project"],
      ["settings.local.json", "local"],
    ] as const
  )
    .filter(([, source]) => named(source))
    .map(([name]) => ({ file: path.join(options.cwd, ".claude", name), label: `.claude/${name}`, scope: "project" }));
  // One file reached two ways (zot started in ~, ZOT_HOME=~/.claude) counts once, as the user's.
  const seen = new Set<string>();
  return [...user, ...(options.projectTrusted ? project : [])].filter((source) => {
    // A file that is not there is reached one way only; resolving its path would ask the file system for each missing part.
    const key = statSafe(source.file) ? realPathOf(source.file) : source.file;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
