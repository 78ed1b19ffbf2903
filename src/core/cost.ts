// Prices tokens with the model's catalog prices (USD per million tokens).
// Rule: a 1-hour cache write costs twice the input price, as Anthropic bills it (a 5-minute one,
// the catalog's cache-write price: 1.25 times); the catalog has no price of its own for it. A model
// the user described (or zot knows nothing of) with no cache-write price has its writes priced as
// input, never as free: every provider that bills them bills at least that (an OpenRouter model
// priced `cost: {input, output}` alone).
import type { ModelInfo } from "../protocol/models.ts";
import { dollars, type TokenUsage, type Usage } from "../protocol/usage.ts";

/** What a 1-hour cache write costs, as a multiple of the input price. */
const HOUR_CACHE_WRITE_FACTOR = 2;

export function priceUsage(model: ModelInfo, { reasoning, cache_write_1h, ...tokens }: TokenUsage): Usage {
  const hourWrites = Math.min(cache_write_1h ?? 0, tokens.cache_write);
  const writePrice = model.price_cache_write === 0 && model.source !== "catalog" ? model.price_input : model.price_cache_write;
  const cost =
    (tokens.input * model.price_input +
      tokens.output * model.price_output +
      tokens.cache_read * model.price_cache_read +
      (tokens.cache_write - hourWrites) * writePrice +
      hourWrites * model.price_input * HOUR_CACHE_WRITE_FACTOR) /
    1_000_000;
  // reasoning after cost_usd, as in the cumulative total (one key order on the wire)
  return { ...tokens, cost_usd: dollars(cost), reasoning: reasoning ?? null };
}
