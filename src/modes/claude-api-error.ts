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

/** The Agent SDK's name for a failed call's code (and HTTP status: a 404 is a model not found); undefined for a failure that is no model call's. */
export function claudeApiError(code: ErrorCode | undefined, status?: number): ClaudeApiError | undefined {
  if (status === 404) return "model_not_found";
  return code === undefined ? undefined : BY_CODE[code];
}
