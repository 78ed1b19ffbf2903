// Counts the processes a test started, through /proc, after zot is gone: every process whose
// command line carries the test's marker (a `sleep` of a number no other test uses). Rule: only
// running processes count (a killed orphan can linger as a zombie where PID 1 reaps nobody), and
// a test cleans up what it finds by pid, never by name.
import { readdirSync, readFileSync } from "node:fs";

/** A `sleep` argument unique to one test, so its processes can be told from everyone else's. */
export function sleepMarker(): string {
  return String(800_000 + Math.floor(Math.random() * 199_999));
}

/** The pids of running processes whose command line contains `marker`. */
export function runningWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      if (!cmdline.includes(marker)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2))) continue;
      pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * The processes still running with `marker` once things settled: polls until none is left or
 * `withinMs` passed (a guard: a SIGKILL takes a moment to land), then returns what is left.
 */
export async function survivors(marker: string, withinMs = 3000): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const left = runningWith(marker);
    if (left.length === 0 || Date.now() > deadline) return left;
    await Bun.sleep(50);
  }
}

/** SIGKILLs the given pids (what a failed test left behind). */
export function killPids(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Waits until at least `count` processes with `marker` run (the command got going). */
export async function waitForRunning(marker: string, count: number, withinMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const pids = runningWith(marker);
    if (pids.length >= count) return pids;
    if (Date.now() > deadline) throw new Error(`only ${pids.length} of ${count} processes with "${marker}" started`);
    await Bun.sleep(20);
  }
}
