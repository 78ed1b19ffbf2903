// The JSON-RPC 2.0 hook protocol (PicoClaw's process hooks, seeds/001): the envelopes, hook.hello,
// each method's params and result, and the observer notification in its two generations: the
// document's hook.event (string `Kind`s, Go field names) and PicoClaw HEAD's hook.runtime_event
// (the lowercase runtime envelope, dotted `kind`s).
// Rule: what zot sends is exact (integer ids from 1, the document's field names); what a hook
// sends back is read leniently where PicoClaw is (unknown fields ignored, every field optional),
// and a value of the wrong type fails that one call, as PicoClaw's decoder does.
import * as v from "valibot";

export const HOOK_PROTOCOL_VERSION = 1;

/** What a hook may be configured to intercept (PicoClaw's `intercept` list). */
export const HOOK_INTERCEPTS = ["before_llm", "after_llm", "before_tool", "after_tool", "approve_tool"] as const;
export type HookIntercept = (typeof HOOK_INTERCEPTS)[number];

/** The modes announced in hook.hello, always in this order. llm and tool each cover two methods. */
export const HOOK_MODES = ["observe", "llm", "tool", "approve"] as const;
export type HookMode = (typeof HOOK_MODES)[number];

/** The `Kind` values of hook.event (PicoClaw's agent event kinds, sent as their names). */
export const HOOK_EVENT_KINDS = [
  "turn_start",
  "turn_end",
  "llm_request",
  "llm_delta",
  "llm_response",
  "llm_retry",
  "context_compress",
  "session_summarize",
  "tool_exec_start",
  "tool_exec_end",
  "tool_exec_skipped",
  "steering_injected",
  "follow_up_queued",
  "interrupt_received",
  "subturn_spawn",
  "subturn_end",
  "subturn_result_delivered",
  "subturn_orphan",
  "error",
] as const;
export type HookEventKind = (typeof HOOK_EVENT_KINDS)[number];
/** Entries of an `observe` list that mean every kind. */
export const OBSERVE_ALL: readonly string[] = ["", "*", "all"];

/** The observer notification's method: the document's (the default), or PicoClaw HEAD's. */
export const HOOK_EVENT_METHODS = ["hook.event", "hook.runtime_event"] as const;
export type HookEventMethod = (typeof HOOK_EVENT_METHODS)[number];

/** hook.runtime_event's `kind` for each hook.event `Kind` (PicoClaw HEAD's pkg/events names). */
export const RUNTIME_EVENT_KINDS = {
  turn_start: "agent.turn.start",
  turn_end: "agent.turn.end",
  llm_request: "agent.llm.request",
  llm_delta: "agent.llm.delta",
  llm_response: "agent.llm.response",
  llm_retry: "agent.llm.retry",
  context_compress: "agent.context.compress",
  session_summarize: "agent.session.summarize",
  tool_exec_start: "agent.tool.exec_start",
  tool_exec_end: "agent.tool.exec_end",
  tool_exec_skipped: "agent.tool.exec_skipped",
  steering_injected: "agent.steering.injected",
  follow_up_queued: "agent.follow_up.queued",
  interrupt_received: "agent.interrupt.received",
  subturn_spawn: "agent.subturn.spawn",
  subturn_end: "agent.subturn.end",
  subturn_result_delivered: "agent.subturn.result_delivered",
  subturn_orphan: "agent.subturn.orphan",
  error: "agent.error",
} as const satisfies Record<HookEventKind, string>;
export type RuntimeEventKind = (typeof RUNTIME_EVENT_KINDS)[HookEventKind];

/** PicoClaw HEAD's other agent kinds (inter-agent messages), which have no hook.event name. */
export const RUNTIME_ONLY_AGENT_KINDS: readonly string[] = [
  "agent.message.sent",
  "agent.message.delivered",
  "agent.message.received",
  "agent.message.reply",
  "agent.message.blocked",
  "agent.thread.closed",
];

export const HOOK_METHODS = [
  "hook.hello",
  "hook.before_llm",
  "hook.after_llm",
  "hook.before_tool",
  "hook.after_tool",
  "hook.approve_tool",
] as const;
export type HookMethod = (typeof HOOK_METHODS)[number];

// ── host → hook ────────────────────────────────────────────────────────────────────────────

export const JsonRpcRequest = v.object({
  jsonrpc: v.literal("2.0"),
  id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  method: v.picklist(HOOK_METHODS),
  params: v.unknown(),
});
export type JsonRpcRequest = v.InferOutput<typeof JsonRpcRequest>;

export const HelloParams = v.object({
  name: v.string(),
  version: v.literal(HOOK_PROTOCOL_VERSION),
  modes: v.array(v.picklist(HOOK_MODES)),
});
export type HelloParams = v.InferOutput<typeof HelloParams>;

/** Tracing data on every request; Go field names, as PicoClaw sends them. */
export const HookMeta = v.object({
  AgentID: v.string(),
  TurnID: v.string(),
  ParentTurnID: v.string(),
  SessionKey: v.string(),
  Iteration: v.number(),
  TracePath: v.string(),
  Source: v.string(),
});
export type HookMeta = v.InferOutput<typeof HookMeta>;

export const HookToolCall = v.looseObject({
  id: v.optional(v.string()),
  type: v.optional(v.string()),
  function: v.looseObject({
    name: v.string(),
    /** a JSON string on the wire; an object is accepted too */
    arguments: v.optional(v.union([v.string(), v.record(v.string(), v.unknown())])),
  }),
});
export type HookToolCall = v.InferOutput<typeof HookToolCall>;

/** A conversation message in the OpenAI-style shape PicoClaw uses. */
export const HookMessage = v.looseObject({
  role: v.string(),
  content: v.nullish(v.string()),
  tool_calls: v.optional(v.array(HookToolCall)),
  tool_call_id: v.optional(v.string()),
  reasoning_content: v.optional(v.string()),
  /** zot: images in the message, as `<mime type>, <bytes> bytes` (their bytes are not sent) */
  media: v.optional(v.array(v.string())),
});
export type HookMessage = v.InferOutput<typeof HookMessage>;

export const HookToolDef = v.looseObject({
  type: v.optional(v.string()),
  function: v.looseObject({
    name: v.pipe(v.string(), v.minLength(1)),
    description: v.optional(v.string()),
    parameters: v.optional(v.record(v.string(), v.unknown())),
  }),
});
export type HookToolDef = v.InferOutput<typeof HookToolDef>;

export const HookLlmOptions = v.record(v.string(), v.unknown());

/** The part of before_llm's params a `modify` replaces (and the shape of its `request`). */
export const HookLlmRequest = v.looseObject({
  model: v.optional(v.string()),
  messages: v.optional(v.array(HookMessage)),
  tools: v.optional(v.array(HookToolDef)),
  options: v.optional(HookLlmOptions),
});
export type HookLlmRequest = v.InferOutput<typeof HookLlmRequest>;

export interface HookPlace {
  meta: HookMeta;
  channel: string;
  chat_id: string;
}

export interface BeforeLlmParams extends HookPlace {
  model: string;
  messages: HookMessage[];
  tools?: HookToolDef[];
  options?: Record<string, unknown>;
}

export const HookUsage = v.looseObject({
  prompt_tokens: v.optional(v.number()),
  completion_tokens: v.optional(v.number()),
  total_tokens: v.optional(v.number()),
});

export const HookLlmResponse = v.looseObject({
  role: v.optional(v.string()),
  content: v.nullish(v.string()),
  reasoning_content: v.optional(v.string()),
  tool_calls: v.nullish(v.array(HookToolCall)),
  finish_reason: v.optional(v.string()),
  usage: v.optional(HookUsage),
});
export type HookLlmResponse = v.InferOutput<typeof HookLlmResponse>;

export interface AfterLlmParams extends HookPlace {
  model: string;
  response: HookLlmResponse;
}

/** A tool's result as PicoClaw's ToolResult JSON. */
export const HookToolResult = v.looseObject({
  for_llm: v.optional(v.string()),
  for_user: v.optional(v.string()),
  silent: v.optional(v.boolean()),
  is_error: v.optional(v.boolean()),
  async: v.optional(v.boolean()),
  media: v.optional(v.array(v.string())),
  artifact_tags: v.optional(v.array(v.string())),
  response_handled: v.optional(v.boolean()),
});
export type HookToolResult = v.InferOutput<typeof HookToolResult>;

export interface ToolParams extends HookPlace {
  tool: string;
  /** omitted when empty, as PicoClaw does */
  arguments?: Record<string, unknown>;
}

export interface AfterToolParams extends ToolParams {
  result: HookToolResult;
  /** nanoseconds */
  duration: number;
}

export const HookEventParams = v.object({
  Kind: v.picklist(HOOK_EVENT_KINDS),
  Time: v.string(),
  Meta: HookMeta,
  Payload: v.record(v.string(), v.unknown()),
});
export type HookEventParams = v.InferOutput<typeof HookEventParams>;

/**
 * PicoClaw HEAD's runtime event envelope (pkg/events.Event): lowercase keys; `scope`,
 * `correlation` and `source` always present, their empty fields left out; `payload` keeps Go field
 * names; `attrs` left out when empty. `id` is the event's, not a JSON-RPC id.
 */
export const RuntimeEventParams = v.object({
  id: v.string(),
  kind: v.picklist(Object.values(RUNTIME_EVENT_KINDS)),
  time: v.string(),
  source: v.object({ component: v.string(), name: v.optional(v.string()) }),
  scope: v.object({
    agent_id: v.optional(v.string()),
    session_key: v.optional(v.string()),
    turn_id: v.optional(v.string()),
    channel: v.optional(v.string()),
    chat_id: v.optional(v.string()),
  }),
  correlation: v.object({ trace_id: v.optional(v.string()), parent_turn_id: v.optional(v.string()) }),
  severity: v.picklist(["debug", "info", "warn", "error"]),
  payload: v.record(v.string(), v.unknown()),
  attrs: v.optional(v.record(v.string(), v.unknown())),
});
export type RuntimeEventParams = v.InferOutput<typeof RuntimeEventParams>;

export const JsonRpcNotification = v.variant("method", [
  v.object({ jsonrpc: v.literal("2.0"), method: v.literal("hook.event"), params: HookEventParams }),
  v.object({ jsonrpc: v.literal("2.0"), method: v.literal("hook.runtime_event"), params: RuntimeEventParams }),
]);
export type JsonRpcNotification = v.InferOutput<typeof JsonRpcNotification>;

// ── hook → host ────────────────────────────────────────────────────────────────────────────

export const JsonRpcError = v.looseObject({
  code: v.optional(v.number()),
  message: v.optional(v.string()),
  data: v.optional(v.unknown()),
});

/**
 * One line from a hook. `jsonrpc` is not checked (PicoClaw does not); an id that is not a positive
 * integer (or its decimal string) matches no call.
 */
export const JsonRpcReply = v.looseObject({
  jsonrpc: v.optional(v.unknown()),
  id: v.nullish(v.union([v.number(), v.string()])),
  method: v.optional(v.unknown()),
  result: v.optional(v.unknown()),
  error: v.nullish(JsonRpcError),
});
export type JsonRpcReply = v.InferOutput<typeof JsonRpcReply>;

/** hook.hello's result is not checked beyond being an object (or null), as in PicoClaw. */
export const HelloResult = v.nullish(v.looseObject({ ok: v.optional(v.unknown()), name: v.optional(v.unknown()) }));

/** Any string: an action zot does not know is logged and ignored, never an error. */
const Action = v.optional(v.string());
const Reason = v.optional(v.string());

export const BeforeLlmResult = v.nullish(v.looseObject({ action: Action, reason: Reason, request: v.nullish(HookLlmRequest) }));
/** `response` is the whole after_llm params object in PicoClaw; a flat response is accepted too. */
export const AfterLlmResult = v.nullish(
  v.looseObject({ action: Action, reason: Reason, response: v.nullish(v.record(v.string(), v.unknown())) }),
);
export const BeforeToolResult = v.nullish(
  v.looseObject({
    action: Action,
    reason: Reason,
    call: v.nullish(
      v.looseObject({ tool: v.optional(v.string()), arguments: v.nullish(v.record(v.string(), v.unknown())) }),
    ),
    result: v.nullish(HookToolResult),
  }),
);
/** `result` is the whole after_tool params object in PicoClaw; a flat ToolResult is accepted too. */
export const AfterToolResult = v.nullish(
  v.looseObject({ action: Action, reason: Reason, result: v.nullish(v.record(v.string(), v.unknown())) }),
);
/** `{}` means not approved. */
export const ApproveToolResult = v.nullish(v.looseObject({ approved: v.optional(v.boolean()), reason: Reason }));

export type BeforeLlmResult = v.InferOutput<typeof BeforeLlmResult>;
export type AfterLlmResult = v.InferOutput<typeof AfterLlmResult>;
export type BeforeToolResult = v.InferOutput<typeof BeforeToolResult>;
export type AfterToolResult = v.InferOutput<typeof AfterToolResult>;
export type ApproveToolResult = v.InferOutput<typeof ApproveToolResult>;
