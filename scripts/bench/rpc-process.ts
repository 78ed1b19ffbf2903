// A `zot rpc` process under a bench (scripts/bench/rpc.ts, rpc-slow-client.ts): commands written to
// its stdin, its stdout read line by line, its memory read from the kernel. Rule: a reader given
// `readBytesPerMs` takes the output no faster than that, as a slow client would; otherwise it reads
// as fast as zot writes, and each line is stamped with the time its chunk arrived.
import { readFileSync } from "node:fs";

export class BenchRpc {
  readonly proc;
  private readonly reader;
  private readonly decoder = new TextDecoder();
  private buffer = "";

  constructor(
    binary: string,
    args: string[],
    cwd: string,
    env: Record<string, string>,
    private readonly readBytesPerMs?: number,
  ) {
    this.proc = Bun.spawn([binary, "rpc", "--no-ext", ...args], { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "inherit" });
    this.reader = this.proc.stdout.getReader();
  }

  /** Writes `text` as it is (one command or many, each ending in a newline). */
  send(text: string): void {
    this.proc.stdin.write(text);
    this.proc.stdin.flush();
  }

  /** Reads lines until `stop` says so; `each` sees every line first, with the time its chunk arrived. Resolves with the stopping line's time. */
  async readUntil(stop: (line: string) => boolean, each: (line: string, at: number) => void = () => {}): Promise<number> {
    for (;;) {
      let newline: number;
      while ((newline = this.buffer.indexOf("\n")) >= 0) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        const at = performance.now();
        each(line, at);
        if (stop(line)) return at;
      }
      const chunk = await this.reader.read();
      if (chunk.done) throw new Error("zot rpc closed stdout before the expected line");
      if (this.readBytesPerMs) await Bun.sleep(chunk.value.byteLength / this.readBytesPerMs);
      this.buffer += this.decoder.decode(chunk.value, { stream: true });
    }
  }

  /** Resident memory now (VmRSS), or its peak so far (VmHWM), in MB. */
  rssMb(which: "now" | "peak" = "now"): number {
    const status = readFileSync(`/proc/${this.proc.pid}/status`, "utf8");
    const field = which === "peak" ? /VmHWM:\s+(\d+)/ : /VmRSS:\s+(\d+)/;
    return Number(field.exec(status)?.[1] ?? 0) / 1024;
  }

  async close(): Promise<void> {
    this.proc.stdin.end();
    await this.proc.exited;
  }
}
