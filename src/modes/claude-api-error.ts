// zot's error codes by the Agent SDK's names for a failed call (SDKAssistantMessageError), for the
// api_retry lines and the synthetic assistant message of a call that failed. Rule: a code is named
// by what Claude Code calls the same failure; a failure that is not the model call's (a hook's
// block, max steps, an interrupted prompt) has no name here, and gets no synthetic message.
import type { ClaudeApiError } from "../protocol/claude-output.ts";
import type { ErrorCode } from "../protocol/error-code.ts";

const BY_CODE: Partial<Record<ErrorCode, ClaudeApiError>> = {
  auth: "authentication_failed",
  rate_limit: "rate_limit",
  overloaded: "overloaded",
  server_error: "server_error",
  // "prompt is too long" is a 400 Claude Code reports as an invalid request.
  context_overflow: "invalid_request",
  bad_request: "invalid_request",
  network: "unknown",
  bad_response: "unknown",
};

/** A quota used up or credit run out (OpenAI's insufficient_quota, Anthropic's "credit balance is too low"): no retry mends it. */
const BILLING = /insufficient_quota|credit balance is too low|billing|exceeded your current quota/i;

/**
 * The Agent SDK's name for a failed call's code (and HTTP status: a 404 is a model not found; and its
 * words: a quota or credit that ran out is a billing error, which an orchestrator must not retry);
 * undefined for a failure that is no model call's.
 */
export function claudeApiError(code: ErrorCode | undefined, status?: number, words?: string): ClaudeApiError | undefined {
  if (status === 404) return "model_not_found";
  if (code !== undefined && words !== undefined && BILLING.test(words) && (code === "rate_limit" || code === "bad_request" || code === "auth")) return "billing_error";
  return code === undefined ? undefined : BY_CODE[code];
}
