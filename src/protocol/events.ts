// The agent event union. `--json` prints it, `zot rpc` streams it, extensions subscribe to it: this
// file is its single definition. Rule: events on the wire carry wire blocks (images as byte counts).
import * as v from "valibot";
import { ErrorCode } from "./error-code.ts";
import { CommandAction, NotifyLevel } from "./ext-frames.ts";
import { ToolCallBlock, WireContentBlock, WireToolResultContent } from "./messages.ts";
import { Usage } from "./usage.ts";

export const StopReason = v.picklist(["end_turn", "tool_use", "length", "error", "aborted"]);
export type StopReason = v.InferOutput<typeof StopReason>;

export const InterceptStage = v.picklist([
  "turn_start",
  "before_llm",
  "after_llm",
  "tool_call",
  "approve_tool",
  "after_tool",
  "assistant_message",
]);
export type InterceptStage = v.InferOutput<typeof InterceptStage>;

export const InterceptAction = v.picklist(["modify", "respond", "deny", "block", "abort_turn", "hard_abort"]);

/**
 * The stages the audit trail (the intercept event, the session's records) names: the chain's, and
 * `before_agent_start`, where extensions rewrite the system prompt (outside the chain, in load order).
 */
export const AuditStage = v.picklist([...InterceptStage.options, "before_agent_start"]);
export type AuditStage = v.InferOutput<typeof AuditStage>;
export type InterceptAction = v.InferOutput<typeof InterceptAction>;

export const TurnStartEvent = v.object({ type: v.literal("turn_start"), step: v.number() });
export const UserMessageEvent = v.object({
  type: v.literal("user_message"),
  content: v.array(WireContentBlock),
  time: v.string(),
});
export const AssistantStartEvent = v.object({ type: v.literal("assistant_start") });
export const TextDeltaEvent = v.object({ type: v.literal("text_delta"), delta: v.string() });
export const ThinkingDeltaEvent = v.object({ type: v.literal("thinking_delta"), delta: v.string() });
/** A tool call began streaming (its arguments follow as tool_use_args). */
export const ToolUseStartEvent = v.object({ type: v.literal("tool_use_start"), id: v.string(), name: v.string() });
export const ToolUseArgsEvent = v.object({ type: v.literal("tool_use_args"), id: v.string(), delta: v.string() });
export const ToolUseEndEvent = v.object({ type: v.literal("tool_use_end"), id: v.string() });
export const ToolCallEvent = v.object({
  type: v.literal("tool_call"),
  id: v.string(),
  name: v.string(),
  args: ToolCallBlock.entries.args,
  /** additive: an extension asked for this call (call_tool, a command's tool_prompt), not the model */
  origin_extension: v.optional(v.string()),
});
export const ToolProgressEvent = v.object({ type: v.literal("tool_progress"), id: v.string(), text: v.string() });
export const ToolResultEvent = v.object({
  type: v.literal("tool_result"),
  id: v.string(),
  /** the tool's name */
  name: v.optional(v.string()),
  /** set when an extension provides the tool */
  extension: v.optional(v.string()),
  is_error: v.boolean(),
  content: v.array(WireToolResultContent),
  /** additive: the extension that asked for the call (call_tool, a command's tool_prompt) */
  origin_extension: v.optional(v.string()),
  /** additive: how the call ended, when not completed or failed (blocked, cancelled, timed_out) */
  status: v.optional(v.picklist(["blocked", "cancelled", "timed_out"])),
});
export const AssistantMessageEvent = v.object({
  type: v.literal("assistant_message"),
  content: v.array(WireContentBlock),
  time: v.string(),
});
export const UsageEvent = v.object({
  type: v.literal("usage"),
  ...Usage.entries,
  cumulative: Usage,
});
export const TurnEndEvent = v.object({
  type: v.literal("turn_end"),
  stop: StopReason,
  /** why the turn failed, for a person: set with `stop` "error" (and "aborted" when a participant aborted it) */
  error: v.optional(v.string()),
  /** additive: why, for a program; set exactly when `error` is */
  code: v.optional(ErrorCode),
});
export const DoneEvent = v.object({ type: v.literal("done") });
/** The session a run records into (`--json` says it first), so a script can go on with `--session <id>`. */
export const SessionEvent = v.object({
  type: v.literal("session"),
  id: v.string(),
  /** the session file */
  file: v.string(),
  /** it was resumed (-c, --session), not started */
  resumed: v.boolean(),
});
/**
 * A model call failed before its first byte and is tried again after `wait_ms` (a 429 with
 * retry-after, a 5xx, a dropped connection); `message` is the failure, `code` its kind.
 */
export const RetryEvent = v.object({
  type: v.literal("retry"),
  attempt: v.number(),
  max_attempts: v.number(),
  wait_ms: v.number(),
  status: v.optional(v.number()),
  code: v.optional(ErrorCode),
  message: v.string(),
});
/** Something failed: `message` says what for a person, `code` for a program (auth, rate_limit, …). */
export const ErrorEvent = v.object({ type: v.literal("error"), message: v.string(), code: ErrorCode });
/** Why the transcript is being compacted: asked for, the context crossed the threshold, or the provider refused it as too long. */
export const CompactReason = v.picklist(["manual", "auto", "overflow"]);
export type CompactReason = v.InferOutput<typeof CompactReason>;
export const CompactStartEvent = v.object({ type: v.literal("compact_start"), reason: CompactReason });
export const CompactDoneEvent = v.object({
  type: v.literal("compact_done"),
  summary: v.string(),
  reason: CompactReason,
  /** messages in the transcript before and after */
  messages_before: v.number(),
  messages_after: v.number(),
  /**
   * the context before, in tokens, as zot knew it: the last call's count, or the estimate of the
   * transcript when that is more (tool results added since, a call refused as too long)
   */
  tokens_before: v.number(),
});
/** A participant of the interception chain changed something. */
export const InterceptEvent = v.object({
  type: v.literal("intercept"),
  participant: v.string(),
  stage: AuditStage,
  action: InterceptAction,
  reason: v.optional(v.string()),
  /** modify and respond: what it was and what it became (a bounded excerpt or a summary of the change) */
  before: v.optional(v.string()),
  after: v.optional(v.string()),
  /** additive: the decision was about a call an extension asked for (call_tool, a command's tool_prompt) */
  origin_extension: v.optional(v.string()),
});
export const ExtNotifyEvent = v.object({
  type: v.literal("ext_notify"),
  extension: v.string(),
  level: NotifyLevel,
  message: v.string(),
});
/** Additive (the newer original's): an extension command's `display` answer, shown where notes are. */
export const ExtDisplayEvent = v.object({ type: v.literal("ext_display"), extension: v.string(), text: v.string() });
/** Additive (the newer original's): the extension took back every note it showed (`clear_notes`). */
export const ExtClearNotesEvent = v.object({ type: v.literal("ext_clear_notes"), extension: v.string() });

/** A slash command of an extension ran (`zot -p "/weather berlin"`, `--json`, rpc). */
export const CommandResultEvent = v.object({
  type: v.literal("command_result"),
  /** the command's name, without the slash */
  command: v.string(),
  /** the extension that owns the command */
  extension: v.string(),
  action: CommandAction,
  /** the prompt, inserted or displayed text, or the error */
  text: v.optional(v.string()),
  /** additive: the command was stopped by an abort (action error, text "cancelled"), not failed */
  aborted: v.optional(v.literal(true)),
});

/** An extension opened a panel (or reopened one it has open); an embedding UI may draw it. */
export const PanelOpenEvent = v.object({
  type: v.literal("panel_open"),
  extension: v.string(),
  panel_id: v.string(),
  title: v.string(),
  lines: v.array(v.string()),
  footer: v.string(),
});
/** The extension redrew its panel: the whole panel as it is now. */
export const PanelRenderEvent = v.object({ ...PanelOpenEvent.entries, type: v.literal("panel_render") });
/** The panel is gone: its extension closed it (or exited), the user closed it, or another panel replaced it. */
export const PanelCloseEvent = v.object({
  type: v.literal("panel_close"),
  extension: v.string(),
  panel_id: v.string(),
  reason: v.picklist(["extension", "user", "replaced"]),
});

/**
 * Additive, rpc only: a tool call waits for the client's answer (`confirm`), sent once the client
 * said in hello that it answers (`"confirm": true`): with --no-yolo, and for a call a permission
 * rule or a settings hook asks about.
 */
export const ConfirmRequestEvent = v.object({
  type: v.literal("confirm_request"),
  /** what `confirm` names */
  request_id: v.string(),
  /** the tool call's id (as in tool_call and tool_result) */
  call_id: v.string(),
  tool: v.string(),
  args: ToolCallBlock.entries.args,
  /** one line saying what the call is about (its command, path, …) */
  preview: v.string(),
  /** what the call would change, as a unified diff (edit, write) */
  diff: v.optional(v.string()),
  /** why it is asked although confirmations are off (a rule's or a hook's ask) */
  why: v.optional(v.string()),
});
/** Additive, rpc only: a confirm_request no longer waits (its turn ended, or the client closed stdin); an answer to it is refused. */
export const ConfirmCancelledEvent = v.object({ type: v.literal("confirm_cancelled"), request_id: v.string(), reason: v.string() });

export const AgentEvent = v.variant("type", [
  TurnStartEvent,
  UserMessageEvent,
  AssistantStartEvent,
  TextDeltaEvent,
  ThinkingDeltaEvent,
  ToolUseStartEvent,
  ToolUseArgsEvent,
  ToolUseEndEvent,
  ToolCallEvent,
  ToolProgressEvent,
  ToolResultEvent,
  AssistantMessageEvent,
  UsageEvent,
  TurnEndEvent,
  DoneEvent,
  ErrorEvent,
  SessionEvent,
  RetryEvent,
  CompactStartEvent,
  CompactDoneEvent,
  InterceptEvent,
  ExtNotifyEvent,
  ExtDisplayEvent,
  ExtClearNotesEvent,
  CommandResultEvent,
  PanelOpenEvent,
  PanelRenderEvent,
  PanelCloseEvent,
  ConfirmRequestEvent,
  ConfirmCancelledEvent,
]);
export type AgentEvent = v.InferOutput<typeof AgentEvent>;
export type AgentEventType = AgentEvent["type"];
export type EventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
