// A user asks a question and gets an answer: -p and --json against the mock LLM, in every
// provider's real wire format, through the compiled binary.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionDir } from "../../src/session/paths.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { cleanEnv, ndjson, tempDir, ZOT, zot } from "../support/zot.ts";
import { PtySession } from "../support/pty.ts";

let mock: MockLlm;
afterEach(() => mock?.stop());

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "sk-test", "--base-url", m.url];

describe("an answer", () => {
  test("-p prints the final answer on stdout and nothing else", async () => {
    mock = startMockLlm([{ text: "The answer is **42**.\n\nSecond paragraph." }]);
    const run = await zot(["-p", "what", "is", "the", "answer?", ...anthropic(mock)]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The answer is **42**.\n\nSecond paragraph.\n");
    const body = mock.requests[0].body;
    expect(body.stream).toBe(true);
    expect(body.messages.at(-1).content.at(-1).text).toBe("what is the answer?");
  });

  test("--json that cannot start still writes a line a script can read: error (not_started), then done", async () => {
    // No API key anywhere: the exit code and the stderr sentence of any start-up failure, and the
    // same sentence as the stream's error.
    const keyless = await zot(["--json", "hi", "--provider", "anthropic"]);
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain("no API key for anthropic");
    const events = ndjson(keyless.stdout);
    expect(events.map((e) => e.type)).toEqual(["error", "done"]);
    expect(events[0].code).toBe("not_started");
    expect(keyless.stderr).toContain(events[0].message);
    // A flag zot cannot read, and a session that is not there.
    const flag = await zot(["--json", "hi", "--fallback-model", "opus"]);
    expect(ndjson(flag.stdout)[0]).toMatchObject({ type: "error", code: "not_started", message: expect.stringContaining("--fallback-model") });
    const gone = await zot(["--json", "go on", "--session", "20990101-000000-deadbeef", "--provider", "scripted"]);
    expect(gone.code).not.toBe(0);
    expect(ndjson(gone.stdout)[0]).toMatchObject({ type: "error", code: "not_started", message: expect.stringContaining("20990101-000000-deadbeef") });
    // After `--` the word is the prompt's, not a flag: -p prints no event lines.
    const printed = await zot(["-p", "--provider", "anthropic", "--", "--json"]);
    expect(printed.code).toBe(2);
    expect(printed.stdout).toBe("");
  });

  test("--json streams the event union, one object per line, ending with done", async () => {
    mock = startMockLlm([{ text: "Hello from the mock, streamed in pieces.", usage: { input: 120, output: 30, cache_read: 50, cache_write: 10 } }]);
    const run = await zot(["--json", "hi", ...anthropic(mock), "--model", "claude-sonnet-4-5"]);
    expect(run.code).toBe(0);
    const events = ndjson(run.stdout);
    const kinds = events.map((e) => e.type).filter((t) => t !== "text_delta");
    expect(kinds).toEqual(["session", "user_message", "turn_start", "assistant_start", "usage", "assistant_message", "turn_end", "done"]);
    const deltas = events.filter((e) => e.type === "text_delta");
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.map((e) => e.delta).join("")).toBe("Hello from the mock, streamed in pieces.");
    const usage = events.find((e) => e.type === "usage");
    expect(usage).toMatchObject({ input: 120, output: 30, cache_read: 50, cache_write: 10 });
    // claude-sonnet-4-5: $3 in, $15 out, $0.30 cache read, $3.75 cache write per million
    expect(usage.cost_usd).toBeCloseTo((120 * 3 + 30 * 15 + 50 * 0.3 + 10 * 3.75) / 1e6, 12);
    expect(usage.cumulative).toMatchObject({ input: 120, output: 30 });
    expect(events.find((e) => e.type === "turn_end")).toEqual({ type: "turn_end", stop: "end_turn" });
    expect(events.find((e) => e.type === "user_message").content).toEqual([{ type: "text", text: "hi" }]);
  });

  // The mock sends 64-byte pieces without pause, so each read of the response completes hundreds of
  // events: batches that cross from text into a tool call, and from one turn's end to the next.
  test.each([
    ["anthropic", (m: MockLlm) => anthropic(m)],
    ["openai chat", (m: MockLlm) => ["--provider", "openai", "--model", "gpt-4.1", "--api-key", "k", "--base-url", `${m.url}/v1`]],
  ])("--json (%s): an answer of thousands of one-character deltas around a tool call: every event once, in order, and the session records it all", async (_wire, provider) => {
    const first = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");
    const second = Array.from({ length: 1000 }, (_, i) => String(i % 10)).join("");
    mock = startMockLlm([
      { text: first, chunk_size: 1, tool_calls: [{ id: "call_1", name: "bash", args: { command: "echo tool-ran" } }] },
      { text: second, chunk_size: 1 },
    ]);
    const home = tempDir("zot-batch-home-");
    const cwd = tempDir("zot-batch-cwd-");
    const run = await zot(["--json", "go", ...provider(mock)], { home, cwd });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const events = ndjson(run.stdout);
    // Each delta its own line: none dropped, none merged, none moved.
    const deltas = events.filter((e) => e.type === "text_delta").map((e) => e.delta);
    expect(deltas).toEqual([...first, ...second]);
    const kinds: string[] = [];
    for (const e of events) if (e.type !== "text_delta" || kinds.at(-1) !== "text_delta") kinds.push(e.type);
    const args = events.filter((e) => e.type === "tool_use_args");
    expect(args.map((e) => e.delta).join("")).toBe(JSON.stringify({ command: "echo tool-ran" }));
    expect(kinds).toEqual([
      "session", "user_message", "turn_start", "assistant_start", "text_delta", "tool_use_start",
      ...args.map(() => "tool_use_args"), "tool_use_end", "usage", "assistant_message", "tool_call", "turn_end",
      "tool_progress", "tool_result", "turn_start", "assistant_start", "text_delta", "usage", "assistant_message", "turn_end", "done",
    ]);

    // The session has every record: both answers whole, the call and its result, each call's usage.
    const dir = sessionDir(home, cwd);
    const [file] = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
    const records = ndjson(readFileSync(join(dir, file!), "utf8"));
    expect(records.map((r) => (r.type === "message" ? r.message.role : r.type))).toEqual(["session", "user", "usage", "assistant", "tool_result", "usage", "assistant"]);
    const messages = records.filter((r) => r.type === "message").map((r) => r.message);
    expect(messages[1].content).toEqual([{ type: "text", text: first }, { type: "tool_call", id: "call_1", name: "bash", args: { command: "echo tool-ran" } }]);
    expect(records.find((r) => r.type === "tool_result").result).toMatchObject({ call_id: "call_1", is_error: false });
    expect(messages[2].content).toEqual([{ type: "text", text: second }]);
  });

  test("--json: a bash command past its timeout ends as status timed_out, as the README says", async () => {
    mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: "sleep 20", timeout: 0.3 } }] }, { text: "gave up" }]);
    const run = await zot(["--json", "wait for it", ...anthropic(mock)], { cwd: tempDir("zot-cwd-") });
    expect(run.code).toBe(0);
    const result = ndjson(run.stdout).find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ name: "bash", is_error: true, status: "timed_out" });
  });

  test("--json whose reader goes away (| head -n1) stops at once, exit 0: the tool is cut short and no further model call is made", async () => {
    mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: "sleep 30" } }] }, { text: "never read" }]);
    const proc = Bun.spawn([ZOT, "--json", "go", ...anthropic(mock)], { cwd: tempDir("zot-cwd-"), env: cleanEnv(tempDir("zot-home-")), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const reader = proc.stdout.getReader();
    await reader.read();
    await Bun.sleep(300);
    await reader.cancel();
    const code = await Promise.race([proc.exited, Bun.sleep(10_000).then(() => "still running")]);
    if (code === "still running") proc.kill();
    expect(code).toBe(0);
    expect(mock.requests).toHaveLength(1);
  });

  test("-p: an answer the output limit cut is printed, and said on stderr so a script can tell", async () => {
    mock = startMockLlm([{ text: "the first half of", stop: "length" }]);
    const run = await zot(["-p", "tell me everything", ...anthropic(mock)], { cwd: tempDir("zot-cwd-") });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("the first half of\n");
    expect(run.stderr).toMatch(/zot: the answer was cut off at \S+'s output limit \(\d+ tokens\)/);
  });

  test("-p: an answer that says nothing is said on stderr, not left as a silent success", async () => {
    mock = startMockLlm([{ text: "" }, { text: "Something." }]);
    const run = await zot(["-p", "anything?", ...anthropic(mock)], { cwd: tempDir("zot-cwd-") });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("zot: the model returned an empty answer (no text, no tool call)");
    const spoke = await zot(["-p", "anything?", ...anthropic(mock)], { cwd: tempDir("zot-cwd-") });
    expect(spoke.stderr).not.toContain("empty answer");
  });

  test("-p: the cut note names the model a command's model: chose, and offers zot -c only when there is a session to continue it", async () => {
    mock = startMockLlm([{ text: "half", stop: "length" }, { text: "half again", stop: "length" }]);
    const cwd = tempDir("zot-cwd-");
    mkdirSync(join(cwd, ".claude", "commands"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "commands", "quick.md"), "---\nmodel: haiku\n---\nGlance at $ARGUMENTS.\n");
    const lent = await zot(["-p", "/quick notes", ...anthropic(mock), "--model", "sonnet"], { cwd });
    expect(lent.code).toBe(0);
    expect(mock.requests[0]!.body.model).toBe("claude-haiku-5-5");
    expect(lent.stderr).toContain("zot: the answer was cut off at claude-haiku-5-5's output limit (128000 tokens); ask for less, or continue with zot -c");
    const unrecorded = await zot(["-p", "tell me everything", ...anthropic(mock), "--no-session"], { cwd });
    expect(unrecorded.code).toBe(0);
    expect(unrecorded.stderr).toContain("zot: the answer was cut off at claude-sonnet-5-5's output limit (128000 tokens); ask for less (this run kept no session, so zot -c cannot continue it)");
    expect(unrecorded.stderr).not.toContain("continue with zot -c");
  });

  test("a models.json server of its own gets its own key (pi's provider-level baseUrl, apiKey and cost), never the provider's", async () => {
    mock = startMockLlm([{ text: "from my server" }, { text: "from openai" }]);
    const home = tempDir("zot-home-");
    writeFileSync(
      join(home, "models.json"),
      JSON.stringify({ providers: { openai: { baseUrl: `${mock.url}/v1`, apiKey: "MY_SERVER_KEY", models: [{ id: "my-model", cost: { input: 1, output: 2 } }] } } }),
    );
    const env = { OPENAI_API_KEY: "sk-openai-secret", MY_SERVER_KEY: "sk-my-server" };
    const own = await zot(["-p", "hi", "--provider", "openai", "--model", "my-model"], { home, env });
    expect(own.stdout).toBe("from my server\n");
    expect(mock.requests[0]!.headers.authorization).toBe("Bearer sk-my-server");
    // A model with no key of its own still gets the provider's.
    const plain = await zot(["-p", "hi", "--provider", "openai", "--model", "gpt-4.1", "--base-url", `${mock.url}/v1`], { home, env });
    expect(plain.stdout).toBe("from openai\n");
    expect(mock.requests[1]!.headers.authorization).toBe("Bearer sk-openai-secret");
    // The table a person reads (a terminal) shows the prices pi's cost gave.
    const listed = new PtySession([ZOT, "--list-models"], { cols: 200, rows: 80, env: { ...cleanEnv(home), ...env } });
    expect(await listed.proc.exited).toBe(0);
    expect(listed.output).toMatch(/openai\s+my-model\s+.*1\.00\s+2\.00\s+user/);
  });

  test("openai: Chat Completions for gpt-4.1 through --base-url", async () => {
    mock = startMockLlm([{ text: "chat says hi" }]);
    const run = await zot(["-p", "hi", "--provider", "openai", "--model", "gpt-4.1", "--api-key", "sk-o", "--base-url", `${mock.url}/v1`]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("chat says hi\n");
    expect(mock.requests[0].path).toBe("/v1/chat/completions");
    expect(mock.requests[0].headers.authorization).toBe("Bearer sk-o");
  });

  test("openai: the Responses API for reasoning models (the default, gpt-6.1-sol)", async () => {
    mock = startMockLlm([{ thinking: "let me think", text: "responses says hi" }]);
    const run = await zot(["-p", "hi", "--provider", "openai", "--api-key", "sk-o", "--base-url", `${mock.url}/v1`, "--reasoning", "high"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("responses says hi\n");
    expect(mock.requests[0].path).toBe("/v1/responses");
    expect(mock.requests[0].body.model).toBe("gpt-6.1-sol");
    expect(mock.requests[0].body.reasoning.effort).toBe("high");
  });

  test("ollama: any OpenAI-compatible server, no key needed", async () => {
    mock = startMockLlm([{ text: "llama here" }]);
    const run = await zot(["-p", "hi", "--provider", "ollama", "--model", "llama3.2", "--base-url", `${mock.url}/v1`]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("llama here\n");
    expect(mock.requests[0].body.model).toBe("llama3.2");
  });

  test("the prompt can come on stdin", async () => {
    mock = startMockLlm([{ text: "got it" }]);
    const run = await zot(["-p", ...anthropic(mock)], { stdin: "summarise this\n" });
    expect(run.stdout).toBe("got it\n");
    expect(mock.requests[0].body.messages[0].content.at(-1).text).toBe("summarise this");
  });

  test("with no key and no provider, the built-in demo runs a real tool in the cwd", async () => {
    const cwd = (await import("../support/zot.ts")).tempDir("zot-demo-");
    await Bun.write(`${cwd}/hello-from-demo.txt`, "x");
    const run = await zot(["-p", "what is in this directory?"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("built-in demo");
    expect(run.stdout).toContain("hello-from-demo.txt");
    // the listing as a person would see it: without the bash tool's status line
    expect(run.stdout).not.toMatch(/\[exit \d+\]/);
  });
});
