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

test("past its size the file is cut to its newer half, replaced whole (no temporary file left)", () => {
  const home = tempDir("zot-home-");
  const big = "x".repeat(4000);
  for (let i = 0; i < 300; i++) appendPromptLog(home, "/a", `${i} ${big}`);
  const kept = readPromptLog(home, "/a", 1000);
  expect(statSync(join(home, "prompts.jsonl")).size).toBeLessThanOrEqual(1024 * 1024);
  expect(kept.at(-1)).toStartWith("299 ");
  expect(kept.length).toBeLessThan(300);
  expect(readdirSync(home)).toEqual(["prompts.jsonl"]);
});
