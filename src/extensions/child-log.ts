// An extension's or hook's log file ($ZOT_HOME/logs/ext-<name>.log): the child's stderr and the
// lines zot writes about it. Rule: the log is private (the file 0600, its directory 0700, an older
// one made so when zot opens it: stderr holds whatever the child prints, tokens included), and one
// run of a child cannot flood it: what the child writes, and what zot writes because of something
// the child did (a line that is not JSON, a bad frame), passes a budget of LOG_BYTES_PER_SECOND
// after a burst of LOG_BURST_BYTES, and LOG_BYTES_PER_RUN in all. What the budget drops is counted
// and said in the log; zot's lines about the child's life (its start, its exit) always get in.
// Runs add up in one file: one past LOG_FILE_MAX_BYTES when a run opens it is moved to `.1`.
import { statSafe } from "../config/quiet-fs.ts";
import { appendFileSync, chmodSync, closeSync, fstatSync, fchmodSync, mkdirSync, openSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** Sustained bytes a second one run of a child may put in its log, once its burst is spent. */
export const LOG_BYTES_PER_SECOND = 32 * 1024;
/** What a run may write at once (a start-up banner, a stack trace) before the rate applies. */
export const LOG_BURST_BYTES = 256 * 1024;
/** All one run of a child may put in its log. */
export const LOG_BYTES_PER_RUN = 4 * 1024 * 1024;

export interface LogLimits {
  bytesPerSecond: number;
  burstBytes: number;
  bytesPerRun: number;
}

const DEFAULT_LIMITS: LogLimits = { bytesPerSecond: LOG_BYTES_PER_SECOND, burstBytes: LOG_BURST_BYTES, bytesPerRun: LOG_BYTES_PER_RUN };

/** `[zot] ` before every physical line, so the log stays greppable whatever the message holds. */
export function zotLines(line: string): string {
  return line
    .split(/\r?\n/)
    .map((part) => `[zot] ${part}\n`)
    .join("");
}

/** The log's directory, created 0700, or made 0700 when it is open to others. */
function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const info = statSafe(dir);
  if (info && (info.mode & 0o077) !== 0 && info.uid === process.getuid?.()) chmodSync(dir, 0o700);
}

/** A log past this when a run opens it is moved to `<file>.1` (the one there before dropped): each run appends, so runs add up. */
export const LOG_FILE_MAX_BYTES = 2 * LOG_BYTES_PER_RUN;

/** Opens `file` for appending, 0600 (an existing file open to others is made so); one past LOG_FILE_MAX_BYTES starts again, its older half kept as `<file>.1`. Throws. */
export function openLog(file: string, maxBytes = LOG_FILE_MAX_BYTES): number {
  privateDir(dirname(file));
  if ((statSafe(file)?.size ?? 0) > maxBytes) {
    try {
      renameSync(file, `${file}.1`);
    } catch {
      // another zot moved it first, or the folder is read-only: appended to as it is
    }
  }
  const fd = openSync(file, "a", 0o600);
  try {
    const info = fstatSync(fd);
    if ((info.mode & 0o077) !== 0 && info.uid === process.getuid?.()) fchmodSync(fd, 0o600);
  } catch {
    // a log we cannot tighten is still a log; the mode is a courtesy, not the protocol
  }
  return fd;
}

/**
 * Appends `[zot] <line>` to a log file, creating it (and its directory) private when missing (a
 * host logs before any child of that name ever started); never throws.
 */
export function appendLog(file: string, line: string): void {
  try {
    const fd = openLog(file);
    try {
      appendFileSync(fd, zotLines(line));
    } finally {
      closeSync(fd);
    }
  } catch {
    // Diagnostics must never take the host down; a log we cannot write is a log we skip.
  }
}

/** One run of one child: its log, open, with that run's budget. */
export class RunLog {
  private fd: number | undefined;
  private readonly limits: LogLimits;
  private readonly now: () => number;
  private tokens: number;
  private lastRefill: number;
  private written = 0;
  /** dropped since the last note: bytes and pieces */
  private droppedBytes = 0;
  private droppedPieces = 0;
  private droppedTotal = 0;
  private capped = false;
  private closed = false;
  /** over budget: nothing gets in until a second's worth has come back, so notes stay few */
  private dropping = false;
  /** the last thing written did not end its line (a child's partial line) */
  private midLine = false;

  /** Opens the log (see openLog); throws when it cannot be written. */
  constructor(readonly file: string, options: { limits?: Partial<LogLimits>; now?: () => number } = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.now = options.now ?? (() => performance.now());
    this.tokens = this.limits.burstBytes;
    this.lastRefill = this.now();
    this.fd = openLog(file);
  }

  /** Bytes the child wrote (its stderr), budgeted. */
  output(chunk: Uint8Array): void {
    this.budgeted(chunk, chunk.byteLength, false);
  }

  /** A line zot writes because of what the child did, budgeted; after close, appended as it is. */
  line(text: string): void {
    if (this.closed) return appendLog(this.file, text);
    const bytes = Buffer.from(zotLines(text));
    this.budgeted(bytes, bytes.byteLength);
  }

  /** The run's first line, after a blank one that sets it apart from the previous run's. */
  begin(text: string): void {
    this.write(Buffer.from(`\n${zotLines(text)}`));
  }

  /** A line about the child's life (its start, its exit): always written. */
  always(text: string): void {
    if (this.closed) return appendLog(this.file, text);
    this.flushDropped();
    this.write(Buffer.from(zotLines(text)));
  }

  /** Says what was dropped, if anything was, and closes the file. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.flushDropped();
    if (this.droppedTotal > 0) {
      this.write(Buffer.from(zotLines(`this run dropped ${this.droppedTotal} bytes of log in all (${this.limitsText()})`)));
    }
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private budgeted(bytes: Uint8Array, size: number, fromZot = true): void {
    if (this.fd === undefined || size === 0) return;
    if (this.capped || this.written + size > this.limits.bytesPerRun) {
      if (!this.capped) {
        this.capped = true;
        this.flushDropped();
        this.write(
          Buffer.from(zotLines(`this run has written ${this.written} bytes to its log, the most one run may (${this.limitsText()}); the rest of its output is dropped`)),
        );
      }
      this.drop(size);
      return;
    }
    this.refill();
    const resume = Math.min(this.limits.burstBytes, this.limits.bytesPerSecond);
    if (this.tokens < size || (this.dropping && this.tokens < resume)) {
      this.dropping = true;
      this.drop(size);
      return;
    }
    this.dropping = false;
    this.flushDropped();
    this.tokens -= size;
    this.written += size;
    this.write(bytes, fromZot);
  }

  private refill(): void {
    const now = this.now();
    const elapsed = Math.max(0, now - this.lastRefill) / 1000;
    this.lastRefill = now;
    this.tokens = Math.min(this.limits.burstBytes, this.tokens + elapsed * this.limits.bytesPerSecond);
  }

  private drop(size: number): void {
    this.droppedBytes += size;
    this.droppedPieces++;
    this.droppedTotal += size;
  }

  /** The note for what was dropped since the last one, written before the next thing that gets in. */
  private flushDropped(): void {
    if (this.droppedBytes === 0 || this.capped) return;
    const note = `dropped ${this.droppedBytes} bytes (${this.droppedPieces} ${this.droppedPieces === 1 ? "write" : "writes"}) here: the extension wrote faster than its log takes (${this.limitsText()})`;
    this.droppedBytes = 0;
    this.droppedPieces = 0;
    this.write(Buffer.from(zotLines(note)));
  }

  private limitsText(): string {
    const kib = (n: number) => `${Math.round(n / 1024)} KiB`;
    return `${kib(this.limits.bytesPerSecond)} a second after the first ${kib(this.limits.burstBytes)}, ${kib(this.limits.bytesPerRun)} a run`;
  }

  /** zot's own lines start on a line of their own, also after a child's line cut short. */
  private write(bytes: Uint8Array, fromZot = true): void {
    if (this.fd === undefined || bytes.byteLength === 0) return;
    try {
      if (fromZot && this.midLine) writeSync(this.fd, "\n");
      for (let off = 0; off < bytes.byteLength; ) off += writeSync(this.fd, bytes, off);
      this.midLine = bytes[bytes.byteLength - 1] !== 0x0a;
    } catch {
      // a full disk: the log stops, the child does not
      closeSync(this.fd);
      this.fd = undefined;
    }
  }
}
