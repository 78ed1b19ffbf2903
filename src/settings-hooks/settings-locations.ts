// Which settings files a run reads, in settings order: ~/.claude/settings.json,
// $ZOT_HOME/settings.json (the user's own), then the folder's .claude/settings.json and
// .claude/settings.local.json; and what a reader of them (the settings hooks, the permission
// rules) has read from each, read again only when the file changed.
// Rule: nothing here parses a file, so finding the files costs a start no schema.
import { readFileSync, statSync } from "node:fs";
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

/**
 * What one part of zot reads from settings files (their hooks, their permission rules), kept per
 * file and read again only when the file changed (size, time or inode). `parse` sees each version
 * of a file once, so what it warns about is told once; `problem` hears a file that cannot be read.
 */
export class SettingsFileCache<T> {
  private readonly cache = new Map<string, { stamp: string; value: T }>();

  constructor(
    private readonly absent: T,
    private readonly parse: (text: string, source: SettingsSource) => T,
    private readonly problem: (problem: string, source: SettingsSource) => void,
  ) {}

  read(source: SettingsSource): T {
    const info = statSync(source.file, { throwIfNoEntry: false });
    const stamp = info ? `${info.size}:${info.mtimeMs}:${info.ino}` : "absent";
    const cached = this.cache.get(source.file);
    if (cached && cached.stamp === stamp) return cached.value;
    let value = this.absent;
    if (info) {
      try {
        if (info.isFile()) value = this.parse(readFileSync(source.file, "utf8"), source);
        else this.problem("is not a file", source);
      } catch (error) {
        this.problem(`cannot be read (${(error as Error).message})`, source);
      }
    }
    this.cache.set(source.file, { stamp, value });
    return value;
  }
}
