// A token count as a server sent it: what every provider's usage reader makes of it.
import { expect, test } from "bun:test";
import { tokenCount } from "../../src/providers/token-count.ts";

test("a count is a non-negative finite number; a numeric string is its number; anything else is the fallback", () => {
  expect(tokenCount(7, 0)).toBe(7);
  expect(tokenCount("7", 0)).toBe(7);
  expect(tokenCount(" 12 ", 0)).toBe(12);
  for (const value of [undefined, null, "", " ", "seven", -1, Number.NaN, Number.POSITIVE_INFINITY, {}, [], true]) {
    expect(tokenCount(value, 0)).toBe(0);
    expect(tokenCount(value, null)).toBeNull();
  }
  expect(tokenCount(undefined, 5)).toBe(5);
});
