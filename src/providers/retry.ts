// Retries opening a model stream. Rule: only before the first byte of a response (never
// mid-stream), at most twice, on 429/500/502/503/504/529 and dropped connections; retry-after wins
// over the backoff when the server sends one; every retry is announced (a `retry` event) before
// the wait, so a 30 s retry-after is never 30 s of silence.
import { ProviderError, type ProviderEvent } from "../protocol/provider.ts";
import { timerDelay } from "../protocol/timer-delay.ts";

/** 529 is Anthropic's "overloaded". */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);
const BACKOFF_MS = [250, 750];
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
  const retries = options.retries ?? BACKOFF_MS.length;
  for (let attempt = 0; ; attempt++) {
    try {
      return await open();
    } catch (error) {
      if (options.signal.aborted || !(error instanceof ProviderError) || !error.retryable || attempt >= retries) {
        throw error;
      }
      if (error.retryAfter !== undefined && error.retryAfter > MAX_RETRY_AFTER_S) throw error;
      const waitMs = error.retryAfter !== undefined ? error.retryAfter * 1000 : (BACKOFF_MS[attempt] ?? 1000);
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
      await sleep(waitMs, options.signal);
    }
  }
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, timerDelay(ms));
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
