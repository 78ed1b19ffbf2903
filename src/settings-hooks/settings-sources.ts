// Which settings files hold the hooks of a run, in settings order, and what they hold right now:
// ~/.claude/settings.json, $ZOT_HOME/settings.json (the user's own), then the folder's
// .claude/settings.json and .claude/settings.local.json (only when the folder is trusted).
// Rule: the files are read again whenever one changed (size or time), so an edited hook takes
// effect at the next event without a restart; a file's warnings are told once per version of it.
import { readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { zotPaths } from "../config/home.ts";
import { type CommandHook, parseSettingsHooks, type SettingsSource } from "./settings-file.ts";

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
    const key = realOrSame(source.file);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

interface Cached {
  stamp: string;
  hooks: CommandHook[];
  disableAll: boolean;
}

/** The hooks the files hold, read again when one of them changed. */
export class SettingsHooksSources {
  private readonly cache = new Map<string, Cached>();

  constructor(
    readonly sources: readonly SettingsSource[],
    /** a file's warnings, once per version of the file */
    private readonly warn: (message: string) => void,
  ) {}

  /** Every command hook of every file, in settings order; none when a file says disableAllHooks. */
  current(): CommandHook[] {
    const all: CommandHook[] = [];
    let disabled = false;
    for (const source of this.sources) {
      const read = this.read(source);
      if (read.disableAll) disabled = true;
      all.push(...read.hooks);
    }
    return disabled ? [] : all;
  }

  private read(source: SettingsSource): Cached {
    const info = statSync(source.file, { throwIfNoEntry: false });
    const stamp = info ? `${info.size}:${info.mtimeMs}:${info.ino}` : "absent";
    const cached = this.cache.get(source.file);
    if (cached && cached.stamp === stamp) return cached;
    let fresh: Cached = { stamp, hooks: [], disableAll: false };
    if (info) {
      let text: string | undefined;
      try {
        text = info.isFile() ? readFileSync(source.file, "utf8") : undefined;
        if (text === undefined) this.warn(`${source.label}: is not a file; its hooks do not run`);
      } catch (error) {
        this.warn(`${source.label}: cannot be read (${(error as Error).message}); its hooks do not run`);
      }
      if (text !== undefined) {
        const parsed = parseSettingsHooks(text, source);
        for (const warning of parsed.warnings) this.warn(warning);
        if (parsed.disableAll) this.warn(`${source.label}: "disableAllHooks": true, so no settings hook runs`);
        fresh = { stamp, hooks: parsed.hooks, disableAll: parsed.disableAll };
      }
    }
    this.cache.set(source.file, fresh);
    return fresh;
  }
}

function realOrSame(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    // A file that does not exist yet: its directory may still be reached two ways.
    try {
      return path.join(realpathSync(path.dirname(file)), path.basename(file));
    } catch {
      return path.resolve(file);
    }
  }
}
