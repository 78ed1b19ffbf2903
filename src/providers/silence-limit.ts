// How long a model call may stay silent: no response for this long after the request, or no byte
// of the stream for this long once it started, ends it with a sentence instead of a wait that never
// ends (a stuck proxy, a server that hangs). Rule: Claude Code's API_TIMEOUT_MS (milliseconds) sets
// it, for the SDK's wait for a response and for the stream's gaps alike; 5 minutes otherwise.

const DEFAULT_MS = 300_000;

export function silenceLimitMs(env: Record<string, string | undefined> = process.env): number {
  const set = Number(env.API_TIMEOUT_MS);
  return Number.isFinite(set) && set > 0 ? set : DEFAULT_MS;
}
