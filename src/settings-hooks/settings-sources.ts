// The hooks of the settings files (settings-locations.ts), as they were when the run started.
// Rule: the hooks are read once, at the start, and hold for the whole run (newer Claude Code re-reads
// edited files; zot does not, on purpose): a hook is a command zot runs, so nothing in the run (the
// model's bash command writing a settings file) can add one or take a guard away. A file edited meanwhile is said once
// per version of it, with when its hooks take effect; a file's warnings are told at the start.
import { SettingsChanges } from "./settings-changes.ts";
import { type SettingsHook, parseSettingsHooks, type SettingsSource } from "./settings-file.ts";
import { SettingsFileCache } from "./settings-file-cache.ts";

/** The hooks the files held when the run started. */
export class SettingsHooksSources {
  private readonly files: SettingsFileCache<{ hooks: SettingsHook[]; disableAll?: boolean }>;
  /** the hooks of the first read, which hold for the run */
  private snapshot: SettingsHook[] | undefined;
  /** the files' versions as of the snapshot, to say one that changes */
  private changes: SettingsChanges | undefined;

  constructor(
    readonly sources: readonly SettingsSource[],
    /** a file's warnings, and the notice that a file changed since the start */
    private readonly warn: (message: string) => void,
    /** the hooks the program running zot registered (host-hooks.ts), after the files' */
    private readonly hosted: readonly SettingsHook[] = [],
    /** whether the folder is trusted now: once it is not (`zot untrust` meanwhile), its files' hooks no longer run */
    private readonly trustNow?: () => boolean,
  ) {
    this.files = new SettingsFileCache(
      { hooks: [] },
      (text, source) => {
        const parsed = parseSettingsHooks(text, source);
        for (const warning of parsed.warnings) warn(warning);
        return { hooks: parsed.hooks, ...(parsed.disableAll !== undefined ? { disableAll: parsed.disableAll } : {}) };
      },
      (problem, source) => warn(`${source.label}: ${problem}; its hooks do not run`),
    );
  }

  /**
   * Every hook of every file as of the start, in settings order, then the program's; none of the
   * files' when `disableAllHooks` is true in the file of highest precedence that says it, as Claude
   * Code reads it (a project's false overrides the user's true).
   */
  current(): SettingsHook[] {
    const hooks = this.startHooks();
    // A folder the user took trust from while the run goes on: its hooks are not started again.
    if (this.trustNow && hooks.some((hook) => hook.source?.scope === "project") && !this.trustNow()) return hooks.filter((hook) => hook.source?.scope !== "project");
    return hooks;
  }

  private startHooks(): SettingsHook[] {
    if (this.snapshot) {
      this.changes?.notice();
      return this.snapshot;
    }
    const all: SettingsHook[] = [];
    let decided: { disabled: boolean; by: SettingsSource } | undefined;
    this.changes = new SettingsChanges(this.sources, this.warn);
    // settings order is lowest precedence first
    for (const source of this.sources) {
      const read = this.files.read(source);
      if (read.disableAll !== undefined) decided = { disabled: read.disableAll, by: source };
      all.push(...read.hooks);
    }
    if (decided?.disabled) this.warn(`${decided.by.label}: "disableAllHooks": true, so no settings hook runs`);
    this.snapshot = decided?.disabled ? [...this.hosted] : [...all, ...this.hosted];
    return this.snapshot;
  }
}
