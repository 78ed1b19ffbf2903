// The records of a session file ($ZOT_HOME/sessions/<cwd hash>/<id>.jsonl, and the portable
// .zotsession): one JSON object per line, the header first, then what happened, in order.
// Rule: the file only grows; each record says what changed (a message appended, the model
// switched, the transcript compacted or cut back), so replaying the records in order rebuilds
// exactly the transcript, model and cumulative usage the agent had.
import * as v from "valibot";
import { CompactReason, InterceptEvent } from "./events.ts";
import { Message, ToolResultBlock } from "./messages.ts";
import { Usage } from "./usage.ts";


export const SessionHeader = v.object({
  type: v.literal("session"),
  format: v.number(),
  id: v.string(),
  /** the working directory the session belongs to ("" in an exported file) */
  cwd: v.string(),
  /** RFC 3339 */
  created: v.string(),
  /** the model and provider the session started with; model_change records follow later switches */
  model: v.string(),
  provider: v.string(),
  /** set on a fork: the session it was forked from, and the user turn it was forked after */
  parent: v.optional(v.string()),
  fork_point: v.optional(v.number()),
  zot_version: v.string(),
});

/** A message appended to the transcript, with its full content (images as base64). */
export const MessageRecord = v.object({ type: v.literal("message"), message: Message });

/**
 * One tool call's result, written the moment it is known. Consecutive tool_result records (with
 * only intercept, usage or model_change records between them) are one tool message of the
 * transcript, in record order, timed by the last: it is complete once the next message,
 * compaction or rewind record follows, and holds whatever finished when the file ends.
 */
export const ToolResultRecord = v.object({ type: v.literal("tool_result"), time: v.string(), result: ToolResultBlock });

export const ModelChangeRecord = v.object({
  type: v.literal("model_change"),
  time: v.string(),
  model: v.string(),
  provider: v.string(),
});

/** One model call's usage and cost, and the session's running total after it. */
export const UsageRecord = v.object({
  type: v.literal("usage"),
  time: v.string(),
  usage: Usage,
  cumulative: Usage,
});

/**
 * The transcript was compacted: it is now `message` (the summary) followed by the last `kept`
 * messages it had before.
 */
export const CompactionRecord = v.object({
  type: v.literal("compaction"),
  time: v.string(),
  reason: CompactReason,
  summary: v.string(),
  message: Message,
  kept: v.pipe(v.number(), v.integer(), v.minValue(0)),
  messages_before: v.number(),
});

/** The transcript was cut back to its first `to` messages (a hard_abort took a turn back out, a clear). */
export const RewindRecord = v.object({
  type: v.literal("rewind"),
  time: v.string(),
  to: v.pipe(v.number(), v.integer(), v.minValue(0)),
  reason: v.string(),
});

/** The audit trail: a participant of the interception chain changed something (the intercept event, timed). */
export const InterceptRecord = v.object({ ...InterceptEvent.entries, time: v.string() });

/** Every record after the header. */
export const SessionEntry = v.variant("type", [
  MessageRecord,
  ToolResultRecord,
  ModelChangeRecord,
  UsageRecord,
  CompactionRecord,
  RewindRecord,
  InterceptRecord,
]);

export const SessionRecord = v.variant("type", [SessionHeader, ...SessionEntry.options]);

export const SESSION_ENTRY_TYPES: ReadonlySet<string> = new Set(SessionEntry.options.map((o) => o.entries.type.literal));

export type SessionHeader = v.InferOutput<typeof SessionHeader>;
export type MessageRecord = v.InferOutput<typeof MessageRecord>;
export type ToolResultRecord = v.InferOutput<typeof ToolResultRecord>;
export type ModelChangeRecord = v.InferOutput<typeof ModelChangeRecord>;
export type UsageRecord = v.InferOutput<typeof UsageRecord>;
export type CompactionRecord = v.InferOutput<typeof CompactionRecord>;
export type RewindRecord = v.InferOutput<typeof RewindRecord>;
export type InterceptRecord = v.InferOutput<typeof InterceptRecord>;
export type SessionEntry = v.InferOutput<typeof SessionEntry>;
export type SessionRecord = v.InferOutput<typeof SessionRecord>;
export type SessionEntryOf<T extends SessionEntry["type"]> = Extract<SessionEntry, { type: T }>;
