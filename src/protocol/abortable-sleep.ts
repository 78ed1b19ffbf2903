// A wait an abort cuts short. Rule: the timer goes with the abort (nothing keeps running for a
// wait nobody awaits), and the wait never rejects: the caller says what an abort means to it (the
// signal's reason for a retry's wait, the scripted provider's own AbortError, a call given up).
import { timerDelay } from "./timer-delay.ts";

/** Waits `ms`, or less when `signal` aborts: true when the whole wait passed. */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, timerDelay(ms));
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
