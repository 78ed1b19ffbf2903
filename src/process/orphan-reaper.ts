// Waits for the orphans zot adopted as a subreaper (subreaper.ts): a process below zot whose parent
// exited (`cmd &` in a bash call, a daemon's double fork) becomes zot's child, and once it exits it
// stays a zombie until zot waits for it, holding a pid, and a row every process scan reads, for the
// rest of a long session. Bun waits only for the children it spawned, by their pid, and at once.
// Rule: only a zombie child of zot seen at two looks at least MIN_ZOMBIE_MS apart is waited for:
// one Bun has not reaped in that time is one Bun does not know, so no exit Bun waits for is taken.
import { readdirSync, readFileSync } from "node:fs";
import { reapChild } from "./subreaper.ts";

/** How long a zombie child must have stayed one before it counts as an orphan (Bun reaps its own within a tick). */
const MIN_ZOMBIE_MS = 1000;

/** zombie children seen, by pid, with when they were first seen */
const seen = new Map<number, number>();

/**
 * Looks at zot's children once (cheap: /proc/self/task/<tid>/children); waits for the orphans that
 * stayed zombies since an earlier look. `spawned`: the pids zot spawned itself (its owned groups'
 * leaders), which Bun waits for and which are never taken, whatever their state.
 */
export function reapOrphans(spawned: ReadonlySet<number> = new Set(), now = Date.now()): void {
  const zombies = new Set(zombieChildren().filter((pid) => !spawned.has(pid)));
  for (const pid of seen.keys()) if (!zombies.has(pid)) seen.delete(pid);
  for (const pid of zombies) {
    const since = seen.get(pid);
    if (since === undefined) seen.set(pid, now);
    else if (now - since >= MIN_ZOMBIE_MS && reapChild(pid)) seen.delete(pid);
  }
}

function zombieChildren(): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync("/proc/self/task");
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const task of tasks) {
    let children: string;
    try {
      children = readFileSync(`/proc/self/task/${task}/children`, "latin1");
    } catch {
      continue;
    }
    for (const word of children.split(" ")) {
      const pid = Number(word);
      if (pid > 0 && stateOf(pid) === "Z") out.push(pid);
    }
  }
  return out;
}

function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return undefined;
  }
}
