// Writes one JSON object per line to stdout. Rule: lines written in one burst leave in one write
// (flushed on the next macrotask), so throughput stays high and a lone event still leaves at once.
// A reader that went away (EPIPE) is reported once; later lines are dropped, never thrown.
import type { FileSink } from "bun";

export class NdjsonWriter {
  private readonly sink: FileSink;
  private scheduled = false;
  private gone = false;

  /** `onGone` hears, once, that the output cannot be written any more (the reader closed it). */
  constructor(
    sink: FileSink = Bun.stdout.writer({ highWaterMark: 1 << 16 }),
    private readonly onGone?: (error: unknown) => void,
  ) {
    this.sink = sink;
  }

  write(value: unknown): void {
    if (this.gone) return;
    try {
      // A promise comes back when the buffer had to go out at once; a closed reader rejects it.
      const written = this.sink.write(`${JSON.stringify(value)}\n`);
      if (typeof written !== "number") written.catch(this.fail);
    } catch (error) {
      return this.fail(error);
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushNow);
    }
  }

  private readonly flushNow = () => {
    this.scheduled = false;
    if (this.gone) return;
    this.settle(() => this.sink.flush());
  };

  async close(): Promise<void> {
    if (this.gone) return;
    await this.settle(() => this.sink.flush());
    if (!this.gone) await this.settle(() => this.sink.end());
  }

  /** Runs a sink call that may throw or reject; either means the reader is gone. */
  private async settle(call: () => unknown): Promise<void> {
    try {
      await call();
    } catch (error) {
      this.fail(error);
    }
  }

  private readonly fail = (error: unknown): void => {
    if (this.gone) return;
    this.gone = true;
    this.onGone?.(error);
  };
}
