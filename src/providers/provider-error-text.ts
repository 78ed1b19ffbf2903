// The sentence for each way a model call can fail, the same for every provider and wire API:
// what failed, the server's own words, and what to do.
// Rule: one wording per failure; the provider's name leads (`anthropic: HTTP 500: …`), and an auth
// failure names where the key came from (`--api-key`, the variable, auth.json), because that is
// the thing to fix.
import type { ErrorCode } from "../protocol/error-code.ts";
import { type ProxyRoute, proxyRoute } from "./proxy-route.ts";

/** Where the credential a provider sends came from, for an auth failure's sentence. */
export interface KeyOrigin {
  /** `--api-key`, the environment variable's name, or auth.json's path; absent when none was sent */
  from?: string;
  /** an API key (the default), or a bearer token for a gateway (ANTHROPIC_AUTH_TOKEN) */
  kind?: "api_key" | "auth_token";
  /** the variable that holds the provider's key, for the advice when none was sent */
  variable?: string;
}

/** Who failed: the provider's name, where it was spoken to, and with whose key. */
export interface ProviderSpeaker {
  provider: string;
  baseUrl: string;
  key?: KeyOrigin;
  /** how long a call may stay silent (silence-limit.ts), when the run's environment sets it; default: zot's */
  silenceMs?: number;
  /** the key or token sent, only to take it out of what a failure says (a server that echoes it back) */
  secret?: string;
  /** keys that change during the run (an apiKeyHelper's): every one given so far, taken out as `secret` is */
  secrets?: () => readonly string[];
}

/** The shape of a failure, which picks its sentence. */
export type FailureShape =
  /** the server answered with an error status */
  | "http"
  /** a 401 or 403 that is not the API's own error (a web page): something on the way refused */
  | "refused_on_the_way"
  /** the server sent an error inside an otherwise good stream */
  | "stream_error"
  /** the request never reached the server */
  | "unreachable"
  /** the connection broke while the answer streamed */
  | "dropped"
  /** the stream was not the format the API promises */
  | "malformed"
  /** the stream ended before the model said it was finished */
  | "truncated"
  /** the request failed on this side before it was sent */
  | "local"
  /** the answer finished, but as no answer: a refusal, a content filter, a full context window */
  | "stopped"
  /** the server took the request and sent no response for the silence limit */
  | "silent"
  /** the stream sent nothing for the silence limit mid-answer */
  | "stalled";

/** A failure before it is worded. */
export interface Failure {
  code: ErrorCode;
  shape: FailureShape;
  status?: number;
  /** the API's own name for the error: authentication_error, invalid_api_key, overloaded_error */
  label?: string;
  /** the server's (or the connection's) words, one line */
  detail: string;
}

export function failureText(speaker: ProviderSpeaker, failure: Failure): string {
  return withoutSecrets(sentenceOf({ ...speaker, baseUrl: shownUrl(speaker.baseUrl) }, failure), speaker);
}

/** A URL as a message shows it: a password in it (`http://user:pass@proxy`) as ***. */
export function shownUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, "$1:***@");
}

/** The key sent, where a server's words quote it (`Invalid token: Bearer sk-…`), shortened to its ends; a URL's password as ***. */
function withoutSecrets(text: string, speaker: ProviderSpeaker): string {
  const password = /^[a-z][a-z0-9+.-]*:\/\/[^/@:]*:([^/@]*)@/i.exec(speaker.baseUrl)?.[1];
  // Where it stands in a URL (`:pass@`) always; elsewhere (a server quoting it), and as it reads
  // unescaped, when it is long enough not to be part of every other word.
  let out = password ? text.replaceAll(`:${password}@`, ":***@") : text;
  if (password) {
    let decoded = password;
    try {
      decoded = decodeURIComponent(password);
    } catch {}
    for (const form of new Set([password, decoded])) if (form.length >= 8) out = out.replaceAll(form, "***");
  }
  for (const secret of [speaker.secret, ...(speaker.secrets?.() ?? [])]) {
    if (secret && secret.length >= 8) out = out.replaceAll(secret, `${secret.slice(0, 3)}…${secret.slice(-4)}`);
  }
  return out;
}

function sentenceOf(speaker: ProviderSpeaker, failure: Failure): string {
  const { provider, baseUrl } = speaker;
  if (failure.shape === "refused_on_the_way") {
    return `${provider}: HTTP ${failure.status} from ${baseUrl}: ${failure.detail}; something between zot and ${provider} (a proxy, a firewall, a CDN) refused the request, or the base URL is not ${provider}'s API; check the base URL and the network's proxy, not the key`;
  }
  if (failure.code === "auth") return authText(speaker, failure);
  switch (failure.shape) {
    case "http":
      return `${provider}: HTTP ${failure.status}: ${failure.detail}`;
    case "stream_error":
      return `${provider}: the model stopped with an error: ${failure.detail}`;
    case "unreachable": {
      // A proxy that is off (a VPN's, a variable left from another network) is not the server's fault.
      const route = proxyRoute(speaker.baseUrl);
      // Reached, the proxy answered the tunnel with a status: it wants credentials, or it could not reach the server.
      const tunnel = /Proxy refused to open a tunnel: (\d{3})/.exec(failure.detail)?.[1];
      if (route && tunnel === "407") {
        return `${provider}: the proxy ${shownUrl(route.proxy)} (${route.variable}) wants credentials to go on to ${baseUrl} (${failure.detail}); put them in ${route.variable} (http://user:password@host:port), or connect directly: ${directAdvice(route)}`;
      }
      if (route && tunnel !== undefined) {
        return `${provider}: the proxy ${shownUrl(route.proxy)} (${route.variable}) was reached but did not open the way to ${baseUrl} (${failure.detail}); check the network and the base URL, and whether the proxy may reach that server`;
      }
      if (route) return `${provider}: cannot reach the proxy ${shownUrl(route.proxy)} (${route.variable}) that zot goes through to ${baseUrl} (${failure.detail}); ${proxyAdvice(route)}`;
      // A local ollama that is not running is the usual cause: say so.
      if (provider === "ollama") return `${provider}: cannot reach ${baseUrl} (${failure.detail}); is ollama running (ollama serve)? OLLAMA_HOST or --base-url may point elsewhere`;
      return `${provider}: cannot reach ${baseUrl} (${failure.detail}); check the network and the base URL`;
    }
    case "dropped":
      return `${provider}: the connection dropped mid-stream (${failure.detail}); try again`;
    case "malformed":
      return `${provider}: the server sent a malformed stream (${failure.detail})`;
    case "truncated":
      return `${provider}: the stream ended before the model finished; try again`;
    case "local":
      return `${provider}: the request to ${baseUrl} failed (${failure.detail})`;
    case "stopped":
      return `${provider}: ${failure.detail}`;
    case "silent": {
      const route = proxyRoute(speaker.baseUrl);
      const via = route ? ` (through the proxy ${shownUrl(route.proxy)}, from ${route.variable})` : "";
      return `${provider}: ${baseUrl}${via} took the request but sent no answer within ${failure.detail}; the server${route ? " or the proxy" : ""} may be stuck or overloaded (API_TIMEOUT_MS, in ms, sets how long zot waits)`;
    }
    case "stalled":
      return `${provider}: the server sent nothing for ${failure.detail} in the middle of the answer, so zot gave up on it (API_TIMEOUT_MS, in ms, sets how long zot waits); what arrived is kept`;
  }
}

/** What to do about a proxy that cannot be reached: start it or name it right, or go around it. */
function proxyAdvice(route: ProxyRoute): string {
  return `check that the proxy runs and ${route.variable} names it, or connect directly: ${directAdvice(route)}`;
}

/** How to go around the proxy: unset its variable, or add the host to NO_PROXY. */
function directAdvice(route: ProxyRoute): string {
  const around = route.noProxy
    ? `add ${route.host} to ${route.noProxy.variable} (now "${route.noProxy.value}")`
    : `set NO_PROXY=${route.host}`;
  return `unset ${route.variable}, or ${around}`;
}

/**
 * `anthropic rejected the API key from ANTHROPIC_API_KEY (401 authentication_error: invalid
 * x-api-key); check it, or pass --api-key`.
 */
function authText({ provider, key }: ProviderSpeaker, failure: Failure): string {
  const what = key?.kind === "auth_token" ? "auth token" : "API key";
  const said = [[failure.status, failure.label].filter((part) => part !== undefined).join(" "), failure.detail]
    .filter(Boolean)
    .join(": ");
  if (!key?.from) {
    const where = key?.variable ? `set ${key.variable} or pass --api-key` : "pass --api-key";
    return `${provider} rejected the request, which carried no API key (${said}); ${where}`;
  }
  const advice = key.from === "--api-key" ? "check it" : "check it, or pass --api-key";
  return `${provider} rejected the ${what} from ${key.from} (${said}); ${advice}`;
}
