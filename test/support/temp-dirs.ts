// The temp directories the tests make, by the test file that made them. Rule: one registry for the
// whole run (kept on globalThis, so the preload and every test file see the same one whatever
// module instance they load); a directory belongs to the file that was running when it was made.
import { rmSync } from "node:fs";

const KEY = Symbol.for("zot.test.temp-dirs");
type Registry = Map<string, string[]>;

function registry(): Registry {
  const global = globalThis as { [KEY]?: Registry };
  global[KEY] ??= new Map();
  return global[KEY];
}

/** Remembers `dir` for removal once the running test file is over; returns it. */
export function registerTempDir(dir: string): string {
  const owner = Bun.main;
  const dirs = registry().get(owner) ?? [];
  dirs.push(dir);
  registry().set(owner, dirs);
  return dir;
}

/** Removes the directories of every test file but `keep` (the one running now); all with no `keep`. */
export function removeTempDirs(keep?: string): number {
  let removed = 0;
  for (const [owner, dirs] of registry()) {
    if (owner === keep) continue;
    for (const dir of dirs) {
      // A process a test left behind may still hold it: removal does what it can and goes on.
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
        removed++;
      } catch {}
    }
    registry().delete(owner);
  }
  return removed;
}
