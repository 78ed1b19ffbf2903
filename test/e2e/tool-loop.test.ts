// The agent uses every built-in tool in one prompt; each tool's result reaches the next request.
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";

let mock: MockLlm;
afterEach(() => mock?.stop());

/** The text of the tool results in the newest user message of an Anthropic request. */
function lastToolResults(body: any): string[] {
  const last = body.messages.at(-1);
  return last.content
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => (typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text ?? "").join("\n")));
}

test("write → read → edit → bash, each result in the next request, files really changed", async () => {
  const cwd = tempDir("zot-loop-");
  mock = startMockLlm([
    { text: "Creating the file.", tool_calls: [{ name: "write", args: { path: "notes/todo.txt", content: "one\ntwo\nthree\n" } }] },
    { tool_calls: [{ name: "read", args: { path: "notes/todo.txt" } }] },
    { tool_calls: [{ name: "edit", args: { path: "notes/todo.txt", edits: [{ old_text: "two", new_text: "TWO" }] } }] },
    { tool_calls: [{ name: "bash", args: { command: "wc -l < notes/todo.txt && cat notes/todo.txt" } }] },
    { text: "All done: {{last_tool_result}}" },
  ]);
  const run = await zot(["--json", "make a todo file", "--provider", "anthropic", "--api-key", "k", "--base-url", mock.url], { cwd });
  expect(run.code).toBe(0);
  expect(mock.requests).toHaveLength(5);

  expect(lastToolResults(mock.requests[1].body)[0]).toContain("notes/todo.txt");
  expect(lastToolResults(mock.requests[2].body)[0]).toContain("three");
  expect(lastToolResults(mock.requests[3].body)[0]).toContain("+TWO");
  const bashResult = lastToolResults(mock.requests[4].body)[0];
  expect(bashResult).toContain("3");
  expect(bashResult).toContain("one\nTWO\nthree");
  expect(readFileSync(`${cwd}/notes/todo.txt`, "utf8")).toBe("one\nTWO\nthree\n");

  const events = ndjson(run.stdout);
  const results = events.filter((e) => e.type === "tool_result");
  expect(results.map((e) => [e.name, e.is_error])).toEqual([
    ["write", false],
    ["read", false],
    ["edit", false],
    ["bash", false],
  ]);
  expect(events.filter((e) => e.type === "tool_progress").map((e) => e.text).join("")).toContain("TWO");
  expect(events.filter((e) => e.type === "turn_start").map((e) => e.step)).toEqual([1, 2, 3, 4, 5]);
  // Every request advertises the built-in tools (skill too: the built-in skills are on by
  // default), sorted by name for prompt-cache stability.
  expect(mock.requests[0].body.tools.map((t: any) => t.name)).toEqual(["bash", "edit", "read", "skill", "write"]);
});

test("a failing tool's error reaches the model and the loop goes on", async () => {
  mock = startMockLlm([
    { tool_calls: [{ name: "read", args: { path: "does-not-exist.txt" } }] },
    { text: "The file is missing." },
  ]);
  const run = await zot(["-p", "read it", "--provider", "anthropic", "--api-key", "k", "--base-url", mock.url]);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("The file is missing.\n");
  const block = mock.requests[1].body.messages.at(-1).content[0];
  expect(block.is_error).toBe(true);
  expect(JSON.stringify(block.content)).toContain("does-not-exist.txt");
});
