// The lock that keeps two zot processes from writing one session file: `<file>.lock` beside it,
// holding the owner's pid. Rule: a lock is created exclusively (O_EXCL); one whose pid is dead is
// stale and taken over (the lock says whose it was, so the user hears that zot was killed while
// the session was open); a live one is never broken, and the error names the pid that holds it.
// Two processes taking over the same stale lock in the same instant could both win; the window is
// the few microseconds between reading the dead pid and creating the new lock.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import os from "node:os";
import { UsageError } from "../config/usage-error.ts";
import { errorText } from "../protocol/error-text.ts";
import { isJsonObject } from "../protocol/json-object.ts";

export interface LockOwner {
  pid: number;
  host: string;
  /** RFC 3339 */
  since: string;
}

/** The session is open in another live zot process. */
export class SessionLockedError extends UsageError {
  constructor(
    readonly file: string,
    readonly owner: LockOwner,
    readonly sessionId: string,
  ) {
    super(
      `session ${sessionId} is in use by another zot (pid ${owner.pid}${owner.host !== os.hostname() ? ` on ${owner.host}` : ""}, since ${owner.since}); ` +
        `wait for it to finish, or branch it with \`zot sessions fork ${sessionId}\` and resume the fork. ` +
        `If that process is gone, delete ${file}.lock`,
    );
    this.name = "SessionLockedError";
  }
}

export interface SessionLock {
  readonly file: string;
  /** the dead process whose stale lock was taken over (it ended without closing the session) */
  readonly tookOverFrom?: LockOwner;
  release(): void;
}

export function lockPathOf(file: string): string {
  return `${file}.lock`;
}

/** Takes the lock of `file` for this process, or throws SessionLockedError. */
export function acquireLock(file: string, sessionId: string): SessionLock {
  const lockFile = lockPathOf(file);
  const me: LockOwner = { pid: process.pid, host: os.hostname(), since: new Date().toISOString() };
  let stale: LockOwner | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(lockFile, me)) return held(file, lockFile, stale);
    const owner = readOwner(lockFile);
    if (owner === "gone") continue;
    if (owner && isLive(owner)) throw new SessionLockedError(file, owner, sessionId);
    stale = owner;
    // Stale (its process is dead) or unreadable (cut off while being written): take it over.
    try {
      unlinkSync(lockFile);
    } catch {}
  }
  throw new Error(`could not lock ${file}: another process keeps taking its lock (${lockFile})`);
}

/** Who holds the lock of `file`, if a live process does. */
export function lockOwner(file: string): LockOwner | undefined {
  const owner = readOwner(lockPathOf(file));
  return owner && owner !== "gone" && isLive(owner) ? owner : undefined;
}

function tryCreate(lockFile: string, me: LockOwner): boolean {
  let fd: number;
  try {
    mkdirSync(dirname(lockFile), { recursive: true });
    fd = openSync(lockFile, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new Error(`could not create the session lock ${lockFile}: ${errorText(error)}`);
  }
  try {
    writeSync(fd, JSON.stringify(me));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The owner written in a lock file; undefined when unreadable, "gone" when it disappeared meanwhile. */
function readOwner(lockFile: string): LockOwner | "gone" | undefined {
  let text: string;
  try {
    text = readFileSync(lockFile, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (isJsonObject(value) && typeof value.pid === "number") {
      return { pid: value.pid, host: String(value.host ?? ""), since: String(value.since ?? "") };
    }
  } catch {}
  return undefined;
}

/** A lock of another host cannot be checked, so it counts as live. */
function isLive(owner: LockOwner): boolean {
  if (owner.host && owner.host !== os.hostname()) return true;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** What the next start says about a session whose lock outlived its zot. */
export function staleLockNote(sessionId: string, owner: LockOwner): string {
  return `session ${sessionId} was still open in zot pid ${owner.pid} (since ${owner.since}), which ended without closing it (killed, or the machine stopped); its last turn may be cut short`;
}

function held(file: string, lockFile: string, tookOverFrom: LockOwner | undefined): SessionLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    const owner = readOwner(lockFile);
    if (owner && owner !== "gone" && owner.pid === process.pid) {
      try {
        unlinkSync(lockFile);
      } catch {}
    }
  };
  // A process that exits without closing its session (process.exit on a second Ctrl+C) still frees it.
  process.on("exit", release);
  return { file, release, ...(tookOverFrom ? { tookOverFrom } : {}) };
}
