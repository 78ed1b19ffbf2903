// How a retry reads to a person (stderr with -p, the TUI's status bar): the wait as the server asked
// for it, and the server's sentence without a doubled full stop.
import { expect, test } from "bun:test";
import { retryLabel, retryText } from "../../src/protocol/retry-text.ts";

const retry = (wait_ms: number, message = "anthropic: HTTP 429: rate limited") => ({ type: "retry" as const, attempt: 1, max_attempts: 2, wait_ms, status: 429, message });

test("the wait is said as it is: milliseconds, tenths of a second under 10 s, whole seconds above", () => {
  expect(retryText(retry(250))).toBe("anthropic: HTTP 429: rate limited; retrying in 250 ms (retry 1 of 2)");
  expect(retryText(retry(1500))).toBe("anthropic: HTTP 429: rate limited; retrying in 1.5 s (retry 1 of 2)");
  expect(retryText(retry(2000))).toBe("anthropic: HTTP 429: rate limited; retrying in 2 s (retry 1 of 2)");
  expect(retryText(retry(30_000))).toBe("anthropic: HTTP 429: rate limited; retrying in 30 s (retry 1 of 2)");
  expect(retryLabel(retry(1500))).toBe("retrying in 1.5 s (HTTP 429)");
});

test("a server's sentence that ends in a full stop does not read '.;'", () => {
  expect(retryText(retry(250, "openai: HTTP 429: Please check your plan and billing details."))).toBe(
    "openai: HTTP 429: Please check your plan and billing details; retrying in 250 ms (retry 1 of 2)",
  );
});
