// ClaudeRun, the events of a run read as Claude Code's lines: here the compact_boundary a completed
// compaction becomes (the Agent SDK's SDKCompactBoundaryMessage), with Claude Code's two triggers.
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { ClaudeRun } from "../../src/modes/claude-messages.ts";
import { ClaudeOutputLine } from "../../src/protocol/claude-output.ts";
import type { AgentEvent, CompactReason } from "../../src/protocol/events.ts";

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

describe("the model of each call", () => {
  const usage = (input: number, cost_usd: number, before: number) =>
    ({
      type: "usage",
      input,
      output: 10,
      cache_read: 0,
      cache_write: 0,
      cost_usd,
      reasoning: null,
      cumulative: { input: 0, output: 0, cache_read: 0, cache_write: 0, cost_usd: before + cost_usd, reasoning: null },
    }) as const;
  const answer: AgentEvent = { type: "assistant_message", content: [{ type: "text", text: "ok" }], time: "2026-11-27T10:00:00.000Z" };

  test("a call a command's model: answered is that model's, in its assistant line and in modelUsage; the run's own model keeps its calls", () => {
    let answering = "claude-haiku-4-5";
    const r = new ClaudeRun({ sessionId: null, model: "claude-sonnet-4-5", answeringModel: () => answering, claudeCall: (name, args) => ({ tool_name: name, tool_input: args }), costBefore: 0 });
    r.add(usage(1000, 0.00105, 0));
    const lent = r.add(answer)[0];
    answering = "claude-sonnet-4-5";
    r.add(usage(2000, 0.00615, 0.00105));
    const own = r.add(answer)[0];
    expect(lent).toMatchObject({ type: "assistant", message: { model: "claude-haiku-4-5" } });
    expect(own).toMatchObject({ type: "assistant", message: { model: "claude-sonnet-4-5" } });
    const result = r.result({ status: "ok" });
    expect(result.total_cost_usd).toBe(0.0072);
    expect(result.modelUsage).toEqual({
      "claude-haiku-4-5": { inputTokens: 1000, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, costUSD: 0.00105 },
      "claude-sonnet-4-5": { inputTokens: 2000, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, costUSD: 0.00615 },
    });
  });

  test("a run without a call names its own model, with nothing", () => {
    expect(run().result({ status: "ok" }).modelUsage).toEqual({
      "claude-sonnet-5-5": { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, costUSD: 0 },
    });
  });
});

describe("a failed call's retries and its end, as the Agent SDK reads them", () => {
  test("a retry is a system api_retry line: attempt of max_retries, the delay, the status (null without one), the kind", () => {
    const r = run();
    const [line] = r.add({ type: "retry", attempt: 2, max_attempts: 10, wait_ms: 1234, status: 529, code: "overloaded", message: "anthropic: HTTP 529: Overloaded" });
    expect(v.parse(ClaudeOutputLine, line)).toEqual(line!);
    expect(line).toEqual({
      type: "system",
      subtype: "api_retry",
      attempt: 2,
      max_retries: 10,
      retry_delay_ms: 1234,
      error_status: 529,
      error: "overloaded",
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      session_id: "20261127-100000-0a1b2c3d",
    });
    expect(r.add({ type: "retry", attempt: 1, max_attempts: 2, wait_ms: 500, code: "network", message: "anthropic: cannot reach …" })[0]).toMatchObject({ error_status: null, error: "unknown" });
    expect(r.add({ type: "retry", attempt: 1, max_attempts: 10, wait_ms: 500, status: 429, code: "rate_limit", message: "x" })[0]).toMatchObject({ error: "rate_limit" });
  });

  test("a turn a model call's failure ended: the synthetic assistant message, its error the failure's kind, its text the failure", () => {
    const r = run(null);
    const [line] = r.add({ type: "turn_end", stop: "error", error: "anthropic: HTTP 429: slow down", code: "rate_limit" });
    expect(v.parse(ClaudeOutputLine, line)).toEqual(line!);
    expect(line).toEqual({
      type: "assistant",
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      error: "rate_limit",
      message: {
        id: expect.stringMatching(/^msg_/),
        type: "message",
        role: "assistant",
        model: "<synthetic>",
        content: [{ type: "text", text: "API Error: anthropic: HTTP 429: slow down" }],
        usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
      parent_tool_use_id: null,
      session_id: null,
    });
    expect(r.add({ type: "turn_end", stop: "error", error: "anthropic rejected the API key", code: "auth" })[0]).toMatchObject({ error: "authentication_failed" });
    expect(r.add({ type: "turn_end", stop: "error", error: "x", code: "overloaded" })[0]).toMatchObject({ error: "overloaded" });
  });

  test("a turn that ended otherwise has no synthetic message: max steps, a hook's block, an abort, success", () => {
    const r = run();
    expect(r.add({ type: "turn_end", stop: "error", error: "max steps (3) exceeded", code: "max_steps" })).toEqual([]);
    expect(r.add({ type: "turn_end", stop: "error", error: "turn blocked by guard: no", code: "blocked" })).toEqual([]);
    expect(r.add({ type: "turn_end", stop: "aborted" })).toEqual([]);
    expect(r.add({ type: "turn_end", stop: "end_turn" })).toEqual([]);
  });
});
