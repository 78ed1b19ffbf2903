// The headers the SDKs add from ANTHROPIC_CUSTOM_HEADERS and OPENAI_CUSTOM_HEADERS (one
// `Name: value` a line), as Claude Code and the SDKs read them. They are for the provider's own
// server (the one its base URL names: a gateway, often, whose key rides in them).
// Rule: the provider's own server gets the run's value (a settings file's `env` included, and over
// the shell's, as in Claude Code: the SDK reads only the shell's, whose other headers are taken
// out); any other server (a models.json model's own baseUrl) gets none, each of them taken out of
// what the SDK read on its own (a null header is the SDKs' removal).
import type { WireApi } from "../protocol/models.ts";

const VARIABLE: Partial<Record<WireApi, string>> = { "anthropic-messages": "ANTHROPIC_CUSTOM_HEADERS", "openai-chat": "OPENAI_CUSTOM_HEADERS", "openai-responses": "OPENAI_CUSTOM_HEADERS" };

export type CustomHeaders = Record<string, string | null>;

/** The headers a wire's SDK client is built with; undefined: nothing to add or take out. */
export function customHeaders(
  api: WireApi,
  ownServer: boolean,
  env: Record<string, string | undefined>,
  processEnv: Record<string, string | undefined> = process.env,
): CustomHeaders | undefined {
  const variable = VARIABLE[api];
  if (!variable) return undefined;
  const headers: CustomHeaders = {};
  for (const name of Object.keys(parseHeaders(processEnv[variable]))) headers[name] = null;
  if (ownServer) Object.assign(headers, parseHeaders(env[variable]));
  else for (const name of Object.keys(parseHeaders(env[variable]))) headers[name] = null;
  // Only the shell's, to its own server: the SDK sends them as they are.
  if (ownServer && env[variable] === processEnv[variable]) return undefined;
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
