// The zot extension SDK for TypeScript and JavaScript: `import { extension } from "@zot/sdk"`.
// An extension built on it is one file the zot binary runs itself (`exec: "./index.ts"`), with
// nothing installed: zot writes this very file into `$ZOT_HOME/runtime/<version>/node_modules/@zot/sdk`
// and points NODE_PATH at it.
// Rule: this file imports nothing, not even types. It is copied out of the binary and resolved
// from a bare directory, so every type it needs is written here, including the few runtime globals
// it touches (reached through `globalThis`, so it type-checks in an editor without bun-types). The
// wire shapes below mirror src/protocol/ext-frames.ts by hand for that reason only; the SDK test
// parses every frame this file sends through those schemas to keep the two in step.
//
// Quick start:
//
//   import { extension, display } from "@zot/sdk";
//   const ext = extension({ name: "hello", version: "1.0.0" });
//   ext.command("hello", "say hi", (args) => display(`hi ${args || "there"}`));
//   await ext.run();
//
// stdout belongs to the protocol. Log with `ext.log(…)` (stderr, which zot keeps in
// `$ZOT_HOME/logs/ext-<name>.log`); once `run()` starts, a stray `console.log` is sent to stderr too.

// ── values on the wire ──────────────────────────────────────────────────────────────────────

/** The protocol version this SDK speaks (`hello_ack.protocol_version`). */
export const PROTOCOL_VERSION = 1;

/** A correlation id from the host. Strings and numbers both occur; replies echo it unchanged. */
export type FrameId = string | number;

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** What zot told the extension about itself in `hello_ack`. */
export interface HostInfo {
  /** always 1 for this SDK */
  protocol_version: number;
  zot_version: string;
  /** the provider at startup, e.g. "anthropic" */
  provider: string;
  /** the model at startup, e.g. "claude-sonnet-5-5" */
  model: string;
  /** the project directory the agent works in (the extension's own cwd is its install directory) */
  cwd: string;
  /** the directory holding this extension's extension.json */
  extension_dir: string;
  /** a directory this extension may keep state in; it survives reinstalls */
  data_dir: string;
  /** what this zot implements of the optional protocol (call_tool, tool_cancel, panels, …) */
  capabilities: string[];
}

/** A text block of a tool result. `format: "markdown"` asks the TUI to draw it as Markdown (the model gets the text as it is). */
export interface TextBlock {
  type: "text";
  text: string;
  format?: "markdown" | (string & {});
}

/** An image block of a tool result: base64 bytes and their MIME type. */
export interface ImageBlock {
  type: "image";
  mime_type: string;
  data: string;
}

/** One block of a tool result. */
export type ContentBlock = TextBlock | ImageBlock;

/**
 * A tool result as the model receives it. `is_error` marks the call as failed. `activate_tools`
 * names deferred tools the model is offered from its next request on; `structured_content` is the
 * typed value for a tool with an `output_schema` (call_tool callers get it back).
 */
export interface ToolResult {
  content: ContentBlock[];
  is_error?: boolean;
  activate_tools?: string[];
  structured_content?: unknown;
}

/** What {@link Extension.callTool} resolves with: the tool's result as zot sends it back (bounded to 256 KiB). */
export interface CallToolResult {
  /** the tool that ran */
  name: string;
  content: ContentBlock[];
  /** the tool failed, or a guard, the confirmation or a call_tool rule refused it */
  is_error: boolean;
  /** the content was cut to fit 256 KiB */
  truncated: boolean;
  structured_content?: unknown;
}

/** A cancellation signal (an AbortSignal satisfies it). */
export interface CancelSignal {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/**
 * What a tool handler (or an interceptor's `respond`) may return: a string (one text block), one
 * block, a list of blocks, or a full {@link ToolResult}.
 */
export type ToolReturn = string | ContentBlock | ContentBlock[] | ToolResult;

// ── commands ────────────────────────────────────────────────────────────────────────────────

/**
 * What a slash command does once it has run. Build one with {@link display}, {@link prompt},
 * {@link toolPrompt}, {@link insert}, {@link openPanel}, {@link noop} or {@link error}.
 */
export type CommandResponse =
  | { action: "display"; text: string }
  | { action: "insert"; text: string }
  | { action: "prompt"; prompt: string }
  | { action: "tool_prompt"; tool_name: string; tool_args: Record<string, unknown>; prompt: string }
  | { action: "open_panel"; open_panel: PanelSpec }
  | { action: "noop" }
  | { action: "error"; error: string };

/** Every action a {@link CommandResponse} may name. */
const COMMAND_ACTIONS: readonly string[] = ["display", "insert", "prompt", "tool_prompt", "open_panel", "noop", "error"];

/** A command handler may return a {@link CommandResponse}, a string (shown like `display`), or nothing (`noop`). */
export type CommandReturn = CommandResponse | string | undefined | void;

/** What a command handler knows besides its arguments. */
export interface CommandContext {
  /** the host's correlation id of this invocation */
  id: FrameId;
  /** the command name without the slash */
  name: string;
  /** hello_ack, which the host always sends before any command */
  host: HostInfo | undefined;
}

/** Runs `/name args`; `args` is everything the user typed after the name, trimmed ("" when none). */
export type CommandHandler = (args: string, ctx: CommandContext) => CommandReturn | Promise<CommandReturn>;

/** Show `text` in the chat as a one-shot note: no model call, nothing in the transcript. */
export function display(text: string): CommandResponse {
  return { action: "display", text };
}

/** Submit `text` as a new user message; the agent runs a turn on it. */
export function prompt(text: string): CommandResponse {
  return { action: "prompt", prompt: text };
}

/**
 * Run the tool `name` with `args` (through zot's guards and confirmation, as if the model had
 * called it), put the call and its result into the transcript, then send `text` as the user's
 * message: the model answers with the tool's output in view. Throws on an empty name or text, or
 * args that are not an object.
 */
export function toolPrompt(name: string, args: Record<string, unknown>, text: string): CommandResponse {
  if (!name.trim()) throw new TypeError("toolPrompt: the tool name is empty");
  if (!text.trim()) throw new TypeError("toolPrompt: the prompt is empty");
  if (!isRecord(args)) throw new TypeError("toolPrompt: args must be a JSON object");
  return { action: "tool_prompt", tool_name: name, tool_args: args, prompt: text };
}

/** Put `text` into the editor at the cursor without submitting it. */
export function insert(text: string): CommandResponse {
  return { action: "insert", text };
}

/**
 * Open `panel` (see {@link Extension.openPanel}): the TUI draws it and sends its keys to
 * {@link Extension.onPanelKey}; `zot -p` prints its first render; `--json` and rpc send `panel_open`.
 * Throws on a panel without an id, or fields of the wrong type.
 */
export function openPanel(panel: PanelSpec): CommandResponse {
  return { action: "open_panel", open_panel: panelSpec("openPanel", panel) };
}

/** Do nothing visible (the command did its work itself, e.g. through {@link Extension.notify}). */
export function noop(): CommandResponse {
  return { action: "noop" };
}

/** Fail the command: zot shows `message` as a red status line. */
export function error(message: string): CommandResponse {
  return { action: "error", error: message };
}

// ── panels ──────────────────────────────────────────────────────────────────────────────────

/**
 * What a panel shows: a title (the extension's name when there is none), whole lines (they may
 * carry colours, SGR, and links, OSC 8), and a muted footer. A field left out of a render keeps
 * its last value.
 */
export interface PanelContent {
  title?: string;
  lines?: string[];
  footer?: string;
}

/** A panel to open: its id (yours to choose; keys and closes name it) and its first content. */
export interface PanelSpec extends PanelContent {
  id: string;
}

/** The keys a panel receives (Esc and Ctrl+C close it instead); `rune` is a typed character. */
export const PANEL_KEYS = ["up", "down", "left", "right", "enter", "tab", "backspace", "delete", "home", "end", "pageup", "pagedown", "rune"] as const;

/** A key a panel receives. */
export type PanelKeyName = (typeof PANEL_KEYS)[number];

/** A key pressed while this extension's panel has the keyboard. */
export interface PanelKey {
  panel_id: string;
  key: PanelKeyName;
  /** the typed character, for `rune` only (a space and non-ASCII included) */
  text?: string;
}

/** The panel was closed by the user (Esc, Ctrl+C) or replaced by another panel; not sent when the extension closed it itself. */
export interface PanelClosed {
  panel_id: string;
}

/**
 * The room the panel has, when it first draws and whenever the terminal's size changes: `width`
 * in columns, `height` how many lines show in full. zot does not scroll a panel (PgUp/PgDn are the
 * panel's keys): window long content to `height` yourself.
 */
export interface PanelSize {
  panel_id: string;
  width: number;
  height: number;
}

/** Handles one panel frame from zot. Panel handlers run one at a time in arrival order. */
export type PanelHandler<P> = (panel: P) => void | Promise<void>;

// ── tools ───────────────────────────────────────────────────────────────────────────────────

/** A JSON Schema type name. */
export type JsonTypeName = "string" | "number" | "integer" | "boolean" | "array" | "object" | "null";

/** The JSON Schema of one argument. Only `type`, `enum`, `items`, `properties` and `required` shape the handler's types; everything else passes through to the model. */
export interface PropertySchema {
  readonly type?: JsonTypeName | readonly JsonTypeName[];
  readonly description?: string;
  readonly enum?: readonly (string | number | boolean | null)[];
  readonly items?: PropertySchema;
  readonly properties?: { readonly [name: string]: PropertySchema };
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
}

/** The JSON Schema of a tool's arguments: always an object (what Anthropic and OpenAI accept). */
export interface ToolSchema {
  readonly type: "object";
  readonly properties?: { readonly [name: string]: PropertySchema };
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
}

type Expand<T> = { [K in keyof T]: T[K] } & {};
type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;
type TypeOfName<N, P> = N extends "string"
  ? string
  : N extends "number" | "integer"
    ? number
    : N extends "boolean"
      ? boolean
      : N extends "null"
        ? null
        : N extends "array"
          ? P extends { readonly items: infer I }
            ? ValueOf<I>[]
            : unknown[]
          : N extends "object"
            ? P extends { readonly properties: object }
              ? ArgsOf<P>
              : Record<string, unknown>
            : unknown;

/** The TypeScript type of a value described by the property schema `P`. */
export type ValueOf<P> = P extends { readonly enum: readonly (infer E)[] }
  ? E
  : P extends { readonly type: infer N }
    ? N extends readonly (infer M)[]
      ? TypeOfName<M, P>
      : TypeOfName<N, P>
    : unknown;

/** The TypeScript type of the arguments object described by the tool schema `S`. */
export type ArgsOf<S> = S extends { readonly properties: infer P }
  ? Expand<
      { -readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: ValueOf<P[K]> } & {
        -readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: ValueOf<P[K]>;
      }
    >
  : Record<string, unknown>;

/**
 * How a tool is offered: `direct` (the model sees it at once, the default), `deferred` (only once a
 * tool result's `activate_tools` names it: hundreds of tools cost nothing until needed),
 * `codemode` (never to the model; other extensions' call_tool may run it), `model-only` (to the
 * model, never through call_tool).
 */
export type ToolExposure = "direct" | "deferred" | "codemode" | "model-only";

/** How a tool is offered to the model. */
export interface ToolSpec<S extends ToolSchema = ToolSchema> {
  /** 1-64 letters, digits, `-` and `_`; built-in tools (read, write, edit, bash) win a clash */
  name: string;
  /** what the tool does, for the model */
  description?: string;
  /** the arguments' JSON Schema; without one the tool takes an empty object */
  schema?: S;
  /**
   * Check the model's arguments against `schema` before the handler runs (default true): required
   * arguments present, top-level types and enums right. A failure goes back to the model as an error
   * result naming the argument, so it can call again; the handler's argument types are then true.
   */
  validate?: boolean;
  /** how it is offered (default direct) */
  exposure?: ToolExposure;
  /** the same as exposure "deferred" (the original's older form) */
  deferred?: boolean;
  /**
   * it waits for a person (a question, a picker): no reply deadline (cancelling the turn still ends
   * it, and the handler's `ctx.signal` says so); zot refuses it where nobody can interact (-p, --json, rpc)
   */
  interactive?: boolean;
  /** JSON Schema of the `structured_content` it returns, for programmatic callers */
  output_schema?: Record<string, unknown>;
  /** discovery context for programmatic callers (default: the extension's name) */
  namespace?: string;
  namespace_description?: string;
  namespace_instructions?: string;
  /** for a durable host: never (default), safe, idempotent or reconcile; this zot keeps it */
  replay?: "never" | "safe" | "idempotent" | "reconcile";
}

/** What a tool handler knows besides its arguments. */
export interface ToolContext {
  /** the host's correlation id of this call */
  id: FrameId;
  /** the tool name */
  name: string;
  host: HostInfo | undefined;
  /**
   * aborted when zot gives up on the call (the turn was cancelled, the reply is overdue), shuts
   * down, or closes stdin; a result returned after that is not sent
   */
  signal: CancelSignal;
  /**
   * Runs another tool while handling this call (call_tool with this call as parent_id): it ends
   * when this call does. A chain never repeats a tool and holds at most 4 calls.
   */
  callTool(name: string, args?: Record<string, unknown>, options?: { signal?: CancelSignal }): Promise<CallToolResult>;
}

/** Runs one call of a tool. A thrown error becomes an error result carrying its message. */
export type ToolHandler<A> = (args: A, ctx: ToolContext) => ToolReturn | Promise<ToolReturn>;

/** A text block. */
export function text(value: string): TextBlock {
  return { type: "text", text: value };
}

/** An image block from base64 data, e.g. `image(bytes.toString("base64"), "image/png")`. */
export function image(base64: string, mimeType: string): ImageBlock {
  return { type: "image", mime_type: mimeType, data: base64 };
}

/** A text block the TUI draws as Markdown; the model gets the text as it is. */
export function markdown(value: string): TextBlock {
  return { type: "text", text: value, format: "markdown" };
}

/** A failed tool result with one text block: the model sees `message` as the error. */
export function errorResult(message: string): ToolResult {
  return { content: [text(message)], is_error: true };
}

// ── events and interception ─────────────────────────────────────────────────────────────────

/** Every lifecycle event an extension can observe, in the order an agent meets them. */
export const EVENTS = [
  "session_start",
  "session_end",
  "user_prompt_submit",
  "turn_start",
  "tool_call",
  "tool_confirmation_requested",
  "permission_decision",
  "tool_result",
  "assistant_message",
  "turn_end",
  "pre_compact",
  "post_compact",
  "subagent_start",
  "subagent_stop",
] as const;

/** What every event carries: the conversation, the working directory, and a number rising across all events. */
export interface EventBase {
  session_id: string;
  cwd: string;
  sequence: number;
}

/** The payload of each lifecycle event. Fields the host leaves out arrive as their empty value. */
export interface EventMap {
  /** once, after every extension is ready and before the first prompt (and after a session switch) */
  session_start: { event: "session_start" } & EventBase;
  /** `reason`: shutdown or session_switch */
  session_end: { event: "session_end"; reason: string } & EventBase;
  /** a prompt reached the model */
  user_prompt_submit: { event: "user_prompt_submit"; text: string; image_count: number } & EventBase;
  /** a model call is about to start; `step` counts from 1 within a prompt */
  turn_start: { event: "turn_start"; step: number } & EventBase;
  /**
   * the model asked for a tool (before it runs; `tool_args` are the model's own); `origin_extension`
   * when an extension asked for it instead (call_tool, a command's tool_prompt)
   */
  tool_call: { event: "tool_call"; tool_id: string; tool_name: string; tool_args: Record<string, unknown>; origin_extension?: string } & EventBase;
  /** the user is about to be asked about a call */
  tool_confirmation_requested: { event: "tool_confirmation_requested"; tool_id: string; tool_name: string; tool_preview: string } & EventBase;
  /** a call's approval: `decision` approved, denied or cancelled; `source` user, remembered, policy or yolo */
  permission_decision: {
    event: "permission_decision";
    tool_id: string;
    tool_name: string;
    decision: string;
    source: string;
    stage: string;
    reason?: string;
    origin_extension?: string;
  } & EventBase;
  /** a call's end: `status` completed, failed, blocked, cancelled or timed_out; `result` bounded to 256 KiB */
  tool_result: {
    event: "tool_result";
    tool_id: string;
    tool_name: string;
    tool_args: Record<string, unknown>;
    status: string;
    executed: boolean;
    result: { content: ContentBlock[]; is_error: boolean; truncated?: boolean };
    origin_extension?: string;
  } & EventBase;
  /** the assistant's text as the user sees it (after any interceptor's rewrite) */
  assistant_message: { event: "assistant_message"; text: string } & EventBase;
  /** a turn ended: `stop` is "end" (a finished answer), "tool_use", "length", "error" or "aborted" */
  turn_end: { event: "turn_end"; stop: string; error?: string } & EventBase;
  /** a compaction is about to start */
  pre_compact: { event: "pre_compact"; compaction_id: string; message_count: number; token_estimate: number } & EventBase;
  /** it ended: `status` completed, failed or cancelled */
  post_compact: { event: "post_compact"; compaction_id: string; message_count: number; token_estimate: number; status: string; error?: string } & EventBase;
  /** never sent by this zot (it has no subagents) */
  subagent_start: { event: "subagent_start" } & EventBase;
  subagent_stop: { event: "subagent_stop" } & EventBase;
}

/** A lifecycle event name. */
export type EventName = keyof EventMap;

/** Observes one event. Handlers run one at a time in arrival order, without holding up anything else. */
export type EventHandler<E extends EventName> = (event: EventMap[E]) => void | Promise<void>;

/** A tool call about to run, as an interceptor sees it (`tool_args` include earlier interceptors' rewrites). */
export interface ToolCallInterception {
  tool_id: string;
  tool_name: string;
  tool_args: Record<string, unknown>;
  /** the extension whose call_tool (or command's tool_prompt) asked for the call; absent for the model's own calls */
  origin_extension?: string;
}

/**
 * An interceptor's verdict on a tool call; return nothing to allow it unchanged.
 * - `{ block: true, reason }`: the tool does not run; the model gets `reason` as the tool's error,
 *   so say what to do instead.
 * - `{ args }`: the tool runs with these arguments instead (the model and transcript keep its own).
 * - `{ respond }`: the tool does not run; this result goes to the model as if it had.
 */
export type ToolCallDecision =
  | { block: boolean; reason?: string }
  | { args: Record<string, unknown> }
  | { respond: ToolReturn };

/** The system prompt zot assembled (with every earlier extension's rewrite), before the model first sees it. */
export interface BeforeAgentStartInterception {
  system_prompt: string;
  provider: string;
  model: string;
  cwd: string;
  session_id: string;
  /** the same for every extension asked in one preparation pass */
  agent_run_id: string;
}

/** A before_agent_start interceptor's answer: the system prompt from now on ("" removes it); nothing keeps it. */
export type BeforeAgentStartDecision = string;

/** A model call about to start. */
export interface TurnStartInterception {
  step: number;
}

/** An interceptor's verdict on a turn; `{ block: true, reason }` ends it before the model is called, showing `reason` to the user. */
export type TurnStartDecision = { block: boolean; reason?: string };

/** The assistant's finished text, before the user sees it. */
export interface AssistantMessageInterception {
  text: string;
}

/**
 * An interceptor's verdict on an assistant message: `{ block: true }` hides it from the user,
 * `{ text }` shows this instead. Either way the transcript keeps what the model said.
 */
export type AssistantMessageDecision = { block: boolean; reason?: string } | { text: string };

/** Decides on an intercepted action. Returning nothing (or throwing) allows it unchanged. */
export type Interceptor<In, D> = (input: In) => D | undefined | void | Promise<D | undefined | void>;

/** A note level. */
export type NotifyLevel = "info" | "success" | "warn" | "error";

// ── the frames this SDK writes (a hand copy of src/protocol/ext-frames.ts, see the header) ──────

type OutFrame =
  | { type: "hello"; name: string; version: string; capabilities: string[] }
  | { type: "register_command"; name: string; description: string }
  | {
      type: "register_tool";
      name: string;
      description: string;
      schema: ToolSchema;
      exposure?: ToolExposure;
      interactive?: boolean;
      output_schema?: Record<string, unknown>;
      namespace?: string;
      namespace_description?: string;
      namespace_instructions?: string;
      replay?: string;
    }
  | { type: "subscribe"; events?: string[]; intercept?: string[] }
  | { type: "ready" }
  | {
      type: "command_response";
      id: FrameId;
      action: "prompt" | "insert" | "display" | "noop" | "tool_prompt" | "open_panel";
      prompt?: string;
      insert?: string;
      display?: string;
      open_panel?: PanelSpec;
      tool_name?: string;
      tool_args?: Record<string, unknown>;
      error?: string;
    }
  | { type: "tool_result"; id: FrameId; content: ContentBlock[]; is_error?: boolean; activate_tools?: string[]; structured_content?: unknown }
  | { type: "call_tool"; id: string; name: string; args: Record<string, unknown>; parent_id?: FrameId }
  | { type: "call_tool_cancel"; id: string }
  | {
      type: "event_intercept_response";
      id: FrameId;
      block?: boolean;
      reason?: string;
      modified_args?: Record<string, unknown>;
      replace_text?: string;
      respond?: ToolResult;
      system_prompt?: string;
    }
  | { type: "notify"; level: NotifyLevel; message: string }
  | { type: "clear_notes" }
  | { type: "open_panel"; panel: PanelSpec }
  | ({ type: "panel_render"; panel_id: string } & PanelContent)
  | { type: "panel_close"; panel_id: string }
  | { type: "submit"; text: string }
  | { type: "submit_slash"; text: string }
  | { type: "shutdown_ack" };

type InterceptName = "tool_call" | "turn_start" | "assistant_message" | "before_agent_start";

// The globals this file touches, typed here so that it needs no ambient types (see the header).
interface Runtime {
  console: {
    log(...data: unknown[]): void;
    error(...data: unknown[]): void;
    info(...data: unknown[]): void;
    debug(...data: unknown[]): void;
  } & Partial<AsyncIterable<string>>;
  process: { exit(code?: number): never; env: Record<string, string | undefined> };
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
  AbortController: new () => { readonly signal: CancelSignal; abort(reason?: unknown): void };
}
const runtime = globalThis as unknown as Runtime;

// How long shutdown waits for running handlers (an audit line being written, a tool finishing):
// the host allows 2 s before it sends SIGTERM.
const DRAIN_MS = 1000;

// ── the extension ───────────────────────────────────────────────────────────────────────────

/** What {@link extension} needs: the extension's name (as in extension.json) and version. */
export interface ExtensionOptions {
  name: string;
  version?: string;
}

/** How {@link Extension.run} ends. */
export interface RunOptions {
  /** exit the process once the host said goodbye or closed stdin (default true) */
  exit?: boolean;
}

type ToolOptions = Pick<ToolSpec, "exposure" | "interactive" | "output_schema" | "namespace" | "namespace_description" | "namespace_instructions" | "replay">;

type Registration =
  | { kind: "command"; name: string; description: string; handler: CommandHandler }
  | {
      kind: "tool";
      name: string;
      description: string;
      schema: ToolSchema;
      validate: boolean;
      options: ToolOptions;
      handler: ToolHandler<Record<string, unknown>>;
    };

// Runs jobs one at a time in the order they came, beside the read loop. When none is running a job
// starts at once, so a synchronous handler has finished before the next frame (say, a command
// reading what an event handler wrote) is dispatched.
class InOrder {
  #backlog: (() => Promise<void>)[] = [];
  #running: Promise<void> | undefined;

  add(job: () => Promise<void>): void {
    this.#backlog.push(job);
    this.#running ??= this.#pump();
  }

  /** Settles once every job added so far has run. */
  get idle(): Promise<void> {
    return this.#running ?? Promise.resolve();
  }

  async #pump(): Promise<void> {
    for (let job = this.#backlog.shift(); job; job = this.#backlog.shift()) await job();
    this.#running = undefined;
  }
}

/** Whether zot started this extension as a guard (`"fail_closed": true`). */
function isGuard(): boolean {
  return runtime.process.env.ZOT_EXTENSION_FAIL_CLOSED === "1";
}

/** A guard's refusal of a tool call it could not judge. */
function guardRefusal(id: FrameId, name: string, why: string): OutFrame {
  return { type: "event_intercept_response", id, block: true, reason: `${name} could not judge the call (${why}), and it is a guard` };
}

/** One extension: register commands, tools, event handlers and interceptors, then {@link Extension.run}. */
export class Extension {
  /** the name sent in `hello` */
  readonly name: string;
  /** the version sent in `hello` */
  readonly version: string;
  #host: HostInfo | undefined;
  #registrations: Registration[] = [];
  #commands = new Map<string, Registration & { kind: "command" }>();
  #tools = new Map<string, Registration & { kind: "tool" }>();
  #events = new Map<EventName, EventHandler<EventName>[]>();
  #toolCall: Interceptor<ToolCallInterception, ToolCallDecision>[] = [];
  #turnStart: Interceptor<TurnStartInterception, TurnStartDecision>[] = [];
  #assistant: Interceptor<AssistantMessageInterception, AssistantMessageDecision>[] = [];
  #agentStart: Interceptor<BeforeAgentStartInterception, BeforeAgentStartDecision>[] = [];
  /** host tool_call id → what cancels its handler (tool_cancel, shutdown, end of input) */
  #handling = new Map<string, { abort(reason?: unknown): void }>();
  /** call_tool id → its waiting caller */
  #calls = new Map<string, { resolve: (result: CallToolResult) => void; reject: (error: Error) => void }>();
  #nextCall = 0;
  #state: "new" | "running" | "done" = "new";
  #pending: OutFrame[] = [];
  #inflight = new Set<Promise<void>>();
  #eventJobs = new InOrder();
  #panelKey: PanelHandler<PanelKey>[] = [];
  #panelClose: PanelHandler<PanelClosed>[] = [];
  #panelResize: PanelHandler<PanelSize>[] = [];
  // Apart from the events, so that a slow event handler (a sound, a network call) never holds up
  // the user's keys.
  #panelJobs = new InOrder();
  // Bound before run() redirects console.log to stderr, so only the SDK can write to stdout.
  #wire: (line: string) => void = runtime.console.log.bind(runtime.console);

  /** Prefer {@link extension}. */
  constructor(options: ExtensionOptions) {
    if (!options.name) throw new TypeError("extension(): a name is required (the one in extension.json)");
    this.name = options.name;
    this.version = options.version ?? "0.0.0";
  }

  /** The host's `hello_ack` (provider, model, cwd, zot_version, extension_dir, data_dir); set before any handler runs. */
  get host(): HostInfo | undefined {
    return this.#host;
  }

  /** Register `/name`. A thrown error becomes a red status line with its message. */
  command(name: string, description: string, handler: CommandHandler): this {
    if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new TypeError(`command "${name}": a command name is letters, digits, - and _ (no slash)`);
    if (this.#commands.has(name)) throw new TypeError(`command "${name}" is registered twice`);
    const registration = { kind: "command" as const, name, description, handler };
    this.#commands.set(name, registration);
    this.#register(registration);
    return this;
  }

  /**
   * Register a tool the model can call. With a schema literal the handler's `args` are typed from
   * it (and checked against it at run time unless `validate: false`).
   */
  tool<const S extends ToolSchema = { type: "object" }>(spec: ToolSpec<S>, handler: ToolHandler<ArgsOf<S>>): this {
    const { name } = spec;
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) throw new TypeError(`tool "${name}": a tool name is 1-64 letters, digits, - and _`);
    if (this.#tools.has(name)) throw new TypeError(`tool "${name}" is registered twice`);
    const exposure = spec.exposure ?? (spec.deferred ? "deferred" : undefined);
    const options: ToolOptions = {
      ...(exposure !== undefined && exposure !== "direct" ? { exposure } : {}),
      ...(spec.interactive ? { interactive: true } : {}),
      ...(spec.output_schema ? { output_schema: spec.output_schema } : {}),
      ...(spec.namespace ? { namespace: spec.namespace } : {}),
      ...(spec.namespace_description ? { namespace_description: spec.namespace_description } : {}),
      ...(spec.namespace_instructions ? { namespace_instructions: spec.namespace_instructions } : {}),
      ...(spec.replay ? { replay: spec.replay } : {}),
    };
    const registration = {
      kind: "tool" as const,
      name,
      description: spec.description ?? "",
      schema: spec.schema ?? { type: "object", properties: {} },
      validate: spec.validate ?? true,
      options,
      // The handler's narrower argument type is made true by the validation in #callTool.
      handler: handler as unknown as ToolHandler<Record<string, unknown>>,
    };
    this.#tools.set(name, registration);
    this.#register(registration);
    return this;
  }

  /** Observe a lifecycle event. Several handlers per event run in registration order. */
  on<E extends EventName>(event: E, handler: EventHandler<E>): this {
    if (!(EVENTS as readonly string[]).includes(event)) throw new TypeError(`on("${event}"): events are ${EVENTS.join(", ")}`);
    const list = this.#events.get(event) ?? [];
    const fresh = list.length === 0;
    list.push(handler as EventHandler<EventName>);
    this.#events.set(event, list);
    if (fresh) this.#subscribeLate({ events: [event] });
    return this;
  }

  /**
   * Decide on every tool call before it runs: block it, rewrite its arguments, or answer it
   * yourself. Several interceptors chain in registration order: each sees the previous one's
   * arguments, and the first block or respond ends the chain.
   */
  interceptToolCall(interceptor: Interceptor<ToolCallInterception, ToolCallDecision>): this {
    this.#toolCall.push(interceptor);
    if (this.#toolCall.length === 1) this.#subscribeLate({ intercept: ["tool_call"] });
    return this;
  }

  /** Decide on every model call before it starts: `{ block: true, reason }` ends the turn. */
  interceptTurnStart(interceptor: Interceptor<TurnStartInterception, TurnStartDecision>): this {
    this.#turnStart.push(interceptor);
    if (this.#turnStart.length === 1) this.#subscribeLate({ intercept: ["turn_start"] });
    return this;
  }

  /**
   * Decide on the assistant's text before the user sees it: hide it or replace it. Several
   * interceptors chain: each sees the previous one's text.
   */
  interceptAssistantMessage(interceptor: Interceptor<AssistantMessageInterception, AssistantMessageDecision>): this {
    this.#assistant.push(interceptor);
    if (this.#assistant.length === 1) this.#subscribeLate({ intercept: ["assistant_message"] });
    return this;
  }

  /**
   * Rewrite the system prompt once zot has assembled it, before the model first sees it (and again
   * after a model switch, /clear, a session switch, a reload). Return the new prompt ("" removes
   * it), or nothing to keep it. Several interceptors chain: each sees the previous one's prompt.
   */
  interceptBeforeAgentStart(interceptor: Interceptor<BeforeAgentStartInterception, BeforeAgentStartDecision>): this {
    this.#agentStart.push(interceptor);
    if (this.#agentStart.length === 1) this.#subscribeLate({ intercept: ["before_agent_start"] });
    return this;
  }

  /**
   * Ask zot to run an active tool (a built-in like `read`, or another extension's) through its
   * guards and confirmation; nothing goes into the transcript. Inside a tool handler use
   * `ctx.callTool`, which ties the call to the one being handled. Rejects when zot does not offer
   * call_tool (an older zot) or the connection ends; a refused or failed call resolves with
   * `is_error`. Aborting `signal` sends call_tool_cancel.
   */
  callTool(name: string, args: Record<string, unknown> = {}, options: { signal?: CancelSignal } = {}): Promise<CallToolResult> {
    return this.#call(name, args, undefined, options.signal);
  }

  /** Show a note under the chat, prefixed with this extension's name. Notes clear on the next prompt. */
  notify(level: NotifyLevel, message: string): void {
    this.#send({ type: "notify", level, message });
  }

  /** Take back every note this extension showed (other extensions' notes stay). */
  clearNotes(): void {
    this.#send({ type: "clear_notes" });
  }

  /**
   * Open a panel at any time (from a tool handler, a key handler, a timer); a command opens one by
   * answering {@link openPanel} instead. One panel shows at a time: opening another, yours or
   * another extension's, replaces it. In the TUI it has the keyboard ({@link onPanelKey}) until
   * the user closes it ({@link onPanelClose}) or you do ({@link closePanel}); `zot -p` prints its
   * first render; `--json` and rpc send `panel_open`. Throws on a panel without an id, or fields of
   * the wrong type.
   */
  openPanel(panel: PanelSpec): void {
    this.#send({ type: "open_panel", panel: panelSpec("openPanel", panel) });
  }

  /**
   * Redraw your open panel `id` with whole lines; a field left out (or an empty title) keeps its
   * last value. zot ignores a render for a panel that is not open (its log says so).
   */
  renderPanel(id: string, content: PanelContent): void {
    const { id: _id, ...checked } = panelSpec("renderPanel", { ...content, id });
    this.#send({ type: "panel_render", panel_id: id, ...checked });
  }

  /** Close your open panel `id`. zot does not answer: {@link onPanelClose} is for closes you did not make. */
  closePanel(id: string): void {
    this.#send({ type: "panel_close", panel_id: panelId("closePanel", id) });
  }

  /**
   * Handle a key pressed in one of your panels (`panel_id` says which): redraw it with
   * {@link renderPanel}, close it, submit something. Several handlers run in registration order;
   * keys are handled one at a time, in the order they were pressed.
   */
  onPanelKey(handler: PanelHandler<PanelKey>): this {
    this.#panelKey.push(handler);
    return this;
  }

  /** Learn that the user closed your panel (Esc, Ctrl+C) or another panel replaced it: stop rendering it. */
  onPanelClose(handler: PanelHandler<PanelClosed>): this {
    this.#panelClose.push(handler);
    return this;
  }

  /** Learn the room your panel has (when it first draws, and when the terminal is resized): window long content to `height`. */
  onPanelResize(handler: PanelHandler<PanelSize>): this {
    this.#panelResize.push(handler);
    return this;
  }

  /**
   * Send `text` as a prompt as if the user typed it: it starts a turn when zot is idle and waits in
   * the queue otherwise. The TUI only: `-p`, `--json` and rpc ignore it (this extension's log says
   * so). Throws on an empty text.
   */
  submit(text: string): void {
    if (typeof text !== "string" || !text.trim()) throw new TypeError("submit: the text is empty");
    this.#send({ type: "submit", text });
  }

  /**
   * Run a slash command as if the user typed it (`"/compact"`, `"/review src"`), a built-in or any
   * extension's; the model is not called. The TUI only, like {@link submit}. Throws on a text that
   * does not start with `/`.
   */
  submitSlash(text: string): void {
    if (typeof text !== "string" || !text.trim().startsWith("/")) {
      throw new TypeError(`submitSlash: ${JSON.stringify(text)} is not a slash command; it starts with "/" (e.g. "/compact")`);
    }
    this.#send({ type: "submit_slash", text });
  }

  /** Write a line to stderr, which zot keeps in `$ZOT_HOME/logs/ext-<name>.log` (`zot ext logs <name>`). */
  log(...parts: unknown[]): void {
    runtime.console.error(`[${this.name}]`, ...parts);
  }

  /**
   * Connect to zot: send hello, the registrations in the order they were made, one subscribe
   * (listing only events and intercepts that have handlers), then ready; then answer the host's
   * frames until it says shutdown (answered with shutdown_ack) or closes stdin. Each request is
   * handled on its own, so a slow tool never delays a command or an interceptor.
   */
  async run(options: RunOptions = {}): Promise<void> {
    if (this.#state !== "new") throw new Error("run() was already called");
    const lines = runtime.console[Symbol.asyncIterator];
    if (!lines) throw new Error("@zot/sdk needs the Bun runtime: set \"exec\" in extension.json to the .ts or .js file, and zot runs it");
    // From here on stdout carries only frames: a debugging console.log would break the wire.
    runtime.console.log = runtime.console.info = runtime.console.debug = (...data: unknown[]) => runtime.console.error(...data);

    const capabilities: string[] = [];
    if (this.#commands.size > 0) capabilities.push("commands");
    if (this.#tools.size > 0) capabilities.push("tools");
    if (this.#events.size > 0 || this.#interceptNames().length > 0) capabilities.push("events");
    // Handlers learn of a cancelled call through ctx.signal; any code may call tools.
    capabilities.push("tool_cancel", "call_tool");
    this.#write({ type: "hello", name: this.name, version: this.version, capabilities });
    for (const registration of this.#registrations) this.#write(registrationFrame(registration));
    const events = EVENTS.filter((event) => this.#events.has(event));
    const intercept = this.#interceptNames();
    if (events.length > 0 || intercept.length > 0) {
      this.#write({ type: "subscribe", ...(events.length > 0 ? { events } : {}), ...(intercept.length > 0 ? { intercept } : {}) });
    }
    this.#write({ type: "ready" });
    this.#state = "running";
    for (const frame of this.#pending.splice(0)) this.#write(frame);

    let shutdown = false;
    for await (const raw of { [Symbol.asyncIterator]: lines.bind(runtime.console) }) {
      const line = raw.trim();
      if (line === "") continue;
      let frame: unknown;
      try {
        frame = JSON.parse(line);
      } catch {
        this.log(`skipping a line from zot that is not JSON: ${line.slice(0, 200)}`);
        continue;
      }
      if (!isRecord(frame)) continue;
      if (frame.type === "shutdown") {
        this.#write({ type: "shutdown_ack" });
        // The ack is the last frame: zot has stopped listening, so late replies are dropped.
        this.#state = "done";
        shutdown = true;
        break;
      }
      this.#dispatch(frame);
    }
    if (!shutdown) this.log("zot closed stdin; stopping");
    this.#endCalls(shutdown ? "zot shut down" : "zot closed the connection");
    // Running handlers get a moment to finish their side effects (an audit line, a file).
    await this.#drain();
    this.#state = "done";
    if (options.exit ?? true) runtime.process.exit(0);
  }

  // ── inbound frames ──

  #dispatch(frame: Record<string, unknown>): void {
    switch (frame.type) {
      case "hello_ack":
        this.#host = hostInfo(frame);
        if (this.#host.protocol_version !== PROTOCOL_VERSION) {
          this.log(`zot speaks extension protocol ${this.#host.protocol_version}, this SDK ${PROTOCOL_VERSION}; carrying on`);
        }
        return;
      case "command_invoked":
        return this.#request(
          frame,
          (id) => this.#runCommand(id, str(frame.name), str(frame.args)),
          (id) => ({ type: "command_response", id, action: "noop", error: `/${str(frame.name)} failed` }),
        );
      case "tool_call":
        return this.#request(
          frame,
          (id) => this.#callTool(id, str(frame.name), isRecord(frame.args) ? frame.args : {}),
          (id) => ({ type: "tool_result", id, ...errorResult(`tool "${str(frame.name)}" failed inside the extension`) }),
        );
      case "event_intercept":
        return this.#request(
          frame,
          (id) => this.#intercept(id, frame),
          // What went wrong past the interceptor: a guard refuses the tool call, anything else allows.
          (id) => (frame.event === "tool_call" && isGuard() ? guardRefusal(id, this.name, "its answer could not be made") : { type: "event_intercept_response", id }),
        );
      case "event":
        return this.#event(frame);
      case "tool_cancel":
        this.#handling.get(String(frame.id))?.abort(new Error("zot cancelled the call"));
        return;
      case "tool_result":
        return this.#callAnswered(frame);
      case "panel_key":
        return this.#panelFrame("panel_key", this.#panelKey, {
          panel_id: str(frame.panel_id),
          key: str(frame.key) as PanelKeyName,
          ...(typeof frame.text === "string" ? { text: frame.text } : {}),
        });
      case "panel_close":
        return this.#panelFrame("panel_close", this.#panelClose, { panel_id: str(frame.panel_id) });
      case "panel_resize":
        return this.#panelFrame("panel_resize", this.#panelResize, { panel_id: str(frame.panel_id), width: num(frame.width), height: num(frame.height) });
      default:
        // Frames of a newer host (or of features this SDK lacks) are not an error.
        return;
    }
  }

  // Starts a request's handler without waiting for it, and remembers it for the drain at shutdown.
  // A handler sends its one reply as its last step, so if it throws, nothing was sent yet and the
  // fallback goes out instead: every request gets exactly one reply.
  #request(frame: Record<string, unknown>, handle: (id: FrameId) => Promise<void>, fallback: (id: FrameId) => OutFrame): void {
    const id = frame.id;
    if (typeof id !== "string" && typeof id !== "number") {
      this.log(`skipping a ${String(frame.type)} frame without an id`);
      return;
    }
    const task = handle(id).catch((err: unknown) => {
      this.log(`handling ${String(frame.type)} ${id} failed:`, err);
      this.#send(fallback(id));
    });
    this.#inflight.add(task);
    void task.finally(() => this.#inflight.delete(task));
  }

  async #runCommand(id: FrameId, name: string, args: string): Promise<void> {
    const registration = this.#commands.get(name);
    if (!registration) {
      this.#send({ type: "command_response", id, action: "noop", error: `no handler for /${name}` });
      return;
    }
    let frame: OutFrame;
    try {
      const returned: unknown = await registration.handler(args, { id, name, host: this.#host });
      frame = commandFrame(id, commandResponse(name, returned));
    } catch (err) {
      this.log(`/${name} failed:`, err);
      frame = commandFrame(id, error(messageOf(err)));
    }
    this.#send(frame, { type: "command_response", id, action: "noop", error: `/${name} answered something that is not JSON` });
  }

  async #callTool(id: FrameId, name: string, args: Record<string, unknown>): Promise<void> {
    const registration = this.#tools.get(name);
    if (!registration) {
      this.#send({ type: "tool_result", id, ...errorResult(`no handler for tool "${name}"`) });
      return;
    }
    const controller = new runtime.AbortController();
    const key = String(id);
    this.#handling.set(key, controller);
    let result: ToolResult;
    try {
      const invalid = registration.validate ? checkArgs(name, registration.schema, args) : undefined;
      if (invalid !== undefined) {
        result = errorResult(invalid);
      } else {
        try {
          const ctx: ToolContext = {
            id,
            name,
            host: this.#host,
            signal: controller.signal,
            callTool: (tool, toolArgs = {}, options = {}) => this.#call(tool, toolArgs, id, options.signal),
          };
          result = toolResult(await registration.handler(args, ctx));
        } catch (err) {
          if (!controller.signal.aborted) this.log(`tool ${name} failed:`, err);
          result = errorResult(messageOf(err));
        }
      }
    } finally {
      this.#handling.delete(key);
    }
    // zot gave up on the call: it ignores a late result, so none is sent.
    if (controller.signal.aborted) return;
    const extra = {
      ...(result.is_error ? { is_error: true } : {}),
      ...(result.activate_tools && result.activate_tools.length > 0 ? { activate_tools: result.activate_tools } : {}),
      ...(result.structured_content !== undefined ? { structured_content: result.structured_content } : {}),
    };
    this.#send(
      { type: "tool_result", id, content: result.content, ...extra },
      { type: "tool_result", id, ...errorResult(`tool "${name}" returned something that is not JSON`) },
    );
  }

  #call(name: string, args: Record<string, unknown>, parent: FrameId | undefined, signal: CancelSignal | undefined): Promise<CallToolResult> {
    if (this.#state !== "running") return Promise.reject(new Error(`callTool("${name}"): the extension is not connected to zot (call it after run() has started)`));
    if (!this.#host?.capabilities.includes("call_tool")) {
      return Promise.reject(new Error(`callTool("${name}"): this zot does not offer call_tool (hello_ack.capabilities); update zot`));
    }
    if (signal?.aborted) return Promise.reject(new Error(`callTool("${name}"): cancelled before it was sent`));
    const id = `call-${++this.#nextCall}`;
    return new Promise<CallToolResult>((resolve, reject) => {
      const onAbort = () => this.#write({ type: "call_tool_cancel", id });
      signal?.addEventListener("abort", onAbort, { once: true });
      const done = () => {
        signal?.removeEventListener("abort", onAbort);
        this.#calls.delete(id);
      };
      this.#calls.set(id, {
        resolve: (result) => {
          done();
          resolve(result);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      this.#write({ type: "call_tool", id, name, args, ...(parent !== undefined ? { parent_id: parent } : {}) });
    });
  }

  #callAnswered(frame: Record<string, unknown>): void {
    const waiting = this.#calls.get(String(frame.id));
    if (!waiting) return this.log(`a tool_result from zot for ${JSON.stringify(frame.id)}, which no callTool waits for; ignored`);
    waiting.resolve({
      name: str(frame.name),
      content: Array.isArray(frame.content) ? (frame.content as ContentBlock[]) : [],
      is_error: frame.is_error === true,
      truncated: frame.truncated === true,
      ...(frame.structured_content !== undefined ? { structured_content: frame.structured_content } : {}),
    });
  }

  /** The connection is over: handlers are cancelled, waiting callers fail. */
  #endCalls(why: string): void {
    for (const handler of this.#handling.values()) handler.abort(new Error(why));
    for (const waiting of [...this.#calls.values()]) waiting.reject(new Error(`callTool: ${why} before answering`));
  }

  // Every event_intercept gets exactly one response. An interceptor that throws counts as "allow"
  // (the rest of the chain still decides) and is logged, as zot allows a call an extension does not
  // answer. A guard (`"fail_closed": true`, said in ZOT_EXTENSION_FAIL_CLOSED) is the exception at
  // tool_call: zot refuses what it does not answer, and so does the SDK what its interceptor could
  // not judge, or an answer it cannot send.
  async #intercept(id: FrameId, frame: Record<string, unknown>): Promise<void> {
    const event = frame.event;
    if (event === "tool_call") {
      const call: ToolCallInterception = {
        tool_id: str(frame.tool_id),
        tool_name: str(frame.tool_name),
        tool_args: isRecord(frame.tool_args) ? frame.tool_args : {},
        ...(typeof frame.origin_extension === "string" ? { origin_extension: frame.origin_extension } : {}),
      };
      let rewritten: Record<string, unknown> | undefined;
      // A guard (`"fail_closed": true`, which zot says in ZOT_EXTENSION_FAIL_CLOSED) refuses a call its
      // own code could not judge, as zot refuses one the guard does not answer.
      const guard = isGuard();
      const refuse = (why: string) => this.#send(guardRefusal(id, this.name, why));
      // The answer if this one cannot be sent (a BigInt or a cycle in it): refused for a guard, allowed with the call as it was otherwise.
      const unsendable = guard ? guardRefusal(id, this.name, "its answer could not be sent") : { type: "event_intercept_response" as const, id };
      for (const interceptor of this.#toolCall) {
        const decision = await this.#decide(interceptor, { ...call, tool_args: rewritten ?? call.tool_args }, "tool_call");
        if (decision instanceof Error) {
          if (guard) return refuse(`its interceptor failed: ${messageOf(decision)}`);
          continue;
        }
        if (!isRecord(decision)) continue;
        if (decision.block === true) {
          return this.#send({ type: "event_intercept_response", id, block: true, reason: str(decision.reason) || `refused by ${this.name}` });
        }
        if ("respond" in decision && decision.respond !== undefined) {
          return this.#send({ type: "event_intercept_response", id, respond: toolResult(decision.respond) }, unsendable);
        }
        if ("args" in decision) {
          if (isRecord(decision.args)) rewritten = decision.args;
          else if (guard) return refuse("its args were not a JSON object");
          else this.log("interceptToolCall: ignoring args that are not a JSON object");
        }
      }
      return this.#send({ type: "event_intercept_response", id, ...(rewritten ? { modified_args: rewritten } : {}) }, unsendable);
    }
    if (event === "turn_start") {
      const turn: TurnStartInterception = { step: num(frame.step) };
      for (const interceptor of this.#turnStart) {
        const decision = await this.#decide(interceptor, turn, "turn_start");
        if (!(decision instanceof Error) && isRecord(decision) && decision.block === true) {
          return this.#send({ type: "event_intercept_response", id, block: true, reason: str(decision.reason) || `turn blocked by ${this.name}` });
        }
      }
      return this.#send({ type: "event_intercept_response", id });
    }
    if (event === "assistant_message") {
      const original = str(frame.text);
      let current = original;
      for (const interceptor of this.#assistant) {
        const decision = await this.#decide(interceptor, { text: current }, "assistant_message");
        if (decision instanceof Error || !isRecord(decision)) continue;
        if (decision.block === true) {
          return this.#send({ type: "event_intercept_response", id, block: true, ...(decision.reason ? { reason: str(decision.reason) } : {}) });
        }
        if (typeof decision.text === "string") current = decision.text;
      }
      return this.#send({ type: "event_intercept_response", id, ...(current !== original ? { replace_text: current } : {}) });
    }
    if (event === "before_agent_start") {
      const original = str(frame.system_prompt);
      const base = {
        provider: str(frame.provider),
        model: str(frame.model),
        cwd: str(frame.cwd),
        session_id: str(frame.session_id),
        agent_run_id: str(frame.agent_run_id),
      };
      let current = original;
      for (const interceptor of this.#agentStart) {
        try {
          const answer = await interceptor({ ...base, system_prompt: current });
          if (typeof answer === "string") current = answer;
          else if (answer !== undefined && answer !== null) this.log("interceptBeforeAgentStart: ignoring an answer that is not a string");
        } catch (err) {
          this.log("a before_agent_start interceptor threw; keeping the prompt:", err);
        }
      }
      return this.#send({ type: "event_intercept_response", id, ...(current !== original ? { system_prompt: current } : {}) });
    }
    // An intercept this SDK does not know: allow, as zot would on silence, but without the wait.
    this.#send({ type: "event_intercept_response", id });
  }

  /** The interceptor's decision; what it threw, as an Error (allowed, but by a guard at tool_call). */
  async #decide<In, D>(interceptor: Interceptor<In, D>, input: In, stage: string): Promise<Record<string, unknown> | undefined | Error> {
    try {
      const decision = await interceptor(input);
      return isRecord(decision) ? decision : undefined;
    } catch (err) {
      const guard = stage === "tool_call" && isGuard();
      this.log(`a ${stage} interceptor threw; ${guard ? "refusing the call (a guard)" : "allowing"}:`, err);
      return err instanceof Error ? err : new Error(messageOf(err));
    }
  }

  #event(frame: Record<string, unknown>): void {
    const name = frame.event;
    if (typeof name !== "string" || !(EVENTS as readonly string[]).includes(name)) return;
    const handlers = this.#events.get(name as EventName);
    if (!handlers) return;
    const payload = eventPayload(name as EventName, frame);
    // Events run one at a time in arrival order, so an audit log stays in order.
    this.#eventJobs.add(() => this.#runEach(handlers, payload, name));
  }

  // Keys, closes and resizes run one at a time in arrival order: a key's redraw is done before the
  // next key is handled, and a close comes after the keys pressed before it.
  #panelFrame<P>(type: string, handlers: PanelHandler<P>[], panel: P): void {
    if (handlers.length === 0) return;
    this.#panelJobs.add(() => this.#runEach(handlers, panel, type));
  }

  /** Each handler in turn, awaited; one that throws is logged (as `a <what> handler threw`) and the next still runs. */
  async #runEach<P>(handlers: readonly ((payload: P) => unknown)[], payload: P, what: string): Promise<void> {
    for (const handler of handlers) {
      try {
        await handler(payload);
      } catch (err) {
        this.log(`a ${what} handler threw:`, err);
      }
    }
  }

  // ── outbound frames ──

  #register(registration: Registration): void {
    this.#registrations.push(registration);
    // The host takes registrations at any time; tools registered late reach the model at the next rebuild.
    if (this.#state === "running") this.#write(registrationFrame(registration));
  }

  #subscribeLate(subscription: { events?: string[]; intercept?: string[] }): void {
    // Before run() the one subscribe frame lists everything; after it, the host unions extra frames.
    if (this.#state === "running") this.#write({ type: "subscribe", ...subscription });
  }

  #interceptNames(): InterceptName[] {
    const names: InterceptName[] = [];
    if (this.#toolCall.length > 0) names.push("tool_call");
    if (this.#turnStart.length > 0) names.push("turn_start");
    if (this.#assistant.length > 0) names.push("assistant_message");
    if (this.#agentStart.length > 0) names.push("before_agent_start");
    return names;
  }

  #send(frame: OutFrame, fallback?: OutFrame): void {
    // hello must be the first frame, so anything sent before run() waits for it.
    if (this.#state === "new") this.#pending.push(frame);
    else if (this.#state === "running") this.#write(frame, fallback);
  }

  // `fallback` is what a reply becomes when a handler's answer cannot be encoded (a BigInt, a
  // cycle), so the host still hears back about that id.
  #write(frame: OutFrame, fallback?: OutFrame): void {
    let line: string;
    try {
      line = JSON.stringify(frame);
    } catch (err) {
      this.log(`could not encode a ${frame.type} frame:`, err);
      if (!fallback) return;
      line = JSON.stringify(fallback);
    }
    try {
      // One call, one line: JavaScript runs it to completion, so frames never interleave.
      this.#wire(line);
    } catch (err) {
      this.log("could not write to zot:", err);
    }
  }

  async #drain(): Promise<void> {
    let timer: unknown;
    const deadline = new Promise<void>((resolve) => {
      timer = runtime.setTimeout(resolve, DRAIN_MS);
    });
    await Promise.race([Promise.allSettled([...this.#inflight, this.#eventJobs.idle, this.#panelJobs.idle]), deadline]);
    runtime.clearTimeout(timer);
  }
}

/** Create an extension. Register its commands, tools, event handlers and interceptors, then `await ext.run()`. */
export function extension(options: ExtensionOptions): Extension {
  return new Extension(options);
}

// ── conversions ─────────────────────────────────────────────────────────────────────────────

function registrationFrame(registration: Registration): OutFrame {
  return registration.kind === "command"
    ? { type: "register_command", name: registration.name, description: registration.description }
    : { type: "register_tool", name: registration.name, description: registration.description, schema: registration.schema, ...registration.options };
}

function commandFrame(id: FrameId, response: CommandResponse): OutFrame {
  switch (response.action) {
    case "display":
      return { type: "command_response", id, action: "display", display: response.text };
    case "insert":
      return { type: "command_response", id, action: "insert", insert: response.text };
    case "prompt":
      return { type: "command_response", id, action: "prompt", prompt: response.prompt };
    case "tool_prompt":
      return { type: "command_response", id, action: "tool_prompt", prompt: response.prompt, tool_name: response.tool_name, tool_args: response.tool_args };
    case "open_panel":
      return { type: "command_response", id, action: "open_panel", open_panel: panelSpec("openPanel", response.open_panel) };
    case "error":
      // noop + error is the form every zot host understands (the original rejects action "error").
      return { type: "command_response", id, action: "noop", error: response.error || "command failed" };
    case "noop":
      return { type: "command_response", id, action: "noop" };
  }
}

// What a command handler returned, as a response. Takes `unknown` because JavaScript callers can
// return anything; what is no response fails the command, naming it, rather than doing nothing.
function commandResponse(name: string, value: unknown): CommandResponse {
  if (value === undefined || value === null) return noop();
  if (typeof value === "string") return display(value);
  if (isRecord(value) && typeof value.action === "string" && COMMAND_ACTIONS.includes(value.action)) return value as CommandResponse;
  const what = isRecord(value) && typeof value.action === "string" ? `the unknown action ${JSON.stringify(value.action)}` : describe(value);
  throw new TypeError(
    `/${name} answered ${what}; a command returns display(…), prompt(…), insert(…), openPanel(…), toolPrompt(…), noop(), error(…), a string or nothing`,
  );
}

// Checks a panel as JavaScript callers may build it, so that a wrong field fails here, naming it,
// rather than as a frame zot refuses; only the protocol's fields go out.
function panelSpec(call: string, panel: PanelSpec): PanelSpec {
  if (!isRecord(panel)) throw new TypeError(`${call}: the panel must be an object with an id`);
  const spec: PanelSpec = { id: panelId(call, panel.id) };
  for (const field of ["title", "footer"] as const) {
    const value = panel[field];
    if (value === undefined) continue;
    if (typeof value !== "string") throw new TypeError(`${call}: the panel's ${field} must be a string, not ${describe(value)}`);
    spec[field] = value;
  }
  if (panel.lines !== undefined) {
    if (!Array.isArray(panel.lines)) throw new TypeError(`${call}: the panel's lines must be an array of strings, not ${describe(panel.lines)}`);
    const wrong = panel.lines.findIndex((line) => typeof line !== "string");
    if (wrong >= 0) throw new TypeError(`${call}: the panel's lines must be strings; line ${wrong} is ${describe(panel.lines[wrong])}`);
    spec.lines = [...panel.lines];
  }
  return spec;
}

function panelId(call: string, id: unknown): string {
  if (typeof id !== "string" || id === "") {
    throw new TypeError(`${call}: a panel needs an id, a non-empty string${id === undefined ? "" : ` (not ${describe(id)})`}`);
  }
  return id;
}

// Takes `unknown` because JavaScript callers (and interceptor decisions) can return anything;
// whatever is not a ToolReturn is shown to the model as JSON rather than lost.
function toolResult(value: unknown): ToolResult {
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === "string") return { content: [text(value)] };
  if (Array.isArray(value)) return { content: value as ContentBlock[] };
  if (isRecord(value) && Array.isArray(value.content)) {
    const result: ToolResult = { content: value.content as ContentBlock[] };
    if (value.is_error === true) result.is_error = true;
    if (Array.isArray(value.activate_tools)) result.activate_tools = value.activate_tools.filter((n): n is string => typeof n === "string");
    if (value.structured_content !== undefined) result.structured_content = value.structured_content;
    return result;
  }
  if (isRecord(value) && (value.type === "text" || value.type === "image")) return { content: [value as unknown as ContentBlock] };
  return { content: [text(typeof value === "object" ? (JSON.stringify(value) ?? "") : String(value))] };
}

function hostInfo(frame: Record<string, unknown>): HostInfo {
  return {
    protocol_version: num(frame.protocol_version),
    zot_version: str(frame.zot_version),
    provider: str(frame.provider),
    model: str(frame.model),
    cwd: str(frame.cwd),
    extension_dir: str(frame.extension_dir),
    // The original zot sent the extension directory as data_dir, and older hosts may send neither.
    data_dir: str(frame.data_dir) || str(frame.extension_dir),
    capabilities: Array.isArray(frame.capabilities) ? frame.capabilities.filter((c): c is string => typeof c === "string") : [],
  };
}

function eventPayload(name: EventName, frame: Record<string, unknown>): EventMap[EventName] {
  const base = { session_id: str(frame.session_id), cwd: str(frame.cwd), sequence: num(frame.sequence) };
  const origin = typeof frame.origin_extension === "string" ? { origin_extension: frame.origin_extension } : {};
  const args = isRecord(frame.tool_args) ? frame.tool_args : {};
  const error = typeof frame.error === "string" && frame.error ? { error: frame.error } : {};
  switch (name) {
    case "session_start":
    case "subagent_start":
    case "subagent_stop":
      return { event: name, ...base };
    case "session_end":
      return { event: name, reason: str(frame.reason), ...base };
    case "user_prompt_submit":
      return { event: name, text: str(frame.text), image_count: num(frame.image_count), ...base };
    case "turn_start":
      return { event: name, step: num(frame.step), ...base };
    case "tool_call":
      return { event: name, tool_id: str(frame.tool_id), tool_name: str(frame.tool_name), tool_args: args, ...origin, ...base };
    case "tool_confirmation_requested":
      return { event: name, tool_id: str(frame.tool_id), tool_name: str(frame.tool_name), tool_preview: str(frame.tool_preview), ...base };
    case "permission_decision":
      return {
        event: name,
        tool_id: str(frame.tool_id),
        tool_name: str(frame.tool_name),
        decision: str(frame.decision),
        source: str(frame.source),
        stage: str(frame.stage),
        ...(typeof frame.reason === "string" ? { reason: frame.reason } : {}),
        ...origin,
        ...base,
      };
    case "tool_result": {
      const result = isRecord(frame.result) ? frame.result : {};
      return {
        event: name,
        tool_id: str(frame.tool_id),
        tool_name: str(frame.tool_name),
        tool_args: args,
        status: str(frame.status),
        executed: frame.executed === true,
        result: {
          content: Array.isArray(result.content) ? (result.content as ContentBlock[]) : [],
          is_error: result.is_error === true,
          ...(result.truncated === true ? { truncated: true } : {}),
        },
        ...origin,
        ...base,
      };
    }
    case "assistant_message":
      return { event: name, text: str(frame.text), ...base };
    case "turn_end":
      return { event: name, stop: str(frame.stop), ...error, ...base };
    case "pre_compact":
      return { event: name, compaction_id: str(frame.compaction_id), message_count: num(frame.message_count), token_estimate: num(frame.token_estimate), ...base };
    case "post_compact":
      return {
        event: name,
        compaction_id: str(frame.compaction_id),
        message_count: num(frame.message_count),
        token_estimate: num(frame.token_estimate),
        status: str(frame.status),
        ...error,
        ...base,
      };
  }
}

// Checks what the handler's types promise: required arguments, top-level types and enums. An
// optional argument sent as null (some models do) is removed, so the handler sees it as absent.
function checkArgs(tool: string, schema: ToolSchema, args: Record<string, unknown>): string | undefined {
  const properties = schema.properties ?? {};
  for (const key of schema.required ?? []) {
    if (args[key] === undefined) return `${tool}: argument "${key}" is required${expected(properties[key])}; call the tool again with it`;
  }
  for (const [key, property] of Object.entries(properties)) {
    const value = args[key];
    if (value === undefined) continue;
    const types = property.type === undefined ? [] : typeof property.type === "string" ? [property.type] : property.type;
    if (value === null && !(schema.required ?? []).includes(key) && types.length > 0 && !types.includes("null")) {
      delete args[key];
      continue;
    }
    if (types.length > 0 && !types.some((type) => hasType(value, type))) {
      return `${tool}: argument "${key}" must be ${types.map(article).join(" or ")}, not ${describe(value)}`;
    }
    if (property.enum && !property.enum.includes(value as string | number | boolean | null)) {
      return `${tool}: argument "${key}" must be one of ${property.enum.map((e) => JSON.stringify(e)).join(", ")}, not ${JSON.stringify(value)}`;
    }
  }
  return undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

function expected(property: PropertySchema | undefined): string {
  const type = property?.type;
  return typeof type === "string" ? ` (${type})` : "";
}

function article(type: string): string {
  return type === "null" ? "null" : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function num(value: unknown): number {
  return typeof value === "number" ? value : 0;
}

/** What was thrown, as text, even when reading it throws (a message getter that throws, no prototype). */
function messageOf(err: unknown): string {
  try {
    if (err instanceof Error) return String(err.message || err.name);
    return String(err);
  } catch {
    return "a value that cannot be printed";
  }
}
