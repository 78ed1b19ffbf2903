// ClaudeRun, the events of a run read as Claude Code's lines: here the compact_boundary a completed
// compaction becomes (the Agent SDK's SDKCompactBoundaryMessage), with Claude Code's two triggers.
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { ClaudeRun } from "../../src/modes/claude-messages.ts";
import { ClaudeOutputLine } from "../../src/protocol/claude-output.ts";
import type { CompactReason } from "../../src/protocol/events.ts";

const run = (sessionId: string | null = "20261127-100000-0a1b2c3d") =>
  new ClaudeRun({ sessionId, model: "claude-sonnet-5-5", claudeCall: (name, args) => ({ tool_name: name, tool_input: args }), costBefore: 0 });

const done = (reason: CompactReason) =>
  ({ type: "compact_done", summary: "## Goal\nx", reason, messages_before: 9, messages_after: 3, tokens_before: 171_234 }) as const;

describe("compact_boundary", () => {
  test.each([
    ["manual", "manual"],
    ["auto", "auto"],
    ["overflow", "auto"],
  ] as const)("compact_done for reason %s: trigger %s, the context before as pre_tokens", (reason, trigger) => {
    const lines = run().add(done(reason));
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(v.parse(ClaudeOutputLine, line)).toEqual(line);
    expect(line).toEqual({
      type: "system",
      subtype: "compact_boundary",
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      session_id: "20261127-100000-0a1b2c3d",
      compact_metadata: { trigger, pre_tokens: 171_234 },
    });
  });

  test("only a compaction that completed: its start, and a failed one's error, are no boundary", () => {
    const r = run(null);
    expect(r.add({ type: "compact_start", reason: "auto" })).toEqual([]);
    expect(r.add({ type: "error", message: "automatic compaction failed: x; going on with the whole transcript", code: "compaction" })).toEqual([]);
    expect(r.add(done("auto"))[0]).toMatchObject({ session_id: null });
  });
});
