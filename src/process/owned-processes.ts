// Every process tree zot started (an extension, a hook, a bash command), so that all of it can be
// found and killed: on a tool's timeout or abort, on an extension's stop, and when zot exits. Each
// child leads its own process group; on Linux the tree is also followed through /proc (a setsid'd
// or double-forked descendant leaves the group, not the family), and the command line makes zot a
// child subreaper so a descendant whose parent died is re-parented to zot and still found.
// Rule: nothing zot starts outlives it: the exit hook SIGKILLs every owned tree (and, for the
// command line, every descendant of zot) synchronously, on every way out the runtime lets code run;
// the one exception is what a program of the user's own, their editor, leaves running (spared).
import { reapOrphans } from "./orphan-reaper.ts";
import { becomeSubreaper } from "./subreaper.ts";
import { descendantsOf, isRunning, type ProcessEntry, readProcess, readProcessTable, treeOf } from "./process-table.ts";
import type { RecordedGroup, RunRecord } from "./run-record.ts";

/** One process group zot started; its leader was spawned detached (setsid). */
export class OwnedGroup {
  /** the leader's start time, which tells it from a later process of the same pid */
  readonly leaderStart: number | undefined;
  /** every process of the tree seen so far, pid → start time, so one that moved away is still known */
  private readonly known = new Map<number, number>();
  private gone = false;

  constructor(
    readonly pgid: number,
    readonly label: string,
  ) {
    this.leaderStart = readProcess(pgid)?.start;
    if (this.leaderStart !== undefined) this.known.set(pgid, this.leaderStart);
    register(this);
  }

  /** The tree's running processes (Linux); undefined where there is no /proc. */
  members(table = readProcessTable()): ProcessEntry[] | undefined {
    if (!table) return undefined;
    if (this.gone) return [];
    for (const entry of treeOf(table, this.pgid)) {
      if (!isRunning(entry)) continue;
      // A group member older than the leader is not ours: the pgid was reused.
      if (this.leaderStart !== undefined && entry.start < this.leaderStart) continue;
      this.known.set(entry.pid, entry.start);
    }
    const running: ProcessEntry[] = [];
    for (const [pid, start] of this.known) {
      const entry = table.get(pid);
      if (entry && entry.start === start && isRunning(entry)) running.push(entry);
      else this.known.delete(pid);
    }
    if (running.length === 0) this.gone = true;
    return running;
  }

  /** Sends `signal` to every running process of the tree; false when none was left. */
  signal(signal: NodeJS.Signals): boolean {
    const members = this.members();
    if (!members) return sendSignal(-this.pgid, signal);
    for (const member of members) sendSignal(member.pid, signal);
    return members.length > 0;
  }

  /** Whether anything of the tree still runs. */
  running(): boolean {
    const members = this.members();
    if (!members) return !this.gone && sendSignal(-this.pgid, 0);
    return members.length > 0;
  }

  /**
   * SIGTERM to the whole tree, SIGKILL to what is left after `graceMs`; resolves once it is gone
   * (or a second after the SIGKILL, which takes a moment to land). Then it is no longer tracked.
   */
  async terminate(graceMs: number): Promise<void> {
    if (this.signal("SIGTERM") && !(await this.goneWithin(graceMs))) {
      this.signal("SIGKILL");
      await this.goneWithin(1000);
    }
    if (!this.running()) this.release();
  }

  /** SIGKILL to the whole tree now. */
  kill(): void {
    this.signal("SIGKILL");
  }

  /** Stops tracking it (it is gone, or someone else answers for it now). */
  release(): void {
    owned.delete(this);
    record?.update(recordedGroups());
  }

  private async goneWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      await Bun.sleep(20);
      if (!this.running()) return true;
    }
    return false;
  }
}

// The one piece of module state, on purpose: the exit hook has no other way to find what it must
// kill. Only OwnedGroup adds to it; a group that is gone is dropped at the next registration.
const owned = new Set<OwnedGroup>();
let exitHookInstalled = false;
/** the command line claimed every descendant of zot (subreaper + kill at exit) */
let claimAll = false;
let record: RunRecord | undefined;
/** whether zot ever started an owned child: a run that started none has nothing to look for at exit */
let spawned = false;
/** pid → start time: what the user's own program (the editor of Ctrl+G) left running, which zot's exit spares */
const spared = new Map<number, number>();

function register(group: OwnedGroup): void {
  owned.add(group);
  spawned = true;
  installExitHooks();
  // The orphans earlier children left (zot adopted them as a subreaper) are waited for, so they do not pile up as zombies.
  if (claimAll) reapOrphans(new Set([...owned].map((other) => other.pgid)));
  // On disk before anything else: a kill -9 from here on leaves the group named for the next start.
  record?.update(recordedGroups());
  if (owned.size === 1) return;
  // One snapshot for all: a group that is gone is dropped before its pgid can be reused.
  const table = readProcessTable();
  let dropped = false;
  for (const other of owned) {
    if (other === group) continue;
    const members = other.members(table);
    if (members ? members.length === 0 : !sendSignal(-other.pgid, 0)) {
      owned.delete(other);
      dropped = true;
    }
  }
  if (dropped) record?.update(recordedGroups());
}

/**
 * Call right before spawning a child that will be owned: once the command line claimed every
 * descendant, zot becomes a subreaper now, before the child can leave an orphan behind.
 */
export function beforeSpawn(): void {
  spawned = true;
  if (claimAll) becomeSubreaper();
}

/**
 * Runs `work`, a program of the user's that zot starts for them (their editor), and spares at zot's
 * exit what it leaves running: the descendants of zot that appeared meanwhile and belong to no tree
 * zot owns (a window editor's first instance outlives the command that started it, and is re-parented
 * to zot as a subreaper). Linux only; elsewhere nothing is killed beyond the owned trees anyway.
 */
export async function spareWhatStaysRunning<T>(work: () => Promise<T>): Promise<T> {
  const before = readProcessTable();
  try {
    return await work();
  } finally {
    const after = before && readProcessTable();
    if (before && after) {
      const ownedPids = new Set<number>();
      for (const group of owned) for (const member of group.members(after) ?? []) ownedPids.add(member.pid);
      for (const entry of descendantsOf(after, [process.pid])) {
        if (!isRunning(entry) || ownedPids.has(entry.pid) || before.get(entry.pid)?.start === entry.start) continue;
        spared.set(entry.pid, entry.start);
      }
    }
  }
}

/** The spared processes still running, and everything under them. */
function sparedTrees(table: Map<number, ProcessEntry>): Set<number> {
  const roots = [...spared].filter(([pid, start]) => table.get(pid)?.start === start).map(([pid]) => pid);
  return new Set([...roots, ...descendantsOf(table, roots).map((entry) => entry.pid)]);
}

function recordedGroups(): RecordedGroup[] {
  return [...owned].map((group) => ({ pgid: group.pgid, label: group.label, ...(group.leaderStart === undefined ? {} : { start: group.leaderStart }) }));
}

/**
 * For the zot command line only (an embedding program's other children are not zot's to kill):
 * from the first spawn on, zot is a child subreaper, and at exit every descendant of zot is
 * killed, not just the trees it tracks. `runRecord` is kept up to date with the groups zot owns,
 * so a start after a kill -9 can say what was left running; it is removed at a clean exit.
 */
export function claimAllDescendants(runRecord?: RunRecord): void {
  claimAll = true;
  record = runRecord;
  // Only once something is spawned (beforeSpawn): a run that starts nothing never loads libc.
  if (owned.size > 0) becomeSubreaper();
  record?.update(recordedGroups());
  installExitHooks();
}

/**
 * SIGKILLs every owned tree (and every descendant of zot, once claimed), synchronously: the last
 * thing zot does on its way out, and what a second Ctrl+C relies on.
 */
export function killOwnedProcesses(): void {
  if (!spawned) return;
  // Two rounds: a process that forked between the snapshot and its SIGKILL left a child behind.
  for (let round = 0; round < 2; round++) {
    const table = readProcessTable();
    if (!table) {
      for (const group of owned) group.kill();
      return;
    }
    const targets = new Set<number>();
    for (const group of owned) for (const member of group.members(table) ?? []) targets.add(member.pid);
    if (claimAll) {
      const mine = sparedTrees(table);
      for (const entry of descendantsOf(table, [process.pid])) if (isRunning(entry) && !mine.has(entry.pid)) targets.add(entry.pid);
    }
    targets.delete(process.pid);
    if (targets.size === 0) return;
    for (const pid of targets) sendSignal(pid, "SIGKILL");
  }
}

function onExit(): void {
  killOwnedProcesses();
  record?.remove();
}

/**
 * Installed at the first registration. The exit hook covers every ordinary way out (return,
 * process.exit, an uncaught exception). A signal nobody handles would end zot without running it,
 * so SIGINT/SIGTERM/SIGHUP are handled here too, but only while nobody else listens (the command
 * line owns them and exits through the hook); then zot dies of the same signal.
 */
function installExitHooks(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", onExit);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const onSignal = () => {
      if (process.listenerCount(signal) > 1) return;
      onExit();
      // Die the default way, so whoever started zot sees it killed by the signal.
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/** kill(2) that says whether it reached anything instead of throwing; signal 0 only asks. */
function sendSignal(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal as NodeJS.Signals);
    return true;
  } catch {
    return false; // ESRCH: already gone (EPERM: not ours to signal)
  }
}
