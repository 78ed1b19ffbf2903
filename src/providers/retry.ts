// Retries opening a model stream. Rule: only before the first byte of a response (never
// mid-stream), on 408, 409, 429 and any 5xx (529 and a CDN's 52x included) and dropped
// connections, as the official SDKs do, and as the server's x-should-retry says; as often and after
// the waits protocol/retry-backoff.ts plans (a wait the server names wins over the backoff); every
// retry is announced (a `retry` event) before the wait, so a 30 s retry-after is never 30 s of silence.
import { ProviderError, type ProviderEvent } from "../protocol/provider.ts";
import { retriesFor, retryPlan, waitTooLongText } from "../protocol/retry-backoff.ts";
import { sleepUnlessAborted } from "../protocol/abortable-sleep.ts";

/**
 * Whether a failed open with this status may be tried again: 408 (request timeout), 409 (a lock),
 * 429 (rate limit) and every 5xx (529 is Anthropic's "overloaded", 52x a CDN's), as the official
 * SDKs retry them.
 */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export interface RetryOptions {
  signal: AbortSignal;
  /** the run's limit on retries (CLAUDE_CODE_MAX_RETRIES), when it set one */
  maxRetries?: number;
  /** the retries this model call had before this open (its stream's first word was an overload): counted on from there */
  retriesBefore?: number;
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
  for (let retried = options.retriesBefore ?? 0; ; retried++) {
    try {
      return await open();
    } catch (error) {
      if (options.signal.aborted || !(error instanceof ProviderError) || !error.retryable) throw error;
      const plan = retryPlan(error.code, retried, error.retryAfter, options.maxRetries, error.local);
      if ("stop" in plan) {
        if (plan.stop === "exhausted") throw error;
        // Said, so the user knows when trying again can help.
        throw new ProviderError(waitTooLongText(error.message, plan.seconds), error.code, {
          ...(error.status !== undefined ? { status: error.status } : {}),
          retryAfter: plan.seconds,
        });
      }
      options.onRetry?.(retried + 1, error, plan.waitMs);
      yield [
        {
          type: "retry",
          attempt: retried + 1,
          max_attempts: retriesFor(error.code, options.maxRetries, error.local),
          wait_ms: plan.waitMs,
          ...(error.status !== undefined ? { status: error.status } : {}),
          code: error.code,
          message: error.message,
        },
      ];
      if (!(await sleepUnlessAborted(plan.waitMs, options.signal))) throw options.signal.reason;
    }
  }
}
