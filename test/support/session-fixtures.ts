// A session header and one record of every type, with every optional field and content block
// kind: the fixtures the session tests write, read and replay.
import { SESSION_FORMAT } from "../../src/protocol/session-format.ts";
import type { SessionEntry, SessionHeader } from "../../src/protocol/session-records.ts";

export const header: SessionHeader = {
  type: "session",
  format: SESSION_FORMAT,
  id: "20261123-101500-0a1b2c3d",
  cwd: "/tmp/project",
  created: "2026-11-23T10:15:00.000Z",
  model: "claude-sonnet-4-5",
  provider: "anthropic",
  parent: "20261122-090000-deadbeef",
  fork_point: 2,
  zot_version: "0.1.0",
};

const usage = { input: 100, output: 20, cache_read: 5, cache_write: 1, cost_usd: 0.0006, reasoning: null };
const time = "2026-11-23T10:16:00.000Z";
const later = "2026-11-23T10:17:00.000Z";
export const summary = { role: "user" as const, content: [{ type: "text" as const, text: "## Context Summary\n\nearlier work" }], time };

/** One record of every type, with every optional field and every content block kind. */
export const everyRecord: SessionEntry[] = [
  {
    type: "message",
    message: {
      role: "user",
      content: [
        { type: "text", text: "look at this ✓ \u2028 \"quoted\"\nsecond line" },
        { type: "image", mime_type: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=" },
      ],
      time,
    },
  },
  {
    type: "message",
    message: {
      role: "assistant",
      content: [
        { type: "thinking", text: "hmm", signature: "sig", opaque: "opaque", reasoning_id: "rs_1" },
        { type: "text", text: "reading it" },
        { type: "tool_call", id: "t1", name: "read", args: { path: "a.txt", nested: { n: [1, 2] } } },
      ],
      time,
    },
  },
  {
    type: "message",
    message: {
      role: "tool",
      content: [
        {
          type: "tool_result",
          call_id: "t1",
          is_error: false,
          content: [{ type: "text", text: "contents" }, { type: "image", mime_type: "image/jpeg", data: "/9j/4AAQ" }],
        },
      ],
      time,
    },
  },
  { type: "usage", time, usage, cumulative: { ...usage, input: 300 } },
  { type: "model_change", time, model: "gpt-5", provider: "openai" },
  {
    type: "intercept",
    time,
    participant: "guard",
    stage: "tool_call",
    action: "modify",
    reason: "safer flags",
    before: '{"command":"rm -rf x"}',
    after: '{"command":"rm -ri x"}',
  },
  { type: "intercept", time, participant: "gate", stage: "approve_tool", action: "deny" },
  { type: "compaction", time, reason: "auto", summary: "earlier work", message: summary, kept: 2, messages_before: 3 },
  { type: "message", message: { role: "assistant", content: [{ type: "text", text: "after" }], time } },
  { type: "rewind", time, to: 3, reason: "hard_abort by guard" },
  // A step's results written as each completed (an audit record between them): one tool message.
  { type: "tool_result", time, result: { type: "tool_result", call_id: "t2", is_error: false, content: [{ type: "text", text: "first" }] } },
  { type: "intercept", time, participant: "gate", stage: "approve_tool", action: "deny", reason: "not that" },
  { type: "tool_result", time: later, result: { type: "tool_result", call_id: "t3", is_error: true, content: [{ type: "text", text: "not that" }] } },
];

/** The tool message the last three records replay to. */
export const resultsMessage = {
  role: "tool" as const,
  content: [everyRecord.at(-3), everyRecord.at(-1)].map((r) => (r?.type === "tool_result" ? r.result : undefined)!),
  time: later,
};

