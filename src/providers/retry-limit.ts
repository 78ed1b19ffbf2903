// How often a run tries a failed model call again, when the run says so: Claude Code's
// CLAUDE_CODE_MAX_RETRIES (a script that does its own retrying sets 0, a patient batch job more).
// Rule: it only lowers zot's plan (protocol/retry-backoff.ts: 10 for a busy server, 2 for one not
// reached), never raises it; unset, or not a whole number of 0 or more, leaves the plan as it is.

export function maxRetriesSet(env: Record<string, string | undefined> = process.env): number | undefined {
  const value = env.CLAUDE_CODE_MAX_RETRIES?.trim();
  if (!value || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}
