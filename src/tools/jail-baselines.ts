// The baselines of the jailed commands in flight, shared by every zot of one $ZOT_HOME (two panes,
// a TUI and an rpc client, in one folder). Why: a jailed command's snapshot (protected-paths.ts)
// takes the protected paths as they are when it starts; while another zot's jailed command runs,
// what is there may be that command's plant (a new .mcp.json), and the snapshot would take it for
// the folder's own and put it back after the other zot removed it. Rule: a snapshot takes each
// path as it was when the oldest jailed command still running on the same jail root began; it is
// recorded here before its command starts (after its own look at the disk: a command that had not
// started by then planted nothing that look saw) and removed when its last restore is done. An
// entry whose process is gone (a zot killed) counts for nothing and is removed.
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { lstatSafe } from "../config/quiet-fs.ts";
import { readProcess, stillRuns } from "../process/process-table.ts";

/**
 * Makes $ZOT_HOME/run/jail (and $ZOT_HOME) before a jailed command's sandbox is set up: a
 * $ZOT_HOME inside the jail that exists then is shown to the command read-only (bubblewrap binds
 * what exists), so its records cannot be forged from there; made later, it would be writable.
 */
export function prepareRecordsFolder(home: string | undefined): void {
  if (home === undefined) return;
  try {
    mkdirSync(join(home, "run", "jail"), { recursive: true, mode: 0o700 });
  } catch {
    // no records then: each command starts from the disk as it is
  }
}

/** A protected path as a baseline keeps it (protected-paths.ts's Before, without what is this command's own). */
export interface BaselinePath {
  identity?: string;
  file?: { bytes: Buffer; mode: number };
}

/** One jailed command's view of a jail root before it ran. */
export interface Baseline {
  /** the identity of each directory on the way to a protected path (undefined: none there) */
  steps: Map<string, string | undefined>;
  /** each protected path, and each entry of a protected folder kept entry by entry */
  before: Map<string, BaselinePath>;
  /** the protected paths, and the folders kept entry by entry: a path under one of those a baseline lacks was not there */
  covers: { path: string; entries: boolean }[];
}

interface Stored {
  root: string;
  pid: number;
  /** the process's start (Linux: clock ticks after boot), so a reused pid is told from it */
  start?: number;
  at: number;
  steps: [string, string | null][];
  before: [string, { identity?: string; bytes?: string; mode?: number }][];
  covers: { path: string; entries: boolean }[];
}

/** A baseline older than this is a zot's that forgot it (it never counts again). */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How far a record's time may be ahead of this zot's clock (none is written ahead of its own). */
const FUTURE_SLACK_MS = 1000;

let seq = 0;
const mine = new Set<string>();
let exitHook = false;

/**
 * Records `own` (just taken from the disk) for the command about to run in `root`, after it has
 * taken from the oldest baseline in flight on the same root, if any, every path that one has:
 * what this command starts from. Returns the baseline to restore to and the record's release
 * (call it once the command's last restore is done). Without a usable folder for the records
 * (none given, or it cannot be made) `own` is all.
 */
export function inFlightBaseline(dir: string | undefined, root: string, own: Baseline): { baseline: Baseline; release: () => void } {
  const none = { baseline: own, release: () => {} };
  if (!dir || !usableFolder(dir)) return none;
  const oldest = liveBaselines(dir, root)[0];
  const baseline = oldest ? adopt(own, oldest) : own;
  const file = join(dir, `${rootKey(root)}-${process.pid}-${++seq}.json`);
  try {
    const temp = `${file}.tmp`;
    writeFileSync(temp, JSON.stringify(store(root, baseline)), { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    return { baseline, release: () => {} };
  }
  mine.add(file);
  if (!exitHook) {
    exitHook = true;
    process.on("exit", () => {
      for (const left of mine) rmSync(left, { force: true });
    });
  }
  return {
    baseline,
    release: () => {
      mine.delete(file);
      rmSync(file, { force: true });
    },
  };
}

/** `own`, with every path the older baseline has as it has it, and a path it covers but lacks as absent. */
function adopt(own: Baseline, older: Baseline): Baseline {
  const steps = new Map(own.steps);
  for (const [path, id] of older.steps) steps.set(path, id);
  const before = new Map<string, BaselinePath>();
  for (const [path, was] of own.before) before.set(path, covered(older, path) ? {} : was);
  for (const [path, was] of older.before) before.set(path, was);
  return { steps, before, covers: own.covers };
}

function covered(baseline: Baseline, path: string): boolean {
  return baseline.covers.some((entry) => entry.path === path || (entry.entries && path.startsWith(entry.path + sep) && !path.slice(entry.path.length + 1).includes(sep)));
}

/** The live baselines of `root`, oldest first; the records of processes gone are removed. */
function liveBaselines(dir: string, root: string): Baseline[] {
  const key = `${rootKey(root)}-`;
  const live: { at: number; baseline: Baseline }[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  for (const name of names) {
    if (!name.startsWith(key) || !name.endsWith(".json")) continue;
    const file = join(dir, name);
    let stored: Stored;
    try {
      stored = JSON.parse(readFileSync(file, "utf8")) as Stored;
    } catch {
      continue; // being written (the rename makes it whole) or not ours to judge
    }
    if (stored.root !== root) continue;
    // a record from the future, or of a process that is no zot, is none of ours (forged by a command that could write here)
    if (!alive(stored) || Date.now() - stored.at > MAX_AGE_MS || stored.at > Date.now() + FUTURE_SLACK_MS || !runsZot(stored.pid)) {
      if (!mine.has(file)) rmSync(file, { force: true });
      continue;
    }
    live.push({ at: stored.at, baseline: load(stored) });
  }
  return live.sort((a, b) => a.at - b.at).map((entry) => entry.baseline);
}

function store(root: string, baseline: Baseline): Stored {
  const start = readProcess(process.pid)?.start;
  return {
    root,
    pid: process.pid,
    ...(start !== undefined && { start }),
    at: Date.now(),
    steps: [...baseline.steps].map(([path, id]) => [path, id ?? null]),
    before: [...baseline.before].map(([path, was]) => [
      path,
      { ...(was.identity !== undefined && { identity: was.identity }), ...(was.file && { bytes: was.file.bytes.toString("base64"), mode: was.file.mode }) },
    ]),
    covers: baseline.covers,
  };
}

function load(stored: Stored): Baseline {
  return {
    steps: new Map(stored.steps.map(([path, id]) => [path, id ?? undefined])),
    before: new Map(
      stored.before.map(([path, was]) => [
        path,
        {
          ...(was.identity !== undefined && { identity: was.identity }),
          ...(was.bytes !== undefined && { file: { bytes: Buffer.from(was.bytes, "base64"), mode: was.mode ?? 0o644 } }),
        },
      ]),
    ),
    covers: stored.covers,
  };
}

function alive(stored: Stored): boolean {
  return stillRuns(stored.pid, typeof stored.start === "number" ? stored.start : undefined);
}

/** Whether `pid` runs this zot's program (where the system tells: Linux's /proc/<pid>/exe). */
function runsZot(pid: number): boolean {
  try {
    return realpathSync(`/proc/${pid}/exe`) === realpathSync(process.execPath);
  } catch {
    return process.platform !== "linux";
  }
}

/** The folder, made if need be: a directory of this user's, no link, nobody else's to write. */
function usableFolder(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return false;
  }
  const info = lstatSafe(dir);
  if (!info?.isDirectory() || (info.mode & 0o022) !== 0) return false;
  return process.getuid === undefined || info.uid === process.getuid();
}

function rootKey(root: string): string {
  return new Bun.CryptoHasher("sha256").update(root).digest("hex").slice(0, 16);
}
