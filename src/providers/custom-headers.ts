// The headers the SDKs add from ANTHROPIC_CUSTOM_HEADERS and OPENAI_CUSTOM_HEADERS (one
// `Name: value` a line), as Claude Code and the SDKs read them. They are for the provider's own
// server, and often carry a gateway's key (`x-portkey-api-key`, `cf-aig-authorization`).
// Rule: the provider's own server gets the run's (a settings file's `env` included, which the SDK,
// reading only zot's process environment, would miss); any other server (a models.json model's
// own baseUrl, ollama, the other vendor's wire) gets none, each of them taken out of what the SDK
// read on its own (a null header is the SDKs' removal).
import type { ProviderName, WireApi } from "../protocol/models.ts";

const VARIABLE: Partial<Record<WireApi, string>> = { "anthropic-messages": "ANTHROPIC_CUSTOM_HEADERS", "openai-chat": "OPENAI_CUSTOM_HEADERS", "openai-responses": "OPENAI_CUSTOM_HEADERS" };
const VENDOR: Partial<Record<WireApi, ProviderName>> = { "anthropic-messages": "anthropic", "openai-chat": "openai", "openai-responses": "openai" };

export type CustomHeaders = Record<string, string | null>;

/** The headers a wire's SDK client is built with; undefined: nothing to add or take out. */
export function customHeaders(
  api: WireApi,
  at: { provider: ProviderName; ownServer: boolean },
  env: Record<string, string | undefined>,
  processEnv: Record<string, string | undefined> = process.env,
): CustomHeaders | undefined {
  const variable = VARIABLE[api];
  if (!variable) return undefined;
  const headers: CustomHeaders = {};
  if (at.ownServer && at.provider === VENDOR[api]) Object.assign(headers, parseHeaders(env[variable]));
  else for (const name of Object.keys({ ...parseHeaders(processEnv[variable]), ...parseHeaders(env[variable]) })) headers[name] = null;
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/** `Name: value` lines, as the SDKs split them (a line without a colon is no header). */
function parseHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of (text ?? "").split("\n")) {
    const colon = line.indexOf(":");
    const name = colon >= 0 ? line.slice(0, colon).trim() : "";
    if (name) headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}
