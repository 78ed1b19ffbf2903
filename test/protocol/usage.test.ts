// Usage totals and their schema: reasoning tokens stay null until a provider reports some, and
// records written before the field existed read as null (never a guessed 0).
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { priceUsage } from "../../src/core/cost.ts";
import { addUsage, emptyUsage, Usage } from "../../src/protocol/usage.ts";
import { testModel } from "../support/test-model.ts";

const call = (reasoning: number | null) => ({ input: 10, output: 5, cache_read: 0, cache_write: 0, cost_usd: 0.5, reasoning });

describe("addUsage", () => {
  test("null plus null is null: nothing reported is not zero reasoning", () => {
    expect(addUsage(emptyUsage(), call(null)).reasoning).toBeNull();
  });

  test("reported counts add up; a call that reported none adds nothing", () => {
    const total = [call(7), call(null), call(0), call(3)].reduce(addUsage, emptyUsage());
    expect(total).toEqual({ input: 40, output: 20, cache_read: 0, cache_write: 0, cost_usd: 2, reasoning: 10 });
  });
});

describe("costs", () => {
  test("are dollars to the billionth: a call's price and a running total carry no float noise", () => {
    const sonnet = { ...testModel(), price_input: 3, price_output: 15, price_cache_read: 0.3, price_cache_write: 3.75 };
    // 1,375 × $3 + 200 × $15 + 2,500 × $0.30 per million: 0.004125 + 0.003 + 0.00075
    const one = priceUsage(sonnet, { input: 1375, output: 200, cache_read: 2500, cache_write: 0 });
    expect(one.cost_usd).toBe(0.007875);
    const total = [0.1, 0.2, 0.000000001].map((cost_usd) => ({ ...call(null), cost_usd })).reduce(addUsage, emptyUsage());
    expect(total.cost_usd).toBe(0.300000001);
    expect(String(addUsage({ ...call(null), cost_usd: 0.1 }, { ...call(null), cost_usd: 0.2 }).cost_usd)).toBe("0.3");
  });
});

describe("1-hour cache writes", () => {
  const sonnet = { ...testModel(), price_input: 3, price_output: 15, price_cache_read: 0.3, price_cache_write: 3.75 };

  test("cost twice the input price, not the 5-minute write price; the priced usage keeps its fields as they were", () => {
    // 100,000 written, 60,000 of them for an hour: 40,000 × $3.75 + 60,000 × $6 + 10 × $3 + 7 × $15 per million
    const priced = priceUsage(sonnet, { input: 10, output: 7, cache_read: 0, cache_write: 100_000, cache_write_1h: 60_000 });
    expect(priced).toEqual({ input: 10, output: 7, cache_read: 0, cache_write: 100_000, cost_usd: 0.510135, reasoning: null });
    expect(priceUsage(sonnet, { input: 0, output: 0, cache_read: 0, cache_write: 100_000 }).cost_usd).toBe(0.375);
    // A model the user priced with input and output alone (an OpenRouter model): its writes cost as input, not nothing;
    // a catalog model whose writes are free (OpenAI's) stays free.
    const described = { ...sonnet, source: "user" as const, price_cache_write: 0, price_cache_read: 0 };
    expect(priceUsage(described, { input: 0, output: 0, cache_read: 0, cache_write: 100_000 }).cost_usd).toBe(0.3);
    expect(priceUsage({ ...sonnet, price_cache_write: 0 }, { input: 0, output: 0, cache_read: 0, cache_write: 100_000 }).cost_usd).toBe(0);
  });

  test("never more of them than the writes there are", () => {
    expect(priceUsage(sonnet, { input: 0, output: 0, cache_read: 0, cache_write: 1000, cache_write_1h: 5000 }).cost_usd).toBe(0.006);
  });
});

describe("the Usage schema", () => {
  test("a record without reasoning (written before it existed) reads as null", () => {
    const old = { input: 1, output: 2, cache_read: 0, cache_write: 0, cost_usd: 0.1 };
    expect(v.parse(Usage, old)).toEqual({ ...old, reasoning: null });
  });

  test("a count or null round-trips", () => {
    for (const reasoning of [0, 12, null]) expect(v.parse(Usage, JSON.parse(JSON.stringify(call(reasoning))))).toEqual(call(reasoning));
  });
});
