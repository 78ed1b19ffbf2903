// Waits for a piece of work unless a stop comes first. Why not Promise.race([work, stopped]): every
// race attaches a reaction to `stopped`, and while it stays pending (a whole rpc session) each one
// keeps its race and the value it settled with (a chunk of stdin) alive: a long session read line
// by line grew by a few hundred bytes a line. Rule: the stop's listener is taken off as the work
// settles, so nothing of a finished wait stays reachable from the stop.

/** `work`'s value, or undefined when `stop` aborts first (at once when it already has). */
export function untilStopped<T>(work: Promise<T>, stop: AbortSignal): Promise<T | undefined> {
  if (stop.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onStop = () => resolve(undefined);
    stop.addEventListener("abort", onStop, { once: true });
    work.then(
      (value) => {
        stop.removeEventListener("abort", onStop);
        resolve(value);
      },
      (error: unknown) => {
        stop.removeEventListener("abort", onStop);
        reject(error);
      },
    );
  });
}
