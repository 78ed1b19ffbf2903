// How a turn's events become its outcome, as both SDKs report it: an error that did not end the
// turn (an automatic compaction that failed, the turn going on) is no failed prompt, and a command
// stopped by an abort is an abort.
import { expect, test } from "bun:test";
import type { AgentEvent } from "../../src/protocol/events.ts";
import { turnResult } from "../../src/sdk/turn-result.ts";

const answer = (text: string): AgentEvent => ({ type: "assistant_message", content: [{ type: "text", text }], time: "2026-11-27T10:00:00.000Z" });

test("an automatic compaction's failure, with the turn going on and ending well, is ok with the answer", () => {
  const result = turnResult([
    { type: "turn_start", step: 1 },
    { type: "compact_start", reason: "auto" },
    { type: "error", message: "automatic compaction failed: scripted: hiccup; going on with the whole transcript", code: "server_error" },
    answer("the real answer"),
    { type: "turn_end", stop: "end_turn" },
    { type: "done" },
  ] as AgentEvent[]);
  expect(result).toMatchObject({ outcome: "ok", text: "the real answer" });
  expect(result.error).toBeUndefined();
});

test("an error that ends the prompt stays one: a provider error after its turn_end, max steps after the last turn", () => {
  const provider = turnResult([
    { type: "turn_start", step: 1 },
    { type: "turn_end", stop: "error", error: "anthropic: HTTP 500: boom", code: "server_error" },
    { type: "error", message: "anthropic: HTTP 500: boom", code: "server_error" },
    { type: "done" },
  ] as AgentEvent[]);
  expect(provider).toMatchObject({ outcome: "error", error: "anthropic: HTTP 500: boom" });
  const steps = turnResult([
    { type: "turn_start", step: 1 },
    { type: "turn_end", stop: "tool_use" },
    { type: "error", message: "max steps (1) exceeded", code: "max_steps" },
    { type: "done" },
  ] as AgentEvent[]);
  expect(steps).toMatchObject({ outcome: "error", error: "max steps (1) exceeded" });
});

test("an extension command stopped by an abort is aborted; one that failed is an error", () => {
  const stopped = turnResult([{ type: "command_result", command: "slow", extension: "demo", action: "error", text: "cancelled", aborted: true }, { type: "done" }] as AgentEvent[]);
  expect(stopped.outcome).toBe("aborted");
  expect(stopped.error).toBeUndefined();
  const failed = turnResult([{ type: "command_result", command: "weather", extension: "w", action: "error", text: "usage: /weather <city>" }, { type: "done" }] as AgentEvent[]);
  expect(failed).toMatchObject({ outcome: "error", error: expect.stringContaining("usage: /weather <city>") });
});

test("a compaction that failed, then a model call that failed: the error is the call's, which ended the prompt", () => {
  const result = turnResult([
    { type: "turn_start", step: 1 },
    { type: "compact_start", reason: "auto" },
    { type: "error", message: "automatic compaction failed: hiccup; going on with the whole transcript", code: "server_error" },
    { type: "turn_end", stop: "error", error: "anthropic: HTTP 500: boom", code: "server_error" },
    { type: "error", message: "anthropic: HTTP 500: boom", code: "server_error" },
    { type: "done" },
  ] as AgentEvent[]);
  expect(result).toMatchObject({ outcome: "error", error: "anthropic: HTTP 500: boom" });
});
