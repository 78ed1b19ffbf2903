// A model as zot knows it: catalog entries and the user's models.json overrides share this shape.
import * as v from "valibot";

export const ProviderName = v.picklist(["anthropic", "openai", "ollama", "scripted"]);
export type ProviderName = v.InferOutput<typeof ProviderName>;
export const PROVIDER_NAMES = ProviderName.options;

/** Which wire API a model is spoken to with. */
export const WireApi = v.picklist(["anthropic-messages", "openai-chat", "openai-responses", "scripted"]);
export type WireApi = v.InferOutput<typeof WireApi>;

export const ModelInfo = v.object({
  id: v.string(),
  provider: ProviderName,
  name: v.string(),
  api: WireApi,
  context_window: v.number(),
  max_output: v.number(),
  reasoning: v.boolean(),
  /** USD per million tokens */
  price_input: v.number(),
  price_output: v.number(),
  price_cache_read: v.number(),
  price_cache_write: v.number(),
  /** a base URL this model is served from when --base-url is not given */
  base_url: v.optional(v.string()),
  /** additive: false for a model that takes no images (models.json `"input": ["text"]`, pi's field); absent: it takes them */
  images: v.optional(v.boolean()),
  source: v.picklist(["catalog", "user", "synthetic"]),
});
export type ModelInfo = v.InferOutput<typeof ModelInfo>;

/**
 * How hard a model is asked to think. xhigh and max reach the models that take them (Claude's
 * adaptive thinking: Opus 4.7 and later, the 5.x models); others get their nearest (openai-effort.ts,
 * a larger thinking budget).
 */
export const ReasoningLevel = v.picklist(["low", "medium", "high", "xhigh", "max"]);
export type ReasoningLevel = v.InferOutput<typeof ReasoningLevel>;
