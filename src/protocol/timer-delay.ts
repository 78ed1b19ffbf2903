// The delay a timer can really wait. setTimeout takes a signed 32-bit count of milliseconds; a
// longer one (a bash `timeout` of a month, a manifest's huge `timeouts`) fires at once instead of
// never. Rule: every timer whose length comes from outside zot goes through timerDelay.

/** The longest delay setTimeout honours: 2^31 - 1 ms, about 24.8 days. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `ms` clamped into what setTimeout honours: negative or NaN is 0, over the limit is the limit. */
export function timerDelay(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(ms, MAX_TIMER_MS);
}
