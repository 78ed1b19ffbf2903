// `zot -p --output-format json|stream-json`: Claude Code's headless output, through the compiled
// binary against the mock LLM speaking the real Anthropic wire format, read the way scripts written
// for `claude -p` read it (`jq -r .result`, `.session_id` to go on, a line per message).
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];
const turns = () => [
  { tool_calls: [{ id: "toolu_1", name: "bash", args: { command: "echo made > made.txt && echo ok" } }], usage: { input: 120, output: 30, cache_read: 10, cache_write: 5 } },
  { text: "Made the file.", usage: { input: 200, output: 12, cache_read: 40, cache_write: 0 } },
];

function folder() {
  const cwd = tempDir("zot-cc-out-");
  const home = tempDir("zot-cc-out-home-");
  return { cwd, home, run: (args: string[]) => zot(args, { cwd, home, env: { HOME: tempDir("zot-cc-out-user-") } }) };
}

describe("--output-format json", () => {
  test("one result object: the answer, turns, usage summed over the calls, the session it recorded, which --session resumes", async () => {
    const f = folder();
    const mock = startMockLlm([...turns(), { text: "Still here." }]);
    try {
      const run = await f.run([...anthropic(mock), "-p", "make a file", "--output-format", "json"]);
      expect(run.code).toBe(0);
      expect(run.stdout.trim().split("\n")).toHaveLength(1);
      const result = JSON.parse(run.stdout);
      expect(result).toMatchObject({
        type: "result",
        subtype: "success",
        is_error: false,
        result: "Made the file.",
        num_turns: 2,
        stop_reason: "end_turn",
        usage: { input_tokens: 320, output_tokens: 42, cache_read_input_tokens: 50, cache_creation_input_tokens: 5 },
      });
      expect(typeof result.total_cost_usd).toBe("number");
      expect(result.total_cost_usd).toBeGreaterThan(0);
      expect(result.duration_ms).toBeGreaterThanOrEqual(result.duration_api_ms);
      expect(existsSync(join(f.cwd, "made.txt"))).toBe(true);
      // The session it names is the one a script goes on with.
      const again = await f.run([...anthropic(mock), "-p", "still there?", "--output-format", "json", "--session", result.session_id]);
      expect(JSON.parse(again.stdout)).toMatchObject({ result: "Still here.", session_id: result.session_id, num_turns: 1 });
      expect(mock.requests[2].body.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    } finally {
      await mock.stop();
    }
  });

  test("a turn stopped by --max-turns is error_max_turns, is_error, exit 1", async () => {
    const f = folder();
    const mock = startMockLlm(turns());
    try {
      const run = await f.run([...anthropic(mock), "-p", "make a file", "--output-format", "json", "--max-turns", "1", "--no-session"]);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({ type: "result", subtype: "error_max_turns", is_error: true, num_turns: 1, session_id: null });
      expect(JSON.parse(run.stdout).result).toBe("max steps (1) exceeded");
    } finally {
      await mock.stop();
    }
  });
});

test("--output-format stream-json: init, each message as it completes with Claude Code's tool names, the result last", async () => {
  const f = folder();
  const mock = startMockLlm(turns());
  try {
    const run = await f.run([...anthropic(mock), "-p", "make a file", "--output-format", "stream-json", "--verbose"]);
    expect(run.code).toBe(0);
    const lines = ndjson(run.stdout);
    expect(lines.map((l) => l.type)).toEqual(["system", "assistant", "user", "assistant", "result"]);
    const [init, call, result, answer, end] = lines;
    expect(init).toMatchObject({ subtype: "init", cwd: f.cwd, model: "claude-sonnet-4-5", permissionMode: "bypassPermissions" });
    expect(init.tools.sort()).toEqual(["Bash", "Edit", "Read", "Skill", "Write"]);
    expect(call.message).toMatchObject({
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "echo made > made.txt && echo ok" } }],
      usage: { input_tokens: 120, output_tokens: 30 },
    });
    expect(result.message.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1", is_error: false });
    expect(result.message.content[0].content).toStartWith("ok\n");
    expect(answer.message.content).toEqual([{ type: "text", text: "Made the file." }]);
    expect(end).toMatchObject({ subtype: "success", result: "Made the file.", num_turns: 2 });
    // Every line names the one session.
    expect(new Set(lines.map((l) => l.session_id))).toEqual(new Set([init.session_id]));
    expect(init.session_id).toMatch(/^\d{8}-\d{6}-/);
  } finally {
    await mock.stop();
  }
});

test("--output-format without -p, and --max-steps with --max-turns, are usage errors (exit 2)", async () => {
  const f = folder();
  const noPrint = await f.run(["--output-format", "json", "--json", "hi"]);
  expect(noPrint.code).toBe(2);
  expect(noPrint.stderr).toBe('zot: --output-format goes with -p, as in Claude Code (zot -p --output-format json "…"); --json streams zot\'s own events\n');
  const both = await f.run(["-p", "hi", "--max-steps", "2", "--max-turns", "2"]);
  expect(both.code).toBe(2);
  expect(both.stderr).toBe("zot: --max-steps and --max-turns are the same limit; give one\n");
});
