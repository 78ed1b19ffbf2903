// Prices tokens with the model's catalog prices (USD per million tokens).
import type { ModelInfo } from "../protocol/models.ts";
import { dollars, type TokenUsage, type Usage } from "../protocol/usage.ts";

export function priceUsage(model: ModelInfo, { reasoning, ...tokens }: TokenUsage): Usage {
  const cost =
    (tokens.input * model.price_input +
      tokens.output * model.price_output +
      tokens.cache_read * model.price_cache_read +
      tokens.cache_write * model.price_cache_write) /
    1_000_000;
  // reasoning after cost_usd, as in the cumulative total (one key order on the wire)
  return { ...tokens, cost_usd: dollars(cost), reasoning: reasoning ?? null };
}
