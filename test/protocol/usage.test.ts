// Usage totals and their schema: reasoning tokens stay null until a provider reports some, and
// records written before the field existed read as null (never a guessed 0).
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { addUsage, emptyUsage, Usage } from "../../src/protocol/usage.ts";

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

describe("the Usage schema", () => {
  test("a record without reasoning (written before it existed) reads as null", () => {
    const old = { input: 1, output: 2, cache_read: 0, cache_write: 0, cost_usd: 0.1 };
    expect(v.parse(Usage, old)).toEqual({ ...old, reasoning: null });
  });

  test("a count or null round-trips", () => {
    for (const reasoning of [0, 12, null]) expect(v.parse(Usage, JSON.parse(JSON.stringify(call(reasoning))))).toEqual(call(reasoning));
  });
});
