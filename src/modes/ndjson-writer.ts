// Writes one JSON object per line to stdout. Rule: lines written in one burst leave in one write
// (flushed on the next macrotask), so throughput stays high and a lone event still leaves at once.
import type { FileSink } from "bun";

export class NdjsonWriter {
  private readonly sink: FileSink;
  private scheduled = false;

  constructor(sink: FileSink = Bun.stdout.writer({ highWaterMark: 1 << 16 })) {
    this.sink = sink;
  }

  write(value: unknown): void {
    this.sink.write(`${JSON.stringify(value)}\n`);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushNow);
    }
  }

  private readonly flushNow = () => {
    this.scheduled = false;
    void this.sink.flush();
  };

  async close(): Promise<void> {
    await this.sink.flush();
    await this.sink.end();
  }
}
