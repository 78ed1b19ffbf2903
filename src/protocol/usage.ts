// Token usage and cost: what one model call used, and the running total.
// Rule: `reasoning` is a part of `output` (never added to it, never priced apart) and null when the
// provider does not report it (Anthropic does not split thinking tokens out), never a guessed 0.
import * as v from "valibot";

export const Usage = v.object({
  input: v.number(),
  output: v.number(),
  cache_read: v.number(),
  cache_write: v.number(),
  cost_usd: v.number(),
  /**
   * additive: the reasoning tokens within `output`, or null when the provider does not report them
   * (absent in records written before it existed: read as null)
   */
  reasoning: v.optional(v.nullable(v.number()), null),
});
export type Usage = v.InferOutput<typeof Usage>;

/**
 * Tokens as a provider reports them, before pricing; `reasoning` left out when it reports none.
 * `cache_write_1h`: of `cache_write`, the tokens written to Anthropic's 1-hour cache, which cost
 * more than 5-minute writes; it only prices them (core/cost.ts), and is no field of Usage.
 */
export type TokenUsage = Omit<Usage, "cost_usd" | "reasoning"> & { reasoning?: number | null; cache_write_1h?: number };

export function emptyUsage(): Usage {
  return { input: 0, output: 0, cache_read: 0, cache_write: 0, cost_usd: 0, reasoning: null };
}

/**
 * Dollars to the billionth, the precision every price per million tokens has: sums print as
 * 0.007125, not 0.007124999999999999.
 */
export function dollars(amount: number): number {
  return Math.round(amount * 1e9) / 1e9;
}

/** The sum; the reasoning total stays null until some call reported reasoning tokens. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cache_read: a.cache_read + b.cache_read,
    cache_write: a.cache_write + b.cache_write,
    cost_usd: dollars(a.cost_usd + b.cost_usd),
    reasoning: a.reasoning === null && b.reasoning === null ? null : (a.reasoning ?? 0) + (b.reasoning ?? 0),
  };
}
