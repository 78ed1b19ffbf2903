// Speaks JSON-RPC 2.0 with one hook process (PicoClaw's protocol, seeds/001) on a LineChild: the
// hook.hello handshake, requests with integer ids from 1, replies matched by id, and one-way
// observer notifications (hook.event, or hook.runtime_event for a hook of PicoClaw's current release).
// Rule: nothing the hook does can stall or crash zot. hello has a deadline (5 s by default; past
// it the hook is stopped and zot goes on without it), every call has one, garbage lines are logged
// and skipped, an over-long reply fails the calls waiting on it at once, and a dead hook fails its
// calls at once; what a failure *means* (skip, deny) is the participant's business, not this file's.
import * as v from "valibot";
import { extensionLogFile } from "../config/home.ts";
import { errorText } from "../protocol/error-text.ts";
import { asGoReads } from "../protocol/go-json.ts";
import {
  HelloResult,
  HOOK_PROTOCOL_VERSION,
  type HookMethod,
  JsonRpcReply,
  type JsonRpcNotification,
  type JsonRpcRequest,
} from "../protocol/hook-rpc.ts";
import { appendLog } from "./child-log.ts";
import { ChildCallError, type ChildDiagnostic, type ChildExitInfo, DEFAULT_MAX_LINE_BYTES, LineChild, valuePreview } from "./child.ts";
import type { HookNotice } from "./hook-events.ts";
import type { HookSpec } from "./hook-spec.ts";
import type { HostState } from "./zot-host.ts";

export interface HookHostOptions {
  spec: HookSpec;
  home: string;
  /** default 4 MiB, as for zot extensions */
  maxLineBytes?: number;
}

/** A call that got no usable answer; the message is a sentence naming the hook and the method. */
export class HookCallError extends Error {
  constructor(
    message: string,
    readonly kind: "timeout" | "error" | "dead" | "invalid",
  ) {
    super(message);
    this.name = "HookCallError";
  }
}

/** Observer notices kept for a hook that is still starting. */
const MAX_EARLY_NOTICES = 1000;

/** Aborts the calls in flight when a reply line was too long to read. */
class ReplyTooLong {}

export class HookHost {
  readonly name: string;
  readonly spec: HookSpec;
  readonly logFile: string;
  readonly label: string;
  private readonly maxLineBytes: number;
  private child: LineChild | undefined;
  private current: HostState = "new";
  private failure: string | undefined;
  private exit: ChildExitInfo | undefined;
  private stopping = false;
  private startPromise: Promise<void> | undefined;
  /** one controller per call in flight, so an unreadable reply can fail them at once */
  private readonly inflight = new Set<AbortController>();
  /** observer notices of events that happened while the hook was starting, sent once it is ready */
  private early: HookNotice[] = [];
  private readonly startOver: Promise<void>;
  private endStart!: () => void;

  constructor(options: HookHostOptions) {
    this.spec = options.spec;
    this.name = options.spec.name;
    this.label = `hook "${this.name}"`;
    this.logFile = extensionLogFile(options.home, this.name);
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.startOver = new Promise((resolve) => (this.endStart = resolve));
  }

  get state(): HostState {
    return this.current;
  }
  /** why the hook is not running, as a sentence naming it */
  get error(): string | undefined {
    return this.failure;
  }
  get pid(): number | undefined {
    return this.child?.pid;
  }
  get live(): boolean {
    return this.current === "ready" && this.child?.alive === true;
  }
  /** not started yet, or waiting for its hello answer */
  get starting(): boolean {
    return this.current === "new" || this.current === "starting";
  }

  /**
   * Resolves as soon as the start is over: the hook answered hello, or it failed (before the
   * failed process is stopped), or zot stopped it. A call that waits for the hook waits for this.
   */
  started(): Promise<void> {
    return this.startOver;
  }

  /** Spawns and says hello. Never rejects; see state and error. */
  start(): Promise<void> {
    this.startPromise ??= this.run();
    return this.startPromise;
  }

  /** Appends `[zot] <line>` to the hook's log; never throws. */
  log(line: string): void {
    if (this.child) this.child.log(line);
    else appendLog(this.logFile, line);
  }

  private async run(): Promise<void> {
    this.current = "starting";
    const { launch } = this.spec;
    if ("error" in launch) return this.fail(`${this.label} (${this.spec.file}): ${launch.error}`);
    try {
      this.child = LineChild.spawn({
        name: this.name,
        label: this.label,
        command: launch.command,
        cwd: this.spec.dir,
        env: launch.env,
        logFile: this.logFile,
        maxLineBytes: this.maxLineBytes,
        onDiagnostic: (diagnostic) => this.onDiagnostic(diagnostic),
      });
    } catch (err) {
      return this.fail(errorText(err));
    }
    this.child.onMessage((value) => this.onMessage(value));
    this.child.onExit((info) => this.onExit(info));
    const params = { name: this.name, version: HOOK_PROTOCOL_VERSION, modes: this.spec.modes };
    try {
      const result = await this.request("hook.hello", params, this.spec.timeouts.hello);
      const hello = v.safeParse(HelloResult, asGoReads(HelloResult, result));
      if (!hello.success) throw new HookCallError(`${this.label} answered hook.hello with a result that is not an object`, "invalid");
    } catch (err) {
      if (this.stopping) return;
      this.fail(`${errorText(err)}; the hook is disabled for this run (its log: ${this.logFile})`);
      await this.child.stop({ graceMs: 0, termMs: 500 });
      return;
    }
    if (this.current === "starting") this.current = "ready";
    const { events } = this.spec;
    if (this.spec.modes.includes("observe")) this.log(`observer events go as ${events.method} (${events.why})`);
    const early = this.early;
    this.early = [];
    for (const notice of early) this.notify(notice);
    this.endStart();
  }

  private fail(message: string): void {
    this.current = "failed";
    this.failure = message;
    this.early = [];
    this.log(message);
    this.endStart();
  }

  /**
   * One request; resolves with its `result`. Rejects with a HookCallError when the hook answers
   * with an error, cannot answer (exited, stopping), or does not answer within timeoutMs; with the
   * abort reason when signal aborts.
   */
  async call(method: Exclude<HookMethod, "hook.hello">, params: unknown, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    if (this.current !== "ready") throw new HookCallError(this.unavailable(method), "dead");
    return this.request(method, params, timeoutMs, signal);
  }

  private async request(method: HookMethod, params: unknown, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    const child = this.child;
    if (!child) throw new HookCallError(this.unavailable(method), "dead");
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    this.inflight.add(controller);
    let value: unknown;
    try {
      value = await child.call((id) => ({ jsonrpc: "2.0", id, method, params }) satisfies JsonRpcRequest, {
        timeoutMs,
        signal: controller.signal,
        what: method,
      });
    } catch (err) {
      if (controller.signal.reason instanceof ReplyTooLong) {
        throw new HookCallError(`${this.label} sent a reply to ${method} longer than ${this.maxLineBytes} bytes; it was dropped`, "invalid");
      }
      if (signal?.aborted) throw signal.reason;
      if (err instanceof ChildCallError) throw new HookCallError(err.message, err.kind === "timeout" ? "timeout" : "dead");
      throw err;
    } finally {
      this.inflight.delete(controller);
      signal?.removeEventListener("abort", onAbort);
    }
    const reply = value as JsonRpcReply;
    if (reply.error) {
      const why = reply.error.message ?? `error code ${reply.error.code ?? "unknown"}`;
      throw new HookCallError(`${this.label} ${method} failed: ${why}`, "error");
    }
    return reply.result;
  }

  /**
   * One observer event, as the generation this hook speaks spells it; fire-and-forget: never
   * waits, and is dropped when the hook stopped reading.
   */
  notify(notice: HookNotice): void {
    // A hook still starting (the TUI and rpc go on without waiting for it) gets what it missed once
    // it is up, as it would have from the start; past the cap the oldest are dropped.
    if (this.starting) {
      this.early.push(notice);
      if (this.early.length > MAX_EARLY_NOTICES) this.early.shift();
      return;
    }
    if (!this.live) return;
    const frame: JsonRpcNotification =
      this.spec.events.method === "hook.runtime_event"
        ? { jsonrpc: "2.0", method: "hook.runtime_event", params: notice.runtime }
        : { jsonrpc: "2.0", method: "hook.event", params: notice.event };
    this.child?.send(frame, { droppable: true });
  }

  private onMessage(value: unknown): void {
    // The envelope too is read as Go reads it: an untagged Go struct sends "ID" and "Result".
    const parsed = v.safeParse(JsonRpcReply, asGoReads(JsonRpcReply, value));
    if (!parsed.success) return this.log(`not a JSON-RPC message; skipped: ${valuePreview(value)}`);
    const reply = parsed.output;
    const id = replyId(reply.id);
    if (id === undefined) {
      return this.log(`a message without a usable id (${JSON.stringify(reply.id ?? null)}); hooks cannot send requests or notifications; ignored`);
    }
    if (!this.child?.settle(id, reply)) this.log(`a reply for id ${id}, which no call is waiting for (late, or never asked); dropped`);
  }

  private onDiagnostic(diagnostic: ChildDiagnostic): void {
    // The dropped line was most likely the reply a call is waiting for: fail those now, not in 5 s.
    if (diagnostic.kind !== "line_too_long") return;
    for (const controller of this.inflight) controller.abort(new ReplyTooLong());
  }

  private onExit(info: ChildExitInfo): void {
    this.exit = info;
    if (this.current === "failed") return;
    if (this.stopping || info.stopped) {
      this.current = "stopped";
      return;
    }
    const wasStarting = this.current === "starting";
    this.current = "exited";
    if (!wasStarting) {
      this.log(
        `the hook ${info.reason} while running; from now on its interceptors are skipped and its approvals deny, until zot restarts or reloads extensions`,
      );
    }
  }

  private unavailable(method: string): string {
    if (this.current === "failed") return `${this.label} did not start; ${method} was not sent`;
    if (this.exit) return `${this.label} ${this.exit.reason}; ${method} was not sent`;
    if (this.stopping) return `${this.label} is stopping; ${method} was not sent`;
    return `${this.label} is not running; ${method} was not sent`;
  }

  /** PicoClaw's shutdown: stdin closed (hooks exit on EOF), the grace, then SIGTERM and SIGKILL. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.early = [];
    this.endStart();
    await this.child?.stop({ graceMs: this.spec.timeouts.grace, termMs: 1000 });
    await this.startPromise;
  }
}

/** A positive integer id, or its decimal string; anything else (0, null, "x", 1.5) matches no call. */
function replyId(id: unknown): number | undefined {
  const n = typeof id === "string" && /^\d+$/.test(id) ? Number(id) : id;
  return typeof n === "number" && Number.isInteger(n) && n > 0 ? n : undefined;
}
