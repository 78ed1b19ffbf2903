// Retries opening a model stream. Rule: only before the first byte of a response (never
// mid-stream), at most twice, on 408, 409, 429 and any 5xx (529 and a CDN's 52x included) and
// dropped connections, as the official SDKs do, and as the server's x-should-retry says; retry-after wins
// over the backoff when the server sends one; every retry is announced (a `retry` event) before
// the wait, so a 30 s retry-after is never 30 s of silence.
import { ProviderError, type ProviderEvent } from "../protocol/provider.ts";
import { RETRY_BACKOFF_MS } from "../protocol/retry-backoff.ts";
import { sleepUnlessAborted } from "../protocol/abortable-sleep.ts";

/**
 * Whether a failed open with this status may be tried again: 408 (request timeout), 409 (a lock),
 * 429 (rate limit) and every 5xx (529 is Anthropic's "overloaded", 52x a CDN's), as the official
 * SDKs retry them.
 */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
/** A retry-after longer than this is not waited for: the error goes to the user. */
const MAX_RETRY_AFTER_S = 30;

export interface RetryOptions {
  signal: AbortSignal;
  retries?: number;
  /** for tests and --debug */
  onRetry?: (attempt: number, error: ProviderError, waitMs: number) => void;
}

/** What a provider yields before waiting to try again, so the user hears why nothing happens. */
export type RetryNotice = Extract<ProviderEvent, { type: "retry" }>;

/**
 * Opens the stream, trying again on a retryable failure. A provider's stream delegates to it
 * (`const events = yield* openWithRetry(…)`): each retry is yielded as a batch of its own `retry`
 * event before the wait, and the opened stream is the return value.
 */
export async function* openWithRetry<T>(open: () => Promise<T>, options: RetryOptions): AsyncGenerator<[RetryNotice], T, undefined> {
  const retries = options.retries ?? RETRY_BACKOFF_MS.length;
  for (let attempt = 0; ; attempt++) {
    try {
      return await open();
    } catch (error) {
      if (options.signal.aborted || !(error instanceof ProviderError) || !error.retryable || attempt >= retries) {
        throw error;
      }
      if (error.retryAfter !== undefined && error.retryAfter > MAX_RETRY_AFTER_S) {
        // Said, so the user knows when trying again can help.
        throw new ProviderError(
          `${withoutFullStop(error.message)}; the server asks to wait ${Math.ceil(error.retryAfter)} s before trying again (zot waits up to ${MAX_RETRY_AFTER_S} s by itself)`,
          error.code,
          { ...(error.status !== undefined ? { status: error.status } : {}), retryAfter: error.retryAfter },
        );
      }
      const waitMs = error.retryAfter !== undefined ? error.retryAfter * 1000 : (RETRY_BACKOFF_MS[attempt] ?? 1000);
      options.onRetry?.(attempt + 1, error, waitMs);
      yield [
        {
          type: "retry",
          attempt: attempt + 1,
          max_attempts: retries,
          wait_ms: Math.round(waitMs),
          ...(error.status !== undefined ? { status: error.status } : {}),
          message: error.message,
        },
      ];
      if (!(await sleepUnlessAborted(waitMs, options.signal))) throw options.signal.reason;
    }
  }
}

function withoutFullStop(text: string): string {
  return text.replace(/\.$/, "");
}

/** Parses a retry-after header: seconds, or an HTTP date. */
export function parseRetryAfter(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - Date.now()) / 1000);
}

