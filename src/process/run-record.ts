// What a running zot owns, on disk: `$ZOT_HOME/run/<pid>.json` names zot's pid and start time and
// the process groups it started (extensions, hooks, bash commands). A kill -9 leaves no chance to
// clean up, so the next zot reads the records of dead runs and says which of their processes still
// run, once. Rule: the record is written atomically, removed at every clean exit, and nothing here
// ever fails zot: a record that cannot be written or read is skipped.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isRunning, type ProcessEntry, readProcess, readProcessTable, stillRuns, treeOf } from "./process-table.ts";

export interface RecordedGroup {
  pgid: number;
  /** the leader's start time (clock ticks after boot), when known */
  start?: number;
  /** what it is: `extension "x"`, `bash: <command>` */
  label: string;
}

interface RunFile {
  pid: number;
  start?: number;
  since: string;
  cwd: string;
  groups: RecordedGroup[];
}

export interface RunRecord {
  update(groups: RecordedGroup[]): void;
  remove(): void;
}

/** The record of this process in `dir`; nothing is written until an update names a group. */
export function runRecord(dir: string): RunRecord {
  const file = join(dir, `${process.pid}.json`);
  const since = new Date().toISOString();
  const cwd = process.cwd();
  let base: Omit<RunFile, "groups"> | undefined;
  let written = false;
  return {
    update(groups) {
      // A run that started nothing has nothing to report after a kill -9.
      if (groups.length === 0 && !written) return;
      base ??= { pid: process.pid, start: readProcess(process.pid)?.start, since, cwd };
      const data: RunFile = { ...base, groups };
      try {
        mkdirSync(dir, { recursive: true });
        writeFileSync(`${file}.tmp`, JSON.stringify(data));
        renameSync(`${file}.tmp`, file);
        written = true;
      } catch {
        // A full disk or a read-only home costs only the report after a kill -9.
      }
    },
    remove() {
      if (!written) return;
      rmSync(file, { force: true });
    },
  };
}

/**
 * One sentence for each earlier zot that died without removing its record (kill -9, a crash, the
 * OOM killer) and left processes running: which ones, and how to end them. The records of dead
 * runs are removed, so each is reported once.
 */
export function leftoversOfDeadRuns(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /^\d+\.json$/.test(name));
  } catch {
    return [];
  }
  const notes: string[] = [];
  // The whole process table is read only when a dead run left groups to look for (rarely).
  let table: Map<number, ProcessEntry> | undefined | null = null;
  for (const name of names) {
    const path = join(dir, name);
    const run = readRun(path);
    if (run && stillRunning(run)) continue;
    rmSync(path, { force: true });
    if (!run || run.groups.length === 0) continue;
    if (table === null) table = readProcessTable();
    const note = table ? survivorsNote(run, table) : groupsNote(run);
    if (note) notes.push(note);
  }
  return notes;
}

function readRun(path: string): RunFile | undefined {
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as RunFile;
    return typeof value.pid === "number" && Array.isArray(value.groups) ? value : undefined;
  } catch {
    return undefined;
  }
}

function stillRunning(run: RunFile): boolean {
  return run.pid === process.pid || stillRuns(run.pid, run.start);
}

const killedBy = "was killed before it could stop what it started (kill -9, a crash or the out-of-memory killer)";

function survivorsNote(run: RunFile, table: Map<number, ProcessEntry>): string | undefined {
  const rows: string[] = [];
  const pids: number[] = [];
  for (const group of run.groups) {
    for (const entry of treeOf(table, group.pgid)) {
      if (!isRunning(entry) || (group.start !== undefined && entry.start < group.start) || pids.includes(entry.pid)) continue;
      pids.push(entry.pid);
      rows.push(`${entry.pid} ${commandLine(entry)} (${group.label})`);
    }
  }
  if (rows.length === 0) return undefined;
  return `zot (pid ${run.pid}) ${killedBy}; still running from it: ${rows.join("; ")}. End them with: kill ${pids.join(" ")}`;
}

/** Without /proc: the groups that still exist, by their ids. */
function groupsNote(run: RunFile): string | undefined {
  const alive = run.groups.filter((group) => {
    try {
      process.kill(-group.pgid, 0);
      return true;
    } catch {
      return false;
    }
  });
  if (alive.length === 0) return undefined;
  const list = alive.map((group) => `group ${group.pgid} (${group.label})`).join("; ");
  return `zot (pid ${run.pid}) ${killedBy}; these process groups may still run from it: ${list}. End them with: kill -- ${alive.map((g) => `-${g.pgid}`).join(" ")}`;
}

function commandLine(entry: ProcessEntry): string {
  let text = entry.comm;
  try {
    text = readFileSync(`/proc/${entry.pid}/cmdline`, "utf8").replaceAll("\0", " ").trim() || entry.comm;
  } catch {
    // gone meanwhile, or not ours to read: the kernel's name will do
  }
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
