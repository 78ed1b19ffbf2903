// Writes one JSON object per line to stdout. Rule: lines written in one burst leave in one write
// (flushed on the next macrotask), so throughput stays high and a lone event still leaves at once.
// The burst's lines are kept in a list and joined once when handed to the sink (at the burst's end,
// or every HAND_OVER_BYTES): not a sink call per line, nor a string grown line by line, whose every
// `+=` made rope cells for the collector and a deep rope to flatten (scripts/bench floor). A process
// that exits mid-burst hands it over on its way out (Bun flushes the sink at exit), so a forced exit
// loses no more than it did line by line.
// What the reader has not taken yet is counted, and pressure() tells producers to wait while it
// is over the high-water mark, so a client that reads slowly costs bounded memory, not gigabytes.
// A reader that went away (EPIPE) is reported once; later lines are dropped, never thrown. Any
// other failure (a full disk, a closed descriptor) is the output lost, not a reader done with it:
// `failure` keeps it, and the modes end the run with it (exit 1), so a script does not take an
// empty result file for success.
import { noFTL } from "bun:jsc";
import type { FileSink } from "bun";

/** Over this many bytes not yet taken by the reader, producers are asked to wait. */
export const HIGH_WATER_BYTES = 1 << 20;
/** ...until the backlog is down to this. */
export const LOW_WATER_BYTES = 1 << 18;
/** Lines gathered past this go to the sink before the burst ends. */
const HAND_OVER_BYTES = 1 << 16;

export class NdjsonWriter {
  private readonly sink: FileSink;
  private scheduled = false;
  private gone = false;
  /** lines of this burst not yet handed to the sink, without their line ends */
  private pending: string[] = [];
  /** their length, line ends included */
  private pendingLength = 0;
  /** bytes (UTF-16 units, near enough) written, handed to the sink or not, and how many of those the reader has taken */
  private queuedBytes = 0;
  private acceptedBytes = 0;
  private waiters: (() => void)[] = [];
  private drainedPromise: Promise<void> | undefined;
  /** why writing stopped, when it is not a reader that went away (ENOSPC, EBADF, EIO) */
  private lost: unknown;

  /** `onGone` hears, once, that the output cannot be written any more (the reader closed it). */
  constructor(
    sink: FileSink = Bun.stdout.writer({ highWaterMark: 1 << 16 }),
    private readonly onGone?: (error: unknown) => void,
  ) {
    this.sink = sink;
    process.on("exit", this.handOver);
  }

  /** Bytes written but not yet taken by the reader: what zot holds in memory for it. */
  get backlogBytes(): number {
    return this.queuedBytes - this.acceptedBytes;
  }

  write(value: unknown): void {
    if (this.gone) return;
    const line = JSON.stringify(value) ?? "null";
    // Counted at once: a producer is held back by what it made, handed over or not.
    this.queuedBytes += line.length + 1;
    this.pendingLength += line.length + 1;
    this.pending.push(line);
    if (this.pendingLength >= HAND_OVER_BYTES) this.handOver();
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushNow);
    }
  }

  /** Gives the gathered lines to the sink. */
  private readonly handOver = (): void => {
    if (this.pending.length === 0) return;
    const chunk = `${this.pending.join("\n")}\n`;
    this.pending = [];
    this.pendingLength = 0;
    const upTo = this.queuedBytes;
    try {
      // A promise comes back when the buffer had to go out at once; it settles once the reader took
      // it, and a closed reader rejects it.
      const written: unknown = this.sink.write(chunk);
      if (written instanceof Promise) written.then(() => this.accepted(upTo), this.fail);
    } catch (error) {
      this.fail(error);
    }
  };

  /**
   * undefined while the reader keeps up; over the high-water mark, a promise that resolves once the
   * backlog is down to the low-water mark (or the reader is gone). Producers await it before making
   * more: the model stream and a tool's output wait, and rpc stops reading commands.
   */
  pressure(): Promise<void> | undefined {
    if (this.gone || this.backlogBytes <= HIGH_WATER_BYTES) return undefined;
    this.drainedPromise ??= new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.drainedPromise;
  }

  private readonly flushNow = () => {
    this.scheduled = false;
    if (this.gone) return;
    this.handOver();
    if (this.gone) return;
    const upTo = this.queuedBytes;
    try {
      const flushed: unknown = this.sink.flush();
      // A number when it went out at once; a promise when it waits for the reader; nothing at all
      // from a sink whose reader already closed its end (the next write says so).
      if (flushed instanceof Promise) flushed.then(() => this.accepted(upTo), this.fail);
      else this.accepted(upTo);
    } catch (error) {
      this.fail(error);
    }
  };

  async close(): Promise<void> {
    process.off("exit", this.handOver);
    if (this.gone) return;
    this.handOver();
    if (this.gone) return;
    await this.settle(() => this.sink.flush());
    if (!this.gone) await this.settle(() => this.sink.end());
  }

  /** The reader has taken every byte up to upTo (promises of one drain may settle out of order). */
  private accepted(upTo: number): void {
    if (upTo > this.acceptedBytes) this.acceptedBytes = Math.min(upTo, this.queuedBytes);
    if (this.backlogBytes <= LOW_WATER_BYTES) this.release();
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    this.drainedPromise = undefined;
    for (const resolve of waiters) resolve();
  }

  /** Runs a sink call that may throw or reject; either means the reader is gone. */
  private async settle(call: () => unknown): Promise<void> {
    try {
      await call();
    } catch (error) {
      this.fail(error);
    }
  }

  /** The write failure that lost output (not a reader that went away), or undefined. */
  get failure(): Error | undefined {
    if (this.lost === undefined) return undefined;
    const code = (this.lost as { code?: unknown }).code;
    const message = this.lost instanceof Error ? this.lost.message : String(this.lost);
    return new Error(`the output could not be written (${typeof code === "string" && !message.includes(code) ? `${code}: ` : ""}${message}); what was not written is lost (a session, when one is recorded, keeps the conversation)`);
  }

  private readonly fail = (error: unknown): void => {
    if (this.gone) return;
    this.gone = true;
    if (!readerWentAway(error)) this.lost = error;
    this.pending = [];
    this.pendingLength = 0;
    process.off("exit", this.handOver);
    this.release();
    this.onGone?.(error);
  };
}

/** Whether a write failed because the reader closed its end (the pipe's reader, the socket's peer). */
export function readerWentAway(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === "EPIPE" || code === "ECONNRESET";
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(NdjsonWriter.prototype.write);
