// The zot extension protocol (NDJSON over an extension's stdin/stdout), both directions.
// Rule: frames from an extension are parsed here before anything trusts them; a frame that does
// not parse is logged and skipped by the host, never fatal. Correlation ids may be strings or
// numbers and are echoed back in the form they came.
import * as v from "valibot";

export const PROTOCOL_VERSION = 1;

export const FrameId = v.union([v.string(), v.number()]);
export type FrameId = v.InferOutput<typeof FrameId>;

export const EXT_EVENTS = ["session_start", "turn_start", "turn_end", "tool_call", "assistant_message"] as const;
export const EXT_INTERCEPTS = ["tool_call", "turn_start", "assistant_message"] as const;
export type ExtEventName = (typeof EXT_EVENTS)[number];
export type ExtInterceptName = (typeof EXT_INTERCEPTS)[number];

/** A content block from an extension: text or base64 image; unknown types are kept and reported. */
export const ExtBlock = v.looseObject({
  type: v.string(),
  text: v.optional(v.string()),
  mime_type: v.optional(v.string()),
  data: v.optional(v.string()),
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
export const RegisterToolFrame = v.object({
  type: v.literal("register_tool"),
  name: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "a tool name is 1-64 letters, digits, - and _")),
  description: v.optional(v.string()),
  /** JSON Schema of the arguments object */
  schema: v.optional(v.record(v.string(), v.unknown())),
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
});
export const CommandAction = v.picklist(["prompt", "insert", "display", "noop", "error"]);
export const CommandResponseFrame = v.object({
  type: v.literal("command_response"),
  id: FrameId,
  action: v.optional(v.union([CommandAction, v.literal("")])),
  prompt: v.optional(v.string()),
  insert: v.optional(v.string()),
  display: v.optional(v.string()),
  error: v.optional(v.string()),
});
export const NotifyLevel = v.picklist(["info", "success", "warn", "error"]);
export const NotifyFrame = v.object({
  type: v.literal("notify"),
  level: v.optional(NotifyLevel, "info"),
  message: v.string(),
});
export const ClearNotesFrame = v.object({ type: v.literal("clear_notes") });
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
]);
export type ExtToHostFrame = v.InferOutput<typeof ExtToHostFrame>;
export type ExtFrameOf<T extends ExtToHostFrame["type"]> = Extract<ExtToHostFrame, { type: T }>;

// ── host → extension ────────────────────────────────────────────────────────────────────────

export const HelloAckFrame = v.object({
  type: v.literal("hello_ack"),
  protocol_version: v.literal(PROTOCOL_VERSION),
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
  id: FrameId,
  name: v.string(),
  args: v.optional(v.string()),
});
export const ToolCallFrame = v.object({
  type: v.literal("tool_call"),
  id: FrameId,
  name: v.string(),
  args: v.record(v.string(), v.unknown()),
});
export const EventFrame = v.object({
  type: v.literal("event"),
  event: v.picklist(EXT_EVENTS),
  step: v.optional(v.number()),
  stop: v.optional(v.string()),
  error: v.optional(v.string()),
  tool_id: v.optional(v.string()),
  tool_name: v.optional(v.string()),
  tool_args: v.optional(v.record(v.string(), v.unknown())),
  text: v.optional(v.string()),
});
export const EventInterceptFrame = v.object({
  type: v.literal("event_intercept"),
  id: FrameId,
  event: v.picklist(EXT_INTERCEPTS),
  tool_id: v.optional(v.string()),
  tool_name: v.optional(v.string()),
  tool_args: v.optional(v.record(v.string(), v.unknown())),
  step: v.optional(v.number()),
  text: v.optional(v.string()),
});
export const ShutdownFrame = v.object({ type: v.literal("shutdown") });

export const HostToExtFrame = v.variant("type", [
  HelloAckFrame,
  CommandInvokedFrame,
  ToolCallFrame,
  EventFrame,
  EventInterceptFrame,
  ShutdownFrame,
]);
export type HostToExtFrame = v.InferOutput<typeof HostToExtFrame>;
export type HostFrameOf<T extends HostToExtFrame["type"]> = Extract<HostToExtFrame, { type: T }>;
