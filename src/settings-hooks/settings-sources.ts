// The hooks of the settings files (settings-locations.ts) as they are right now.
// Rule: the files are read again whenever one changed (size or time), so an edited hook takes
// effect at the next event without a restart; a file's warnings are told once per version of it.
import { type SettingsHook, parseSettingsHooks, type SettingsSource } from "./settings-file.ts";
import { SettingsFileCache } from "./settings-file-cache.ts";

/** The hooks the files hold, read again when one of them changed. */
export class SettingsHooksSources {
  private readonly files: SettingsFileCache<{ hooks: SettingsHook[]; disableAll: boolean }>;

  constructor(
    readonly sources: readonly SettingsSource[],
    /** a file's warnings, once per version of the file */
    warn: (message: string) => void,
    /** the hooks the program running zot registered (host-hooks.ts), after the files' */
    private readonly hosted: readonly SettingsHook[] = [],
  ) {
    this.files = new SettingsFileCache(
      { hooks: [], disableAll: false },
      (text, source) => {
        const parsed = parseSettingsHooks(text, source);
        for (const warning of parsed.warnings) warn(warning);
        if (parsed.disableAll) warn(`${source.label}: "disableAllHooks": true, so no settings hook runs`);
        return { hooks: parsed.hooks, disableAll: parsed.disableAll };
      },
      (problem, source) => warn(`${source.label}: ${problem}; its hooks do not run`),
    );
  }

  /** Every hook of every file, in settings order (none when a file says disableAllHooks), then the program's. */
  current(): SettingsHook[] {
    const all: SettingsHook[] = [];
    let disabled = false;
    for (const source of this.sources) {
      const read = this.files.read(source);
      if (read.disableAll) disabled = true;
      all.push(...read.hooks);
    }
    return disabled ? [...this.hosted] : [...all, ...this.hosted];
  }
}

