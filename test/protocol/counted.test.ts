// A number with its noun: singular for one, so no note says "1 rows".
import { expect, test } from "bun:test";
import { counted } from "../../src/protocol/counted.ts";

test("one is singular; zero and many are plural", () => {
  expect([0, 1, 2].map((n) => counted(n, "more row"))).toEqual(["0 more rows", "1 more row", "2 more rows"]);
});
