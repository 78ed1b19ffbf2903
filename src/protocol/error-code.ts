// The machine-readable reason a turn or a request failed: the `code` beside the sentence on the
// `error` and `turn_end` events, so a client can tell an auth failure from a rate limit without
// reading words meant for a person.
// Rule: a code names what went wrong, never which provider or wire API it came from; the sentence
// next to it says the details; codes are only ever added, never renamed.
import * as v from "valibot";

export const ERROR_CODES = [
  "auth",
  "rate_limit",
  "overloaded",
  "server_error",
  "context_overflow",
  "bad_request",
  "network",
  "bad_response",
  "max_steps",
  "blocked",
  "intercepted",
  "compaction",
  "not_started",
  "refused",
  "internal",
] as const;

/** What each code means; `zot rpc --schema` carries these words, docs/rpc.md lists them. */
export const ERROR_CODE_MEANINGS: Readonly<Record<(typeof ERROR_CODES)[number], string>> = {
  auth: "a 401 or 403: the provider rejected the API key or token, and the sentence names where the key came from; or, when the answer was a web page and not the API's error, something on the way (a proxy, a firewall) refused the request, and the sentence names the URL",
  rate_limit: "the provider's rate limit (429), after zot's retries",
  overloaded: "the provider is overloaded (529, 503), after zot's retries",
  server_error: "the provider failed on its side (another 5xx, or an error inside its stream)",
  context_overflow: "the conversation is too long for the model's context window, even after compacting it",
  bad_request: "the provider refused the request (another 4xx: an unknown model, a bad parameter)",
  network: "the server could not be reached, or the connection dropped mid-answer",
  bad_response: "the server's stream was malformed, or ended before the model finished",
  max_steps: "the turn reached --max-steps",
  blocked: "an extension or hook blocked the turn before the model was called",
  intercepted: "an extension or hook ended the turn (abort_turn, hard_abort)",
  compaction: "a compaction could not be made: nothing to summarise, or the model's summary was empty",
  not_started: "the run could not start (a flag zot cannot read, no API key, a session that is not there); no model was called",
  refused: "the model declined to answer, or the provider's content filter stopped the answer",
  internal: "anything else; the sentence says what",
};

export const ErrorCode = v.pipe(
  v.picklist(ERROR_CODES),
  v.description(
    `why it failed, for a program (new codes may be added): ${ERROR_CODES.map((code) => `${code}: ${ERROR_CODE_MEANINGS[code]}`).join("; ")}`,
  ),
);
export type ErrorCode = v.InferOutput<typeof ErrorCode>;
