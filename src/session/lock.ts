// The lock that keeps two zot processes from writing one session file: `<file>.lock` beside it,
// naming its owner (pid, host, and where the system tells them: the process's start time and the
// boot it belongs to). Rule: a lock appears whole or not at all, and only a lock whose owner is
// provably gone is taken over, by one process at a time.
//
// - Taking: the owner is written to a temp file first and hard-linked to the lock's name, which
//   fails if the name exists; nobody can read a lock half-written (the old open-then-write left an
//   instant in which a second zot read an empty lock, judged it stale and took it too).
// - Judging: the owner is gone when its pid is not running, when the system has rebooted since
//   (another boot id), or when its pid now belongs to a process that started at another time (a
//   reused pid, common after a reboot); a live owner is never broken. A lock of another host
//   cannot be checked and counts as held. A lock that cannot be read is an older zot's, being
//   written: it gets a moment to become readable before it counts as stale.
// - Taking over: under `<file>.lock.takeover` (itself a lock, taken and judged the same way), and
//   only if the lock is still the very file judged stale, it is renamed over atomically.
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import os from "node:os";
import { UsageError } from "../config/usage-error.ts";
import { errorText } from "../protocol/error-text.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import { readProcess, stillRuns } from "../process/process-table.ts";
import { randomHex } from "../protocol/random-hex.ts";

export interface LockOwner {
  pid: number;
  host: string;
  /** RFC 3339 */
  since: string;
  /** the process's start time in clock ticks after boot (/proc/<pid>/stat), where the system says */
  start?: string;
  /** the boot the process belongs to (/proc/sys/kernel/random/boot_id), where the system says */
  boot?: string;
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

/** The lock could not be made at all (a folder zot may not write to, a read-only file system). */
export class SessionLockUnwritableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SessionLockUnwritableError";
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

/** How long a lock that cannot be read may be an older zot's still being written. */
const UNREADABLE_GRACE_MS = 2000;
/** Tries before giving up on a lock that keeps changing hands. */
const ATTEMPTS = 400;

/** Takes the lock of `file` for this process, or throws SessionLockedError. */
export function acquireLock(file: string, sessionId: string): SessionLock {
  const lockFile = lockPathOf(file);
  try {
    mkdirSync(dirname(lockFile), { recursive: true });
  } catch (error) {
    throw new SessionLockUnwritableError(`could not create the session lock ${lockFile}: ${errorText(error)}`);
  }
  const temp = writeTemp(lockFile, thisProcess());
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (place(temp, lockFile)) return held(file, lockFile);
      const seen = readLock(lockFile);
      if (seen === "gone") continue;
      if (seen.owner && isLive(seen.owner)) throw new SessionLockedError(file, seen.owner, sessionId);
      if (!seen.owner && Date.now() - seen.mtimeMs < UNREADABLE_GRACE_MS) {
        pause();
        continue;
      }
      if (takeOver(lockFile, temp, seen.ino)) return held(file, lockFile, seen.owner);
    }
  } finally {
    rmSync(temp, { force: true });
  }
  throw new Error(`could not lock ${file}: other processes keep taking its lock (${lockFile})`);
}

/** Who holds the lock of `file`, if a live process does. */
export function lockOwner(file: string): LockOwner | undefined {
  const seen = readLock(lockPathOf(file));
  return seen !== "gone" && seen.owner && isLive(seen.owner) ? seen.owner : undefined;
}

/** This process as a lock names it. */
function thisProcess(): LockOwner {
  const start = readProcess(process.pid)?.start;
  const boot = bootId();
  return {
    pid: process.pid,
    host: os.hostname(),
    since: new Date().toISOString(),
    ...(start !== undefined ? { start: String(start) } : {}),
    ...(boot ? { boot } : {}),
  };
}

/**
 * Whether the process a lock names still runs. Another host's cannot be checked: it counts as
 * live. A pid that runs but started at another time than the lock says is a reused one.
 */
function isLive(owner: LockOwner): boolean {
  if (owner.host && owner.host !== os.hostname()) return true;
  const boot = bootId();
  if (owner.boot && boot && owner.boot !== boot) return false;
  return stillRuns(owner.pid, owner.start ? Number(owner.start) : undefined);
}

/** The owner, complete, in a temp file beside the lock. */
function writeTemp(lockFile: string, owner: LockOwner): string {
  const temp = `${lockFile}.${process.pid}-${randomHex(4)}.tmp`;
  try {
    const fd = openSync(temp, "wx", 0o644);
    try {
      writeSync(fd, JSON.stringify(owner));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    rmSync(temp, { force: true });
    throw new SessionLockUnwritableError(`could not create the session lock ${lockFile}: ${errorText(error)}`);
  }
  return temp;
}

/** Gives the complete temp file the lock's name unless that name exists. */
function place(temp: string, lockFile: string): boolean {
  try {
    linkSync(temp, lockFile);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP") return placeWithoutLinks(temp, lockFile);
    throw new SessionLockUnwritableError(`could not create the session lock ${lockFile}: ${errorText(error)}`);
  }
}

/** A file system without hard links: created exclusively, then written (readers give it a moment). */
function placeWithoutLinks(temp: string, lockFile: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockFile, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new SessionLockUnwritableError(`could not create the session lock ${lockFile}: ${errorText(error)}`);
  }
  try {
    writeSync(fd, readFileSync(temp));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Replaces the stale lock (the file `staleIno`) with ours, holding the takeover lock meanwhile so
 * that two processes that judged the same lock stale cannot both replace it. False: try again.
 */
function takeOver(lockFile: string, temp: string, staleIno: number): boolean {
  const claim = `${lockFile}.takeover`;
  if (!place(temp, claim)) {
    const other = readLock(claim);
    if (other === "gone") return false;
    const claimant = other.owner;
    const fresh = Date.now() - other.mtimeMs < UNREADABLE_GRACE_MS;
    if ((claimant && isLive(claimant)) || (!claimant && fresh)) pause();
    else removeIfSame(claim, other.ino);
    return false;
  }
  const mine = inodeOf(claim);
  try {
    const now = inodeOf(lockFile);
    if (now === undefined) return place(temp, lockFile);
    if (now !== staleIno) return false;
    renameSync(temp, lockFile);
    return true;
  } finally {
    removeIfSame(claim, mine);
  }
}

/**
 * Unlinks `path` if it is still the file `ino` (another process may have replaced it since). Check
 * and unlink are two steps; only for a takeover claim whose claimant died mid-takeover can two
 * processes meet in between, and that needs a crash and a race in the same microseconds.
 */
function removeIfSame(path: string, ino: number | undefined): void {
  if (ino === undefined || inodeOf(path) !== ino) return;
  try {
    unlinkSync(path);
  } catch {}
}

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

type SeenLock = "gone" | { owner?: LockOwner; ino: number; mtimeMs: number };

/** A lock as it is now: its owner (undefined when unreadable), which file it is and when it was written. */
function readLock(lockFile: string): SeenLock {
  let ino: number;
  let mtimeMs: number;
  let text: string;
  try {
    ({ ino, mtimeMs } = statSync(lockFile));
    text = readFileSync(lockFile, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    return { ino: -1, mtimeMs: 0 };
  }
  try {
    const value: unknown = JSON.parse(text);
    if (isJsonObject(value) && typeof value.pid === "number") {
      const owner: LockOwner = { pid: value.pid, host: String(value.host ?? ""), since: String(value.since ?? "") };
      if (typeof value.start === "string") owner.start = value.start;
      if (typeof value.boot === "string") owner.boot = value.boot;
      return { owner, ino, mtimeMs };
    }
  } catch {}
  return { ino, mtimeMs };
}

function bootId(): string | undefined {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A short wait while another process finishes writing or taking over. */
function pause(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
}

/** What the next start says about a session whose lock outlived its zot. */
export function staleLockNote(sessionId: string, owner: LockOwner): string {
  return `session ${sessionId} was still open in zot pid ${owner.pid} (since ${owner.since}), which ended without closing it (killed, or the machine stopped); its last turn may be cut short`;
}

function held(file: string, lockFile: string, tookOverFrom?: LockOwner): SessionLock {
  const ino = inodeOf(lockFile);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    // Only our own lock: never one another process took over (it would have judged us gone).
    removeIfSame(lockFile, ino);
  };
  // A process that exits without closing its session (process.exit on a second Ctrl+C) still frees it.
  process.on("exit", release);
  return { file, release, ...(tookOverFrom ? { tookOverFrom } : {}) };
}
