// What went wrong in a model call, from whatever the SDKs, the connection or the stream produced:
// one classification (the error code, whether a retry may help) for every provider and wire API.
// Rule: only a failure to open may be retryable (retryableStatus: 408, 409, 429, 5xx; a server that
// could not be reached); anything that breaks mid-stream is final; an abort is passed through as
// the signal's abort, never dressed up as a provider failure.
import type { ErrorCode } from "../protocol/error-code.ts";
import { errorText } from "../protocol/error-text.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import { type OverflowFigures, ProviderError } from "../protocol/provider.ts";
import { overflowFigures } from "./overflow-figures.ts";
import { type Failure, failureText, type ProviderSpeaker } from "./provider-error-text.ts";
import { namedWaitSeconds, waitInWords } from "./named-wait.ts";
import { retryableStatus } from "./retry.ts";
import { silenceLimitMs } from "./silence-limit.ts";

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes of the SDK that sent the request (both SDKs export these three). */
export interface SdkErrors {
  APIError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIUserAbortError: ErrorClass;
}

/** The fields both SDKs' APIError carries. */
interface SdkApiError {
  status?: number;
  headers?: Headers;
  /** the response body's error: Anthropic hands the whole body ({type, error: {type, message}}), OpenAI its `error` */
  error?: unknown;
  message: string;
}

/** Where the failure happened: opening the call (a retry is possible) or reading its stream. */
export type CallPhase = "open" | "stream";

/** Long error bodies (HTML from a proxy) are cut so the sentence stays one readable line. */
const MAX_DETAIL_CHARS = 500;

/** A context-length refusal, however the server words it (Anthropic, OpenAI, ollama, vLLM, llama.cpp). */
const CONTEXT_OVERFLOW =
  /prompt is too long|too many (input )?tokens|maximum context length|context length exceeded|context (length|window)|exceeds? .*context|max_new_tokens. must be <=/i;

/**
 * Anything thrown while opening or reading a call → what the provider throws: a ProviderError, or
 * the signal's abort reason when the user stopped it.
 */
export function callFailure(speaker: ProviderSpeaker, sdk: SdkErrors, error: unknown, phase: CallPhase, signal: AbortSignal): unknown {
  if (signal.aborted || error instanceof sdk.APIUserAbortError) return abortReason(signal);
  if (error instanceof ProviderError) return error;
  // Both SDKs' timeout (APIConnectionTimeoutError) says "Request timed out"; its class name does not survive every build.
  if (error instanceof sdk.APIConnectionError && phase === "open" && /timed out/i.test(error.message)) {
    // The server took the request and said nothing for the SDK's timeout (silenceLimitMs): it was reached.
    return providerError(speaker, { code: "network", shape: "silent", detail: seconds(speaker.silenceMs ?? silenceLimitMs()) }, { retryable: true });
  }
  if (error instanceof sdk.APIConnectionError) {
    // Mid-stream, the SDK reports a dropped connection as a connection error too.
    const detail = clip(connectionDetail(error));
    return phase === "open"
      ? providerError(speaker, { code: "network", shape: "unreachable", detail }, { retryable: true })
      : providerError(speaker, { code: "network", shape: "dropped", detail });
  }
  if (error instanceof sdk.APIError) return httpFailure(speaker, error as unknown as SdkApiError, phase);
  if (error instanceof SyntaxError) return malformedStream(speaker, error.message);
  // A body its content-encoding says is compressed and is not: no dropped connection, and a retry fails the same.
  if (/zlib|brotli|decompress|inflate failed/i.test(`${(error as Error)?.name ?? ""} ${errorText(error)} ${(error as { code?: unknown })?.code ?? ""}`)) {
    return malformedStream(speaker, `its compressed body could not be decoded (${clip(errorText(error))}); a proxy on the way may be re-encoding the stream`);
  }
  const detail = clip(errorText(error));
  // The SDKs wrap every network failure of the open in their connection error, so anything else
  // there is a local fault (configuration, a bug) that a retry would only repeat.
  return phase === "open"
    ? providerError(speaker, { code: "internal", shape: "local", detail })
    : providerError(speaker, { code: "network", shape: "dropped", detail });
}

/**
 * An error the server sent inside the stream: Anthropic's `event: error`, a Chat Completions
 * `{"error": {…}}` chunk, a Responses `error` event or failed response. `payload` is the error
 * object itself.
 */
export function streamErrorFailure(speaker: ProviderSpeaker, payload: unknown): ProviderError {
  const { label, message, code } = errorFields(payload);
  const detail = clip(message ?? label ?? "the server sent no details");
  const failure: Failure = { code: codeOf(undefined, label, code, detail), shape: "stream_error", label, detail };
  // A rate limit inside the stream (a Responses `response.failed`) names its wait only in its words.
  const wait = message ? waitInWords(message) : undefined;
  return providerError(speaker, failure, { ...(wait !== undefined ? { retryAfter: wait } : {}), ...overflowOf(failure, message ?? "", payload) });
}

/** The stream's bytes were not the API's format. */
export function malformedStream(speaker: ProviderSpeaker, detail: string): ProviderError {
  return providerError(speaker, { code: "bad_response", shape: "malformed", detail: clip(detail) });
}

/** Why a finished answer is no answer: a refusal, a content filter, a full context window. */
export interface StoppedAnswer {
  code: ErrorCode;
  /** what happened, with the API's own stop reason, for a person */
  detail: string;
}

/** An answer that finished but is no answer (see WireAssembler.stoppedBy). */
export function stoppedAnswer(speaker: ProviderSpeaker, stopped: StoppedAnswer): ProviderError {
  return providerError(speaker, { code: stopped.code, shape: "stopped", detail: stopped.detail });
}

/** The stream went silent mid-answer for `limitMs` (see silenceLimitMs). */
export function stalledStream(speaker: ProviderSpeaker, limitMs: number): ProviderError {
  return providerError(speaker, { code: "network", shape: "stalled", detail: seconds(limitMs) });
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** The stream ended without the event that says the model finished. */
export function truncatedStream(speaker: ProviderSpeaker): ProviderError {
  return providerError(speaker, { code: "bad_response", shape: "truncated", detail: "" });
}

/** What to throw once the signal has aborted: its reason, or a standard AbortError. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

/**
 * The code for an error status and the API's labels: the status decides where it is known, the
 * labels (Anthropic's error type, OpenAI's code and type) inside a stream, and the words for a
 * context overflow, which every server reports as a plain 400.
 */
export function codeOf(given: number | undefined, type: string | undefined, code: string | undefined, detail: string): ErrorCode {
  // A status inside the stream (LiteLLM's and vLLM's `"code": "400"` in an error event) is a status.
  const status = given ?? (code !== undefined && /^[1-5]\d\d$/.test(code) ? Number(code) : undefined);
  const labels = `${type ?? ""} ${code ?? ""}`;
  if (status === 401 || status === 403 || /authentication|permission|invalid_api_key/.test(labels)) return "auth";
  // Inside a stream a rate limit may say so only in its words (a Responses `response.failed`).
  if (status === 429 || /rate_limit/.test(labels) || (status === undefined && /\brate limit\b/i.test(detail))) return "rate_limit";
  if (code === "context_length_exceeded" || CONTEXT_OVERFLOW.test(detail)) return "context_overflow";
  // A 503 is a busy server when it says so; a proxy's page for a server that is down is a server error.
  if (status === 529 || /overloaded/.test(labels) || (status === 503 && /overload|capacity|busy|try again|slow down/i.test(detail))) return "overloaded";
  if (status !== undefined) return status >= 500 ? "server_error" : "bad_request";
  return /invalid_request/.test(labels) ? "bad_request" : "server_error";
}

function httpFailure(speaker: ProviderSpeaker, error: SdkApiError, phase: CallPhase): ProviderError {
  const { label, message, code, type } = errorFields(error.error);
  const status = error.status;
  // A 404 is a wrong base URL or a model the server does not have (a retired one among them): say
  // where zot asked, and how to pick another model.
  const where = status === 404 ? ` (asked at ${speaker.baseUrl}; check the base URL and the model's name: zot --list-models shows the models zot knows, /model or --model picks one)` : "";
  // The server's own words; a web page (a proxy's, a CDN's) said as such.
  const said = bodyText(error, message);
  const page = htmlPage(said);
  const detail = `${clip(page ?? (said === "status code (no body)" ? "the server sent no details" : said))}${where}`;
  // A 401 or 403 that is a web page, plain text or nothing, not the API's (JSON) error, came from
  // something on the way (a proxy, a firewall, a CDN) or from a base URL that is not the API: the
  // key was never judged. A JSON body, even one not in the API's shape, is a server's own word.
  const onTheWay = (status === 401 || status === 403) && (page !== undefined || error.error === undefined || error.error === null);
  const failure: Failure = {
    code: codeOf(status, type, code, detail),
    shape: status === undefined ? "stream_error" : onTheWay ? "refused_on_the_way" : "http",
    ...(status !== undefined ? { status } : {}),
    ...(label ? { label } : {}),
    detail,
  };
  // The server's own word (Anthropic's x-should-retry) wins; a quota that ran out never comes back by waiting.
  const should = error.headers?.get("x-should-retry");
  const retryable =
    phase === "open" &&
    status !== undefined &&
    code !== "insufficient_quota" &&
    (should === "true" || (should !== "false" && retryableStatus(status)));
  const wait = namedWaitSeconds(error.headers, said, failure.code === "rate_limit");
  return providerError(speaker, failure, { retryable, ...(wait !== undefined ? { retryAfter: wait } : {}), ...overflowOf(failure, said, error.error) });
}

/** A context overflow's numbers, as the server's words and error object give them. */
function overflowOf(failure: Failure, said: string, fields: unknown): { overflow?: OverflowFigures } {
  if (failure.code !== "context_overflow") return {};
  const figures = overflowFigures(said, fields);
  return figures ? { overflow: figures } : {};
}

function providerError(
  speaker: ProviderSpeaker,
  failure: Failure,
  options: { retryable?: boolean; retryAfter?: number; overflow?: OverflowFigures } = {},
): ProviderError {
  return new ProviderError(failureText(speaker, failure), failure.code, {
    ...(failure.status !== undefined ? { status: failure.status } : {}),
    ...(localServer(speaker.baseUrl) ? { local: true } : {}),
    ...options,
  });
}

/** A server on this machine or its network: loopback, a private IPv4 range, a `.local` or bare host name. */
function localServer(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return false;
  }
  // IPv6: loopback, link-local and unique local addresses.
  if (host.includes(":")) return host === "::1" || /^(fe80:|f[cd][0-9a-f]{2}:)/.test(host);
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || !host.includes(".")) return true;
  return /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.)/.test(host);
}

/**
 * The error object's fields, whichever shape it has: Anthropic nests {type, message} under
 * `error`, OpenAI sends {message, type, code} (Responses: {code, message} at the top level).
 * `label` is the most specific name the API gave: OpenAI's code, else the type.
 */
function errorFields(payload: unknown): { label?: string; type?: string; code?: string; message?: string } {
  const inner = isJsonObject(payload) && isJsonObject(payload.error) ? payload.error : payload;
  if (!isJsonObject(inner)) return {};
  const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);
  const type = inner.type === "error" ? undefined : text(inner.type);
  const code = text(inner.code);
  return { label: code ?? type, type, code, message: text(inner.message) };
}

/** The body's message, else the SDK's message without its status prefix. */
function bodyText(error: SdkApiError, message: string | undefined): string {
  const text = message ?? error.message;
  return error.status !== undefined && text.startsWith(`${error.status} `) ? text.slice(`${error.status} `.length) : text;
}

/** An HTML page, by its title (the markup says nothing); undefined for anything else. */
function htmlPage(text: string): string | undefined {
  if (!/^\s*<(!doctype|html|head|body|title)/i.test(text)) return undefined;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
  return title ? `an HTML page: ${title}` : "an HTML page, not the API's error";
}

/** The connection error's own words and its cause's (Bun's fetch says what the socket did). */
function connectionDetail(error: Error): string {
  const own = error.message.replace(/\.$/, "");
  return error.cause instanceof Error && error.cause.message ? `${own}: ${error.cause.message}` : own;
}

/** One line, without Bun's advice for its own debugging, at most MAX_DETAIL_CHARS. */
function clip(text: string): string {
  const line = text.replace(/\s*For more information, pass `verbose: true`.*$/s, "").replace(/\s+/g, " ").trim();
  if (!line) return "no details";
  return line.length > MAX_DETAIL_CHARS ? `${line.slice(0, MAX_DETAIL_CHARS)}…` : line;
}
