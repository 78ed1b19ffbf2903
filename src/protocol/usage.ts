// Token usage and cost: what one model call used, and the running total.
import * as v from "valibot";

export const Usage = v.object({
  input: v.number(),
  output: v.number(),
  cache_read: v.number(),
  cache_write: v.number(),
  cost_usd: v.number(),
});
export type Usage = v.InferOutput<typeof Usage>;

/** Tokens as a provider reports them, before pricing. */
export type TokenUsage = Omit<Usage, "cost_usd">;

export function emptyUsage(): Usage {
  return { input: 0, output: 0, cache_read: 0, cache_write: 0, cost_usd: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cache_read: a.cache_read + b.cache_read,
    cache_write: a.cache_write + b.cache_write,
    cost_usd: a.cost_usd + b.cost_usd,
  };
}
