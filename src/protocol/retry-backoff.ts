// How long zot waits before trying a failed model call again, when the server names no wait
// (retry-after): before the first retry and before the second, the most there are. Rule: one
// schedule for a call that failed to open (providers/retry.ts) and for one whose stream's first
// word was an overload (core/model-call.ts).

export const RETRY_BACKOFF_MS: readonly number[] = [250, 750];
