// Turns what the openai SDK throws into ProviderErrors a user can read, for both OpenAI wire APIs
// (Chat Completions, which also serves ollama and compatible servers, and Responses).
// Rule: only failures before the first byte may be retryable (429, 5xx from RETRY_STATUSES, a
// connection that never opened); anything that breaks mid-stream is final, and an abort is passed
// through as an abort, never dressed up as a provider failure.
import { APIConnectionError, APIError, APIUserAbortError } from "openai";
import { errorText } from "../protocol/error-text.ts";
import { ProviderError, type ProviderErrorKind } from "../protocol/provider.ts";
import { parseRetryAfter, RETRY_STATUSES } from "./retry.ts";

/** Where the failure happened: opening the request (retry is possible) or reading the stream. */
export type FailurePhase = "open" | "stream";

/** Long error bodies (HTML from a proxy) are cut so the message stays one readable line. */
const MAX_DETAIL_CHARS = 500;

/**
 * Maps anything the SDK (or the stream it returns) throws to what the provider should throw:
 * a ProviderError, or the signal's abort reason when the user aborted.
 */
export function toProviderError(provider: string, error: unknown, phase: FailurePhase, signal: AbortSignal, url?: string): unknown {
  if (signal.aborted || error instanceof APIUserAbortError) return abortReason(signal);
  if (error instanceof ProviderError) return error;
  if (error instanceof APIConnectionError && phase === "open") {
    const cause = error.cause instanceof Error && error.cause.message ? ` (${error.cause.message})` : "";
    return new ProviderError(
      `${provider}: could not reach ${url ?? "the server"}${cause}; check the network and the base URL`,
      "connection",
      undefined,
      true,
    );
  }
  if (error instanceof APIError && !(error instanceof APIConnectionError)) {
    const detail = apiErrorDetail(error);
    if (error.status === undefined) {
      // The server sent an error object inside an otherwise good stream.
      const kind: ProviderErrorKind = isContextOverflow(error.code, detail) ? "context_overflow" : "stream";
      return new ProviderError(`${provider}: the model stopped with an error: ${detail}`, kind);
    }
    return httpError(provider, error.status, detail, error.code, error.headers);
  }
  if (error instanceof SyntaxError) {
    return new ProviderError(`${provider}: the server sent a malformed stream (${error.message})`, "stream");
  }
  // Mid-stream, the SDK reports a dropped connection as an APIConnectionError too.
  const cause = error instanceof APIConnectionError && error.cause instanceof Error ? error.cause : error;
  const message = errorText(cause);
  return phase === "open"
    ? new ProviderError(`${provider}: the request to ${url ?? "the server"} failed: ${message}`, "connection")
    : new ProviderError(`${provider}: the connection broke off mid-stream (${message}); try again`, "stream");
}

/** The error for a stream that ended without saying it was finished. */
export function truncatedStreamError(provider: string): ProviderError {
  return new ProviderError(`${provider}: the stream ended before the model finished; try again`, "stream");
}

/** What to throw once the signal has aborted: its reason, or a standard AbortError. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

/** A context-length failure, however the server words it (OpenAI, ollama, vLLM, llama.cpp). */
export function isContextOverflow(code: string | null | undefined, message: string): boolean {
  return (
    code === "context_length_exceeded" ||
    /maximum context length|context length exceeded|context window|exceeds the context|too many tokens/i.test(message)
  );
}

function httpError(
  provider: string,
  status: number,
  detail: string,
  code: string | null | undefined,
  headers: Headers | undefined,
): ProviderError {
  const message = `${provider}: HTTP ${status}: ${detail}`;
  if (isContextOverflow(code, detail)) return new ProviderError(message, "context_overflow", status);
  if (status === 401 || status === 403) return new ProviderError(message, "auth", status);
  return new ProviderError(message, "http", status, RETRY_STATUSES.has(status), retryAfterSeconds(headers));
}

/** OpenAI sends retry-after-ms next to (or instead of) retry-after; the finer one wins. */
function retryAfterSeconds(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms / 1000;
  return parseRetryAfter(headers?.get("retry-after"));
}

/** The server's own words: the body's error.message, else the SDK message without its status prefix. */
function apiErrorDetail(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  let detail = typeof body?.message === "string" && body.message ? body.message : error.message;
  if (error.status !== undefined && detail.startsWith(`${error.status} `)) detail = detail.slice(`${error.status} `.length);
  if (detail === "status code (no body)") detail = "the server sent no details";
  detail = detail.replace(/\s+/g, " ").trim();
  return detail.length > MAX_DETAIL_CHARS ? `${detail.slice(0, MAX_DETAIL_CHARS)}…` : detail || "no details";
}
