// `zot -p --output-format json|stream-json`: Claude Code's headless output, through the compiled
// binary against the mock LLM speaking the real Anthropic wire format, read the way scripts written
// for `claude -p` read it (`jq -r .result`, `.session_id` to go on, a line per message).
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as v from "valibot";
import { ClaudeOutputLine } from "../../src/protocol/claude-output.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { cleanEnv, ndjson, ROOT, tempDir, ZOT, zot } from "../support/zot.ts";

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
  test("-p -c /compact: the summary is the result, as text mode prints it (json and stream-json)", async () => {
    const f = folder();
    const mock = startMockLlm([{ text: "a1" }, { text: "a2" }, { text: "THE SUMMARY" }, { text: "a3" }, { text: "SECOND SUMMARY" }]);
    try {
      await f.run([...anthropic(mock), "-p", "q1"]);
      await f.run([...anthropic(mock), "-p", "-c", "q2"]);
      const json = JSON.parse((await f.run([...anthropic(mock), "-p", "-c", "/compact", "--output-format", "json"])).stdout);
      expect(json).toMatchObject({ type: "result", subtype: "success", result: "THE SUMMARY" });
      await f.run([...anthropic(mock), "-p", "-c", "q3"]);
      const stream = ndjson((await f.run([...anthropic(mock), "-p", "-c", "/compact", "--output-format", "stream-json", "--verbose"])).stdout);
      expect(stream.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "SECOND SUMMARY" });
    } finally {
      await mock.stop();
    }
  });

  test("a resumed session's run costs what its calls cost, without floating-point noise from the running totals", async () => {
    const f = folder();
    const mock = startMockLlm([{ text: "one", usage: { input: 181_000, output: 20 } }, { text: "two", usage: { input: 7000, output: 20 } }]);
    try {
      const model = ["-m", "claude-sonnet-4-5"];
      const first = JSON.parse((await f.run([...anthropic(mock), ...model, "-p", "q1", "--output-format", "json"])).stdout);
      const second = JSON.parse((await f.run([...anthropic(mock), ...model, "-p", "-c", "q2", "--output-format", "json"])).stdout);
      // At $3 and $15 a million tokens, the second run's 7,000 in and 20 out cost 0.0213, after a first that cost 0.5433.
      expect(first.total_cost_usd).toBeGreaterThan(0);
      expect(String(second.total_cost_usd)).toBe("0.0213");
      expect(second.modelUsage["claude-sonnet-4-5"].costUSD).toBe(second.total_cost_usd);
    } finally {
      await mock.stop();
    }
  });

  test("a command's model: answers its prompt: modelUsage and the assistant line name that model, not the run's", async () => {
    const user = tempDir("zot-cc-out-user-");
    mkdirSync(join(user, ".claude", "commands"), { recursive: true });
    writeFileSync(join(user, ".claude", "commands", "cheap.md"), "---\nmodel: claude-haiku-4-5\n---\nSay hi\n");
    const mock = startMockLlm([{ text: "cheap answer", usage: { input: 1000, output: 100 } }, { text: "cheap again", usage: { input: 1000, output: 100 } }]);
    try {
      const run = (format: string) => zot([...anthropic(mock), "-m", "claude-sonnet-4-5", "-p", "/cheap", "--output-format", format, "--verbose", "--no-session"], { env: { HOME: user } });
      const json = JSON.parse((await run("json")).stdout);
      expect(mock.requests[0].body.model).toBe("claude-haiku-4-5");
      // claude-haiku-4-5: $1 in, $5 out per million
      expect(json.modelUsage).toEqual({ "claude-haiku-4-5": { inputTokens: 1000, outputTokens: 100, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, costUSD: 0.0015 } });
      const lines = ndjson((await run("stream-json")).stdout);
      expect(lines[0]).toMatchObject({ type: "system", subtype: "init", model: "claude-sonnet-4-5" });
      expect(lines.find((l) => l.type === "assistant").message.model).toBe("claude-haiku-4-5");
      expect(Object.keys(lines.at(-1).modelUsage)).toEqual(["claude-haiku-4-5"]);
    } finally {
      await mock.stop();
    }
  });

  test("one result object: the answer, turns, usage summed over the calls, the session it recorded, which --session resumes", async () => {
    const f = folder();
    const mock = startMockLlm([...turns(), { text: "Still here." }]);
    try {
      const run = await f.run([...anthropic(mock), "-p", "make a file", "--output-format", "json"]);
      expect(run.code).toBe(0);
      expect(run.stdout.trim().split("\n")).toHaveLength(1);
      const result = JSON.parse(run.stdout);
      expect(v.parse(ClaudeOutputLine, result)).toEqual(result);
      expect(result).toMatchObject({
        type: "result",
        subtype: "success",
        is_error: false,
        result: "Made the file.",
        num_turns: 2,
        stop_reason: "end_turn",
        usage: { input_tokens: 320, output_tokens: 42, cache_read_input_tokens: 50, cache_creation_input_tokens: 5 },
      });
      expect(result.modelUsage).toEqual({
        "claude-sonnet-5-5": { inputTokens: 320, outputTokens: 42, cacheReadInputTokens: 50, cacheCreationInputTokens: 5, costUSD: result.total_cost_usd },
      });
      expect(result.permission_denials).toEqual([]);
      expect(result.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(typeof result.total_cost_usd).toBe("number");
      expect(result.total_cost_usd).toBeGreaterThan(0);
      expect(result.duration_ms).toBeGreaterThanOrEqual(result.duration_api_ms);
      expect(existsSync(join(f.cwd, "made.txt"))).toBe(true);
      // The session it names is the one a script goes on with, by Claude Code's --resume <id> (as --session).
      const again = await f.run([...anthropic(mock), "-p", "--resume", result.session_id, "still there?", "--output-format", "json"]);
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
      const result = JSON.parse(run.stdout);
      expect(result).toMatchObject({ type: "result", subtype: "error_max_turns", is_error: true, num_turns: 1, session_id: null, errors: ['max steps (1) exceeded: the model was still calling tools; send "go on" to let it continue, or allow more steps (--max-steps)'] });
      // No `result` on a failure: `jq -r .result` never prints an error as if it were the answer.
      expect("result" in result).toBe(false);
    } finally {
      await mock.stop();
    }
  });
});

test("stream-json: a retry is Claude Code's system api_retry line, a call that failed its synthetic assistant message with error rate_limit", async () => {
  const f = folder();
  const slow = { error: { message: "Number of request tokens has exceeded your per-minute rate limit", status: 429, retry_after: 0 } };
  const mock = startMockLlm([slow, { text: "made it" }, slow, slow, slow]);
  try {
    const recovered = ndjson((await f.run([...anthropic(mock), "-p", "hi", "--output-format", "stream-json", "--verbose"])).stdout);
    for (const line of recovered) expect(v.parse(ClaudeOutputLine, line)).toEqual(line);
    expect(recovered.map((l) => `${l.type}/${l.subtype ?? ""}`)).toEqual(["system/init", "system/api_retry", "assistant/", "result/success"]);
    expect(recovered[1]).toMatchObject({ attempt: 1, max_retries: 10, retry_delay_ms: 0, error_status: 429, error: "rate_limit" });

    const run = await zot([...anthropic(mock), "-p", "hi", "--output-format", "stream-json", "--verbose"], {
      cwd: f.cwd,
      home: f.home,
      env: { HOME: tempDir("zot-cc-out-user-"), CLAUDE_CODE_MAX_RETRIES: "2" },
    });
    expect(run.code).toBe(1);
    const failed = ndjson(run.stdout);
    for (const line of failed) expect(v.parse(ClaudeOutputLine, line)).toEqual(line);
    expect(failed.map((l) => `${l.type}/${l.subtype ?? ""}`)).toEqual(["system/init", "system/api_retry", "system/api_retry", "assistant/", "result/error_during_execution"]);
    expect(failed[2]).toMatchObject({ attempt: 2, max_retries: 2 });
    expect(failed[3]).toMatchObject({
      error: "rate_limit",
      message: { model: "<synthetic>", content: [{ type: "text", text: "API Error: anthropic: HTTP 429: Number of request tokens has exceeded your per-minute rate limit" }] },
    });
  } finally {
    await mock.stop();
  }
});

test("--output-format stream-json: init, each message as it completes with Claude Code's tool names, the result last", async () => {
  const f = folder();
  const mock = startMockLlm(turns());
  try {
    const run = await f.run([...anthropic(mock), "-p", "make a file", "--output-format", "stream-json", "--verbose"]);
    expect(run.code).toBe(0);
    const lines = ndjson(run.stdout);
    expect(lines.map((l) => l.type)).toEqual(["system", "assistant", "user", "assistant", "result"]);
    // Each line is one of the shapes protocol/claude-output.ts defines, nothing more or less.
    for (const line of lines) expect(v.parse(ClaudeOutputLine, line)).toEqual(line);
    const [init, call, result, answer, end] = lines;
    expect(init).toMatchObject({ subtype: "init", cwd: f.cwd, model: "claude-sonnet-5-5", permissionMode: "bypassPermissions" });
    expect(init.tools.sort()).toEqual(["Bash", "Edit", "MultiEdit", "Read", "Skill", "Write"]);
    // Every line has its own uuid.
    expect(new Set(lines.map((l) => l.uuid)).size).toBe(lines.length);
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

test("a compaction is a system compact_boundary line, as Claude Code writes it: auto between a run's steps, manual for /compact", async () => {
  const f = folder();
  const mock = startMockLlm([
    { text: "answer one" },
    // 18% of the window, over --auto-compact 10: before the next step, the history is summarised.
    { tool_calls: [{ id: "toolu_1", name: "bash", args: { command: "echo TOOL-OUT" } }], usage: { input: 180_000, output: 20 } },
    { text: "## Goal\nTHE SUMMARY" },
    { text: "answer two" },
    { text: "## Goal\nSECOND SUMMARY" },
  ]);
  try {
    await f.run([...anthropic(mock), "-p", "first question"]);
    const auto = await f.run([...anthropic(mock), "-p", "-c", "second question", "--auto-compact", "10", "--output-format", "stream-json", "--verbose"]);
    expect(auto.code).toBe(0);
    expect(JSON.stringify(mock.requests[3]!.body)).toContain("THE SUMMARY");
    const lines = ndjson(auto.stdout);
    for (const line of lines) expect(v.parse(ClaudeOutputLine, line)).toEqual(line);
    expect(lines.map((l) => `${l.type}${l.subtype ? `/${l.subtype}` : ""}`)).toEqual([
      "system/init", "assistant", "user", "system/compact_boundary", "assistant", "result/success",
    ]);
    const [init, , , boundary] = lines;
    // What zot knew of the context before: the last call's count (input and output), and the tool result's estimate since.
    expect(boundary).toEqual({ type: "system", subtype: "compact_boundary", uuid: boundary.uuid, session_id: init.session_id, compact_metadata: { trigger: "auto", pre_tokens: boundary.compact_metadata.pre_tokens } });
    expect(boundary.compact_metadata.pre_tokens).toBeGreaterThan(180_020);
    expect(boundary.compact_metadata.pre_tokens).toBeLessThan(181_000);
    expect(boundary.uuid).toMatch(/^[0-9a-f-]{36}$/);

    const manual = await f.run([...anthropic(mock), "-p", "-c", "/compact", "--output-format", "stream-json", "--verbose"]);
    expect(manual.code).toBe(0);
    const compacted = ndjson(manual.stdout);
    expect(compacted.map((l) => `${l.type}${l.subtype ? `/${l.subtype}` : ""}`)).toEqual(["system/init", "system/compact_boundary", "result/success"]);
    expect(compacted[1].compact_metadata.trigger).toBe("manual");
    // A resumed session has made no call yet: the estimate of its transcript.
    expect(compacted[1].compact_metadata.pre_tokens).toBeGreaterThan(0);
    expect(compacted[1].session_id).toBe(init.session_id);
  } finally {
    await mock.stop();
  }
});

test("--include-partial-messages: stream_event lines as the model answers, then each whole message; it needs stream-json", async () => {
  const f = folder();
  const mock = startMockLlm(turns());
  try {
    const run = await f.run([...anthropic(mock), "-p", "make a file", "--output-format", "stream-json", "--verbose", "--include-partial-messages"]);
    expect(run.code).toBe(0);
    const lines = ndjson(run.stdout);
    // Every line is one of the shapes protocol/claude-output.ts defines, nothing more.
    for (const line of lines) expect(v.parse(ClaudeOutputLine, line)).toEqual(line);
    const kinds = lines.map((l) => (l.type === "stream_event" ? l.event.type : l.type));
    expect(kinds).toEqual([
      "system",
      "message_start", "content_block_start", "content_block_stop", "message_delta", "message_stop", "assistant",
      "user",
      "message_start", "content_block_start", ...kinds.filter((k) => k === "content_block_delta").map(() => "content_block_delta"), "content_block_stop", "message_delta", "message_stop", "assistant",
      "result",
    ]);
    const deltas = lines.filter((l) => l.type === "stream_event" && l.event.type === "content_block_delta").map((l) => l.event.delta.text);
    expect(deltas.join("")).toBe("Made the file.");
    expect(lines[2].event.content_block).toEqual({ type: "tool_use", id: "toolu_1", name: "Bash", input: {} });
    expect(lines[4].event).toEqual({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 30 } });
  } finally {
    await mock.stop();
  }
  const alone = await f.run(["-p", "hi", "--output-format", "json", "--include-partial-messages"]);
  expect(alone.code).toBe(2);
  expect(JSON.parse(alone.stdout).errors).toEqual([
    "--include-partial-messages goes with --output-format stream-json, as in Claude Code; --json streams zot's own events, every delta included",
  ]);
});

test("a call the run refused is in permission_denials, with the input as Claude Code names it", async () => {
  const f = folder();
  const mock = startMockLlm([{ tool_calls: [{ id: "toolu_1", name: "read", args: { path: ".env" } }, { id: "toolu_2", name: "bash", args: { command: "echo fine" } }] }, { text: "ok" }]);
  try {
    const run = await f.run([...anthropic(mock), "-p", "look", "--output-format", "json", "--no-session", "--disallowedTools", "Read(./.env)"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).permission_denials).toEqual([{ tool_name: "Read", tool_use_id: "toolu_1", tool_input: { file_path: join(f.cwd, ".env") } }]);
  } finally {
    await mock.stop();
  }
});

test("duration_api_ms counts the wait for the first byte, as Claude Code's does", async () => {
  const f = folder();
  const mock = startMockLlm([{ text: "slowish", delay_ms: 600 }]);
  try {
    const run = await f.run([...anthropic(mock), "-p", "x", "--output-format", "json"]);
    const result = JSON.parse(run.stdout);
    // The mock waits 600 ms before it answers: no call can take less.
    expect(result.duration_api_ms).toBeGreaterThanOrEqual(600);
    expect(result.duration_ms).toBeGreaterThanOrEqual(result.duration_api_ms);
  } finally {
    await mock.stop();
  }
});

test("no API key: a script reading --output-format gets an error result (exit 2), as from claude -p, not the demo's answer; plain -p keeps the demo", async () => {
  const f = folder();
  const message =
    "no API key found, and a script reading --output-format json does not get the built-in demo: set ANTHROPIC_API_KEY or OPENAI_API_KEY, pass --api-key or --provider ollama, or --provider scripted --script <file> to play turns";
  const json = await f.run(["-p", "fix the failing tests", "--output-format", "json"]);
  expect(json.code).toBe(2);
  expect(JSON.parse(json.stdout)).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true, errors: [message] });
  const stream = await f.run(["-p", "fix the failing tests", "--output-format", "stream-json"]);
  expect(stream.code).toBe(2);
  expect(JSON.parse(stream.stdout.trim().split("\n").at(-1) ?? "")).toMatchObject({ is_error: true, errors: [message.replace("json", "stream-json")] });
  const plain = await f.run(["-p", "what is here?"]);
  expect(plain.code).toBe(0);
  expect(plain.stderr).toContain("no API key found, so this is the built-in demo");
});

test("a run that fails before it starts still prints a result line (is_error, errors) with its exit code", async () => {
  const f = folder();
  const gone = await f.run(["-p", "-r", "20990101-000000-deadbeef", "go on", "--output-format", "json", "--provider", "anthropic", "--api-key", "k"]);
  expect(gone.code).toBe(2);
  const result = JSON.parse(gone.stdout);
  expect(result).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true, num_turns: 0 });
  expect(result.errors[0]).toContain("20990101-000000-deadbeef");
  expect(gone.stderr).toContain("20990101-000000-deadbeef");
  expect(v.parse(ClaudeOutputLine, result)).toEqual(result);
  // A flag zot cannot read: the line too.
  const unknown = await f.run(["-p", "go", "--output-format=json", "--fallback-model", "opus"]);
  expect(unknown.code).toBe(2);
  expect(JSON.parse(unknown.stdout)).toMatchObject({
    is_error: true,
    errors: ["--fallback-model is Claude Code's, and zot does not take it: zot retries a failed call on the same model; pick another with --model"],
  });
  // A name Object's prototype has is no Claude Code flag: an unknown flag, as any other.
  for (const name of ["constructor", "toString"]) {
    const own = await f.run(["-p", "go", `--${name}`]);
    expect(own.code).toBe(2);
    expect(own.stderr).toContain(`unknown flag "--${name}"`);
  }
  // --fork-session names the fork commands zot has.
  const fork = await f.run(["-p", "go", "--fork-session"]);
  expect(fork.code).toBe(2);
  expect(fork.stderr).toContain("zot sessions fork <id> [--at N], /session fork in the TUI, or fork_session over rpc");
  // A Claude Code session's id is not zot's: a usage error that says so, with the line.
  const claudes = await f.run(["-p", "--resume=3f2a9c1e-1234-4abc-9def-0123456789ab", "go on", "--output-format", "stream-json"]);
  expect(claudes.code).toBe(2);
  expect(JSON.parse(claudes.stdout).errors).toEqual([
    "-r 3f2a9c1e-1234-4abc-9def-0123456789ab is a Claude Code session's id; zot resumes its own sessions (zot sessions list shows them, as 20261123-032914-9f3c2a1b)",
  ]);
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

test("a client written for Claude Code (@instantlyeasy/claude-code-sdk-ts) runs zot in claude's place: its messages, tool calls and result", async () => {
  // The client looks for `claude` on PATH and runs `claude --output-format stream-json --verbose
  // --allowedTools … --print` with the prompt on stdin.
  const bin = tempDir("zot-cc-bin-");
  symlinkSync(ZOT, join(bin, "claude"));
  const cwd = tempDir("zot-cc-client-");
  const mock = startMockLlm([
    { tool_calls: [{ id: "toolu_1", name: "bash", args: { command: "echo made > made.txt" } }, { id: "toolu_2", name: "bash", args: { command: "touch refused.txt" } }] },
    { text: "Made it." },
  ]);
  try {
    const client = pathToFileURL(join(ROOT, "node_modules", "@instantlyeasy", "claude-code-sdk-ts", "dist", "index.js")).href;
    const script = `
      const { query } = await import(${JSON.stringify(client)});
      const seen = [];
      for await (const m of query("make a file", { allowedTools: ["Bash(echo *)"], cwd: process.cwd() })) seen.push(m);
      console.log(JSON.stringify(seen));`;
    const userHome = tempDir("zot-cc-user-");
    const proc = Bun.spawn(["node", "--input-type=module", "-e", script], {
      cwd,
      env: cleanEnv(tempDir("zot-cc-home-"), { PATH: `${bin}:${process.env.PATH}`, HOME: userHome, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: mock.url }),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const seen = JSON.parse(stdout);
    expect(seen.map((m: { type: string }) => m.type)).toEqual(["assistant", "assistant", "result"]);
    expect(seen[0].content.map((b: { name: string; input: unknown }) => [b.name, b.input])).toEqual([
      ["Bash", { command: "echo made > made.txt" }],
      ["Bash", { command: "touch refused.txt" }],
    ]);
    expect(seen[1].content).toEqual([{ type: "text", text: "Made it." }]);
    expect(seen[2]).toMatchObject({ subtype: "success", usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) } });
    expect(seen[2].session_id).toBe(seen[0].session_id);
    // Its --allowedTools held: the listed command ran, the other was refused.
    expect(readFileSync(join(cwd, "made.txt"), "utf8")).toBe("made\n");
    expect(existsSync(join(cwd, "refused.txt"))).toBe(false);
    // The prompt came on stdin.
    expect(mock.requests[0].body.messages[0].content.at(-1).text).toBe("make a file");
  } finally {
    await mock.stop();
  }
});
