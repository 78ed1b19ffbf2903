// How long a model call may stay silent: no response for this long after the request, or no byte
// of the stream for this long once it started, ends it with a sentence instead of a wait that never
// ends (a stuck proxy, a server that hangs). Rule: Claude Code's API_TIMEOUT_MS (milliseconds) sets
// it, for the SDK's wait for a response and for the stream's gaps alike; 10 minutes otherwise, as
// the SDKs and Claude Code wait (a slow local model, a long-reasoning one, must not be cut off).
import { MAX_TIMER_MS } from "../protocol/timer-delay.ts";

const DEFAULT_MS = 600_000;

export function silenceLimitMs(env: Record<string, string | undefined> = process.env): number {
  const set = Number(env.API_TIMEOUT_MS);
  // Past what a timer can wait (about 24.8 days), the longest it can.
  return Number.isFinite(set) && set > 0 ? Math.min(set, MAX_TIMER_MS) : DEFAULT_MS;
}
