// Plays the zot host against one extension child process over its real stdin/stdout: write host
// frames, take the extension's frames in order or by id, read its stderr, see how it exits.
// Rule: every line the child writes to stdout must be a frame that src/protocol/ext-frames.ts
// accepts; a line that is not is kept in `badLines` and fails the test that checks it.
import * as v from "valibot";
import { ExtToHostFrame, HOST_CAPABILITIES } from "../../src/protocol/ext-frames.ts";

export type Frame = Record<string, unknown>;

export interface WireChildOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
}

export class WireChild {
  /** every frame the child wrote, in order */
  readonly frames: Frame[] = [];
  /** stdout lines that were not JSON or not a valid extension frame, with the reason */
  readonly badLines: string[] = [];
  readonly exited: Promise<number>;
  readonly #proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
  readonly #taken = new Set<number>();
  #waiters: (() => void)[] = [];
  #stderr = "";
  #stdoutDone = false;

  constructor(command: string[], options: WireChildOptions = {}) {
    this.#proc = Bun.spawn(command, {
      cwd: options.cwd,
      env: options.env as Record<string, string> | undefined,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    this.exited = this.#proc.exited;
    void this.#readStdout();
    void this.#readStderr();
  }

  /** What the child wrote to stderr so far. */
  get stderr(): string {
    return this.#stderr;
  }

  /** Waits until stderr contains `text` (stderr and stdout are separate pipes: no order between them). */
  async stderrContaining(text: string, timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#stderr.includes(text)) {
      if (Date.now() > deadline) throw new Error(`stderr never contained ${JSON.stringify(text)}; it is:\n${this.#stderr}`);
      await Bun.sleep(5);
    }
    return this.#stderr;
  }

  /** Writes one frame (an object, or a raw line as given) to the child's stdin. */
  send(frame: Frame | string): void {
    this.#proc.stdin.write(`${typeof frame === "string" ? frame : JSON.stringify(frame)}\n`);
    this.#proc.stdin.flush();
  }

  /** The next frame not taken yet, in the order the child wrote them. */
  next(timeoutMs = 5000): Promise<Frame> {
    return this.take(() => true, timeoutMs, "the next frame");
  }

  /** The first frame not taken yet that matches, waiting for it. */
  async take(match: (frame: Frame) => boolean, timeoutMs = 5000, what = "a matching frame"): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.frames.findIndex((frame, i) => !this.#taken.has(i) && match(frame));
      if (index >= 0) {
        this.#taken.add(index);
        return this.frames[index]!;
      }
      const left = deadline - Date.now();
      if (left <= 0 || this.#stdoutDone) {
        throw new Error(`waited for ${what}; got ${JSON.stringify(this.untaken())}\nstderr:\n${this.#stderr}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The reply to the request with this id (compared with ===, so 7 and "7" differ). */
  reply(id: string | number, timeoutMs = 5000): Promise<Frame> {
    return this.take((frame) => frame.id === id, timeoutMs, `the reply to id ${JSON.stringify(id)}`);
  }

  /** Frames not taken yet. */
  untaken(): Frame[] {
    return this.frames.filter((_frame, i) => !this.#taken.has(i));
  }

  closeStdin(): void {
    void this.#proc.stdin.end();
  }

  kill(): void {
    if (this.#proc.exitCode === null) this.#proc.kill();
  }

  /** Resolves once stdout has closed and every frame is in `frames`. */
  async stdoutClosed(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#stdoutDone) {
      if (Date.now() > deadline) throw new Error("stdout did not close");
      await Bun.sleep(5);
    }
  }

  async #readStdout(): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of this.#proc.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline = buffer.indexOf("\n");
      while (newline >= 0) {
        this.#line(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf("\n");
      }
    }
    if (buffer !== "") this.#line(buffer);
    this.#stdoutDone = true;
    this.#wake();
  }

  async #readStderr(): Promise<void> {
    const decoder = new TextDecoder();
    for await (const chunk of this.#proc.stderr) this.#stderr += decoder.decode(chunk, { stream: true });
  }

  #line(line: string): void {
    if (line.trim() === "") return;
    let frame: unknown;
    try {
      frame = JSON.parse(line);
    } catch {
      this.badLines.push(`not JSON: ${line}`);
      return;
    }
    const parsed = v.safeParse(ExtToHostFrame, frame);
    if (!parsed.success) this.badLines.push(`not a valid frame (${v.summarize(parsed.issues)}): ${line}`);
    this.frames.push(frame as Frame);
    this.#wake();
  }

  #wake(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }
}

/** The hello_ack a test host sends, with fields a test can check for. */
export function helloAck(overrides: Frame = {}): Frame {
  return {
    type: "hello_ack",
    protocol_version: 1,
    capabilities: [...HOST_CAPABILITIES],
    zot_version: "9.9.9-test",
    provider: "scripted",
    model: "demo",
    cwd: "/tmp/project",
    extension_dir: "/tmp/ext",
    data_dir: "/tmp/data",
    ...overrides,
  };
}
