// Which settings files changed since the run started. Rule: the hooks of the start hold for the
// whole run (settings-sources.ts), so a file edited, added or removed meanwhile is said once per
// version of it, with when its hooks take effect; stats only, nothing read or parsed, so a run
// with no settings file watches for one without loading the settings hooks (start.ts).
import { statSafe } from "../config/quiet-fs.ts";
import type { SettingsSource } from "./settings-file.ts";
import { fileStamp } from "./settings-file-cache.ts";

/** The files' versions as of the start, and the later versions already said. */
export class SettingsChanges {
  private readonly stamps = new Map<string, string>();
  private readonly told = new Set<string>();

  constructor(
    private readonly sources: readonly SettingsSource[],
    private readonly warn: (message: string) => void,
  ) {
    for (const source of sources) this.stamps.set(source.file, stampOf(source.file));
  }

  /** Says each file whose version is not the start's, once per version. */
  notice(): void {
    for (const source of this.sources) {
      const stamp = stampOf(source.file);
      if (stamp === this.stamps.get(source.file) || this.told.has(`${source.file}\u0000${stamp}`)) continue;
      this.told.add(`${source.file}\u0000${stamp}`);
      this.warn(`${source.label} changed since zot started; its hooks as they were then still hold, and what changed takes effect when zot starts again (as in Claude Code)`);
    }
  }
}

function stampOf(file: string): string {
  return fileStamp(statSafe(file));
}
