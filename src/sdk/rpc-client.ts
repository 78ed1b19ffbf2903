// The TypeScript client of `zot rpc`: spawns the binary, speaks NDJSON on its pipes, and offers one
// typed method per command. Runs under Bun and Node 20.
// Rule: node: built-ins only, and nothing of the protocol at run time but its types (the Node
// bundle of this file holds no valibot). The server is the contract's only judge: the client sends
// what its types allow and reports the server's refusals as RpcError, never checks them itself.
//
//   const zot = await ZotRpcClient.spawn({ args: ["--provider", "anthropic"] });
//   const { text } = await zot.prompt("what does this repo do?");
//   await zot.close();
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { LineSplitter } from "../protocol/line-splitter.ts";
import { errorText } from "../protocol/error-text.ts";
import type { AgentEvent } from "../protocol/events.ts";
import type { ImageInput, RpcCommandOf, RpcCommandType, RpcDataOf, RpcReasoning, RpcResponse } from "../protocol/rpc-frames.ts";
import { EventQueue } from "./event-queue.ts";
import { type TurnResult, turnResult } from "./turn-result.ts";

export type { AgentEvent } from "../protocol/events.ts";
export type { ImageInput, RpcCommandType, RpcDataOf, RpcReasoning } from "../protocol/rpc-frames.ts";
export type { TurnOutcome, TurnResult } from "./turn-result.ts";
export type HelloData = RpcDataOf<"hello">;
export type StateData = RpcDataOf<"get_state">;
export type WireMessage = RpcDataOf<"get_messages">["messages"][number];
export type ModelEntry = RpcDataOf<"get_models">["models"][number];
export type CommandEntry = RpcDataOf<"get_commands">["commands"][number];
export type ReloadData = RpcDataOf<"reload_extensions">;
/** run_command's answer; `turn` is there when the command started a turn (its events, up to done). */
export type RunCommandResult = RpcDataOf<"run_command"> & { turn?: TurnResult };

export interface SpawnOptions {
  /** the zot binary; default $ZOT_BIN, else `zot` from PATH */
  zot?: string;
  /** flags after `zot rpc`: --provider, --model, --api-key, --base-url, --cwd, --tools, … */
  args?: string[];
  /** the process's working directory (the agent's, unless --cwd says otherwise) */
  cwd?: string;
  /** the process's environment; default this process's */
  env?: Record<string, string | undefined>;
  /** set as ZOTCORE_RPC_TOKEN for the process and sent in hello; default $ZOTCORE_RPC_TOKEN of `env` */
  token?: string;
  /**
   * Answers the tool calls zot asks about (--no-yolo, a permission rule's or a hook's ask), as the
   * TUI's user would: hello says so, and each confirm_request is given to it (docs/rpc.md,
   * Confirming tool calls). A handler that throws answers no. Without it, such calls are refused.
   */
  confirm?: (request: ConfirmRequestEvent) => ConfirmReply | Promise<ConfirmReply>;
}

/** A tool call zot asks the client about. */
export type ConfirmRequestEvent = Extract<AgentEvent, { type: "confirm_request" }>;
/** The answer to one: yes, yes for the tool this session, yes to everything, or no with what the model reads. */
export type ConfirmReply = Pick<RpcCommandOf<"confirm">, "answer" | "reason">;

export interface PromptOptions {
  images?: ImageInput[];
  /** called with each event of this turn as it arrives */
  onEvent?: (event: AgentEvent) => void;
}

/** zot answered a command with `success: false`. */
export class RpcError extends Error {
  override readonly name = "RpcError";
  constructor(
    /** the command's type, as sent */
    readonly command: string,
    message: string,
  ) {
    super(message);
  }
}

/** The zot process ended (or never started) while a call waited for it. */
export class ZotExitError extends Error {
  override readonly name = "ZotExitError";
  constructor(
    message: string,
    /** the exit code; null when a signal ended it or it never started */
    readonly code: number | null,
    readonly signal: string | null,
    /** the last lines zot wrote to stderr */
    readonly stderr: string,
  ) {
    super(message);
  }
}

/** Lines from zot longer than this are dropped; no answer of the protocol comes near it. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
const STDERR_TAIL_CHARS = 4096;

interface Exchange {
  data: unknown;
  turn?: TurnResult;
}

interface Pending {
  onEvent?: (event: AgentEvent) => void;
  resolve(exchange: Exchange): void;
  reject(error: Error): void;
}

/** The prompt or compact running now: everything between its `started` response and `done`. */
interface RunningTurn {
  events: AgentEvent[];
  data: unknown;
  pending: Pending;
}

interface Subscriber {
  event(event: AgentEvent): void;
  end(): void;
}

export class ZotRpcClient {
  /** what zot said to hello: protocol version, zot version, provider, model at start */
  info!: HelloData;
  /** resolves with the exit code (null when a signal ended the process) */
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcessWithoutNullStreams;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private running: RunningTurn | undefined;
  private readonly subscribers = new Set<Subscriber>();
  private stderrTail = "";
  /** SpawnOptions.confirm */
  private confirmer: SpawnOptions["confirm"];
  private closing = false;
  private death: ZotExitError | undefined;

  /** Starts `zot rpc`, sends hello (with the token), and resolves once zot answered it. */
  static async spawn(options: SpawnOptions = {}): Promise<ZotRpcClient> {
    const env = { ...(options.env ?? process.env) };
    const token = options.token ?? env.ZOTCORE_RPC_TOKEN;
    if (token !== undefined) env.ZOTCORE_RPC_TOKEN = token;
    const client = new ZotRpcClient(options.zot ?? process.env.ZOT_BIN ?? "zot", options.args ?? [], options.cwd, env);
    client.confirmer = options.confirm;
    try {
      client.info = await client.request("hello", { ...(token === undefined ? {} : { token }), ...(options.confirm ? { confirm: true } : {}) });
    } catch (error) {
      client.child.kill();
      await client.exited;
      throw error;
    }
    return client;
  }

  private constructor(bin: string, args: string[], cwd: string | undefined, env: Record<string, string | undefined>) {
    this.child = spawn(bin, ["rpc", ...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    const lines = new LineSplitter(
      MAX_LINE_BYTES,
      (line) => this.onLine(line),
      (bytes) => this.failAll(new RpcError("parse", `zot sent a line of ${bytes} bytes, over the client's limit; its answer is lost`)),
    );
    this.child.stdout.on("data", (chunk: Uint8Array) => lines.push(chunk));
    this.child.stdout.on("end", () => lines.end());
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
    });
    // A write after zot died fails with EPIPE; the death itself is reported by "close".
    this.child.stdin.on("error", () => {});
    this.exited = new Promise((resolve) => {
      this.child.on("error", (error) => {
        // Never started (no such binary): no "close" follows a failed spawn.
        if (this.child.pid !== undefined) return;
        this.die(null, null, `cannot start ${bin} rpc: ${errorText(error)}; pass { zot: "/path/to/zot" } or set ZOT_BIN`);
        resolve(null);
      });
      this.child.on("close", (code, signal) => {
        this.die(code, signal);
        resolve(code);
      });
    });
  }

  /** The process id of `zot rpc`. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The last few kilobytes zot wrote to stderr (its warnings and notes). */
  get stderr(): string {
    return this.stderrTail;
  }

  // ── commands ──────────────────────────────────────────────────────────────────────────────

  /**
   * Sends any command and resolves with its response's data. A command that starts a turn
   * resolves once the turn is over (its events reach onEvent() and events()).
   */
  async request<T extends RpcCommandType>(type: T, fields: Omit<RpcCommandOf<T>, "id" | "type">): Promise<RpcDataOf<T>> {
    return (await this.exchange(type, fields)).data as RpcDataOf<T>;
  }

  hello(token?: string): Promise<HelloData> {
    return this.request("hello", token === undefined ? {} : { token });
  }

  /**
   * Sends a prompt; resolves once its turn is over (`done`) with the events, the answer and how
   * it ended. A prompt sent while another runs waits its turn in zot.
   */
  async prompt(message: string, options: PromptOptions = {}): Promise<TurnResult> {
    const fields = options.images ? { message, images: options.images } : { message };
    return this.turnOf("prompt", await this.exchange("prompt", fields, options.onEvent));
  }

  /** Compacts the transcript; resolves after `done`, with the summary in `summary` when it worked. */
  async compact(instructions?: string, options: Pick<PromptOptions, "onEvent"> = {}): Promise<TurnResult> {
    return this.turnOf("compact", await this.exchange("compact", instructions === undefined ? {} : { instructions }, options.onEvent));
  }

  /** Stops the running prompt or compact (its turn still ends: turn_end aborted, or its tools' results cancelled; then done). */
  async abort(): Promise<void> {
    await this.request("abort", {});
  }

  getState(): Promise<StateData> {
    return this.request("get_state", {});
  }

  async getMessages(): Promise<WireMessage[]> {
    return (await this.request("get_messages", {})).messages;
  }

  async clear(): Promise<void> {
    await this.request("clear", {});
  }

  /** Switches to another model of the same provider; resolves with the model's id. */
  async setModel(model: string): Promise<string> {
    return (await this.request("set_model", { model })).model;
  }

  async getModels(): Promise<ModelEntry[]> {
    return (await this.request("get_models", {})).models;
  }

  /**
   * Sets the reasoning level of the prompts that follow: off, minimum, low, medium, high, xhigh or
   * max, mapped onto what zot's providers send (`applied`). Refused while a prompt runs or waits.
   */
  setReasoning(reasoning: RpcReasoning): Promise<RpcDataOf<"set_reasoning">> {
    return this.request("set_reasoning", { reasoning });
  }

  async ping(): Promise<void> {
    await this.request("ping", {});
  }

  async getCommands(): Promise<CommandEntry[]> {
    return (await this.request("get_commands", {})).commands;
  }

  /**
   * Runs a slash command (built-in or an extension's) by name. When it starts a turn (/compact,
   * an extension answering with a prompt), this resolves after that turn's `done`, with `turn`.
   */
  async runCommand(name: string, args = "", options: Pick<PromptOptions, "onEvent"> = {}): Promise<RunCommandResult> {
    const { data, turn } = await this.exchange("run_command", { name, args }, options.onEvent);
    return { ...(data as RpcDataOf<"run_command">), ...(turn ? { turn } : {}) };
  }

  reloadExtensions(): Promise<ReloadData> {
    return this.request("reload_extensions", {});
  }

  // ── sessions (zot rpc records only when started with --session or --continue) ───────────────

  listSessions(): Promise<RpcDataOf<"list_sessions">> {
    return this.request("list_sessions", {});
  }

  sessionTree(): Promise<RpcDataOf<"session_tree">> {
    return this.request("session_tree", {});
  }

  /** A new session holding the turns up to `at` (default: all) of `session` (default: this one). */
  forkSession(options: Omit<RpcCommandOf<"fork_session">, "id" | "type"> = {}): Promise<RpcDataOf<"fork_session">> {
    return this.request("fork_session", options);
  }

  exportSession(path: string, options: { session?: string; force?: boolean } = {}): Promise<RpcDataOf<"export_session">> {
    return this.request("export_session", { path, ...options });
  }

  importSession(path: string): Promise<RpcDataOf<"import_session">> {
    return this.request("import_session", { path });
  }

  /** Switches this process to another session of the directory: its transcript, usage and model. */
  resumeSession(session: string): Promise<RpcDataOf<"resume_session">> {
    return this.request("resume_session", { session });
  }

  // ── events ────────────────────────────────────────────────────────────────────────────────

  /**
   * Every event from now on (of every turn, and extension notes between turns), until the
   * process ends. Each call is a new stream with its own reader; events wait in memory until read.
   */
  events(): AsyncIterable<AgentEvent> {
    const subscriber: Subscriber = { event: (event) => queue.push(event), end: () => queue.end() };
    const queue = new EventQueue<AgentEvent>(() => this.subscribers.delete(subscriber));
    if (this.death) queue.end();
    else this.subscribers.add(subscriber);
    return queue;
  }

  /** Calls `listener` with every event as it arrives; returns the unsubscribe function. */
  onEvent(listener: (event: AgentEvent) => void): () => void {
    const subscriber: Subscriber = { event: listener, end: () => {} };
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /**
   * Closes zot's stdin: zot finishes the prompt that runs and the ones already sent (their promises
   * resolve as usual), stops its extensions and exits 0. `{ abort: true }` stops at once instead:
   * zot gets SIGTERM, aborts the running turn (it still resolves, as "aborted"), drops the queued
   * ones (they fail with ZotExitError) and exits 130. Resolves with the exit code; no call can be
   * sent after it.
   */
  close(options: { abort?: boolean } = {}): Promise<number | null> {
    if (!this.death) {
      if (!this.closing) this.child.stdin.end();
      this.closing = true;
      if (options.abort) this.child.kill("SIGTERM");
    }
    return this.exited;
  }

  // ── the wire ──────────────────────────────────────────────────────────────────────────────

  private exchange<T extends RpcCommandType>(
    type: T,
    fields: Omit<RpcCommandOf<T>, "id" | "type">,
    onEvent?: (event: AgentEvent) => void,
  ): Promise<Exchange> {
    if (this.closing) return Promise.reject(new Error(`cannot send "${type}": the client was closed`));
    if (this.death) return Promise.reject(this.death);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { onEvent, resolve, reject });
      // id and type first: a line zot cannot take (over 16 MiB) is answered from its first bytes.
      this.child.stdin.write(`${JSON.stringify({ id, type, ...fields })}\n`);
    });
  }

  private turnOf(command: RpcCommandType, exchange: Exchange): TurnResult {
    if (!exchange.turn) throw new RpcError(command, "zot answered without starting a turn");
    return exchange.turn;
  }

  private onLine(line: string): void {
    let frame: { type?: unknown };
    try {
      frame = JSON.parse(line);
    } catch {
      return; // zot writes only protocol lines; anything else is not for us
    }
    if (typeof frame !== "object" || frame === null) return;
    if (frame.type === "response") this.onResponse(frame as RpcResponse);
    else this.deliver(frame as AgentEvent);
  }

  private onResponse(response: RpcResponse): void {
    // Our ids are numbers; a response without one (a line zot could not read) answers nobody.
    const pending = typeof response.id === "number" ? this.pending.get(response.id) : undefined;
    if (!pending) return;
    this.pending.delete(response.id as number);
    if (!response.success) return pending.reject(new RpcError(response.command, response.error));
    const data = response.data as { started?: unknown; action?: unknown } | undefined;
    const startsTurn = response.command === "run_command" && (data?.action === "started" || data?.action === "prompt" || data?.action === "tool_prompt");
    if (data?.started === true || startsTurn) {
      // A queued turn's response comes when it starts: every event from here to done is its own.
      this.running = { events: [], data, pending };
    } else {
      pending.resolve({ data });
    }
  }

  private deliver(event: AgentEvent): void {
    if (event.type === "confirm_request" && this.confirmer) void this.answerConfirm(event, this.confirmer);
    for (const subscriber of this.subscribers) subscriber.event(event);
    const running = this.running;
    if (!running) return;
    running.events.push(event);
    running.pending.onEvent?.(event);
    if (event.type === "done") {
      this.running = undefined;
      running.pending.resolve({ data: running.data, turn: turnResult(running.events) });
    }
  }

  /** Asks the handler and sends its answer; one that throws is a no naming what it threw. */
  private async answerConfirm(request: ConfirmRequestEvent, confirm: NonNullable<SpawnOptions["confirm"]>): Promise<void> {
    let reply: ConfirmReply;
    try {
      reply = await confirm(request);
    } catch (error) {
      reply = { answer: "no", reason: `the client's confirm handler failed: ${errorText(error)}` };
    }
    // A request that stopped waiting meanwhile (its turn ended) is refused by zot: nothing to do.
    await this.request("confirm", { request_id: request.request_id, ...reply }).catch(() => {});
  }

  private die(code: number | null, signal: string | null, reason?: string): void {
    if (this.death) return;
    const how = reason ?? `zot rpc exited ${signal ? `(killed by ${signal})` : `with code ${code}`}`;
    const tail = this.stderrTail.trim();
    const message = tail ? `${how}; its stderr ended with:\n${tail}` : how;
    this.death = new ZotExitError(message, code, signal, this.stderrTail);
    this.failAll(this.death);
    for (const subscriber of this.subscribers) subscriber.end();
    this.subscribers.clear();
  }

  private failAll(error: Error): void {
    const waiting = [...this.pending.values()];
    if (this.running) waiting.push(this.running.pending);
    this.pending.clear();
    this.running = undefined;
    for (const pending of waiting) pending.reject(error);
  }
}
