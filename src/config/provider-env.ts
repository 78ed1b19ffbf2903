// The environment variables zot reads for each provider: the ones users of the official CLIs and
// SDKs already set (Claude Code, the OpenAI SDK and Codex, ollama), read the same way for every
// provider. Rule: zot reads them itself and hands the SDKs explicit values, so what a run uses is
// what the README's table says, never something an SDK picked up on its own.
import type { ProviderName } from "../protocol/models.ts";

export interface ProviderEnv {
  /** the API key (x-api-key for Anthropic, a bearer token for OpenAI-compatible servers) */
  key?: string;
  /** a bearer token for gateways that take `Authorization: Bearer` instead of a key (Claude Code's ANTHROPIC_AUTH_TOKEN) */
  token?: string;
  /** where the API is */
  baseUrl?: string;
}

export const PROVIDER_ENV: Readonly<Record<ProviderName, ProviderEnv>> = {
  anthropic: { key: "ANTHROPIC_API_KEY", token: "ANTHROPIC_AUTH_TOKEN", baseUrl: "ANTHROPIC_BASE_URL" },
  openai: { key: "OPENAI_API_KEY", baseUrl: "OPENAI_BASE_URL" },
  ollama: { key: "OLLAMA_API_KEY", baseUrl: "OLLAMA_HOST" },
  scripted: {},
};

/** Where each provider is when nothing says otherwise. */
export const DEFAULT_BASE_URLS: Readonly<Partial<Record<ProviderName, string>>> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com/v1",
  ollama: "http://localhost:11434/v1",
};

export interface ResolvedBaseUrl {
  url: string;
  /** `--base-url`, `models.json`, the variable's name, or `default` */
  source: string;
}

/**
 * The base URL a provider is spoken to at: `--base-url`, then the model's own `baseUrl` from
 * models.json (it names where that one model lives), then the provider's variable, then the default.
 */
export function resolveBaseUrl(
  provider: ProviderName,
  given: { flag?: string; model?: string; env: Record<string, string | undefined> },
): ResolvedBaseUrl | undefined {
  const flag = given.flag?.trim();
  if (flag) return { url: flag, source: "--base-url" };
  const model = given.model?.trim();
  if (model) return { url: model, source: "models.json" };
  const variable = PROVIDER_ENV[provider].baseUrl;
  const fromEnv = variable ? given.env[variable]?.trim() : undefined;
  if (variable && fromEnv) return { url: provider === "ollama" ? ollamaHostUrl(fromEnv) : fromEnv, source: variable };
  const fallback = DEFAULT_BASE_URLS[provider];
  return fallback ? { url: fallback, source: "default" } : undefined;
}

/**
 * OLLAMA_HOST as the ollama CLI reads it: `host:port`, `host` (port 11434), `:port` (127.0.0.1), or
 * a URL (`http://h` is port 80, `https://h` 443); a path is kept. `0.0.0.0` → `http://0.0.0.0:11434`.
 */
export function ollamaHostUrl(value: string): string {
  const given = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(value.trim());
  const scheme = given ? given[1]!.toLowerCase() : "http";
  const rest = given ? given[2]! : value.trim();
  const slash = rest.indexOf("/");
  const hostPort = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? "" : rest.slice(slash);
  // [::1]:11434, [::1], host:port, host, :port
  const split = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
  const host = split?.[1] || "127.0.0.1";
  const port = split?.[2] || (given ? "" : "11434");
  return `${scheme}://${host}${port ? `:${port}` : ""}${path}`;
}
