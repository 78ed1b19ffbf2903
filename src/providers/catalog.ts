// The model catalog: built-in Anthropic and OpenAI models (context window, max output, prices),
// merged with the user's $ZOT_HOME/models.json, and how a `--model` id resolves against it.
// Rule: a broken models.json never stops zot: each bad entry becomes a warning naming the file and
// the field, and everything else (built-ins and the good entries) still loads.
import path from "node:path";
import * as v from "valibot";
import { formatPrice, formatTokens } from "../protocol/model-figures.ts";
import { type ModelInfo, type ProviderName, PROVIDER_NAMES, WireApi } from "../protocol/models.ts";
import { firstIssue } from "../protocol/schema-issue.ts";
import { keyVariable, onlyVariable } from "../config/model-key-variables.ts";
import { catalogKin, familyMember, MODEL_ALIASES, unknownModel, unknownModelNote } from "./model-ids.ts";
import { article } from "../protocol/article.ts";
import { ownEntry } from "../protocol/own-key.ts";
import { readRegularFile } from "../config/regular-file.ts";
import { errnoWords } from "../protocol/errno-words.ts";
import { isHttpUrl, notHttpUrlText } from "../protocol/http-url.ts";
import { isJsonObject } from "../protocol/json-object.ts";

type Prices = [input: number, output: number, cacheRead: number, cacheWrite: number];

function model(
  provider: ProviderName,
  id: string,
  name: string,
  api: WireApi,
  context: number,
  maxOutput: number,
  reasoning: boolean,
  [input, output, cacheRead, cacheWrite]: Prices,
): ModelInfo {
  return {
    id,
    provider,
    name,
    api,
    context_window: context,
    max_output: maxOutput,
    reasoning,
    price_input: input,
    price_output: output,
    price_cache_read: cacheRead,
    price_cache_write: cacheWrite,
    source: "catalog",
  };
}

const anthropic = (id: string, name: string, context: number, maxOutput: number, reasoning: boolean, prices: Prices) =>
  model("anthropic", id, name, "anthropic-messages", context, maxOutput, reasoning, prices);
// OpenAI's reasoning models keep their reasoning between turns only through the Responses API;
// the GPT-4 families are plain Chat Completions models.
const openaiResponses = (id: string, name: string, context: number, maxOutput: number, prices: Prices) =>
  model("openai", id, name, "openai-responses", context, maxOutput, true, prices);
const openaiChat = (id: string, name: string, context: number, maxOutput: number, prices: Prices) =>
  model("openai", id, name, "openai-chat", context, maxOutput, false, prices);

const SONNET: Prices = [3, 15, 0.3, 3.75];
const SONNET_5: Prices = [2, 10, 0.2, 2.5];
const OPUS_4_5: Prices = [5, 25, 0.5, 6.25];
const FABLE: Prices = [10, 50, 0.25, 12.5];
const GPT_6_SOL: Prices = [2, 10, 0.1, 0];

/**
 * Per provider: the default first, then newest first, then the older ones still served. Prices are
 * USD per million tokens, as Anthropic's and OpenAI's pages list them in November 2026; retired
 * models are not listed (`--model` still sends any id as asked). Claude Sonnet 4.5 retires on
 * 2026-11-30, OpenAI's gpt-5, gpt-5-mini, gpt-5-nano and o3 on 2026-12-11.
 */
export const BUILTIN_MODELS: readonly ModelInfo[] = [
  anthropic("claude-sonnet-5-5", "Claude Sonnet 5.5", 1_000_000, 128_000, true, [2, 10, 0.1, 2.5]),
  anthropic("claude-fable-5-2", "Claude Fable 5.2", 1_000_000, 128_000, true, [8, 40, 0.2, 10]),
  anthropic("claude-opus-5-5", "Claude Opus 5.5", 1_000_000, 128_000, true, [4, 20, 0.2, 5]),
  // Haiku 5.5 costs 5× more for a prompt over 100K tokens; zot prices every call at the base rate.
  anthropic("claude-haiku-5-5", "Claude Haiku 5.5", 1_000_000, 128_000, true, [0.1, 0.5, 0.01, 0.125]),
  anthropic("claude-fable-5-1", "Claude Fable 5.1", 1_000_000, 128_000, true, FABLE),
  anthropic("claude-opus-5", "Claude Opus 5", 1_000_000, 128_000, true, OPUS_4_5),
  anthropic("claude-sonnet-5", "Claude Sonnet 5", 1_000_000, 128_000, true, SONNET_5),
  anthropic("claude-opus-4-8", "Claude Opus 4.8", 1_000_000, 128_000, true, OPUS_4_5),
  anthropic("claude-opus-4-7", "Claude Opus 4.7", 1_000_000, 128_000, true, OPUS_4_5),
  anthropic("claude-opus-4-6", "Claude Opus 4.6", 1_000_000, 128_000, true, OPUS_4_5),
  anthropic("claude-sonnet-4-6", "Claude Sonnet 4.6", 1_000_000, 128_000, true, SONNET),
  anthropic("claude-opus-4-5", "Claude Opus 4.5", 200_000, 64_000, true, OPUS_4_5),
  anthropic("claude-sonnet-4-5", "Claude Sonnet 4.5", 200_000, 64_000, true, SONNET),
  anthropic("claude-haiku-4-5", "Claude Haiku 4.5", 200_000, 64_000, true, [1, 5, 0.1, 1.25]),

  // OpenAI's windows here are the input a model accepts (its context less its 128K output: 922K of
  // 1,050,000, 272K of 400K), so auto-compaction's 85% comes before the API refuses the request.
  openaiResponses("gpt-6.1-sol", "GPT-6.1 Sol", 922_000, 128_000, GPT_6_SOL),
  openaiResponses("gpt-6.1-terra", "GPT-6.1 Terra", 922_000, 128_000, [1, 5, 0.05, 0]),
  openaiResponses("gpt-6-sol", "GPT-6 Sol", 922_000, 128_000, [2, 10, 0.2, 0]),
  openaiResponses("gpt-5.5", "GPT-5.5", 922_000, 128_000, [2.5, 15, 0.25, 0]),
  openaiResponses("gpt-5.5-mini", "GPT-5.5 mini", 400_000, 128_000, [0.75, 4.5, 0.075, 0]),
  openaiResponses("gpt-5.4", "GPT-5.4", 272_000, 128_000, [2.5, 15, 0.25, 0]),
  openaiResponses("gpt-5.4-mini", "GPT-5.4 mini", 272_000, 128_000, [0.75, 4.5, 0.075, 0]),
  openaiResponses("gpt-5.3", "GPT-5.3", 272_000, 128_000, [1.75, 14, 0.175, 0]),
  openaiResponses("gpt-5.2", "GPT-5.2", 272_000, 128_000, [1.75, 14, 0.175, 0]),
  openaiResponses("gpt-5.1", "GPT-5.1", 272_000, 128_000, [1.25, 10, 0.125, 0]),
  openaiResponses("gpt-5", "GPT-5", 272_000, 128_000, [1.25, 10, 0.125, 0]),
  openaiResponses("gpt-5-mini", "GPT-5 mini", 272_000, 128_000, [0.25, 2, 0.025, 0]),
  openaiResponses("gpt-5-nano", "GPT-5 nano", 272_000, 128_000, [0.05, 0.4, 0.005, 0]),
  // The Codex models (Codex CLI's own), priced as the models they are tuned from. Their window is
  // the input they accept, 272K (Codex CLI's figure; the 400K OpenAI quotes adds the 128K output),
  // so auto-compaction's 85% comes before the API refuses the request.
  openaiResponses("gpt-5-codex", "GPT-5-Codex", 272_000, 128_000, [1.25, 10, 0.125, 0]),
  openaiResponses("gpt-5.1-codex", "GPT-5.1-Codex", 272_000, 128_000, [1.25, 10, 0.125, 0]),
  openaiResponses("gpt-5.1-codex-max", "GPT-5.1-Codex-Max", 272_000, 128_000, [1.25, 10, 0.125, 0]),
  openaiResponses("gpt-5.1-codex-mini", "GPT-5.1-Codex-Mini", 272_000, 128_000, [0.25, 2, 0.025, 0]),
  openaiResponses("gpt-5.2-codex", "GPT-5.2-Codex", 272_000, 128_000, [1.75, 14, 0.175, 0]),
  openaiResponses("o3", "o3", 200_000, 100_000, [2, 8, 0.5, 0]),
  openaiChat("gpt-4.1", "GPT-4.1", 1_047_576, 32_768, [2, 8, 0.5, 0]),
  openaiChat("gpt-4.1-mini", "GPT-4.1 mini", 1_047_576, 32_768, [0.4, 1.6, 0.1, 0]),
  openaiChat("gpt-4o", "GPT-4o", 128_000, 16_384, [2.5, 10, 1.25, 0]),
  openaiChat("gpt-4o-mini", "GPT-4o mini", 128_000, 16_384, [0.15, 0.6, 0.075, 0]),

  // Plays a script of turns (`--script FILE`, the demo): free, offline, never calls a network.
  model("scripted", "scripted", "Scripted", "scripted", 200_000, 32_000, false, [0, 0, 0, 0]),
];

const DEFAULT_MODELS: Partial<Record<ProviderName, string>> = {
  anthropic: "claude-sonnet-5-5",
  openai: "gpt-6.1-sol",
  scripted: "scripted",
};

/** The model a provider uses without `--model`; ollama has none (the user's local models vary). */
export function defaultModelId(provider: ProviderName): string | undefined {
  return DEFAULT_MODELS[provider];
}

// Ollama serves whatever the user pulled; its models.json-less defaults are conservative.
const OLLAMA_CONTEXT = 32_768;
const OLLAMA_MAX_OUTPUT = 8_192;
// Defaults for a models.json entry that is new and leaves these out.
const NEW_MODEL_CONTEXT = 128_000;
const NEW_MODEL_MAX_OUTPUT = 8_192;

// models.json, in the pi-compatible camelCase format. Loose objects: unknown fields (fields of
// newer versions) are ignored rather than rejected.
const TokenCount = v.pipe(v.number(), v.integer(), v.minValue(1));
/** pi's names for the wire APIs zot speaks (its models.json says `"api": "openai-completions"`). */
const PI_API_NAMES = { "openai-completions": "openai-chat" } as const satisfies Record<string, WireApi>;
const API_NAMES = [...WireApi.options, ...(Object.keys(PI_API_NAMES) as (keyof typeof PI_API_NAMES)[])] as const;
/** A server's URL: http:// or https:// (blank is none: the provider's own). */
const BaseUrl = v.pipe(
  v.string(),
  v.check((url) => url.trim() === "" || isHttpUrl(url.trim()), "takes the server's URL, http:// or https:// (as http://localhost:11434/v1)"),
);

/** A model's `api`: zot's name for it, or pi's, read as zot's. */
const UserApi = v.pipe(
  v.picklist(API_NAMES, (issue) => `${issue.received} is no API zot speaks: ${WireApi.options.join(", ")} (or pi's openai-completions, which is openai-chat)`),
  v.transform((name): WireApi => (Object.hasOwn(PI_API_NAMES, name) ? PI_API_NAMES[name as keyof typeof PI_API_NAMES] : (name as WireApi))),
);
const Price = v.pipe(v.number(), v.minValue(0));
/** pi's `headers`: sent to the model's server with every request; a value that is only `$VAR` is that variable. */
const UserHeaders = v.record(v.pipe(v.string(), v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "a header name is letters, digits and -")), v.string());
const UserModel = v.looseObject({
  id: v.pipe(v.string(), v.trim(), v.minLength(1, "the id must not be empty")),
  name: v.optional(v.string()),
  reasoning: v.optional(v.boolean()),
  contextWindow: v.optional(TokenCount),
  maxTokens: v.optional(TokenCount),
  priceInput: v.optional(Price),
  priceOutput: v.optional(Price),
  priceCacheRead: v.optional(Price),
  priceCacheWrite: v.optional(Price),
  baseUrl: v.optional(BaseUrl),
  api: v.optional(UserApi),
  /** the key for this model's server: an environment variable's name (pi's form) or the key itself */
  apiKey: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1))),
  headers: v.optional(UserHeaders),
  /** pi's `input`: what the model takes ("text", "image", others zot does not use); without "image", no image is sent to it */
  input: v.optional(v.array(v.string())),
  /** pi's prices, per million tokens */
  cost: v.optional(v.looseObject({ input: v.optional(Price), output: v.optional(Price), cacheRead: v.optional(Price), cacheWrite: v.optional(Price) })),
});
type UserModel = v.InferOutput<typeof UserModel>;
/** A provider's entry: its models, and (pi's form) a baseUrl, apiKey and api its models share unless they name their own. */
const UserProvider = v.looseObject({
  models: v.array(v.unknown()),
  baseUrl: v.optional(BaseUrl),
  apiKey: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1))),
  api: v.optional(UserApi),
  headers: v.optional(UserHeaders),
});
const ModelsFile = v.looseObject({ providers: v.record(v.string(), v.unknown()) });

/** Names other tools (pi, the original zot) use for the providers zot speaks. */
const PROVIDER_ALIASES: Record<string, ProviderName> = {
  "anthropic-messages": "anthropic",
  "openai-responses": "openai",
  "openai-codex": "openai",
  "openai-chat": "openai",
};

export interface Catalog {
  models: ModelInfo[];
  /**
   * models.json's own keys, by `provider/id`: an environment variable's name or the key itself
   * (keyFor reads it), and the field that wrote it. Kept apart from ModelInfo, which rpc and the
   * SDK hand out; read with the models of the same read, never another's.
   */
  keys: Map<string, WrittenKey>;
  /** models.json's headers, by `provider/id` and then by name (the provider entry's, and the model's over them): headersFor reads them */
  headers: Map<string, Record<string, WrittenKey>>;
  /** the user's models.json (whether or not it exists) */
  file: string;
  /** sentences about models.json problems, each naming the file (the printer adds `zot: `) */
  warnings: string[];
  /**
   * The models (`provider/id`) whose entry was skipped for a `baseUrl` that is no http(s) URL, with
   * that field and value: a run that asks for one stops (baseUrlProblem), since the provider's own
   * server, which it would otherwise be sent to, is not the one the entry means.
   */
  badBaseUrls: Map<string, WrittenKey>;
}

/** An `apiKey` of models.json as written, and where: `providers.openai.models[2].apiKey`. */
export interface WrittenKey {
  written: string;
  field: string;
}

/** Built-in models merged with `<home>/models.json`. */
export function loadCatalog(home: string): Catalog {
  const models = BUILTIN_MODELS.map((m) => ({ ...m }));
  const keys = new Map<string, WrittenKey>();
  const headers = new Map<string, Record<string, WrittenKey>>();
  const warnings: string[] = [];
  const badBaseUrls = new Map<string, WrittenKey>();
  // Spelled out rather than taken from config/home.ts: providers sit below config and import only protocol.
  const file = path.join(home, "models.json");
  const done = () => ({ models, keys, headers, file, warnings, badBaseUrls });
  let text: string;
  try {
    text = readRegularFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      warnings.push(`cannot read ${file} (${errnoWords(error)}); using the built-in models only.`);
    }
    return done();
  }
  if (!text.trim()) return done();

  let data: unknown;
  try {
    // A byte order mark (Windows editors write one) is not the JSON's.
    data = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    warnings.push(`${file} is not valid JSON (${(error as Error).message}); using the built-in models only.`);
    return done();
  }
  const top = v.safeParse(ModelsFile, data);
  if (!top.success) {
    warnings.push(
      `${file} has no "providers" object (expected {"providers": {"openai": {"models": [...]}}}); using the built-in models only.`,
    );
    return done();
  }

  for (const [rawName, rawProvider] of Object.entries(top.output.providers)) {
    const provider = normaliseProvider(rawName);
    if (!provider) {
      warnings.push(
        `${file}: provider "${rawName}" is not one zot speaks (${PROVIDER_NAMES.join(", ")}); its models were skipped (an OpenAI-compatible server's models go under "openai" or "ollama", with its baseUrl and apiKey).`,
      );
      continue;
    }
    const entry = v.safeParse(UserProvider, rawProvider);
    if (!entry.success) {
      const { path, message } = firstIssue(entry.issues, `providers.${rawName}.`, { secrets: "likely" });
      warnings.push(`${file}: field "${path}": ${message}; provider "${rawName}" was skipped.`);
      noteBadBaseUrls(badBaseUrls, provider, rawName, rawProvider);
      continue;
    }
    entry.output.models.forEach((raw, index) => {
      const at = `providers.${rawName}.models[${index}]`;
      const parsed = v.safeParse(UserModel, raw);
      if (!parsed.success) {
        const { path, message } = firstIssue(parsed.issues, `${at}.`, { secrets: "likely" });
        warnings.push(`${file}: field "${path}": ${message}; this model was skipped.`);
        const written = isJsonObject(raw) ? raw.baseUrl : undefined;
        if (isJsonObject(raw) && typeof raw.id === "string" && typeof written === "string" && !isHttpUrl(written.trim())) {
          badBaseUrls.set(`${provider}/${raw.id.trim()}`, { written, field: `${at}.baseUrl` });
        }
        return;
      }
      const shared = entry.output;
      const user: UserModel = {
        ...parsed.output,
        ...(parsed.output.baseUrl === undefined && shared.baseUrl !== undefined ? { baseUrl: shared.baseUrl } : {}),
        ...(parsed.output.api === undefined && shared.api !== undefined ? { api: shared.api } : {}),
      };
      applyUserModel(models, provider, user);
      const field = parsed.output.apiKey !== undefined ? `${at}.apiKey` : `providers.${rawName}.apiKey`;
      const written = parsed.output.apiKey ?? shared.apiKey;
      if (written !== undefined) keys.set(`${provider}/${user.id}`, { written, field });
      const sent: Record<string, WrittenKey> = {};
      for (const [name, value] of Object.entries(shared.headers ?? {})) sent[name] = { written: value, field: `providers.${rawName}.headers.${name}` };
      for (const [name, value] of Object.entries(parsed.output.headers ?? {})) sent[name] = { written: value, field: `${at}.headers.${name}` };
      if (Object.keys(sent).length > 0) headers.set(`${provider}/${user.id}`, sent);
    });
  }
  return done();
}

/** A provider entry skipped for its `baseUrl`: each model it lists (without a baseUrl of its own) is noted as meant for that server. */
function noteBadBaseUrls(bad: Map<string, WrittenKey>, provider: ProviderName, rawName: string, raw: unknown): void {
  if (!isJsonObject(raw) || typeof raw.baseUrl !== "string" || isHttpUrl(raw.baseUrl.trim()) || !Array.isArray(raw.models)) return;
  for (const model of raw.models) {
    if (isJsonObject(model) && typeof model.id === "string" && model.baseUrl === undefined) {
      bad.set(`${provider}/${model.id.trim()}`, { written: raw.baseUrl, field: `providers.${rawName}.baseUrl` });
    }
  }
}

/**
 * Why a run cannot use `model`: its models.json entry names a server that is no http(s) URL (the
 * usage sentence, as --base-url's), or undefined.
 */
export function baseUrlProblem(catalog: Pick<Catalog, "badBaseUrls" | "file">, model: Pick<ModelInfo, "provider" | "id">): string | undefined {
  const bad = catalog.badBaseUrls.get(`${model.provider}/${model.id}`);
  return bad && notHttpUrlText(`${catalog.file}: field "${bad.field}"`, bad.written);
}

/** The key models.json gives a model, or why the one it names cannot be had. */
export type ModelKey = { key: string; from: string } | { error: string };

/**
 * The key models.json gives `model` (a dated snapshot: its family's), if any: the environment
 * variable it names when that is set (pi's form, `"apiKey": "TOGETHER_API_KEY"`), else the text
 * itself; `"$VAR"` with VAR unset is an error, never the provider's key instead (the model's server
 * is not the provider's).
 */
export function keyFor(catalog: Pick<Catalog, "keys" | "models" | "file">, model: Pick<ModelInfo, "provider" | "id">, env: Record<string, string | undefined>): ModelKey | undefined {
  const entry = modelsFileEntry(catalog.keys, catalog.models, model);
  if (entry === undefined) return undefined;
  if (entry.written.trimStart().startsWith("!")) return { error: commandRefused(catalog.file, entry.field, `model "${model.id}"'s apiKey`) };
  const read = readWritten(entry.written, env, (value) => value.trim());
  if ("unset" in read) {
    return {
      error:
        `${catalog.file}: field "${entry.field}" gives model "${model.id}" the key in ${read.unset}, which is not set; ` +
        `set ${read.unset}, or change that apiKey (zot never sends this model another key)`,
    };
  }
  return { key: read.value, from: read.variable ? `${read.variable} (models.json)` : "models.json" };
}

/**
 * The headers models.json gives `model` (a dated snapshot: its family's), if any, each value read
 * as an apiKey is: the variable it names when that is set (`$VAR`, or pi's bare `PORTKEY_API_KEY`),
 * else the text itself; `$VAR` unset is an error naming it.
 */
export function headersFor(
  catalog: Pick<Catalog, "headers" | "models" | "file">,
  model: Pick<ModelInfo, "provider" | "id">,
  env: Record<string, string | undefined>,
): { headers: Record<string, string> } | { error: string } | undefined {
  const entry = modelsFileEntry(catalog.headers, catalog.models, model);
  if (entry === undefined) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, { written, field }] of Object.entries(entry)) {
    if (written.trimStart().startsWith("!")) return { error: commandRefused(catalog.file, field, `header ${name} of model "${model.id}"`) };
    const read = readWritten(written, env);
    if ("unset" in read) {
      return { error: `${catalog.file}: field "${field}" gives header ${name} of model "${model.id}" the value of ${read.unset}, which is not set; set ${read.unset}, or change that header` };
    }
    headers[name] = read.value;
  }
  return { headers };
}

/**
 * pi's `"!command"` (a password manager's output as the key): zot runs no command from models.json,
 * and sending the command's text as the key would be worse; refused, saying what to write instead.
 */
function commandRefused(file: string, field: string, what: string): string {
  return `${file}: field "${field}" gives ${what} as pi's "!command", which zot does not run (the command's text is never sent either); put the value in an environment variable and write its name, as "apiKey": "MY_KEY" or "$MY_KEY"`;
}

/** What models.json wrote for `model` in `entries` (its keys, its headers); for a dated snapshot, its family's. */
function modelsFileEntry<T>(entries: Map<string, T>, models: readonly ModelInfo[], model: Pick<ModelInfo, "provider" | "id">): T | undefined {
  const family = familyMember(models, model.provider, model.id);
  return entries.get(`${model.provider}/${model.id}`) ?? (family && entries.get(`${family.provider}/${family.id}`));
}

/**
 * A value models.json wrote (an apiKey, a header), read: the variable it names when that is set
 * (`$VAR`, `${VAR}` or pi's bare `NAME`; `clean` says what of it counts), else the text itself;
 * `$VAR` unset is none at all (`unset`: the variable).
 */
function readWritten(written: string, env: Record<string, string | undefined>, clean: (value: string) => string = (value) => value): { value: string; variable?: string } | { unset: string } {
  const variable = keyVariable(written);
  const value = variable !== undefined ? clean(ownEntry(env, variable) ?? "") : "";
  if (variable !== undefined && value) return { value, variable };
  if (variable !== undefined && onlyVariable(written)) return { unset: variable };
  return { value: written };
}

function normaliseProvider(name: string): ProviderName | undefined {
  const lower = name.trim().toLowerCase();
  if ((PROVIDER_NAMES as readonly string[]).includes(lower)) return lower as ProviderName;
  return ownEntry(PROVIDER_ALIASES, lower);
}

/** Overrides an existing (provider, id) field by field, or appends a new model. */
function applyUserModel(models: ModelInfo[], provider: ProviderName, user: UserModel): void {
  const existing = models.find((m) => m.provider === provider && m.id === user.id);
  const base: ModelInfo = existing ?? {
    id: user.id,
    provider,
    name: user.id,
    api: defaultApi(provider),
    context_window: provider === "ollama" ? OLLAMA_CONTEXT : NEW_MODEL_CONTEXT,
    max_output: provider === "ollama" ? OLLAMA_MAX_OUTPUT : NEW_MODEL_MAX_OUTPUT,
    reasoning: false,
    price_input: 0,
    price_output: 0,
    price_cache_read: 0,
    price_cache_write: 0,
    source: "user",
  };
  const merged: ModelInfo = {
    ...base,
    name: user.name?.trim() || base.name,
    api: user.api ?? base.api,
    context_window: user.contextWindow ?? base.context_window,
    max_output: user.maxTokens ?? base.max_output,
    reasoning: user.reasoning ?? base.reasoning,
    price_input: user.priceInput ?? user.cost?.input ?? base.price_input,
    price_output: user.priceOutput ?? user.cost?.output ?? base.price_output,
    price_cache_read: user.priceCacheRead ?? user.cost?.cacheRead ?? base.price_cache_read,
    price_cache_write: user.priceCacheWrite ?? user.cost?.cacheWrite ?? base.price_cache_write,
    source: "user",
  };
  const baseUrl = user.baseUrl?.trim() || base.base_url;
  if (baseUrl) merged.base_url = baseUrl;
  if (user.input !== undefined) merged.images = user.input.includes("image");
  if (existing) models[models.indexOf(existing)] = merged;
  else models.push(merged);
}

function defaultApi(provider: ProviderName): WireApi {
  if (provider === "anthropic") return "anthropic-messages";
  if (provider === "scripted") return "scripted";
  // OpenAI-compatible servers (ollama, proxies behind a baseUrl) nearly all speak Chat Completions.
  return "openai-chat";
}

export type ModelResolution = { model: ModelInfo; note?: string } | { error: string };

/**
 * The model for `--provider`/`--model`: the provider's default when no id is given; an alias
 * (`sonnet`) or a dated snapshot (`claude-sonnet-4-5-20250929`, sent as given) resolves through
 * its family. `acceptUnknown`: any other id is taken as the provider's, with default limits, no
 * price and a note naming models.json (the command line); without it an unknown id is an error
 * listing the provider's models (switching models inside a run).
 */
export function resolveModel(
  catalog: readonly ModelInfo[],
  provider: ProviderName,
  id?: string,
  options: { acceptUnknown?: { modelsFile: string } } = {},
): ModelResolution {
  const wanted = id?.trim() || defaultModelId(provider);
  if (!wanted) return { error: `${provider} requires --model (e.g. --model llama3.2)` };
  const found = catalog.find((m) => m.provider === provider && m.id === wanted);
  if (found) return { model: found };
  const alias = MODEL_ALIASES[wanted.toLowerCase()];
  const aliased = alias?.provider === provider ? catalog.find((m) => m.provider === provider && m.id === alias.id) : undefined;
  if (aliased) return { model: aliased };
  const family = familyMember(catalog, provider, wanted);
  // The snapshot itself is sent: whoever pins a date wants that one.
  if (family) return { model: { ...family, id: wanted, name: `${family.name} (${wanted})` } };
  if (provider === "ollama") return { model: syntheticOllamaModel(wanted) };
  if (options.acceptUnknown && provider !== "scripted") {
    const kin = catalogKin(catalog, wanted);
    const model = unknownModel(provider, wanted, kin);
    return { model, note: unknownModelNote(model, options.acceptUnknown.modelsFile, kin) };
  }

  const valid = catalog.filter((m) => m.provider === provider).map((m) => m.id);
  const elsewhere = catalog.find((m) => m.id === wanted);
  const hint = elsewhere ? ` (it is ${article(elsewhere.provider)} ${elsewhere.provider} model: pass --provider ${elsewhere.provider})` : "";
  return { error: `unknown model "${wanted}" for ${provider}${hint}; valid: ${valid.join(", ")}` };
}

/** Ollama has no catalog: any model the user pulled is accepted with conservative limits. */
export function syntheticOllamaModel(id: string): ModelInfo {
  return {
    id,
    provider: "ollama",
    name: id,
    api: "openai-chat",
    context_window: OLLAMA_CONTEXT,
    max_output: OLLAMA_MAX_OUTPUT,
    reasoning: false,
    price_input: 0,
    price_output: 0,
    price_cache_read: 0,
    price_cache_write: 0,
    source: "synthetic",
  };
}

/**
 * The `--list-models` lines for a program reading them (stdout not a terminal): the original zot's
 * layout, which programs written for it parse (zot-chrome-operator's model picker): a header, then
 * provider, model id, context and max output as whole numbers, ✓ for a model that reasons, source
 * and name (the id when the model has no other), no prices.
 */
export function formatModelLines(models: readonly ModelInfo[]): string {
  const rows = models.map(
    (m) => `${m.provider.padEnd(10)} ${m.id.padEnd(30)} ${String(m.context_window).padStart(8)} ${String(m.max_output).padStart(8)}     ${m.reasoning ? "✓" : " "}        ${m.source.padEnd(11)}   ${m.name || m.id}`,
  );
  return `${["provider   model id                       context  max-out  reasoning  source        name", ...rows].join("\n")}\n`;
}

/** The `--list-models` table for a person (a terminal): aligned columns, one model a line. */
export function formatModelTable(models: readonly ModelInfo[]): string {
  const header = ["provider", "model id", "context", "max out", "reasoning", "$in/M", "$out/M", "source", "name"];
  const rightAligned = new Set([2, 3, 5, 6]);
  const rows = models.map((m) => [
    m.provider,
    m.id,
    formatTokens(m.context_window),
    formatTokens(m.max_output),
    m.reasoning ? "✓" : "",
    formatPrice(m.price_input),
    formatPrice(m.price_output),
    m.source,
    m.name === m.id ? "" : m.name,
  ]);
  const all = [header, ...rows];
  const widths = header.map((_, col) => Math.max(...all.map((row) => Bun.stringWidth(row[col]))));
  const line = (row: string[]) =>
    row
      .map((cell, col) => {
        const pad = " ".repeat(widths[col] - Bun.stringWidth(cell));
        return rightAligned.has(col) ? pad + cell : cell + pad;
      })
      .join("  ")
      .trimEnd();
  return `${all.map(line).join("\n")}\n`;
}
