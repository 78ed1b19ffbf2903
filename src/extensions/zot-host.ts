// Speaks the zot NDJSON protocol with one extension, on a LineChild: the hello handshake, the
// registration window, commands, tools, interception calls and one-way events.
// Rule: nothing the extension does (silence, garbage, a crash at any moment) can stall or crash
// zot: every wait has a deadline, every bad frame is logged in the extension's log and skipped,
// and a dead extension fails its pending calls at once and loses its commands and tools. Every
// protocol mistake the host meets also goes to onDiagnostic, so a caller (`zot ext check`) learns
// them from the host itself and never from reading the log back.
import { frameHead } from "../protocol/frame-head.ts";
import { issueSentence } from "../protocol/schema-issue.ts";
import * as v from "valibot";
import { extensionDataDir, extensionLogFile } from "../config/home.ts";
import { errorText } from "../protocol/error-text.ts";
import {
  EXT_EVENTS,
  EXT_INTERCEPTS,
  EXT_OBSERVE_ONLY,
  type ExtEventName,
  type ExtFrameOf,
  type ExtInterceptName,
  ExtToHostFrame,
  HOST_CAPABILITIES,
  type HostFrameOf,
  type NotifyLevel,
  notifyLevel,
  PROTOCOL_VERSION,
} from "../protocol/ext-frames.ts";
import { asGoReads } from "../protocol/go-json.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import type { ToolResult } from "../protocol/tool.ts";
import { type CallToolRequest, CallToolRequests, stopReason } from "./call-tool-requests.ts";
import { observedResult } from "./ext-events.ts";
import { toolRegistration } from "./tool-registration.ts";
import { timerDelay } from "../protocol/timer-delay.ts";
import { appendLog } from "./child-log.ts";
import { ChildCallError, type ChildDiagnostic, type ChildExitInfo, LineChild, seconds, valuePreview } from "./child.ts";
import type { InterceptFields, InterceptReply } from "./ext-intercept.ts";
import { prepareLaunch } from "./ext-launch.ts";
import { type ExtToolDef, toolFailure, toolResultFromExt } from "./ext-tool.ts";
import type { Manifest } from "./manifest.ts";
import type { PanelOp } from "./panels.ts";
import type { CommandResult } from "../protocol/slash-command.ts";
import { commandResult } from "./command-reply.ts";

export interface HostTimeouts {
  /** from spawn to the hello frame (a manifest's `timeouts.hello` wins: a `go run .` may compile first) */
  helloMs: number;
  /** registration closes after this much silence when no ready frame comes */
  idleMs: number;
  /** registration closes after this long whatever comes */
  readyMs: number;
  commandMs: number;
  toolMs: number;
  interceptMs: number;
  /** a call_tool the extension made: from its frame to the tool's result */
  callToolMs: number;
  /** shutdown: the grace before SIGTERM, then before SIGKILL */
  graceMs: number;
  termMs: number;
}

export const DEFAULT_TIMEOUTS: HostTimeouts = {
  helloMs: 30_000,
  idleMs: 250,
  readyMs: 3000,
  commandMs: 30_000,
  toolMs: 60_000,
  interceptMs: 5000,
  callToolMs: 60_000,
  graceMs: 2000,
  termMs: 1000,
};

export interface ZotHostOptions {
  manifest: Manifest;
  /** the extension's directory: its working directory and extension_dir */
  dir: string;
  home: string;
  cwd: string;
  provider: string;
  model: string;
  zotVersion: string;
  /** runs .ts/.js extensions (the compiled zot, or bun in tests) */
  zotBinary: string;
  env?: Record<string, string | undefined>;
  timeouts?: Partial<HostTimeouts>;
  /** what may wait in memory for an extension that stopped reading before events are dropped (default 8 MiB) */
  maxBacklogBytes?: number;
  /**
   * Every protocol mistake, as it happens, besides the log line: the child's (not_json,
   * line_too_long, output_closed, frames_dropped, no_exit_after_stop, no_exit_after_sigterm) and the
   * host's (cannot_start, hello_timeout, exit_before_hello, frame_before_hello, hello_name,
   * exit_before_ready, second_hello, late_hello, frame_without_type, unknown_frame, invalid_frame, unknown_reply_id,
   * unknown_subscription, cannot_intercept, no_ready, ready_timeout, exited, exit_code, command_conflict,
   * tool_exposure, tool_replay, tool_schema, duplicate_call_id, and from outside: invalid_system_prompt).
   */
  onDiagnostic?: (diagnostic: HostDiagnostic) => void;
}

/** One protocol mistake; message is the sentence written to the extension's log. */
export type HostDiagnostic = ChildDiagnostic;

/** What the extension said about itself in its hello frame. */
export interface HelloInfo {
  name: string;
  version?: string;
  capabilities: string[];
}

export type HostState = "new" | "starting" | "registering" | "ready" | "failed" | "exited" | "stopped";
export type NoteLevel = NotifyLevel;

type Reply = ExtFrameOf<"command_response"> | ExtFrameOf<"tool_result"> | ExtFrameOf<"event_intercept_response">;
const REPLY_TYPES: ReadonlySet<string> = new Set(["command_response", "tool_result", "event_intercept_response"]);
const FRAME_TYPES: ReadonlySet<string> = new Set(ExtToHostFrame.options.map((o) => o.entries.type.literal));
/** How many ids of abandoned tool_calls are remembered, so that their late results are expected, not mistakes. */
const MAX_CANCELLED_IDS = 256;

/** Runs a tool for the extension's call_tool (the manager: chain rules, then the agent). Never throws. */
export type CallToolHandler = (request: CallToolRequest) => Promise<ToolResult>;

/** The child's notes about a stop the host forced; after a failed start they repeat that failure. */
const FORCED_STOP_KINDS: ReadonlySet<string> = new Set(["no_exit_after_stop", "no_exit_after_sigterm"]);

/** A reply frame that named a pending call's id but did not validate: the call fails at once. */
/** `block` as an extension might spell yes: true, 1, or "true", "yes", "on", "y", "1" (any case): a block is never read as an allow. */
function asksToBlock(value: unknown): boolean {
  return value === true || value === 1 || (typeof value === "string" && BLOCK_WORDS.has(value.trim().toLowerCase()));
}
const BLOCK_WORDS: ReadonlySet<string> = new Set(["true", "yes", "on", "y", "1"]);

class InvalidReply {
  constructor(
    readonly type: string,
    readonly problem: string,
  ) {}
}

export class ZotExtensionHost {
  readonly name: string;
  readonly dir: string;
  readonly manifest: Manifest;
  readonly priority: number;
  readonly logFile: string;
  private readonly label: string;
  private readonly t: HostTimeouts;
  private child: LineChild | undefined;
  private current: HostState = "new";
  private failure: string | undefined;
  private exit: ChildExitInfo | undefined;
  private helloInfo: HelloInfo | undefined;
  private stopping = false;
  /** lines that were not JSON before hello: why a start that timed out did */
  private notJsonBeforeHello = 0;
  private startPromise: Promise<void> | undefined;
  private endStart: (() => void) | undefined;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** keyed by the lower-cased name: commands are case-insensitive, the first spelling is kept */
  private readonly commandMap = new Map<string, { name: string; description: string }>();
  private readonly toolMap = new Map<string, ExtToolDef>();
  private readonly eventSet = new Set<string>();
  private readonly interceptSet = new Set<ExtInterceptName>();
  private readonly noteHandlers: ((level: NoteLevel, message: string) => void)[] = [];
  private readonly clearHandlers: (() => void)[] = [];
  private readonly changeHandlers: (() => void)[] = [];
  private readonly panelHandlers: ((op: PanelOp) => void)[] = [];
  private readonly submitHandlers: ((kind: "submit" | "submit_slash", text: string) => void)[] = [];
  private readonly activateHandlers: ((names: string[]) => void)[] = [];
  private callToolHandler: CallToolHandler | undefined;
  private readonly calls: CallToolRequests;
  /** host tool_calls zot gave up on (abort, timeout): their late results are logged, not reported as mistakes */
  private readonly abandoned = new Set<string>();

  constructor(private readonly options: ZotHostOptions) {
    this.manifest = options.manifest;
    this.name = options.manifest.name;
    this.dir = options.dir;
    this.priority = options.manifest.priority ?? 0;
    this.label = `extension "${this.name}"`;
    this.logFile = extensionLogFile(options.home, this.name);
    this.t = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    const hello = options.manifest.timeouts?.hello;
    if (hello !== undefined) this.t.helloMs = hello;
    this.calls = new CallToolRequests(this.t.callToolMs);
  }

  get state(): HostState {
    return this.current;
  }
  /** why the extension is not running, as a sentence naming it */
  get error(): string | undefined {
    return this.failure;
  }
  get pid(): number | undefined {
    return this.child?.pid;
  }
  /** the hello frame's name, version and capabilities; undefined until it came */
  get hello(): HelloInfo | undefined {
    return this.helloInfo;
  }
  /** how long the extension has to say hello */
  get helloTimeoutMs(): number {
    return this.t.helloMs;
  }
  /** how long an intercept waits for its answer (the chain's own deadline is a little later) */
  get interceptTimeoutMs(): number {
    return this.t.interceptMs;
  }
  /** the manifest's allow_builtin_respond: an intercept's `respond` may answer for a built-in tool */
  get allowBuiltinRespond(): boolean {
    return this.manifest.allow_builtin_respond === true;
  }
  /** the manifest's fail_closed: a tool call this guard cannot judge is refused, not allowed */
  get failClosed(): boolean {
    return this.manifest.fail_closed === true;
  }
  /** why it cannot answer now (not started, exited, failed), as a sentence */
  get unavailable(): string {
    return this.notRunning();
  }
  /** zot is stopping it (shutdown, a reload): whatever it did not finish, zot ended */
  get stoppedByZot(): boolean {
    return this.stopping;
  }
  get live(): boolean {
    return (this.current === "registering" || this.current === "ready") && this.child?.alive === true;
  }

  /** Spawns, handshakes and waits for registration to close. Never rejects; see state and error. */
  start(): Promise<void> {
    this.startPromise ??= this.run();
    return this.startPromise;
  }

  commands(): { name: string; description: string }[] {
    return [...this.commandMap.values()];
  }
  tools(): ExtToolDef[] {
    return [...this.toolMap.values()];
  }
  intercepts(): ExtInterceptName[] {
    return this.live ? [...this.interceptSet] : [];
  }
  subscribed(event: ExtEventName): boolean {
    return this.eventSet.has(event);
  }
  /** the registered spelling of a command, looked up case-insensitively */
  commandName(name: string): string | undefined {
    return this.commandMap.get(name.toLowerCase())?.name;
  }

  onNotify(handler: (level: NoteLevel, message: string) => void): void {
    this.noteHandlers.push(handler);
  }
  onClearNotes(handler: () => void): void {
    this.clearHandlers.push(handler);
  }
  /** the extension opened, redrew or closed a panel */
  onPanel(handler: (op: PanelOp) => void): void {
    this.panelHandlers.push(handler);
  }
  /** the extension asked for input as if typed: a prompt (`submit`) or a slash command (`submit_slash`) */
  onSubmit(handler: (kind: "submit" | "submit_slash", text: string) => void): void {
    this.submitHandlers.push(handler);
  }
  /** commands or tools changed (a late registration, or the extension went away) */
  onChange(handler: () => void): void {
    this.changeHandlers.push(handler);
  }
  /** a tool_result named deferred tools to offer the model from now on (activate_tools) */
  onActivate(handler: (names: string[]) => void): void {
    this.activateHandlers.push(handler);
  }
  /** runs the tools the extension asks for with call_tool; without one, call_tool is refused */
  onCallTool(handler: CallToolHandler): void {
    this.callToolHandler = handler;
  }
  /** whether the extension said it handles tool_cancel (hello.capabilities) */
  get cancels(): boolean {
    return this.helloInfo?.capabilities.includes("tool_cancel") === true;
  }

  /** Appends `[zot] <line>` to the extension's log; never throws. */
  log(line: string): void {
    if (this.child) this.child.log(line);
    else appendLog(this.logFile, line);
  }

  /** A protocol mistake found outside the host (a before_agent_start answer): logged, and handed to onDiagnostic. */
  diagnose(kind: string, message: string): void {
    this.problem(kind, message);
  }

  /** whether it subscribed to before_agent_start and is running */
  wantsAgentStart(): boolean {
    return this.live && this.interceptSet.has("before_agent_start");
  }

  /** A protocol mistake: logged, and handed to onDiagnostic. */
  private problem(kind: string, message: string): void {
    this.log(message);
    this.report({ kind, message });
  }

  private report(diagnostic: HostDiagnostic): void {
    try {
      this.options.onDiagnostic?.(diagnostic);
    } catch (err) {
      this.log(`handling a diagnostic failed: ${errorText(err)}`);
    }
  }

  /** The child logged it already; pass it on unless it only echoes a failure already reported. */
  private fromChild(diagnostic: ChildDiagnostic): void {
    if (this.current === "failed" && FORCED_STOP_KINDS.has(diagnostic.kind)) return;
    if (diagnostic.kind === "not_json" && this.current === "starting") this.notJsonBeforeHello++;
    if (diagnostic.dropped) this.failDroppedReply(diagnostic.dropped);
    this.report({ kind: diagnostic.kind, message: diagnostic.message });
  }

  /**
   * An over-long line was dropped. When it names a waiting call (its id is near the start, where
   * every SDK writes it), that call fails now instead of waiting out its deadline; when no id can
   * be read, every waiting call fails, since the line was most likely one of their answers, unless
   * its head names a frame type that answers nothing (a long notify is no reply).
   */
  private failDroppedReply(dropped: { bytes: number; limit: number; head: string }): void {
    const child = this.child;
    if (!child) return;
    const head = frameHead(dropped.head);
    // Named by its type when the head's is a frame's ("tool_result"), else as a reply.
    const type = head.type !== undefined && FRAME_TYPES.has(head.type) ? head.type : "reply";
    const id = head.id === undefined ? undefined : String(head.id);
    const problem = `its line was ${dropped.bytes.toLocaleString("en-US")} bytes, over the limit of ${sizeText(dropped.limit)} a frame, and was dropped`;
    // The head's first "type" may be a nested one (a content block's "text", when the frame's own
    // is written last): only a frame type known to answer nothing spares the waiting calls.
    const mayAnswer = head.type === undefined || !FRAME_TYPES.has(head.type) || REPLY_TYPES.has(head.type);
    const targets = !mayAnswer ? [] : id !== undefined && child.pendingIds().includes(id) ? [id] : id === undefined ? child.pendingIds() : [];
    for (const key of targets) child.settle(key, new InvalidReply(type, problem));
  }

  private async run(): Promise<void> {
    this.current = "starting";
    const launch = prepareLaunch({ ...this.options, env: this.options.env ?? process.env });
    if ("error" in launch) return this.fail("cannot_start", `${this.label}: ${launch.error}`);
    const started = new Promise<void>((resolve) => {
      this.endStart = resolve;
    });
    try {
      this.child = LineChild.spawn({
        name: this.name,
        command: launch.command,
        cwd: this.dir,
        env: launch.env,
        logFile: this.logFile,
        maxBacklogBytes: this.options.maxBacklogBytes,
        onDiagnostic: (diagnostic) => this.fromChild(diagnostic),
      });
    } catch (err) {
      return this.fail("cannot_start", errorText(err));
    }
    const child = this.child;
    child.onMessage((value) => this.onFrame(value));
    child.onExit((info) => this.onExit(info));
    this.after(this.t.helloMs, () => {
      if (this.current !== "starting") return;
      // Lines that were not JSON say why at once: a program writing text or a banner to stdout, not the protocol.
      const junk = this.notJsonBeforeHello > 0 ? ` (it wrote ${this.notJsonBeforeHello} line${this.notJsonBeforeHello === 1 ? "" : "s"} that ${this.notJsonBeforeHello === 1 ? "is" : "are"} not JSON: stdout is for protocol frames, anything else goes to stderr)` : "";
      // Nothing at all is most often output held in the program's buffer (Python's print to a pipe): said, with the cure.
      const held = junk ? "" : " (a program whose output is buffered sends nothing until it exits: flush after each frame, e.g. Python's print(..., flush=True))";
      this.fail("hello_timeout", `${this.label} sent no hello frame within ${seconds(this.t.helloMs)}${junk}${held}; it was stopped`, true);
      void child.stop({ graceMs: 0, termMs: 500 });
    });
    await started;
  }

  /** The start failed: the problem is reported as it is; error adds where the log is when it helps. */
  private fail(kind: string, message: string, pointToLog = false): void {
    this.current = "failed";
    this.failure = pointToLog ? `${message} (its log: ${this.logFile})` : message;
    this.problem(kind, message);
    this.finishStart();
  }

  private finishStart(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    clearTimeout(this.idleTimer);
    this.endStart?.();
    this.endStart = undefined;
  }

  private after(ms: number, fn: () => void): void {
    this.timers.push(setTimeout(fn, timerDelay(ms)));
  }

  private onFrame(value: unknown): void {
    if (this.current === "registering") this.restartIdle();
    // As the original zot (a Go program) read frames: null is absent, a field's name has no case.
    const shaped = asGoReads(ExtToHostFrame, value);
    const parsed = v.safeParse(ExtToHostFrame, shaped);
    // Shaped, an invalid reply spelled "ID" still fails its own call at once.
    if (!parsed.success) return this.badFrame(shaped, parsed.issues);
    const frame = parsed.output;
    if (this.current === "starting") {
      if (frame.type === "hello") return this.onHello(frame);
      return this.problem("frame_before_hello", `"${frame.type}" frame before hello; ignored`);
    }
    switch (frame.type) {
      case "hello":
        // After a start that timed out, the one hello the program sent, flushed only as it was stopped.
        if (this.current === "failed") return this.problem("late_hello", "a hello frame after zot had stopped waiting for one: the extension's output was buffered, so flush after each frame; ignored");
        return this.problem("second_hello", "a second hello frame; ignored");
      case "ready":
        if (this.current === "registering") this.closeRegistration();
        return;
      case "register_command":
        return this.registerCommand(frame);
      case "register_tool":
        return this.registerTool(frame);
      case "call_tool":
        return void this.callToolFor(frame);
      case "call_tool_cancel":
        if (!this.calls.cancel(String(frame.id))) this.log(`call_tool_cancel for ${JSON.stringify(frame.id)}, which is not outstanding (answered already, or never asked); ignored`);
        return;
      case "subscribe":
        return this.subscribe(frame);
      case "notify":
        for (const handler of this.noteHandlers) handler(notifyLevel(frame.level), frame.message);
        return;
      case "clear_notes":
        for (const handler of this.clearHandlers) handler();
        return;
      case "shutdown_ack":
        return;
      case "open_panel":
        return this.panel({ op: "open", panel: frame.panel });
      case "panel_render": {
        const { type: _, ...render } = frame;
        return this.panel({ op: "render", ...render });
      }
      case "panel_close":
        return this.panel({ op: "close", panel_id: frame.panel_id });
      case "submit":
      case "submit_slash":
        if (this.submitHandlers.length === 0) return this.log(`${frame.type} ignored: only the interactive TUI takes input from extensions`);
        for (const handler of this.submitHandlers) handler(frame.type, frame.text);
        return;
      case "command_response":
      case "tool_result":
      case "event_intercept_response":
        if (!this.child?.settle(frame.id, frame)) {
          if (frame.type === "tool_result" && this.abandoned.has(String(frame.id))) {
            return this.log(`tool_result for tool_call ${JSON.stringify(frame.id)} came after zot gave up on it; ignored`);
          }
          this.problem("unknown_reply_id", `${frame.type} for unknown id ${JSON.stringify(frame.id)} (late, or never asked); dropped`);
        }
        return;
    }
  }

  private registerTool(frame: ExtFrameOf<"register_tool">): void {
    const registration = toolRegistration(frame, this.name);
    if ("skipped" in registration) return this.problem(registration.skipped.kind, registration.skipped.message);
    for (const problem of registration.problems) this.problem(problem.kind, problem.message);
    // Registering a name again replaces the tool (an extension may update one); said in its log, so a slip is findable.
    if (this.toolMap.has(frame.name)) this.log(`register_tool "${frame.name}" again: it replaces the earlier registration of that name`);
    this.toolMap.set(frame.name, registration.def);
    this.changed();
  }

  /** A call_tool: checked against the rules here, run by the handler, answered with a bounded tool_result. */
  private async callToolFor(frame: ExtFrameOf<"call_tool">): Promise<void> {
    const answer = (result: ToolResult) => {
      const observed = observedResult(result.content, result.is_error);
      const structured = result.details?.structured_content;
      const reply: HostFrameOf<"tool_result"> = {
        type: "tool_result",
        id: frame.id,
        name: frame.name,
        content: observed.content,
        ...(observed.is_error ? { is_error: true } : {}),
        ...(observed.truncated ? { truncated: true } : {}),
        ...(structured !== undefined ? { structured_content: structured } : {}),
      };
      if (this.live) this.child?.send(reply);
    };
    const refuse = (why: string) => answer({ content: [{ type: "text", text: `call_tool ${frame.name}: ${why}` }], is_error: true });
    if (this.helloInfo?.capabilities.includes("call_tool") !== true) {
      return refuse(`this extension did not list "call_tool" in its hello frame's capabilities; add it there`);
    }
    const accepted = this.calls.accept(frame);
    if (accepted === "duplicate") {
      return this.problem("duplicate_call_id", `call_tool with id ${JSON.stringify(frame.id)} while a call of that id is outstanding; ignored`);
    }
    if ("refusal" in accepted) return refuse(accepted.refusal);
    const { request, finish } = accepted;
    try {
      if (!this.callToolHandler) return refuse("nothing in this zot runs tools for extensions (no agent)");
      let result: ToolResult;
      try {
        result = await this.callToolHandler(request);
      } catch (err) {
        return refuse(errorText(err));
      }
      if (request.signal.aborted) return refuse(stopReason(request.signal));
      answer(result);
    } finally {
      finish();
    }
  }

  private registerCommand(frame: ExtFrameOf<"register_command">): void {
    const key = frame.name.toLowerCase();
    const existing = this.commandMap.get(key);
    if (existing && existing.name !== frame.name) {
      return this.problem("command_conflict", `register_command "${frame.name}" differs from "${existing.name}" only in case (commands are case-insensitive); ignored`);
    }
    if (existing) this.log(`register_command "${frame.name}" again: it replaces the earlier registration of that name`);
    this.commandMap.set(key, { name: frame.name, description: frame.description ?? "" });
    this.changed();
  }

  private panel(op: PanelOp): void {
    if (op.op === "gone" && this.panelHandlers.length === 0) return;
    if (this.panelHandlers.length === 0) return this.log(`${op.op === "open" ? "open_panel" : `panel_${op.op}`} ignored: nothing shows panels here`);
    for (const handler of this.panelHandlers) handler(op);
  }

  private onHello(frame: ExtFrameOf<"hello">): void {
    this.helloInfo = {
      name: frame.name,
      ...(frame.version !== undefined ? { version: frame.version } : {}),
      capabilities: frame.capabilities ?? [],
    };
    if (frame.name !== this.name) {
      this.problem("hello_name", `hello names the extension "${frame.name}" but its manifest says "${this.name}"; using "${this.name}"`);
    }
    const ack: HostFrameOf<"hello_ack"> = {
      type: "hello_ack",
      protocol_version: PROTOCOL_VERSION,
      capabilities: [...HOST_CAPABILITIES],
      zot_version: this.options.zotVersion,
      provider: this.options.provider,
      model: this.options.model,
      cwd: this.options.cwd,
      extension_dir: this.dir,
      data_dir: extensionDataDir(this.options.home, this.name),
    };
    this.current = "registering";
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    this.child?.send(ack);
    this.restartIdle();
    this.after(this.t.readyMs, () => {
      if (this.current !== "registering") return;
      this.problem("ready_timeout", `still registering after ${seconds(this.t.readyMs)}; registration closed (later registrations still count)`);
      this.closeRegistration();
    });
  }

  private restartIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.current !== "registering") return;
      this.problem("no_ready", `no ready frame; registration closed after ${this.t.idleMs} ms of silence`);
      this.closeRegistration();
    }, this.t.idleMs);
  }

  private closeRegistration(): void {
    this.current = "ready";
    this.finishStart();
  }

  private subscribe(frame: ExtFrameOf<"subscribe">): void {
    // A name this zot does not know is kept, not refused: a newer protocol may send it one day.
    for (const name of frame.events ?? []) {
      this.eventSet.add(name);
      // Said as a diagnostic too, so `zot ext check` and `doctor` show a misspelt name (`turn_ended`).
      if (!(EXT_EVENTS as readonly string[]).includes(name)) this.problem("unknown_subscription", `subscribe: event "${name}" is not one zot sends (known: ${EXT_EVENTS.join(", ")})`);
    }
    for (const name of frame.intercept ?? []) {
      if ((EXT_INTERCEPTS as readonly string[]).includes(name)) this.interceptSet.add(name as ExtInterceptName);
      else if (EXT_OBSERVE_ONLY.has(name)) this.problem("cannot_intercept", `subscribe: "${name}" can only be observed, so this interceptor never runs; subscribe to it under events`);
      else this.problem("cannot_intercept", `subscribe: "${name}" cannot be intercepted by this zot, so this interceptor never runs (interceptable: ${EXT_INTERCEPTS.join(", ")})`);
    }
  }

  private badFrame(value: unknown, issues: v.BaseIssue<unknown>[]): void {
    const record = isJsonObject(value) ? value : undefined;
    const type = typeof record?.type === "string" ? record.type : undefined;
    if (type === undefined) return this.problem("frame_without_type", `a frame without a "type"; skipped: ${valuePreview(value)}`);
    if (!FRAME_TYPES.has(type)) return this.problem("unknown_frame", `unknown frame type "${type}"; skipped`);
    const problem = issueText(issues);
    const id = record?.id;
    const answerable = REPLY_TYPES.has(type) && (typeof id === "string" || typeof id === "number");
    // A guard that says block but gets another field wrong still blocks: a broken reply never lets
    // the call it was asked about through (a wrong `reason` must not run `rm -rf`).
    if (answerable && type === "event_intercept_response" && asksToBlock(record?.block)) {
      this.problem("invalid_frame", `invalid ${type} frame (${problem}); its block is kept, the rest dropped`);
      const reason = typeof record?.reason === "string" ? record.reason : `the extension blocked it in a malformed reply (${problem})`;
      return void this.child?.settle(id, { type, id, block: true, reason });
    }
    this.problem("invalid_frame", `invalid ${type} frame (${problem}); skipped`);
    if (answerable) this.child?.settle(id, new InvalidReply(type, problem));
  }

  private changed(): void {
    for (const handler of this.changeHandlers) handler();
  }

  private onExit(info: ChildExitInfo): void {
    this.exit = info;
    const before = this.current;
    if (before === "starting" && !this.stopping && !info.stopped) {
      // Ending well before saying anything is a program that never started its loop: said with the likely slip.
      const done = info.code === 0 ? " (it ended without starting: an @zot/sdk extension calls `await ext.run()`; any other sends hello and reads stdin until shutdown)" : "";
      this.fail("exit_before_hello", `${this.label} ${info.reason} before sending hello${done}`, true);
    } else if (before === "registering" && !this.stopping && !info.stopped) {
      // Gone after hello, before ready (a config file missing, an import that failed): a failed start, said as one.
      this.fail("exit_before_ready", `${this.label} ${info.reason} after hello, before ready; its commands and tools are not loaded`, true);
    } else if (before !== "failed") {
      this.current = this.stopping || info.stopped ? "stopped" : "exited";
      if (this.current === "exited") {
        this.problem(
          "exited",
          `the extension ${gone(info)} while running; its commands and tools are gone until zot restarts or reloads extensions`,
        );
      } else if (info.code !== null && info.code !== 0) {
        // A signal here is our own SIGTERM or SIGKILL, already reported as a slow exit.
        this.problem("exit_code", `the extension exited with code ${info.code} after shutdown; 0 is expected`);
      }
      this.finishStart();
    }
    if (before === "registering" || before === "ready") this.panel({ op: "gone" });
    this.calls.endAll(`the extension ${gone(info)}`);
    const had = this.commandMap.size + this.toolMap.size > 0;
    this.commandMap.clear();
    this.toolMap.clear();
    if (had) this.changed();
  }

  /**
   * Sends a one-way event frame if the extension subscribed to it. Never blocks; droppable, so an
   * extension that stopped reading loses events rather than growing zot's memory (LineChild counts
   * and logs the drops).
   */
  sendEvent(frame: HostFrameOf<"event">): void {
    if (!this.eventSet.has(frame.event) || !this.live) return;
    this.child?.send(frame, { droppable: true });
  }

  /** A key for the extension's panel, its closing by the user, or the room it has now. */
  sendPanel(frame: HostFrameOf<"panel_key" | "panel_close" | "panel_resize">): void {
    if (!this.live) return;
    this.child?.send(frame);
  }

  /** Runs a slash command: command_invoked, then the normalised command_response. */
  async invoke(command: string, args: string, signal: AbortSignal): Promise<CommandResult> {
    command = this.commandName(command) ?? command;
    const base = { command, extension: this.name };
    let reply: ExtFrameOf<"command_response">;
    try {
      reply = await this.request(
        (id) => ({ type: "command_invoked", id, name: command, ...(args ? { args } : {}) }) satisfies HostFrameOf<"command_invoked">,
        this.t.commandMs,
        signal,
        `/${command}`,
        "command_response",
      );
    } catch (err) {
      return { ...base, action: "error", text: this.explain(err, this.t.commandMs) };
    }
    const result = commandResult(base, reply);
    if (result.action === "open_panel") this.panel({ op: "open", panel: result.panel });
    return result;
  }

  /**
   * Runs one of the extension's tools. Never throws: failures are is_error results. An interactive
   * tool has no deadline (an abort, zot's exit or the extension's still end it). `chain`: the tool
   * names of the call chain this call ends, for the call_tool the extension makes while handling it.
   */
  async callTool(which: ExtToolDef | string, args: Record<string, unknown>, signal: AbortSignal, chain?: readonly string[]): Promise<ToolResult> {
    const def = typeof which === "string" ? this.toolMap.get(which) : which;
    const tool = typeof which === "string" ? which : which.name;
    chain ??= [tool];
    const timeoutMs = def?.interactive ? Number.POSITIVE_INFINITY : this.t.toolMs;
    let sent: string | undefined;
    let endHandling = () => {};
    let reply: ExtFrameOf<"tool_result">;
    try {
      reply = await this.request(
        (id) => {
          sent = id;
          endHandling = this.calls.handle(id, tool, chain, signal);
          return { type: "tool_call", id, name: tool, args } satisfies HostFrameOf<"tool_call">;
        },
        timeoutMs,
        signal,
        `tool_call ${tool}`,
        "tool_result",
      );
    } catch (err) {
      const abandoned = err instanceof ChildCallError && (err.kind === "timeout" || err.kind === "aborted");
      if (sent !== undefined && abandoned) this.abandon(sent);
      const failure = toolFailure(this.name, tool, this.explain(err, this.t.toolMs));
      // The agent reports a call that ran out of time as timed_out, not failed.
      if (err instanceof ChildCallError && err.kind === "timeout") failure.details = { ...failure.details, status: "timed_out" };
      return failure;
    } finally {
      endHandling();
    }
    if (reply.activate_tools && reply.activate_tools.length > 0) {
      for (const handler of this.activateHandlers) handler(reply.activate_tools);
    }
    return toolResultFromExt(this.name, tool, reply.content, reply.is_error ?? false, reply.structured_content);
  }

  /** zot gave up on a tool_call (abort, timeout): tool_cancel when the extension handles it; its late result is expected. */
  private abandon(id: string): void {
    this.abandoned.add(id);
    if (this.abandoned.size > MAX_CANCELLED_IDS) this.abandoned.delete(this.abandoned.values().next().value as string);
    if (this.cancels && this.live) this.child?.send({ type: "tool_cancel", id } satisfies HostFrameOf<"tool_cancel">);
  }

  /** Asks the extension about a stage; rejects (and logs) when it cannot answer, so the chain allows. */
  async intercept(fields: InterceptFields, signal: AbortSignal): Promise<InterceptReply> {
    try {
      return await this.request(
        (id) => ({ type: "event_intercept", id, ...fields }) satisfies HostFrameOf<"event_intercept">,
        this.t.interceptMs,
        signal,
        `event_intercept ${fields.event}`,
        "event_intercept_response",
      );
    } catch (err) {
      const why = this.explain(err, this.t.interceptMs);
      this.log(`intercept ${fields.event}: ${why}; ${this.failClosed && fields.event === "tool_call" ? "refusing the call (fail_closed)" : "allowing"}`);
      throw new Error(why);
    }
  }

  private async request<T extends Reply["type"]>(
    make: (id: string) => HostFrameOf<"command_invoked" | "tool_call" | "event_intercept">,
    timeoutMs: number,
    signal: AbortSignal,
    what: string,
    expected: T,
  ): Promise<Extract<Reply, { type: T }>> {
    const child = this.child;
    if (!child || !this.live) throw new Error(this.notRunning());
    const value = await child.call((id) => make(String(id)), { timeoutMs, signal, what });
    if (value instanceof InvalidReply) throw new Error(`it sent an invalid ${value.type} (${value.problem})`);
    const reply = value as Reply;
    if (reply.type !== expected) throw new Error(`it answered ${what} with a ${reply.type} frame instead of ${expected}`);
    return reply as Extract<Reply, { type: T }>;
  }

  /** A failed call, in the words the model or the user sees after "failed: ". */
  private explain(err: unknown, timeoutMs: number): string {
    if (err instanceof ChildCallError) {
      if (err.kind === "timeout") return `timed out after ${seconds(timeoutMs)}`;
      if (err.kind === "aborted") return "cancelled";
      return this.notRunning();
    }
    return errorText(err);
  }

  private notRunning(): string {
    if (this.current === "failed") return this.failure ?? "the extension did not start";
    if (this.exit) return `the extension ${gone(this.exit)}`;
    if (this.stopping) return "the extension is stopping";
    if (this.current === "starting" || this.current === "new") return "the extension has not started yet";
    return "the extension closed its output";
  }

  /** shutdown, stdin closed, grace, SIGTERM, SIGKILL. Resolves when the process is gone. */
  async stop(): Promise<void> {
    // Before its hello it speaks no protocol yet (a `go run .` still compiling): no shutdown to wait for.
    const silent = this.current === "new" || this.current === "starting";
    this.stopping = true;
    this.finishStart();
    if (!this.child) return;
    if (silent) return this.child.stop({ graceMs: 0, termMs: this.t.termMs });
    await this.child.stop({ goodbye: { type: "shutdown" } satisfies HostFrameOf<"shutdown">, graceMs: this.t.graceMs, termMs: this.t.termMs });
  }
}

function sizeText(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes.toLocaleString("en-US")} bytes`;
}

function gone(info: ChildExitInfo): string {
  if (info.signal) return `was killed (${info.signal})`;
  return `exited (code ${info.code})`;
}

function issueText(issues: v.BaseIssue<unknown>[]): string {
  return issues.length === 0 ? "it does not match the protocol" : issueSentence(issues);
}
