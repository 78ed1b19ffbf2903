// Which provider a run speaks and its client: the provider the flags (or a resumed session) name,
// else the one a key is there for, else the demo; the client for a model's wire API, loaded behind
// import() so a run pays only for the SDK it uses; and the --list-models table.
// Rule: a provider or model the user cannot have is a UsageError that names what to pass instead,
// before anything starts.
import { apiKeyEnvVar, resolveApiKey } from "../config/credentials.ts";
import { zotHome } from "../config/home.ts";
import { UsageError } from "../config/usage-error.ts";
import { PROVIDER_NAMES, type ModelInfo, type ProviderName } from "../protocol/models.ts";
import type { OpenedAnswer, Provider } from "../protocol/provider.ts";
import { formatModelLines, formatModelTable, loadCatalog } from "./catalog.ts";
import type { CustomHeaders } from "./custom-headers.ts";
import { familyOf, providerOfId } from "./model-ids.ts";

/** Providers tried, in order, when none is named: the first with a key wins. */
const KEYED_PROVIDERS = ["anthropic", "openai"] as const satisfies readonly ProviderName[];

/** What the flags say about the provider (a resumed session's provider and model count as flags). */
export interface ProviderWish {
  provider?: string;
  model?: string;
  apiKey?: string;
  baseUrl?: string;
  script?: string;
  /** the demo is no answer here (a program driving zot would take it for the model's): which run this is, and how it gets a model */
  noDemo?: NoDemo;
  /** providers whose base URL a settings file set, whose key only the files give (config/settings-choices.ts) */
  paired?: readonly string[];
  /** a model models.json gives a key of its own, which the demo's note names (such a key is that model's, never the provider's) */
  keyedModel?: string;
  /** a settings file has an apiKeyHelper: anthropic has a key (runtime/api-key-helper.ts) */
  apiKeyHelper?: boolean;
}

/** A run that must not fall back to the demo: what it is, and what it is told to do instead (in its own words: flags, or options). */
export interface NoDemo {
  run: string;
  remedy: string;
}

/** The remedy in the command line's words. */
export const FLAGS_REMEDY = "pass --api-key or --provider ollama, or --provider scripted --script <file> to play turns";

/** A provider name from the user, checked: a UsageError names the valid ones. */
export function knownProvider(name: string): ProviderName {
  if (!(PROVIDER_NAMES as readonly string[]).includes(name)) {
    throw new UsageError(`unknown provider "${name}"; valid: ${PROVIDER_NAMES.join(", ")}`);
  }
  return name as ProviderName;
}

/**
 * The provider of a run: --provider; the scripted one for --script; the one --model names (a
 * catalog id, an alias, or an id whose shape says: claude-* → anthropic, gpt-*, o1, o3*, o4* →
 * openai); the first with a key; else the demo, unless the flags ask for a real model.
 */
export function pickProvider(
  options: ProviderWish,
  models: ModelInfo[],
  env: Record<string, string | undefined>,
  home: string,
  notes: string[],
): ProviderName {
  if (options.provider !== undefined) return knownProvider(options.provider);
  if (options.script) return "scripted";
  if (options.model) {
    // A model the user described in models.json is theirs: its provider beats a built-in model of the
    // same id under another (a proxy's `claude-sonnet-4-5` under openai, with the proxy's baseUrl).
    // A dated snapshot or -latest of it too (claude-sonnet-4-5-20250929), as the model's key and limits are found.
    const family = familyOf(options.model);
    const ids = new Set([options.model, family, `${family}-0`]);
    const described = [...new Set(models.filter((m) => ids.has(m.id) && m.source === "user").map((m) => m.provider))];
    if (described.length === 1) return described[0];
    if (described.length > 1) {
      throw new UsageError(`models.json describes "${options.model}" under ${described.join(" and ")}; pass --provider ${described.join(" or ")} to say which`);
    }
    const owner = models.find((m) => m.id === options.model) ?? models.find((m) => m.id === familyOf(options.model ?? ""));
    const named = owner?.provider ?? providerOfId(options.model);
    if (named) return named;
  }
  for (const name of KEYED_PROVIDERS) {
    // A provider a settings file points at a server of its own is the one meant, key or not (the runtime says what is missing).
    if (resolveApiKey(name, { flag: options.apiKey, env, home, paired: options.paired }) || options.paired?.includes(name)) return name;
    if (name === "anthropic" && options.apiKeyHelper) return name;
  }
  // Asked for a real model with nothing to say which provider serves it: the demo would ignore the ask.
  if (options.model) {
    throw new UsageError(
      `cannot tell which provider serves "${options.model}" and no API key is set; pass --provider anthropic, openai or ollama (zot --list-models shows the known models)`,
    );
  }
  if (options.baseUrl !== undefined) {
    throw new UsageError("--base-url needs a provider and no API key says which; pass --provider anthropic, openai or ollama");
  }
  // A key models.json gives is its models' own: the run has to name one.
  const keyed = options.keyedModel ? ` (models.json's keys are for the models it lists: name one, as --model ${options.keyedModel})` : "";
  if (options.noDemo) {
    throw new UsageError(`no API key found${keyed}, and ${options.noDemo.run} does not get the built-in demo: set ANTHROPIC_API_KEY or OPENAI_API_KEY, ${options.noDemo.remedy}`);
  }
  notes.push(
    `no API key found${keyed}, so this is the built-in demo (scripted provider). Set ANTHROPIC_API_KEY or OPENAI_API_KEY, or pass --provider ollama, to talk to a real model.`,
  );
  return "scripted";
}

type Credential = ReturnType<typeof resolveApiKey>;

/** The client of `model`'s wire API, with the run's credential and base URL. */
export async function createProvider(
  model: ModelInfo,
  options: {
    credential: Credential;
    baseUrl?: string;
    script?: string;
    providerName: ProviderName;
    silenceMs?: number;
    onOpen?: OpenedAnswer;
    headers?: CustomHeaders;
    /** the run's limit on retries (retry-limit.ts) */
    maxRetries?: number;
  },
): Promise<Provider> {
  const apiKey = options.credential?.key ?? "";
  const limits = {
    ...(options.silenceMs !== undefined ? { silenceMs: options.silenceMs } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
  };
  const headers = options.headers ? { headers: options.headers } : {};
  const onOpen = options.onOpen ? { onOpen: options.onOpen } : {};
  // Where the key came from, so a 401 names the thing to fix (--api-key, the variable, auth.json).
  const key = { from: options.credential?.from, kind: options.credential?.kind, variable: apiKeyEnvVar(options.providerName) };
  switch (model.api) {
    case "anthropic-messages": {
      const { createAnthropicProvider } = await import("./anthropic.ts");
      const auth = options.credential?.kind === "auth_token" ? { authToken: apiKey } : { apiKey };
      const keySource = options.credential?.keySource ? { keySource: options.credential.keySource } : {};
      return createAnthropicProvider({ ...auth, ...keySource, baseUrl: options.baseUrl, key, ...limits, ...onOpen, ...headers });
    }
    case "openai-chat": {
      const { createOpenAIChatProvider } = await import("./openai-chat.ts");
      const name = options.providerName === "ollama" ? "ollama" : "openai";
      return createOpenAIChatProvider({ name, apiKey, baseUrl: options.baseUrl, key, ...limits, ...onOpen, ...headers });
    }
    case "openai-responses": {
      const { createOpenAIResponsesProvider } = await import("./openai-responses.ts");
      return createOpenAIResponsesProvider({ apiKey, baseUrl: options.baseUrl, key, ...limits, ...onOpen, ...headers });
    }
    case "scripted": {
      const { createScriptedProvider, loadScript, DEMO_SCRIPT, ScriptFileError } = await import("./scripted.ts");
      try {
        return createScriptedProvider(options.script ? loadScript(options.script) : DEMO_SCRIPT, options.onOpen, options.maxRetries);
      } catch (error) {
        // A broken script file is bad input from the user, like a bad flag.
        if (error instanceof ScriptFileError) throw new UsageError(error.message);
        throw error;
      }
    }
  }
}

/**
 * The `--list-models` table, optionally for one provider, and the catalog's warnings for the caller
 * to show: for a person (`forPeople`: a terminal) with prices and short sizes, else the original
 * zot's lines, which programs written for it parse.
 */
export function listModels(provider?: string, forPeople = true): { table: string; warnings: string[] } {
  const catalog = loadCatalog(zotHome(process.env));
  if (provider !== undefined) knownProvider(provider);
  const models = provider ? catalog.models.filter((m) => m.provider === provider) : catalog.models;
  if (models.length === 0) {
    // Only ollama can have none: it serves whatever the user pulled, which zot does not list.
    const hint =
      `no ${provider} models are listed in ${catalog.file}; ${provider} takes any model it serves ` +
      `(ollama list shows them): zot -p "…" --provider ${provider} --model llama3.2. ` +
      `Add them to ${catalog.file} ({"providers":{"${provider}":{"models":[{"id":"llama3.2","contextWindow":131072}]}}}) to list them here with their limits.`;
    return { table: "", warnings: [...catalog.warnings, hint] };
  }
  return { table: forPeople ? formatModelTable(models) : formatModelLines(models), warnings: catalog.warnings };
}
