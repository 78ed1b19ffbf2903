// What a run counts of each call's tokens and cost when the server says them its own way (a count
// left out or sent as a string, another server's cache fields) or stops the answer (a content
// filter), through the compiled binary against the mock LLM: the usage events, the running total,
// and the session a resume reads back.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockLlm, type MockTurn, startMockLlm } from "../support/mock-llm.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

/** The two OpenAI wires: the model that speaks each, its prices per million tokens, and its usage fields' names. */
const WIRES = [
  { wire: "chat", model: "gpt-4o", price: { input: 2.5, output: 10 }, input: "prompt_tokens", output: "completion_tokens" },
  { wire: "responses", model: "gpt-5", price: { input: 1.25, output: 10 }, input: "input_tokens", output: "output_tokens" },
] as const;

/** One folder and ZOT_HOME (with its models.json, when given) for a run, the ones that resume it, and the commands that read its sessions. */
function place(mock: MockLlm, model: string, modelsJson?: unknown) {
  const home = tempDir("zot-usage-home-");
  if (modelsJson) writeFileSync(join(home, "models.json"), JSON.stringify(modelsJson));
  const cwd = tempDir("zot-usage-cwd-");
  const flags = ["--provider", "openai", "--model", model, "--api-key", "k", "--base-url", `${mock.url}/v1`];
  return { run: (args: string[]) => zot([...args, ...flags], { home, cwd }), sessions: (args: string[]) => zot(["sessions", ...args], { home, cwd }) };
}

describe("usage counts", () => {
  test.each(WIRES)("$wire: a count left out is 0 and a count sent as a string is its number; costs and totals stay numbers, and a resume keeps every call's cost", async ({ model, price, input, output }) => {
    const turns: MockTurn[] = [
      { text: "first", wire_usage: { [input]: 1000 } },
      { text: "second", wire_usage: { [input]: "1200", [output]: "5" } },
    ];
    mock = startMockLlm(turns);
    const { run, sessions } = place(mock, model);
    const first = await run(["--json", "hi"]);
    expect(first.code).toBe(0);
    const firstCost = (1000 * price.input) / 1e6;
    expect(ndjson(first.stdout).find((e) => e.type === "usage")).toMatchObject({ input: 1000, output: 0, cost_usd: firstCost, cumulative: { input: 1000, output: 0, cost_usd: firstCost } });

    const second = await run(["--json", "-c", "again"]);
    expect(second.code).toBe(0);
    // Before, the first call's record (output: null) was skipped here, and its cost forgotten.
    expect(second.stderr).not.toContain("skipped");
    const secondCost = (1200 * price.input + 5 * price.output) / 1e6;
    const usage = ndjson(second.stdout).find((e) => e.type === "usage");
    expect(usage).toMatchObject({ input: 1200, output: 5, cost_usd: secondCost, cumulative: { input: 2200, output: 5 } });
    expect(usage.cumulative.cost_usd).toBeCloseTo(firstCost + secondCost, 12);

    const listed = await sessions(["list"]);
    expect(listed.stdout).toContain(`$${(firstCost + secondCost).toFixed(4)}`);
  });
});

describe("cache counts of other servers", () => {
  // Priced in models.json as a user of either server would: $ per million tokens.
  const MODELS = { providers: { openai: { models: [{ id: "cached-model", cost: { input: 0.27, output: 1.1, cacheRead: 0.07, cacheWrite: 0.5 } }] } } };

  test("DeepSeek's cache hits (prompt_cache_hit_tokens) are cache reads, priced as such, not fresh input", async () => {
    mock = startMockLlm([{ text: "ok", wire_usage: { prompt_tokens: 100_000, completion_tokens: 100, prompt_cache_hit_tokens: 99_000, prompt_cache_miss_tokens: 1000 } }]);
    const { run } = place(mock, "cached-model", MODELS);
    const usage = ndjson((await run(["--json", "hi"])).stdout).find((e) => e.type === "usage");
    expect(usage).toMatchObject({ input: 1000, cache_read: 99_000, cache_write: 0, output: 100 });
    expect(usage.cost_usd).toBeCloseTo((1000 * 0.27 + 99_000 * 0.07 + 100 * 1.1) / 1e6, 12);
  });

  test("OpenRouter's cache writes (prompt_tokens_details.cache_write_tokens) are cache writes, priced as such", async () => {
    mock = startMockLlm([{ text: "ok", wire_usage: { prompt_tokens: 3000, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 2000 } } }]);
    const { run } = place(mock, "cached-model", MODELS);
    const usage = ndjson((await run(["--json", "hi"])).stdout).find((e) => e.type === "usage");
    expect(usage).toMatchObject({ input: 1000, cache_read: 0, cache_write: 2000, output: 10 });
    expect(usage.cost_usd).toBeCloseTo((1000 * 0.27 + 2000 * 0.5 + 10 * 1.1) / 1e6, 12);
  });
});

describe("an answer a content filter stopped", () => {
  test.each(WIRES)("$wire: its billed usage is a usage event before the refusal, and the session keeps it", async ({ model, price }) => {
    mock = startMockLlm([{ text: "Here is the st", filtered: true, usage: { input: 5000, output: 30 } }, { text: "fine" }]);
    const { run } = place(mock, model);
    const first = await run(["--json", "tell me"]);
    const events = ndjson(first.stdout);
    const kinds = events.map((e) => e.type).filter((t) => t !== "text_delta");
    expect(kinds).toEqual(["session", "user_message", "turn_start", "assistant_start", "usage", "assistant_message", "turn_end", "error", "done"]);
    const cost = (5000 * price.input + 30 * price.output) / 1e6;
    expect(events.find((e) => e.type === "usage")).toMatchObject({ input: 5000, output: 30, cost_usd: cost });
    expect(events.find((e) => e.type === "error")).toMatchObject({ code: "refused" });

    // Recorded: the next run in the session goes on from its cost.
    const second = await run(["--json", "-c", "something else"]);
    const usage = ndjson(second.stdout).find((e) => e.type === "usage");
    expect(usage.cumulative.input).toBe(5000 + usage.input);
    expect(usage.cumulative.cost_usd).toBeCloseTo(cost + usage.cost_usd, 12);
  });

  test.each(WIRES)("$wire: stopped before a word, its usage comes with no assistant_start (no answer started)", async ({ model }) => {
    mock = startMockLlm([{ text: "", filtered: true, usage: { input: 5000, output: 0 } }]);
    const { run } = place(mock, model);
    const kinds = ndjson((await run(["--json", "tell me"])).stdout).map((e) => e.type);
    expect(kinds).toEqual(["session", "user_message", "turn_start", "usage", "turn_end", "error", "done"]);
  });

  test("a model priced with input and output alone (an OpenRouter model) has its cache writes priced as input, not free", async () => {
    mock = startMockLlm([{ text: "ok", wire_usage: { prompt_tokens: 3000, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 2000 } } }]);
    const { run } = place(mock, "unpriced", { providers: { openai: { models: [{ id: "unpriced", cost: { input: 3, output: 15 } }] } } });
    const usage = ndjson((await run(["--json", "hi"])).stdout).find((e) => e.type === "usage");
    expect(usage).toMatchObject({ input: 1000, cache_write: 2000 });
    expect(usage.cost_usd).toBeCloseTo((3000 * 3 + 10 * 15) / 1e6, 12);
  });
});
