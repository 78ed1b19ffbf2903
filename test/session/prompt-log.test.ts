// The TUI's prompt history across runs ($ZOT_HOME/prompts.jsonl): per folder, a torn line costs only
// itself, the file stays the user's alone, and cutting it never leaves half a file.
import { expect, test } from "bun:test";
import { appendFileSync, chmodSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appendPromptLog, readPromptLog } from "../../src/session/prompt-log.ts";
import { tempDir } from "../support/zot.ts";

test("prompts come back per folder, oldest first", () => {
  const home = tempDir("zot-home-");
  appendPromptLog(home, "/a", "one");
  appendPromptLog(home, "/b", "elsewhere");
  appendPromptLog(home, "/a", "two\nlines");
  expect(readPromptLog(home, "/a")).toEqual(["one", "two\nlines"]);
});

test("a line a crash left torn costs only itself: the next prompt is kept", () => {
  const home = tempDir("zot-home-");
  appendPromptLog(home, "/a", "before");
  appendFileSync(join(home, "prompts.jsonl"), '{"cwd":"/a","text":"cut of');
  appendPromptLog(home, "/a", "after");
  expect(readPromptLog(home, "/a")).toEqual(["before", "after"]);
});

test("a file someone else could read is made the user's alone", () => {
  const home = tempDir("zot-home-");
  writeFileSync(join(home, "prompts.jsonl"), "");
  chmodSync(join(home, "prompts.jsonl"), 0o644);
  appendPromptLog(home, "/a", "secret plans");
  expect(statSync(join(home, "prompts.jsonl")).mode & 0o777).toBe(0o600);
});

test("past its size the file is cut to its newer half by bytes, replaced whole (no temporary file left)", () => {
  const home = tempDir("zot-home-");
  const big = "x".repeat(4000);
  for (let i = 0; i < 300; i++) appendPromptLog(home, "/a", `${i} ${big}`);
  const kept = readPromptLog(home, "/a", 1000);
  expect(statSync(join(home, "prompts.jsonl")).size).toBeLessThanOrEqual(1024 * 1024);
  expect(kept.at(-1)).toStartWith("299 ");
  expect(kept.length).toBeLessThan(300);
  expect(readdirSync(home)).toEqual(["prompts.jsonl"]);
});

test("one long prompt is not kept across runs, and cannot cut the other folders' history away", () => {
  const home = tempDir("zot-home-");
  for (let i = 0; i < 100; i++) appendPromptLog(home, "/other", `old prompt ${i}`);
  // A paste near the cap, written by a zot that kept it (one that cut by lines would halve the
  // history on every prompt while the paste kept the file past its size).
  appendFileSync(join(home, "prompts.jsonl"), `${JSON.stringify({ cwd: "/a", text: "P".repeat(1_100_000) })}\n`);
  for (const text of ["one", "two", "three"]) appendPromptLog(home, "/a", text);
  expect(readPromptLog(home, "/other")).toHaveLength(100);
  expect(readPromptLog(home, "/a")).toEqual(["one", "two", "three"]);
  expect(statSync(join(home, "prompts.jsonl")).size).toBeLessThan(64 * 1024);
  // A new paste of that size is not written at all.
  appendPromptLog(home, "/a", "Q".repeat(100_000));
  expect(readPromptLog(home, "/a")).toEqual(["one", "two", "three"]);
});
