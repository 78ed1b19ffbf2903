// The context as the next call sends it: the last call's count, the estimate of what came since
// (calibrated by the provider's count), and what resets them.
import { describe, expect, test } from "bun:test";
import { estimateContextTokens, estimateMessageTokens } from "../../src/core/compact.ts";
import { ContextCount, MAX_SCALE } from "../../src/core/context-count.ts";
import type { Message } from "../../src/protocol/messages.ts";
import type { ModelRequest } from "../../src/protocol/provider.ts";
import { testModel } from "../support/test-model.ts";

const TIME = "2025-01-01T00:00:00.000Z";
const model = testModel({ id: "m", context_window: 100_000 });
const other = testModel({ id: "other", context_window: 100_000 });
const SYSTEM = "You are zot. ".repeat(100);
const text = (role: Message["role"], t: string): Message => ({ role, content: [{ type: "text", text: t }], time: TIME });
const toolResult = (t: string): Message => ({
  role: "tool",
  content: [{ type: "tool_result", call_id: "c1", is_error: false, content: [{ type: "text", text: t }] }],
  time: TIME,
});
const request = (messages: Message[], m = model): ModelRequest => ({ model: m, system: SYSTEM, messages, tools: [] });
const usage = (input: number, output = 0, cache_read = 0) => ({ input, output, cache_read, cache_write: 0 });

describe("ContextCount", () => {
  test("the last call's count, plus the estimate of the messages added since; the call's own answer is in its count", () => {
    const count = new ContextCount();
    const sent = [text("user", "read it")];
    const estimate = estimateContextTokens(SYSTEM, sent, []);
    // The provider counts what the estimate does: no scaling.
    count.callEnded(request(sent), usage(estimate, 20), true);
    expect(count.tokens(model)).toBe(estimate + 20);
    count.appended(text("assistant", "calling read"));
    expect(count.tokens(model)).toBe(estimate + 20);
    const result = toolResult("x".repeat(40_000));
    count.appended(result);
    expect(count.tokens(model)).toBe(estimate + 20 + estimateMessageTokens(result));
  });

  test("a count under a quarter of the estimate left part of the prompt out (0 after a whole cache hit, a server counting only what it did not cache): the estimate stands in", () => {
    const sent = [text("user", "read it"), toolResult("y".repeat(40_000))];
    const estimate = estimateContextTokens(SYSTEM, sent, []);
    for (const reported of [0, Math.floor(estimate / 10)]) {
      const count = new ContextCount();
      count.callEnded(request(sent), usage(reported, 20), true);
      expect([reported, count.tokens(model)]).toEqual([reported, estimate + 20]);
      // And it does not calibrate: the estimate is not scaled down by what was left out.
      expect(count.scale(model)).toBe(1);
    }
    // A count near the estimate is the count, and so is one well under it (runs of spaces tokenise densely).
    for (const share of [0.8, 0.3]) {
      const near = new ContextCount();
      near.callEnded(request(sent), usage(Math.ceil(estimate * share), 20), true);
      expect(near.tokens(model)).toBe(Math.ceil(estimate * share) + 20);
    }
  });

  test("cache reads count as input; an answer with no output counted is estimated", () => {
    const count = new ContextCount();
    const sent = [text("user", "hi")];
    count.callEnded(request(sent), usage(10, 0, 290), true);
    const answer = text("assistant", "y".repeat(400));
    count.appended(answer);
    expect(count.tokens(model)).toBe(300 + 100);
  });

  test("calibrated: dense text the provider counts at N for an estimate of E scales what is added since by N/E", () => {
    const count = new ContextCount();
    const sent = [text("user", "summarise a.txt"), text("assistant", "reading"), toolResult("漢字".repeat(6_000))];
    const estimate = estimateContextTokens(SYSTEM, sent, []);
    count.callEnded(request(sent), usage(estimate * 3), true);
    expect(count.scale(model)).toBeCloseTo(3, 5);
    const more = toolResult("漢字".repeat(6_000));
    count.appended(more);
    expect(count.tokens(model)).toBe(estimate * 3 + Math.ceil(estimateMessageTokens(more) * count.scale(model)));
    // Another model (another tokenizer, maybe) counts from the plain estimate until its own call reports.
    expect(count.scale(other)).toBe(1);
  });

  test(`the calibration is bounded: never below 1 (sparse prose keeps today's estimate), never above ${MAX_SCALE}`, () => {
    const count = new ContextCount();
    const sent = [text("user", "p".repeat(40_000))];
    const estimate = estimateContextTokens(SYSTEM, sent, []);
    count.callEnded(request(sent), usage(Math.floor(estimate / 2)), true);
    expect(count.scale(model)).toBe(1);
    count.callEnded(request(sent), usage(estimate * 50), true);
    expect(count.scale(model)).toBe(MAX_SCALE);
  });

  test("a server that reports no usage: the calibrated estimate of what was sent, and the answer is estimated too", () => {
    const count = new ContextCount();
    const sent = [text("user", "x".repeat(4_000))];
    count.callEnded(request(sent), undefined, true);
    const estimate = estimateContextTokens(SYSTEM, sent, []);
    expect(count.tokens(model)).toBe(estimate);
    const answer = text("assistant", "y".repeat(400));
    count.appended(answer);
    expect(count.tokens(model)).toBe(estimate + estimateMessageTokens(answer));
    // A failed call with nothing reported changes nothing.
    count.callEnded(request(sent), undefined, false);
    expect(count.tokens(model)).toBe(estimate + estimateMessageTokens(answer));
  });

  test("a transcript put in place is estimated at the calibration (a resumed one, forgotten: the plain estimate); an empty one is 0", () => {
    const count = new ContextCount();
    const sent = [text("user", "hi"), toolResult("漢字".repeat(6_000))];
    const estimate = estimateContextTokens(SYSTEM, sent, []);
    count.callEnded(request(sent), usage(estimate * 2), true);
    const kept = [text("user", "## summary"), toolResult("漢字".repeat(3_000))];
    count.transcriptReplaced(SYSTEM, kept, [], model);
    expect(count.tokens(model)).toBe(Math.ceil(estimateContextTokens(SYSTEM, kept, []) * 2));
    count.forgetCalibration();
    count.transcriptReplaced(SYSTEM, kept, [], model);
    expect(count.tokens(model)).toBe(estimateContextTokens(SYSTEM, kept, []));
    count.transcriptReplaced(SYSTEM, [], [], model);
    expect(count.tokens(model)).toBe(0);
  });
});
