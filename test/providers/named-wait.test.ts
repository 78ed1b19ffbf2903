// The wait a server names before a failed call may be tried again: in its headers, in its words, or
// in the reset of a rate limit it hit.
import { expect, test } from "bun:test";
import { namedWaitSeconds, waitInWords } from "../../src/providers/named-wait.ts";

const headers = (h: Record<string, string>) => new Headers(h);

test("retry-after-ms, then retry-after (seconds or a date), win over everything else", () => {
  expect(namedWaitSeconds(headers({ "retry-after-ms": "1500", "retry-after": "9" }), "Please try again in 20s.", true)).toBe(1.5);
  expect(namedWaitSeconds(headers({ "retry-after": "2" }), "Please try again in 20s.", true)).toBe(2);
  const inFive = new Date(Date.now() + 5000).toUTCString();
  expect(namedWaitSeconds(headers({ "retry-after": inFive }), undefined, true)).toBeGreaterThan(3);
});

test("the server's words: OpenAI's, Azure's, Gemini's, in seconds, milliseconds and minutes", () => {
  expect(waitInWords("Rate limit reached for gpt-4.1 on tokens per min (TPM): Limit 30000, Used 29800, Requested 1200. Please try again in 5.000s. Visit …")).toBe(5);
  expect(waitInWords("Rate limit reached for o3 on requests per min (RPM). Please try again in 20ms.")).toBe(0.02);
  expect(waitInWords("Rate limit reached on requests per day (RPD). Please try again in 7m12s.")).toBe(432);
  expect(waitInWords("Requests to the ChatCompletions_Create Operation have exceeded the rate limit. Please retry after 20 seconds.")).toBe(20);
  expect(waitInWords("Resource has been exhausted. Please retry in 39.8s.")).toBe(39.8);
  expect(waitInWords("Too many requests; try again in 2 minutes")).toBe(120);
  expect(waitInWords("The engine is currently overloaded, please try again later")).toBeUndefined();
});

test("OpenAI's x-ratelimit-reset-*: for a rate limit only (OpenAI sends them with every answer), the later of the two", () => {
  const resets = headers({ "x-ratelimit-reset-requests": "120ms", "x-ratelimit-reset-tokens": "5.000s" });
  expect(namedWaitSeconds(resets, "Rate limit reached for gpt-4.1", true)).toBe(5);
  expect(namedWaitSeconds(resets, "The server had an error while processing your request.", false)).toBeUndefined();
  expect(namedWaitSeconds(headers({ "x-ratelimit-reset-tokens": "1m30s" }), undefined, true)).toBe(90);
  // The words win over the resets: they say when this request may come back.
  expect(namedWaitSeconds(resets, "Please try again in 1.2s.", true)).toBe(1.2);
});

test("nothing named: undefined", () => {
  expect(namedWaitSeconds(undefined, undefined, true)).toBeUndefined();
  expect(namedWaitSeconds(headers({ "retry-after": "soon" }), "slow down", true)).toBeUndefined();
});
