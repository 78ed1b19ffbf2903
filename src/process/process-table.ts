// The machine's processes as /proc shows them (Linux): who is whose parent, which group and session
// each is in, and when each started, so zot can find every descendant of a process it started,
// even one that left its group or lost its parent. Rule: a snapshot is read synchronously (it runs
// in exit hooks) and never throws; where there is no /proc it is undefined and callers fall back
// to process groups.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgrp: number;
  session: number;
  /** R, S, D, Z (zombie), X (dead), T… */
  state: string;
  /** clock ticks after boot: with the pid, what tells this process from a later one of the same pid */
  start: number;
  /** the command name the kernel keeps (at most 15 characters) */
  comm: string;
}

/** Every process, by pid; undefined where /proc is not there (macOS, Windows). */
export function readProcessTable(): Map<number, ProcessEntry> | undefined {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const table = new Map<number, ProcessEntry>();
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    const process = readProcess(Number(entry));
    if (process) table.set(process.pid, process);
  }
  return table;
}

/** One process, or undefined when it is gone (or there is no /proc). */
export function readProcess(pid: number): ProcessEntry | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
  // cutime cstime priority nice threads itrealvalue starttime …"; comm may hold spaces and ")".
  const close = stat.lastIndexOf(")");
  const fields = stat.slice(close + 2).split(" ");
  return {
    pid,
    comm: stat.slice(stat.indexOf("(") + 1, close),
    state: fields[0] ?? "?",
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
    start: Number(fields[19]),
  };
}

/** Not gone and not a zombie: it can still do something. */
export function isRunning(entry: ProcessEntry): boolean {
  return entry.state !== "Z" && entry.state !== "X";
}

/**
 * Whether `pid` still names the process that started at `start` (clock ticks after boot): it
 * exists (another user's counts), is not a zombie (killed, its parent not yet told: it holds
 * nothing any more) and, when `start` is known, started then; a pid the kernel gave to a later
 * process does not.
 */
export function stillRuns(pid: number, start?: number): boolean {
  const now = readProcess(pid);
  if (now) return isRunning(now) && (start === undefined || now.start === start);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The processes below `roots` (children, their children, …), roots not included. */
export function descendantsOf(table: Map<number, ProcessEntry>, roots: Iterable<number>): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of table.values()) {
    const list = children.get(entry.ppid);
    if (list) list.push(entry);
    else children.set(entry.ppid, [entry]);
  }
  const found: ProcessEntry[] = [];
  const seen = new Set<number>();
  const stack = [...roots];
  for (let pid = stack.pop(); pid !== undefined; pid = stack.pop()) {
    for (const child of children.get(pid) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push(child);
      stack.push(child.pid);
    }
  }
  return found;
}

/** The members of process group `pgid`. */
export function groupMembers(table: Map<number, ProcessEntry>, pgid: number): ProcessEntry[] {
  return [...table.values()].filter((entry) => entry.pgrp === pgid);
}

/**
 * Everything that belongs to the tree led by `pgid`: the members of its group and every
 * descendant of any of them (a setsid'd child left the group but not the family).
 */
export function treeOf(table: Map<number, ProcessEntry>, pgid: number): ProcessEntry[] {
  const members = groupMembers(table, pgid);
  const byPid = new Map(members.map((entry) => [entry.pid, entry]));
  for (const entry of descendantsOf(table, [pgid, ...byPid.keys()])) byPid.set(entry.pid, entry);
  return [...byPid.values()];
}
