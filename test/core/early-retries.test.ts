// A model call whose stream's first word is an overload, a rate limit or a server error is asked
// again, as protocol/retry-backoff.ts plans: backing off from half a second, within one budget with
// the provider's own retries of the open, bounded by the run's limit, and cut short by an abort.
import { describe, expect, test } from "bun:test";
import { Agent } from "../../src/core/agent.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import { type ModelRequest, type Provider, type ProviderBatch, ProviderError } from "../../src/protocol/provider.ts";
import { backoffMs, retriesFor, retryPlan } from "../../src/protocol/retry-backoff.ts";
import { testModel } from "../support/test-model.ts";

/** Fails each call with an overload as its first word, after `openRetries` retries of its open; answers once `failures` calls failed. */
function overloaded(failures: number, options: { openRetries?: number; maxRetries?: number } = {}): Provider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: "busy",
    requests,
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    async *stream(request): AsyncIterable<ProviderBatch> {
      requests.push(request);
      const before = request.retriesBefore ?? 0;
      for (let i = 0; i < (options.openRetries ?? 0); i++) {
        yield [{ type: "retry", attempt: before + i + 1, max_attempts: 10, wait_ms: 0, status: 529, code: "overloaded", message: "busy: HTTP 529" }];
      }
      if (requests.length <= failures) throw new ProviderError("busy: Overloaded", "overloaded");
      yield [{ type: "text_delta", delta: "answered" }, { type: "done", content: [{ type: "text", text: "answered" }], stop: "end_turn" }];
    },
  };
}

function setup(provider: Provider) {
  const agent = new Agent({ provider, model: testModel(), tools: [], system: "sys", cwd: "/tmp" });
  const events: AgentEvent[] = [];
  agent.onEvent((event) => events.push(event));
  return { agent, events };
}

const retries = (events: AgentEvent[]) => events.flatMap((e) => (e.type === "retry" ? [e] : []));

describe("the plan", () => {
  test("a busy server gets ten retries, waits doubling from half a second to 32 s, up to a quarter longer at random", () => {
    expect(retriesFor("overloaded")).toBe(10);
    expect(retriesFor("rate_limit")).toBe(10);
    expect(retriesFor("server_error")).toBe(10);
    // A server error of a server on this machine or its network (a local model out of memory, a gateway whose server is down) gets a few.
    expect(retriesFor("server_error", undefined, true)).toBe(2);
    expect(retriesFor("overloaded", undefined, true)).toBe(10);
    expect(Array.from({ length: 10 }, (_, i) => backoffMs(i + 1, 0))).toEqual([500, 1000, 2000, 4000, 8000, 16000, 32000, 32000, 32000, 32000]);
    expect(backoffMs(1, 0.999)).toBe(625);
    // About two and a half minutes in all, three at the most.
    const total = Array.from({ length: 10 }, (_, i) => backoffMs(i + 1, 0)).reduce((a, b) => a + b, 0);
    expect(total).toBe(159_500);
  });

  test("a server not reached gets two; the run's limit lowers either, never raises it", () => {
    expect(retriesFor("network")).toBe(2);
    expect(retriesFor("overloaded", 3)).toBe(3);
    expect(retriesFor("network", 5)).toBe(2);
    expect(retriesFor("overloaded", 0)).toBe(0);
  });

  test("a wait the server names wins over the backoff; past the budget nothing is waited", () => {
    expect(retryPlan("rate_limit", 0, 5)).toEqual({ waitMs: 5000 });
    expect(retryPlan("overloaded", 10, undefined)).toEqual({ stop: "exhausted" });
    expect(retryPlan("network", 2, undefined)).toEqual({ stop: "exhausted" });
  });
});

describe("a first word that is an overload", () => {
  test("is asked again after half a second, then a second, and answered", async () => {
    const provider = overloaded(2);
    const { agent, events } = setup(provider);
    const started = performance.now();
    const outcome = await agent.prompt({ text: "hi" }, new AbortController().signal);
    expect(outcome.status).toBe("ok");
    expect(provider.requests).toHaveLength(3);
    expect(retries(events).map((r) => [r.attempt, r.max_attempts, r.code])).toEqual([
      [1, 10, "overloaded"],
      [2, 10, "overloaded"],
    ]);
    expect(retries(events)[0]!.wait_ms).toBeGreaterThanOrEqual(500);
    expect(retries(events)[1]!.wait_ms).toBeGreaterThanOrEqual(1000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1400);
  });

  test("the provider's retries of the open count in the same budget, numbered on", async () => {
    const provider = overloaded(5, { openRetries: 1, maxRetries: 3 });
    const { agent, events } = setup(provider);
    const outcome = await agent.prompt({ text: "hi" }, new AbortController().signal);
    expect(outcome).toMatchObject({ status: "error", code: "overloaded" });
    // The open's retry (1), the first word's (2), the second open's (3): the budget of 3 is spent.
    expect(retries(events).map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(provider.requests.map((r) => r.retriesBefore ?? 0)).toEqual([0, 2]);
  });

  test("an abort during the wait ends the prompt at once", async () => {
    const provider = overloaded(10);
    const { agent, events } = setup(provider);
    const controller = new AbortController();
    agent.onEvent((e) => {
      if (e.type === "retry") setTimeout(() => controller.abort(), 20);
    });
    const started = performance.now();
    const outcome = await agent.prompt({ text: "hi" }, controller.signal);
    expect(outcome.status).toBe("aborted");
    expect(performance.now() - started).toBeLessThan(400);
    expect(retries(events)).toHaveLength(1);
  });
});
