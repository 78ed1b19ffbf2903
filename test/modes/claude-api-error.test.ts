// The Agent SDK's names for a failed model call, as the stream-json api_retry lines and the
// synthetic assistant message carry them.
import { expect, test } from "bun:test";
import { claudeApiError } from "../../src/modes/claude-api-error.ts";

test("a used-up quota or credit is a billing error (an orchestrator must not retry it); a rate limit stays one; a 404 is a model not found", () => {
  expect(claudeApiError("rate_limit", 429, "You exceeded your current quota, please check your plan and billing details. (insufficient_quota)")).toBe("billing_error");
  expect(claudeApiError("bad_request", 400, "Your credit balance is too low to access the Anthropic API.")).toBe("billing_error");
  expect(claudeApiError("rate_limit", 429, "Rate limit reached for requests")).toBe("rate_limit");
  expect(claudeApiError("server_error", 500, "billing service hiccup")).toBe("server_error");
  expect(claudeApiError("bad_request", 404)).toBe("model_not_found");
  expect(claudeApiError(undefined)).toBeUndefined();
});
