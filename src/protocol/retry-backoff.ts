// How often zot tries a failed model call again, and how long it waits before each try. Rule: one
// plan for a call that failed to open (providers/retry.ts) and for one whose stream's first word
// was an overload (core/model-call.ts), with one count of the retries across both; a wait the
// server names wins over the schedule, up to MAX_NAMED_WAIT_S; every wait is cut short by an abort
// (the callers sleep with sleepUnlessAborted).
import type { ErrorCode } from "./error-code.ts";

/**
 * Retries of a busy server (an overload, a rate limit, a 5xx, a 408 or 409): Claude Code's
 * default, waiting 0.5, 1, 2, 4, 8, 16, then 32 s each (a quarter more at most, at random): about
 * two and a half minutes in all, which an overload of a few seconds or a minute's rate limit outlasts.
 */
export const BUSY_RETRIES = 10;
/**
 * Retries of a server that could not be reached, or took the request and sent nothing: not
 * reaching one is rarely over within seconds (a local server not started, a wrong address, a proxy
 * that is off), and a silent one was waited on for the silence limit already.
 */
export const UNREACHED_RETRIES = 2;
/**
 * Retries of a server error (a 500, 502, 504) from a server on this machine or its network (a local
 * model that does not fit in memory, a gateway whose server is down): a few, not minutes of them,
 * since such an error rarely clears within a call. A remote server's get BUSY_RETRIES, as Claude Code gives them.
 */
export const LOCAL_SERVER_ERROR_RETRIES = 2;
const BASE_WAIT_MS = 500;
const MAX_WAIT_MS = 32_000;
/** The most a wait is lengthened at random, as a share of it: clients that failed together do not come back together. */
const JITTER = 0.25;
/**
 * A wait the server names (retry-after, OpenAI's x-ratelimit-reset-*, "Please try again in 20s")
 * longer than this is not waited for: the failure is said at once, with the wait. A per-minute
 * limit (of requests or of tokens) is over within a minute; a longer wait is a daily limit or a quota.
 */
export const MAX_NAMED_WAIT_S = 60;

/** The retries a failure of this code may have; `cap` is the run's own limit (CLAUDE_CODE_MAX_RETRIES), when it set one. */
export function retriesFor(code: ErrorCode, cap?: number, local = false): number {
  const retries = code === "network" ? UNREACHED_RETRIES : code === "server_error" && local ? LOCAL_SERVER_ERROR_RETRIES : BUSY_RETRIES;
  return cap !== undefined ? Math.min(retries, cap) : retries;
}

/** The wait before retry number `retry` (from 1) when the server names none. `random` in [0, 1). */
export function backoffMs(retry: number, random: number = Math.random()): number {
  const base = Math.min(BASE_WAIT_MS * 2 ** (retry - 1), MAX_WAIT_MS);
  return Math.round(base * (1 + JITTER * random));
}

/** What to do after a failure: wait `waitMs` and try again, or stop (no retry left, or the server asks for a longer wait than zot takes). */
export type RetryPlan = { waitMs: number } | { stop: "exhausted" } | { stop: "wait_too_long"; seconds: number };

/**
 * The plan after a failure that may be tried again, when `retried` retries were made already.
 * `namedWaitS`: the wait the server named, in seconds.
 */
export function retryPlan(code: ErrorCode, retried: number, namedWaitS: number | undefined, cap?: number, local = false): RetryPlan {
  if (retried >= retriesFor(code, cap, local)) return { stop: "exhausted" };
  if (namedWaitS !== undefined && namedWaitS > MAX_NAMED_WAIT_S) return { stop: "wait_too_long", seconds: namedWaitS };
  return { waitMs: namedWaitS !== undefined ? Math.round(namedWaitS * 1000) : backoffMs(retried + 1) };
}

/** The failure's sentence, with the wait the server asked for and zot would not take. */
export function waitTooLongText(message: string, seconds: number): string {
  return `${message.replace(/\.$/, "")}; the server asks to wait ${Math.ceil(seconds)} s before trying again (zot waits up to ${MAX_NAMED_WAIT_S} s by itself)`;
}
