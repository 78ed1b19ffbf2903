// Which settings files a run reads, in settings order: ~/.claude/settings.json,
// $ZOT_HOME/settings.json (the user's own), then the folder's .claude/settings.json and
// .claude/settings.local.json (read by the settings hooks, the permission rules and the settings'
// model and env). --setting-sources leaves out those of Claude Code's it does not name
// (config/setting-sources.ts); $ZOT_HOME/settings.json is zot's own and always read. Codex's hooks
// files, `~/.codex/hooks.json` ($CODEX_HOME) and a folder's `.codex/hooks.json`, are Claude Code's
// hooks format and are read for their hooks, unless --setting-sources chooses the files.
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
  /** --setting-sources: Claude Code's files it names; undefined = all of them (and Codex's hooks files) */
  only?: readonly SettingSourceName[];
  /** $CODEX_HOME, where Codex keeps its hooks.json (default ~/.codex) */
  codexHome?: string;
}

/** The files, in settings order: the order updatedInput rewrites apply in. */
export function settingsSources(options: SourcesOptions): SettingsSource[] {
  const named = (source: SettingSourceName) => options.only === undefined || options.only.includes(source);
  // Codex's own hooks files, only when --setting-sources does not choose the files (an Agent SDK program that does wants no others).
  const codex = options.only === undefined;
  const codexHome = options.codexHome?.trim() || path.join(options.userHome, ".codex");
  const user: SettingsSource[] = [
    ...(named("user") ? [{ file: path.join(options.userHome, ".claude", "settings.json"), label: "~/.claude/settings.json", scope: "user" as const }] : []),
    { file: zotPaths(options.home).settingsFile, label: "$ZOT_HOME/settings.json", scope: "user" },
    ...(codex ? [{ file: path.join(codexHome, "hooks.json"), label: options.codexHome?.trim() ? "$CODEX_HOME/hooks.json" : "~/.codex/hooks.json", scope: "user" as const }] : []),
  ];
  const project: SettingsSource[] = (
    [
      ["settings.json", "project"],
      ["settings.local.json", "local"],
    ] as const
  )
    .filter(([, source]) => named(source))
    .map(([name]): SettingsSource => ({ file: path.join(options.cwd, ".claude", name), label: `.claude/${name}`, scope: "project" }));
  if (codex) project.push({ file: path.join(options.cwd, ".codex", "hooks.json"), label: ".codex/hooks.json", scope: "project" });
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
