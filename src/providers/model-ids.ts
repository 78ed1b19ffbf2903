// What a model id says before the catalog is asked: the short aliases people type (`sonnet`),
// the family of a dated snapshot (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`), the
// provider an id's shape belongs to (`claude-*`, `gpt-*`, `o3*`), and the entry an id the catalog
// does not know gets. Rule: an id is never rejected for being new; what zot cannot know about it
// (limits, prices) falls back to conservative defaults and is said once.
import type { ModelInfo, ProviderName, WireApi } from "../protocol/models.ts";
import { claudeOwnId, claudeThinking } from "./claude-thinking.ts";

/** The aliases Claude Code users type, to the newest model of that family in the catalog. */
export const MODEL_ALIASES: Readonly<Record<string, { provider: ProviderName; id: string }>> = {
  sonnet: { provider: "anthropic", id: "claude-sonnet-5-5" },
  opus: { provider: "anthropic", id: "claude-opus-5-5" },
  haiku: { provider: "anthropic", id: "claude-haiku-5-5" },
  fable: { provider: "anthropic", id: "claude-fable-5-2" },
};

/** OpenAI's reasoning families (GPT-5 and later, the o-series): they speak the Responses API. */
const OPENAI_REASONING = /^(?:gpt-(?:[5-9]|\d{2,})|o[134])/;

/** Limits an unknown model of a provider is given (a models.json entry sets the real ones). */
export const UNKNOWN_MODEL_CONTEXT = 128_000;
export const UNKNOWN_MODEL_MAX_OUTPUT = 8_192;
/** An unknown model that reasons: its thinking counts within the output, so 8K would cut answers short (Claude Code's default limit). */
export const UNKNOWN_REASONING_MAX_OUTPUT = 32_000;
/** Ids of thinking models other servers serve (DeepSeek's reasoner and V4, Kimi's thinking, QwQ, R1 distills): their output holds their thinking too. */
const THINKING_IDS = /deepseek-(?:reasoner|v[4-9])|kimi.*thinking|qwq|(?:^|[-/_.])r1(?:$|[-/_.:])/i;

const SNAPSHOT_SUFFIX = /-(?:\d{8}|\d{4}-\d{2}-\d{2}|latest)$/;

/** `claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`, `gpt-4.1-2025-04-14` → `gpt-4.1`; else the id itself. */
export function familyOf(id: string): string {
  return id.replace(SNAPSHOT_SUFFIX, "");
}

/**
 * The catalog entry a dated snapshot or `-latest` alias belongs to: the entry whose own family is
 * the same (Anthropic's `claude-sonnet-4-20250514` is the catalog's `claude-sonnet-4-0`).
 */
export function familyMember(models: readonly ModelInfo[], provider: ProviderName, id: string): ModelInfo | undefined {
  const family = familyOf(id);
  if (family === id) return undefined;
  const own = models.filter((m) => m.provider === provider);
  return own.find((m) => m.id === family) ?? own.find((m) => m.id === `${family}-0`) ?? own.find((m) => familyOf(m.id) === family);
}

/** The provider an id's shape names, when it names one: `claude-*` → anthropic; `gpt-*`, `o1`, `o3*`, `o4*` → openai. */
export function providerOfId(id: string): ProviderName | undefined {
  const lower = id.toLowerCase();
  if (MODEL_ALIASES[lower]) return MODEL_ALIASES[lower].provider;
  if (lower.startsWith("claude-")) return "anthropic";
  if (/^(?:gpt-|chatgpt-|codex-|o[134](?:$|-))/.test(lower)) return "openai";
  return undefined;
}

/**
 * The catalog's model an id names in a gateway's spelling: OpenRouter's `anthropic/claude-opus-4.7`
 * or `openai/gpt-5.1`, Bedrock's `us.anthropic.claude-opus-4-7-v1:0`; undefined for any other id.
 */
export function catalogKin(catalog: readonly ModelInfo[], id: string): ModelInfo | undefined {
  const tail = id.slice(id.lastIndexOf("/") + 1);
  const own = claudeOwnId(id);
  const named = (wanted: string) => catalog.find((m) => m.id === wanted && m.provider !== "scripted");
  return (tail !== id ? named(tail) : undefined) ?? (own ? (named(own) ?? named(`${own}-0`)) : undefined);
}

/**
 * The entry for an id the catalog does not have: the provider's wire API (OpenAI's reasoning
 * families speak Responses, everything else Chat Completions, as proxies and compatible servers
 * do), no price, and the limits of `kin` (the catalog's model it names in another spelling), else
 * default ones (larger for a model that reasons, whose thinking counts within its output).
 */
export function unknownModel(provider: ProviderName, id: string, kin?: ModelInfo): ModelInfo {
  // A Claude id whose family and version zot can read thinks as its family does (claude-thinking.ts).
  const reasoning = provider === "openai" ? OPENAI_REASONING.test(id) : provider === "anthropic" && claudeThinking(id).reasons;
  return {
    id,
    provider,
    name: id,
    api: apiOfUnknown(provider, id),
    context_window: kin?.context_window ?? UNKNOWN_MODEL_CONTEXT,
    max_output: kin?.max_output ?? (reasoning || THINKING_IDS.test(id) ? UNKNOWN_REASONING_MAX_OUTPUT : UNKNOWN_MODEL_MAX_OUTPUT),
    reasoning,
    price_input: 0,
    price_output: 0,
    price_cache_read: 0,
    price_cache_write: 0,
    source: "synthetic",
  };
}

function apiOfUnknown(provider: ProviderName, id: string): WireApi {
  if (provider === "anthropic") return "anthropic-messages";
  if (provider === "scripted") return "scripted";
  if (provider === "openai" && (OPENAI_REASONING.test(id) || id.startsWith("codex-"))) return "openai-responses";
  return "openai-chat";
}

/** The one-line note for a model zot knows nothing about (`kin`: the catalog's model whose limits it took). */
export function unknownModelNote(model: ModelInfo, modelsFile: string, kin?: ModelInfo): string {
  return (
    `model "${model.id}" is not in zot's catalog, so ${model.provider} gets it as asked with ${kin ? `${kin.id}'s limits` : "default limits"} ` +
    `(${Math.round(model.context_window / 1000)}K context, ${model.max_output} output tokens) and no price (its cost counts as $0); ` +
    `describe it in ${modelsFile} to set them`
  );
}
