// Waiting for something that may never come, bounded by an abort. Rule: never rejects, so a
// waiter cannot be broken by what it waits on.
/** Resolves when `promise` settles or `signal` aborts, whichever is first. */
export function untilAborted(promise: Promise<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
    promise.then(done, done);
  });
}
