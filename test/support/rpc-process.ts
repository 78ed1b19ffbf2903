// A `zot rpc` child for end-to-end tests: dist/zot with a temp ZOT_HOME and cwd and a clean
// environment; send lines, await the response to an id, collect events until done, close stdin;
// and rpcFixture(), the one fixture of the rpc tests: a test's mock LLM and the `zot rpc`
// processes that talk to it, all stopped when the test ends.
// Rule: every wait has a guard that fails with what was seen (never a hang), and a stdout line
// that is not JSON fails the test.
import { afterEach } from "bun:test";
import type { Subprocess } from "bun";
import { type MockLlm, startMockLlm } from "./mock-llm.ts";
import { cleanEnv, tempDir, ZOT } from "./zot.ts";

export interface RpcStartOptions {
  home?: string;
  cwd?: string;
  env?: Record<string, string>;
}

/** How long a wait may take before it fails the test (a guard, not an assertion on time). */
const GUARD_MS = 15_000;

export class RpcProcess {
  /** every stdout line, parsed, in order */
  readonly lines: any[] = [];
  readonly home: string;
  readonly cwd: string;
  private readonly proc: Subprocess<"pipe", "pipe", "pipe">;
  private readonly waiters = new Set<() => void>();
  private stderrText = "";
  private readonly reading: Promise<void>;
  private readonly stderrReading: Promise<void>;
  private nextId = 1;
  private badLine: string | undefined;
  private finished = false;

  constructor(args: string[], options: RpcStartOptions = {}) {
    this.home = options.home ?? tempDir("zot-rpc-home-");
    this.cwd = options.cwd ?? tempDir("zot-rpc-cwd-");
    const proc = Bun.spawn([ZOT, ...args], {
      cwd: this.cwd,
      env: cleanEnv(this.home, options.env),
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    this.proc = proc;
    this.reading = this.readStdout();
    this.stderrReading = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of proc.stderr) this.stderrText += decoder.decode(chunk, { stream: true });
    })();
  }

  /** `zot rpc <args>` */
  static start(args: string[] = [], options: RpcStartOptions = {}): RpcProcess {
    return new RpcProcess(["rpc", ...args], options);
  }

  get pid(): number {
    return this.proc.pid;
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** Writes a frame (an object, as JSON) or a raw line, with its newline. */
  send(frame: object | string): void {
    this.write(`${typeof frame === "string" ? frame : JSON.stringify(frame)}\n`);
  }

  /** Writes raw text as it is (no newline added). */
  write(text: string | Uint8Array): void {
    this.proc.stdin.write(text);
    this.proc.stdin.flush();
  }

  /** Sends a command with a fresh id (unless it has one) and resolves with its response. */
  async call(frame: Record<string, unknown>): Promise<any> {
    const id = frame.id ?? `c${this.nextId++}`;
    const from = this.lines.length;
    this.send({ ...frame, id });
    return (await this.waitFor((line) => line.type === "response" && line.id === id, from, `the response to ${JSON.stringify(frame)}`)).line;
  }

  /** The first line at or after `from` that matches; its index too. */
  async waitFor(match: (line: any) => boolean, from = 0, what = "a matching line"): Promise<{ line: any; index: number }> {
    const until = Date.now() + GUARD_MS;
    for (;;) {
      if (this.badLine !== undefined) throw new Error(`zot rpc wrote a line that is not JSON: ${this.badLine}`);
      const index = this.lines.findIndex((line, i) => i >= from && match(line));
      if (index >= 0) return { line: this.lines[index], index };
      const left = until - Date.now();
      if (left <= 0 || this.finished) {
        const seen = this.lines.slice(from).map((l) => JSON.stringify(l).slice(0, 200));
        throw new Error(`gave up waiting for ${what}; ${this.finished ? "zot exited" : "guard"}. Seen:\n${seen.join("\n")}\nstderr: ${this.stderrText}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(left, 200));
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.add(done);
      });
    }
  }

  /** The events (lines that are not responses) after `from` up to and including the next done. */
  async eventsUntilDone(from = 0): Promise<any[]> {
    const { index } = await this.waitFor((line) => line.type === "done", from, "done");
    return this.lines.slice(from, index + 1).filter((line) => line.type !== "response");
  }

  /** Sends a prompt (and any other fields) and resolves with its events up to its done. */
  async prompt(message: string, fields: Record<string, unknown> = {}): Promise<any[]> {
    const from = this.lines.length;
    await this.call({ type: "prompt", message, ...fields });
    return this.eventsUntilDone(from);
  }

  /** Sends a compact and resolves with its response (started) and its events up to its done. */
  async compact(fields: Record<string, unknown> = {}): Promise<{ started: any; events: any[] }> {
    const from = this.lines.length;
    const started = await this.call({ type: "compact", ...fields });
    return { started, events: await this.eventsUntilDone(from) };
  }

  /** Closes stdin and resolves with the exit code once zot has exited and its output is read. */
  async close(): Promise<number> {
    this.proc.stdin.end();
    return this.exited();
  }

  async exited(): Promise<number> {
    const code = await this.proc.exited;
    await Promise.all([this.reading, this.stderrReading]);
    return code;
  }

  kill(signal: NodeJS.Signals = "SIGTERM"): void {
    this.proc.kill(signal);
  }

  private async readStdout(): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of this.proc.stdout) {
      buffered += decoder.decode(chunk, { stream: true });
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        this.take(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf("\n");
      }
      this.wake();
    }
    if (buffered) this.take(buffered);
    this.finished = true;
    this.wake();
  }

  private take(line: string): void {
    try {
      this.lines.push(JSON.parse(line));
    } catch {
      this.badLine ??= line;
    }
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }
}

/** The flags that point `zot rpc` at the mock LLM's Anthropic endpoint. */
export const anthropicMock = (url: string): string[] => ["--provider", "anthropic", "--api-key", "k", "--base-url", url];

/** The turns a mock LLM plays. */
export type Turns = Parameters<typeof startMockLlm>[0];

export interface MockedRpcOptions extends RpcStartOptions {
  /** the flags that point zot at the mock (default: its Anthropic endpoint) */
  provider?: (url: string) => string[];
  /** how zot is asked to serve rpc (default: the `rpc` command; `--rpc` is its alias) */
  command?: string;
}

export interface RpcFixture {
  /** the mock LLM of the running test (started by its first start() or llm()) */
  readonly mock: MockLlm;
  /** The test's mock LLM, started with `turns` (or, when it runs already, given them to play next). */
  llm(turns?: Turns): MockLlm;
  /**
   * `zot rpc <provider flags> <args>` against the test's mock LLM, which the first call starts with
   * `turns` (later calls add theirs to its script).
   */
  start(turns?: Turns, args?: string[], options?: MockedRpcOptions): RpcProcess;
  /** `zot rpc <args>` with the flags the caller gives (its provider among them), stopped after the test. */
  spawn(args: string[], options?: RpcStartOptions): RpcProcess;
}

/** The one fixture of the rpc tests. Call it once at the top of a test file. */
export function rpcFixture(): RpcFixture {
  let current: MockLlm | undefined;
  const started: RpcProcess[] = [];
  afterEach(async () => {
    for (const rpc of started.splice(0)) rpc.kill("SIGKILL");
    await current?.stop();
    current = undefined;
  });
  const llm = (turns: Turns = []): MockLlm => {
    if (current) current.push(...(turns ?? []));
    else current = startMockLlm(turns);
    return current;
  };
  return {
    get mock(): MockLlm {
      if (!current) throw new Error("this test started no mock LLM; call start() or llm() first");
      return current;
    },
    llm,
    start(turns = [], args = [], options = {}) {
      const mock = llm(turns);
      const { provider = anthropicMock, command = "rpc", ...rest } = options;
      const rpc = new RpcProcess([command, ...provider(mock.url), ...args], rest);
      started.push(rpc);
      return rpc;
    },
    spawn(args, options = {}) {
      const rpc = RpcProcess.start(args, options);
      started.push(rpc);
      return rpc;
    },
  };
}
