// Session summaries kept between listings, in $ZOT_HOME/cache/sessions/<the sessions folder's
// name>.json, each under its file's inode, size and modification time. Rule: a session whose file
// has the same three is summed up from here, any other is read again; the cache is only ever a
// shortcut (missing, damaged or unwritable, the listing reads the files as before), written whole
// and atomically, and holds only the files the folder still has. The lock owner is never kept: it
// is looked at each time.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../config/write-file-atomic.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import type { SessionSummary } from "./list.ts";

/** What identifies one version of a session file. */
export interface FileStamp {
  file: string;
  mtimeMs: number;
  size: number;
  ino: number;
}

type Kept = Omit<SessionSummary, "locked_by">;

/** Bumped when what a summary holds (or how it is counted) changes: an older cache is read as none. */
const CACHE_VERSION = 1;

export class SummaryCache {
  private readonly kept: Map<string, { stamp: string; summary: Kept }>;
  private readonly used = new Map<string, { stamp: string; summary: Kept }>();
  private changed = false;

  private constructor(
    private readonly file: string,
    kept: Map<string, { stamp: string; summary: Kept }>,
  ) {
    this.kept = kept;
  }

  /** The cache of the sessions folder `dir`, under `home`; empty when there is none or it cannot be read. */
  static open(home: string, dir: string): SummaryCache {
    const file = path.join(home, "cache", "sessions", `${path.basename(dir)}.json`);
    const kept = new Map<string, { stamp: string; summary: Kept }>();
    try {
      const value: unknown = JSON.parse(readFileSync(file, "utf8"));
      if (isJsonObject(value) && value.version === CACHE_VERSION && isJsonObject(value.sessions)) {
        for (const [name, entry] of Object.entries(value.sessions)) {
          if (isJsonObject(entry) && typeof entry.stamp === "string" && isJsonObject(entry.summary)) kept.set(name, { stamp: entry.stamp, summary: entry.summary as unknown as Kept });
        }
      }
    } catch {
      // No cache yet, or one that cannot be read: every session is read.
    }
    return new SummaryCache(file, kept);
  }

  /** The summary kept for this version of the file, or undefined. */
  get(stamp: FileStamp): Kept | undefined {
    const entry = this.kept.get(path.basename(stamp.file));
    if (!entry || entry.stamp !== stampOf(stamp) || entry.summary.file !== stamp.file) return undefined;
    this.used.set(path.basename(stamp.file), entry);
    return entry.summary;
  }

  /** Keeps the summary of this version of the file. */
  set(stamp: FileStamp, summary: SessionSummary): void {
    const { locked_by: _owner, ...kept } = summary;
    this.used.set(path.basename(stamp.file), { stamp: stampOf(stamp), summary: kept });
    this.changed = true;
  }

  /** Writes the cache when anything changed: the summaries used in this listing, no others (a removed session's goes). */
  save(): void {
    if (!this.changed && this.used.size === this.kept.size) return;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      writeFileAtomic(this.file, JSON.stringify({ version: CACHE_VERSION, sessions: Object.fromEntries(this.used) }), 0o600);
    } catch {
      // A cache that cannot be written is no cache: the next listing reads the files.
    }
  }
}

function stampOf(stamp: FileStamp): string {
  return `${stamp.ino}:${stamp.size}:${stamp.mtimeMs}`;
}
