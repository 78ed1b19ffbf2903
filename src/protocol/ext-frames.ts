// The zot extension protocol (NDJSON over an extension's stdin/stdout), both directions.
// Rule: frames from an extension are parsed here before anything trusts them; a frame that does
// not parse is logged and skipped by the host, never fatal; unknown fields are ignored. Ids zot
// originates are decimal strings ("1", "2", …: the original's SDKs decode only strings); replies are
// matched whether their id comes back as a string or a number.
import * as v from "valibot";

export const PROTOCOL_VERSION = 1;

export const FrameId = v.union([v.string(), v.number()]);
export type FrameId = v.InferOutput<typeof FrameId>;

/** Every event name of the current protocol; an extension may subscribe to any of them. */
export const EXT_EVENTS = [
  "session_start",
  "session_end",
  "user_prompt_submit",
  "turn_start",
  "turn_end",
  "tool_call",
  "tool_confirmation_requested",
  "permission_decision",
  "tool_result",
  "assistant_message",
  "pre_compact",
  "post_compact",
  "subagent_start",
  "subagent_stop",
] as const;
/**
 * What an extension may intercept. `before_agent_start` (the system prompt, once assembled and
 * before the first model call) is no event of the agent loop: extensions answer it in load order,
 * outside the interception chain's priority order (src/extensions/agent-start.ts).
 */
export const EXT_INTERCEPTS = ["tool_call", "turn_start", "assistant_message", "before_agent_start"] as const;
/** Event names that exist in the protocol but can only be observed, never intercepted. */
export const EXT_OBSERVE_ONLY: ReadonlySet<string> = new Set(EXT_EVENTS.filter((e) => !(EXT_INTERCEPTS as readonly string[]).includes(e)));
export type ExtEventName = (typeof EXT_EVENTS)[number];
export type ExtInterceptName = (typeof EXT_INTERCEPTS)[number];

/** A content block from an extension: text or base64 image; unknown types are kept and reported. */
export const ExtBlock = v.looseObject({
  type: v.string(),
  text: v.optional(v.string()),
  mime_type: v.optional(v.string()),
  data: v.optional(v.string()),
  /** text only, a display hint: "markdown" is drawn as Markdown in the TUI; the model gets the raw text; other values are plain text */
  format: v.optional(v.string()),
});
export type ExtBlock = v.InferOutput<typeof ExtBlock>;

// ── extension → host ────────────────────────────────────────────────────────────────────────

export const HelloFrame = v.object({
  type: v.literal("hello"),
  name: v.pipe(v.string(), v.minLength(1)),
  version: v.optional(v.string()),
  capabilities: v.optional(v.array(v.string())),
});
export const RegisterCommandFrame = v.object({
  type: v.literal("register_command"),
  name: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]+$/, "a command name is letters, digits, - and _")),
  description: v.optional(v.string()),
});
/** How a tool is offered: to the model at once (direct), after activate_tools names it (deferred), to programmatic callers only (codemode: call_tool), or to the model only (model-only: not through call_tool). */
export const TOOL_EXPOSURES = ["direct", "deferred", "codemode", "model-only"] as const;
export type ToolExposure = (typeof TOOL_EXPOSURES)[number];
/** What `zot continuous` may do with the call after a crash; kept, unused by this zot (no continuous mode). */
export const TOOL_REPLAYS = ["never", "safe", "idempotent", "reconcile"] as const;
export type ToolReplay = (typeof TOOL_REPLAYS)[number];
export const RegisterToolFrame = v.object({
  type: v.literal("register_tool"),
  name: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "a tool name is 1-64 letters, digits, - and _")),
  description: v.optional(v.string()),
  /** JSON Schema of the arguments object */
  schema: v.optional(v.record(v.string(), v.unknown())),
  /** JSON Schema of the tool's structured_content, for programmatic callers; not checked against results */
  output_schema: v.optional(v.unknown()),
  /** discovery context (default: the extension's name) */
  namespace: v.optional(v.string()),
  namespace_description: v.optional(v.string()),
  namespace_instructions: v.optional(v.string()),
  /** one of TOOL_EXPOSURES; wins over `deferred`; any other value: the tool is skipped (a diagnostic says so) */
  exposure: v.optional(v.string()),
  /** the legacy form of exposure "deferred" */
  deferred: v.optional(v.boolean()),
  /** the call waits for a person: no reply deadline, and refused where nobody can interact (-p, --json, rpc) */
  interactive: v.optional(v.boolean()),
  /** one of TOOL_REPLAYS (default never); any other value counts as never (a diagnostic says so) */
  replay: v.optional(v.string()),
});
export const ReadyFrame = v.object({ type: v.literal("ready") });
export const SubscribeFrame = v.object({
  type: v.literal("subscribe"),
  events: v.optional(v.array(v.string())),
  intercept: v.optional(v.array(v.string())),
});
export const EventInterceptResponseFrame = v.object({
  type: v.literal("event_intercept_response"),
  id: FrameId,
  /**
   * before_agent_start: the system prompt from here on; "" removes it, leaving it out keeps it.
   * Anything but a string (up to 1 MiB) is ignored with a diagnostic: `unknown`, so that a wrong
   * type costs only this field, never the frame.
   */
  system_prompt: v.optional(v.unknown()),
  block: v.optional(v.boolean()),
  reason: v.optional(v.string()),
  /** tool_call: the args the tool will receive; must be a JSON object */
  modified_args: v.optional(v.unknown()),
  /** assistant_message: the text the user sees instead */
  replace_text: v.optional(v.string()),
  /** tool_call (additive in protocol 1): the tool is not run; this result goes to the model */
  respond: v.optional(v.object({ content: v.array(ExtBlock), is_error: v.optional(v.boolean()) })),
});
export const ToolResultFrame = v.object({
  type: v.literal("tool_result"),
  id: FrameId,
  content: v.optional(v.array(ExtBlock), []),
  is_error: v.optional(v.boolean()),
  /** deferred tools to offer the model from its next request on; unknown names are ignored (logged) */
  activate_tools: v.optional(v.array(v.string())),
  /** the typed result for a tool with an output_schema (call_tool callers get it back); may come with is_error */
  structured_content: v.optional(v.unknown()),
});
/** Ask zot to run an active tool (built-in or any extension's); needs "call_tool" in hello.capabilities. */
export const CallToolFrame = v.object({
  type: v.literal("call_tool"),
  /** chosen by the extension; several calls may be outstanding under different ids */
  id: v.union([v.pipe(v.string(), v.minLength(1, "an id must not be empty")), v.number()]),
  name: v.pipe(v.string(), v.minLength(1)),
  args: v.optional(v.record(v.string(), v.unknown()), {}),
  /** the id of the host tool_call this extension is handling: the nested call inherits its cancellation */
  parent_id: v.optional(FrameId),
});
/** Cancel an outstanding call_tool. */
export const CallToolCancelFrame = v.object({ type: v.literal("call_tool_cancel"), id: FrameId });
/**
 * What a command's answer did, as events report it (`open_panel` opened one of the extension's
 * panels; `tool_prompt` ran a tool into the transcript, then the prompt as a turn).
 */
export const CommandAction = v.picklist(["prompt", "insert", "display", "noop", "error", "open_panel", "tool_prompt"]);
/** A panel's contents: what `open_panel` and `panel_render` carry. */
export const PanelContent = v.object({
  title: v.optional(v.string()),
  lines: v.optional(v.array(v.string())),
  footer: v.optional(v.string()),
});
export type PanelContent = v.InferOutput<typeof PanelContent>;
export const PanelSpec = v.object({ id: v.pipe(v.string(), v.minLength(1)), ...PanelContent.entries });
export type PanelSpec = v.InferOutput<typeof PanelSpec>;
/** A panel as front ends draw it: its owner, its id and its whole content (the title defaults to the extension's name). */
export type PanelView = { extension: string; id: string } & Required<PanelContent>;
export const CommandResponseFrame = v.object({
  type: v.literal("command_response"),
  id: FrameId,
  /** any string: an action this zot does not know is answered as an error naming it, never a broken frame */
  action: v.optional(v.string()),
  prompt: v.optional(v.string()),
  insert: v.optional(v.string()),
  display: v.optional(v.string()),
  open_panel: v.optional(PanelSpec),
  /** tool_prompt: the tool to run (through the interception chain and the confirmation gate) before the prompt */
  tool_name: v.optional(v.string()),
  /** tool_prompt: its arguments, a JSON object (default {}) */
  tool_args: v.optional(v.unknown()),
  error: v.optional(v.string()),
});
export const NotifyLevel = v.picklist(["info", "success", "warn", "error"]);
export type NotifyLevel = v.InferOutput<typeof NotifyLevel>;
/** Any level an extension names: the original's SDK took any string (notifyLevel reads it). */
export const NotifyFrame = v.object({
  type: v.literal("notify"),
  level: v.optional(v.string(), "info"),
  message: v.string(),
});

/** A note's level as zot shows it: its own four, `warning` as warn, anything else (`debug`, "") as info. */
export function notifyLevel(level: string): NotifyLevel {
  const lower = level.toLowerCase();
  if (lower === "warning") return "warn";
  return (NotifyLevel.options as readonly string[]).includes(lower) ? (lower as NotifyLevel) : "info";
}
export const ClearNotesFrame = v.object({ type: v.literal("clear_notes") });
/** Opens a panel at any time (from a tool handler, a timer), not only as a command's answer. */
export const OpenPanelFrame = v.object({ type: v.literal("open_panel"), panel: PanelSpec });
export const PanelRenderFrame = v.object({
  type: v.literal("panel_render"),
  panel_id: v.string(),
  ...PanelContent.entries,
});
export const PanelCloseFrame = v.object({ type: v.literal("panel_close"), panel_id: v.string() });
/** Queue a prompt as if the user typed it (the TUI); other modes log and ignore it. */
export const SubmitFrame = v.object({ type: v.literal("submit"), text: v.string() });
/** Run a slash command as if the user typed it (the TUI); other modes log and ignore it. */
export const SubmitSlashFrame = v.object({ type: v.literal("submit_slash"), text: v.string() });
export const ShutdownAckFrame = v.object({ type: v.literal("shutdown_ack") });

export const ExtToHostFrame = v.variant("type", [
  HelloFrame,
  RegisterCommandFrame,
  RegisterToolFrame,
  ReadyFrame,
  SubscribeFrame,
  EventInterceptResponseFrame,
  ToolResultFrame,
  CommandResponseFrame,
  NotifyFrame,
  ClearNotesFrame,
  ShutdownAckFrame,
  OpenPanelFrame,
  PanelRenderFrame,
  PanelCloseFrame,
  SubmitFrame,
  SubmitSlashFrame,
  CallToolFrame,
  CallToolCancelFrame,
]);
export type ExtToHostFrame = v.InferOutput<typeof ExtToHostFrame>;
export type ExtFrameOf<T extends ExtToHostFrame["type"]> = Extract<ExtToHostFrame, { type: T }>;

// ── host → extension ────────────────────────────────────────────────────────────────────────

/** Ids zot originates: decimal strings. */
export const HostId = v.string();

/**
 * What this zot implements of the optional parts of the protocol, sent in hello_ack.capabilities.
 * Never a capability zot lacks: the original's SDKs switch features on by this list.
 */
export const HOST_CAPABILITIES = [
  "commands",
  "tools",
  "events",
  "intercept",
  "panels",
  "submit",
  "submit_slash",
  "clear_notes",
  "call_tool",
  "tool_cancel",
] as const;

export const HelloAckFrame = v.object({
  type: v.literal("hello_ack"),
  protocol_version: v.literal(PROTOCOL_VERSION),
  capabilities: v.array(v.string()),
  zot_version: v.string(),
  provider: v.string(),
  model: v.string(),
  cwd: v.string(),
  /** the extension's own directory (where extension.json is) */
  extension_dir: v.string(),
  /** a directory the extension may keep state in; survives reinstalls ($ZOT_HOME/data/<name>) */
  data_dir: v.string(),
});
export const CommandInvokedFrame = v.object({
  type: v.literal("command_invoked"),
  id: HostId,
  name: v.string(),
  args: v.optional(v.string()),
});
export const ToolCallFrame = v.object({
  type: v.literal("tool_call"),
  id: HostId,
  name: v.string(),
  args: v.record(v.string(), v.unknown()),
});
/** A tool's result as observers get it: bounded (256 KiB, 128 blocks), `truncated` when cut. */
export const ObservedResult = v.object({
  content: v.array(ExtBlock),
  is_error: v.boolean(),
  truncated: v.optional(v.boolean()),
});
export const ToolStatus = v.picklist(["completed", "failed", "blocked", "cancelled", "timed_out"]);
export type ToolStatus = v.InferOutput<typeof ToolStatus>;
export const EventFrame = v.object({
  type: v.literal("event"),
  event: v.picklist(EXT_EVENTS),
  /** every notification carries these three: the conversation, the working directory, and a number rising across all notifications of this zot process */
  session_id: v.string(),
  cwd: v.string(),
  sequence: v.number(),
  step: v.optional(v.number()),
  /** turn_end: `end` for a finished answer (what the original sent), else tool_use, length, error, aborted */
  stop: v.optional(v.string()),
  error: v.optional(v.string()),
  tool_id: v.optional(v.string()),
  tool_name: v.optional(v.string()),
  tool_args: v.optional(v.record(v.string(), v.unknown())),
  tool_preview: v.optional(v.string()),
  text: v.optional(v.string()),
  /** user_prompt_submit */
  queued: v.optional(v.boolean()),
  image_count: v.optional(v.number()),
  /** session_end: shutdown or session_switch; permission_decision: why */
  reason: v.optional(v.string()),
  /** tool_result: completed, failed, blocked, cancelled, timed_out; post_compact: completed, failed, cancelled */
  status: v.optional(v.string()),
  executed: v.optional(v.boolean()),
  result: v.optional(ObservedResult),
  /** permission_decision */
  decision: v.optional(v.picklist(["approved", "denied", "cancelled"])),
  source: v.optional(v.picklist(["user", "remembered", "policy", "yolo"])),
  stage: v.optional(v.picklist(["pre_execution", "tool_execution"])),
  /** pre_compact / post_compact */
  compaction_id: v.optional(v.string()),
  message_count: v.optional(v.number()),
  token_estimate: v.optional(v.number()),
  /** tool_call, permission_decision, tool_result: the extension whose call_tool (or tool_prompt) asked for the call */
  origin_extension: v.optional(v.string()),
});
export type EventFrame = v.InferOutput<typeof EventFrame>;
export const EventInterceptFrame = v.object({
  type: v.literal("event_intercept"),
  id: HostId,
  event: v.picklist(EXT_INTERCEPTS),
  tool_id: v.optional(v.string()),
  tool_name: v.optional(v.string()),
  tool_args: v.optional(v.record(v.string(), v.unknown())),
  step: v.optional(v.number()),
  text: v.optional(v.string()),
  /** tool_call: the extension whose call_tool asked for this call */
  origin_extension: v.optional(v.string()),
  /** before_agent_start: the system prompt so far (the previous extension's result), and where it is used */
  system_prompt: v.optional(v.string()),
  session_id: v.optional(v.string()),
  /** before_agent_start: one id per preparation pass, shared by every extension asked in it */
  agent_run_id: v.optional(v.string()),
  cwd: v.optional(v.string()),
  provider: v.optional(v.string()),
  model: v.optional(v.string()),
});
/** zot gave up on a tool_call it sent (the turn was cancelled, or the reply is overdue); sent only to extensions with "tool_cancel" in hello.capabilities. A result that comes later is ignored. */
export const ToolCancelFrame = v.object({ type: v.literal("tool_cancel"), id: HostId });
/** The answer to a call_tool: the tool's result, bounded to 256 KiB (`truncated` when cut). */
export const HostToolResultFrame = v.object({
  type: v.literal("tool_result"),
  id: FrameId,
  name: v.string(),
  content: v.array(ExtBlock),
  /** the tool failed, or a participant, the confirmation gate or a chain rule refused the call */
  is_error: v.optional(v.boolean()),
  truncated: v.optional(v.boolean()),
  /** additive: the tool's structured_content, when it gave one */
  structured_content: v.optional(v.unknown()),
});
export const ShutdownFrame = v.object({ type: v.literal("shutdown") });
/** A key pressed while the extension's panel has focus (Esc closes the panel instead). */
export const PANEL_KEYS = ["up", "down", "left", "right", "enter", "tab", "backspace", "delete", "home", "end", "pageup", "pagedown", "rune"] as const;
export const PanelKeyFrame = v.object({
  type: v.literal("panel_key"),
  panel_id: v.string(),
  key: v.picklist(PANEL_KEYS),
  /** the typed text, for `rune` only */
  text: v.optional(v.string()),
});
/** The user closed the panel (Esc, Ctrl+C), or zot did (another panel replaced it, the extension went away). */
export const HostPanelCloseFrame = v.object({ type: v.literal("panel_close"), panel_id: v.string() });
/** The room the panel has, in terminal cells; sent when it opens and when the terminal is resized. */
export const PanelResizeFrame = v.object({
  type: v.literal("panel_resize"),
  panel_id: v.string(),
  width: v.number(),
  height: v.number(),
});

export const HostToExtFrame = v.variant("type", [
  HelloAckFrame,
  CommandInvokedFrame,
  ToolCallFrame,
  EventFrame,
  EventInterceptFrame,
  ShutdownFrame,
  PanelKeyFrame,
  HostPanelCloseFrame,
  PanelResizeFrame,
  ToolCancelFrame,
  HostToolResultFrame,
]);
export type HostToExtFrame = v.InferOutput<typeof HostToExtFrame>;
export type HostFrameOf<T extends HostToExtFrame["type"]> = Extract<HostToExtFrame, { type: T }>;
