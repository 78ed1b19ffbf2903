// One read-change-write of a file every zot process shares (trust.json, mcp.json, the prompt
// history), under `<file>.update-lock`, so that two zots changing it at once each keep the other's
// change (16 `zot trust` at once kept 6 of 16 folders; an `untrust` beside them could be undone).
// Rule: the lock is held for the change alone (milliseconds); one older than STALE_MS, or whose
// process is gone, is a crashed zot's and is taken over; a zot that cannot get it within WAIT_MS
// changes nothing and says which process holds it.
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { ConfigError } from "./home.ts";

/** How long a change waits for another zot's. */
const WAIT_MS = 3000;
/** A lock this old was left by a zot that died while it held it (a change takes milliseconds). */
const STALE_MS = 10_000;

/** Runs `change` (a read of `file`, then its write) while no other zot changes `file`. */
export function underUpdateLock<T>(file: string, change: () => T): T {
  const lock = `${file}.update-lock`;
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const fd = tryCreate(lock);
    if (fd !== undefined) {
      try {
        writeSync(fd, String(process.pid));
      } finally {
        closeSync(fd);
      }
      try {
        return change();
      } finally {
        rmSync(lock, { force: true });
      }
    }
    const holder = holderOf(lock);
    // Released meanwhile: try again at once. Never removed here: another zot may have taken it since.
    if (holder === "gone") continue;
    if (typeof holder === "object") {
      // A crashed zot's: removed only if it is still that lock (same inode), not one taken since.
      if (inodeOf(lock) === holder.stale) rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > until) {
      throw new ConfigError(
        `${file} is being changed by another zot (${holder === undefined ? "its lock names no process" : `pid ${holder}`}); nothing was changed: try again, or remove ${lock} if no zot is running`,
      );
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  }
}

/** The lock, made now and open for its owner's pid; undefined when it exists. */
function tryCreate(lock: string): number | undefined {
  try {
    return openSync(lock, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw error;
  }
}

/**
 * The pid that holds the lock; `{ stale: inode }` for a crashed zot's (too old, or its process
 * gone); "gone" when it was released meanwhile; undefined while it is being written.
 */
function holderOf(lock: string): number | { stale: number } | "gone" | undefined {
  let age: number;
  let ino: number;
  let text: string;
  try {
    const info = statSync(lock);
    age = Date.now() - info.mtimeMs;
    ino = info.ino;
    text = readFileSync(lock, "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "gone" : undefined;
  }
  if (age > STALE_MS) return { stale: ino };
  const pid = Number(text);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return { stale: ino };
  }
  return pid;
}

function inodeOf(lock: string): number | undefined {
  try {
    return statSync(lock).ino;
  } catch {
    return undefined;
  }
}
