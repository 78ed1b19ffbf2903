// Claude Code's headless output (`claude -p --output-format json|stream-json`) as zot writes it for
// `-p --output-format`: the `system` init line, an `assistant` message per model call, a `user`
// message per tool result, a `system` compact_boundary per compaction, a `system` api_retry per
// retry of a failed call, the synthetic `assistant` message of a call that failed (its `error` a
// category), and the closing `result`. Scripts and SDKs written for Claude Code
// decode these lines, so they are a wire format: defined here once, and every line zot writes is
// one of these (test/e2e/claude-output.test.ts parses them back).
// Rule: Claude Code's field names and spellings (`permissionMode`, `modelUsage`, `costUSD` beside
// `total_cost_usd`), never zot's; a field zot cannot fill truthfully is left out, not invented.
import * as v from "valibot";

export const ClaudeUsage = v.object({
  input_tokens: v.number(),
  output_tokens: v.number(),
  cache_creation_input_tokens: v.number(),
  cache_read_input_tokens: v.number(),
});
export type ClaudeUsage = v.InferOutput<typeof ClaudeUsage>;

/** A zot session's id (what `-r <id>` and `--session` resume), or null with `--no-session`. */
const SessionId = v.nullable(v.string());
const ToolInput = v.record(v.string(), v.unknown());
const TextBlock = v.object({ type: v.literal("text"), text: v.string() });

/** Claude Code's states of an MCP server. */
export const ClaudeMcpStatus = v.picklist(["connected", "failed", "pending", "disabled"]);

export const ClaudeInitLine = v.object({
  type: v.literal("system"),
  subtype: v.literal("init"),
  uuid: v.string(),
  cwd: v.string(),
  session_id: SessionId,
  /** the tools the model is offered, by Claude Code's names (Bash, Read, Edit, MultiEdit, Write, Skill, mcp__…) */
  tools: v.array(v.string()),
  mcp_servers: v.array(v.object({ name: v.string(), status: ClaudeMcpStatus })),
  model: v.string(),
  /** default (calls are confirmed), acceptEdits, dontAsk, or bypassPermissions (zot's own default) */
  permissionMode: v.string(),
  /** the slash commands a prompt may start with (the extensions', the MCP prompts, the Markdown commands), without their slash */
  slash_commands: v.array(v.string()),
  /** the skills the model is offered */
  skills: v.array(v.string()),
  /** zot has no output styles: always "default" */
  output_style: v.literal("default"),
  /** zot has no plugins: always empty */
  plugins: v.array(v.never()),
});

/**
 * What kind of failure a call met, as the Agent SDK names it (SDKAssistantMessageError): an
 * assistant message's `error`, an api_retry line's `error`.
 */
export const ClaudeApiError = v.picklist([
  "authentication_failed",
  "oauth_org_not_allowed",
  "account_on_hold",
  "verification_required",
  "billing_error",
  "rate_limit",
  "overloaded",
  "invalid_request",
  "model_not_found",
  "server_error",
  "unknown",
  "max_output_tokens",
  "cloud_credential_error",
]);
export type ClaudeApiError = v.InferOutput<typeof ClaudeApiError>;

export const ClaudeAssistantLine = v.object({
  type: v.literal("assistant"),
  uuid: v.string(),
  /** the call failed: this is the synthetic message that says so (model "<synthetic>", its text the failure) */
  error: v.optional(ClaudeApiError),
  message: v.object({
    id: v.string(),
    type: v.literal("message"),
    role: v.literal("assistant"),
    model: v.string(),
    content: v.array(v.variant("type", [TextBlock, v.object({ type: v.literal("tool_use"), id: v.string(), name: v.string(), input: ToolInput })])),
    usage: v.optional(ClaudeUsage),
  }),
  parent_tool_use_id: v.null(),
  session_id: SessionId,
});

export const ClaudeUserLine = v.object({
  type: v.literal("user"),
  uuid: v.string(),
  message: v.object({
    role: v.literal("user"),
    content: v.array(
      v.object({
        type: v.literal("tool_result"),
        tool_use_id: v.string(),
        /** the result's text, or its blocks when it had an image (named in a text block) */
        content: v.union([v.string(), v.array(TextBlock)]),
        is_error: v.boolean(),
      }),
    ),
  }),
  parent_tool_use_id: v.null(),
  session_id: SessionId,
});

export const ClaudeResultLine = v.object({
  type: v.literal("result"),
  subtype: v.picklist(["success", "error_max_turns", "error_during_execution"]),
  uuid: v.string(),
  is_error: v.boolean(),
  duration_ms: v.number(),
  duration_api_ms: v.number(),
  num_turns: v.number(),
  /** the answer, as `zot -p` prints it; absent on a failure */
  result: v.optional(v.string()),
  /** what failed; only on a failure */
  errors: v.optional(v.array(v.string())),
  stop_reason: v.nullable(v.string()),
  session_id: SessionId,
  total_cost_usd: v.number(),
  usage: ClaudeUsage,
  modelUsage: v.record(
    v.string(),
    v.object({ inputTokens: v.number(), outputTokens: v.number(), cacheReadInputTokens: v.number(), cacheCreationInputTokens: v.number(), costUSD: v.number() }),
  ),
  /** the calls a rule, a hook or the confirmation gate refused */
  permission_denials: v.array(v.object({ tool_name: v.string(), tool_use_id: v.string(), tool_input: ToolInput })),
});

/** `--include-partial-messages`: an event of the Anthropic Messages stream as the model answers. */
const StreamedEvent = v.variant("type", [
  v.object({
    type: v.literal("message_start"),
    message: v.object({
      id: v.string(),
      type: v.literal("message"),
      role: v.literal("assistant"),
      model: v.string(),
      content: v.array(v.never()),
      stop_reason: v.null(),
      stop_sequence: v.null(),
      usage: v.object({ input_tokens: v.number(), output_tokens: v.number() }),
    }),
  }),
  v.object({
    type: v.literal("content_block_start"),
    index: v.number(),
    content_block: v.variant("type", [
      TextBlock,
      v.object({ type: v.literal("thinking"), thinking: v.string() }),
      v.object({ type: v.literal("tool_use"), id: v.string(), name: v.string(), input: ToolInput }),
    ]),
  }),
  v.object({
    type: v.literal("content_block_delta"),
    index: v.number(),
    delta: v.variant("type", [v.object({ type: v.literal("text_delta"), text: v.string() }), v.object({ type: v.literal("thinking_delta"), thinking: v.string() })]),
  }),
  v.object({ type: v.literal("content_block_stop"), index: v.number() }),
  v.object({
    type: v.literal("message_delta"),
    delta: v.object({ stop_reason: v.picklist(["end_turn", "tool_use"]), stop_sequence: v.null() }),
    usage: v.object({ output_tokens: v.number() }),
  }),
  v.object({ type: v.literal("message_stop") }),
]);

export const ClaudeStreamEventLine = v.object({
  type: v.literal("stream_event"),
  uuid: v.string(),
  session_id: SessionId,
  parent_tool_use_id: v.null(),
  event: StreamedEvent,
});

/** `--input-format stream-json`: whether zot is answering prompts, waiting for the program's answer, or idle. */
export const ClaudeSessionStateLine = v.object({
  type: v.literal("system"),
  subtype: v.literal("session_state_changed"),
  state: v.picklist(["idle", "running", "requires_action"]),
  uuid: v.string(),
  session_id: SessionId,
});

/**
 * A compaction completed (the Agent SDK's SDKCompactBoundaryMessage): the history before this line
 * is now a summary. `manual` for /compact, `auto` for an automatic or an overflow compaction.
 */
export const ClaudeCompactBoundaryLine = v.object({
  type: v.literal("system"),
  subtype: v.literal("compact_boundary"),
  uuid: v.string(),
  session_id: SessionId,
  compact_metadata: v.object({
    trigger: v.picklist(["manual", "auto"]),
    /** the context before, in tokens, as zot knew it (compact_done's tokens_before) */
    pre_tokens: v.number(),
  }),
});

/**
 * A failed model call is tried again after `retry_delay_ms` (the Agent SDK's SDKAPIRetryMessage):
 * `attempt` of `max_retries`, the HTTP status (null for a connection that failed or stayed silent),
 * and the failure's kind.
 */
export const ClaudeApiRetryLine = v.object({
  type: v.literal("system"),
  subtype: v.literal("api_retry"),
  attempt: v.number(),
  max_retries: v.number(),
  retry_delay_ms: v.number(),
  error_status: v.nullable(v.number()),
  error: ClaudeApiError,
  uuid: v.string(),
  session_id: SessionId,
});

export const ClaudeOutputLine = v.variant("type", [
  v.variant("subtype", [ClaudeInitLine, ClaudeSessionStateLine, ClaudeCompactBoundaryLine, ClaudeApiRetryLine]),
  ClaudeAssistantLine,
  ClaudeUserLine,
  ClaudeResultLine,
  ClaudeStreamEventLine,
]);

export type ClaudeInitLine = v.InferOutput<typeof ClaudeInitLine>;
export type ClaudeAssistantLine = v.InferOutput<typeof ClaudeAssistantLine>;
export type ClaudeUserLine = v.InferOutput<typeof ClaudeUserLine>;
export type ClaudeResultLine = v.InferOutput<typeof ClaudeResultLine>;
export type ClaudeStreamEventLine = v.InferOutput<typeof ClaudeStreamEventLine>;
export type ClaudeSessionStateLine = v.InferOutput<typeof ClaudeSessionStateLine>;
export type ClaudeCompactBoundaryLine = v.InferOutput<typeof ClaudeCompactBoundaryLine>;
export type ClaudeApiRetryLine = v.InferOutput<typeof ClaudeApiRetryLine>;
export type ClaudeOutputLine = v.InferOutput<typeof ClaudeOutputLine>;
