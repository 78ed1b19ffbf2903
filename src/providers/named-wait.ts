// The wait a server names before a failed call may be tried again, wherever it names it: the
// retry-after-ms and retry-after headers (the official SDKs honour these), the message's own words
// (OpenAI's "Please try again in 5.000s" and "in 6m0s", as Codex reads them; Azure's "Please retry
// after 20 seconds"; "retry in 39.8s"), and, for a rate limit, OpenAI's x-ratelimit-reset-requests
// and -tokens ("1s", "6m0s", "20ms"). Rule: the headers first, then the words, then a limit's reset
// (the later of the two, since either may be the one hit); OpenAI sends its reset headers with every
// answer, so they count only for a 429.

/** The wait named, in seconds; undefined when none is. `rateLimited`: the failure is a rate limit (a 429). */
export function namedWaitSeconds(headers: Headers | undefined, text: string | undefined, rateLimited: boolean): number | undefined {
  const ms = Number(headers?.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const after = parseRetryAfter(headers?.get("retry-after"));
  if (after !== undefined) return after;
  const said = text ? waitInWords(text) : undefined;
  if (said !== undefined || !rateLimited) return said;
  const resets = [headers?.get("x-ratelimit-reset-requests"), headers?.get("x-ratelimit-reset-tokens")].map(parseDuration).filter((s) => s !== undefined);
  return resets.length > 0 ? Math.max(...resets) : undefined;
}

/** Parses a retry-after header: seconds, or an HTTP date. */
export function parseRetryAfter(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - Date.now()) / 1000);
}

/** "try again in 5.000s", "try again in 1m30s", "retry after 20 seconds", "retry in 39.8s", "try again in 120ms". */
const WAIT_IN_WORDS = /\b(?:try again|retry) (?:in|after) ((?:\d+(?:\.\d+)?(?:ms|h|m|s)){1,4}|\d+(?:\.\d+)? ?(?:milliseconds?|seconds?|secs?|minutes?|mins?))(?![a-z])/i;

/** The wait a server's sentence names, in seconds. */
export function waitInWords(text: string): number | undefined {
  const found = WAIT_IN_WORDS.exec(text)?.[1];
  if (!found) return undefined;
  const spelled = /^(\d+(?:\.\d+)?) ?([a-z]+)$/i.exec(found);
  if (spelled && !/^(ms|h|m|s)$/i.test(spelled[2]!)) {
    const n = Number(spelled[1]);
    const unit = spelled[2]!.toLowerCase();
    return unit.startsWith("milli") ? n / 1000 : unit.startsWith("min") ? n * 60 : n;
  }
  return parseDuration(found);
}

/** A Go duration as OpenAI writes its resets ("1s", "6m0s", "20ms", "1h2m3.5s"), in seconds. */
function parseDuration(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const parts = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/i.exec(value.trim());
  if (!parts || !parts.slice(1).some((p) => p !== undefined)) return undefined;
  const [, h, m, s, ms] = parts.map((p) => Number(p ?? 0));
  return h! * 3600 + m! * 60 + s! + ms! / 1000;
}
