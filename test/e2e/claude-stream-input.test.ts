// `--input-format stream-json` driven by hand, a line at a time, as a program in any language
// drives it: what a bad line, an unknown request or a closed stdin does, through the compiled
// binary against the mock LLM. (test/e2e/claude-agent-sdk.test.ts drives it with Anthropic's SDK.)
import { expect, test } from "bun:test";
import * as v from "valibot";
import { ClaudeControlRequest, ClaudeControlResponse } from "../../src/protocol/claude-control.ts";
import { ClaudeOutputLine } from "../../src/protocol/claude-output.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { cleanEnv, ndjson, ROOT, tempDir, ZOT, zot } from "../support/zot.ts";

const MISBEHAVING = `${ROOT}/test/fixtures/mcp/misbehaving-server.mjs`;

const STREAM = ["--input-format", "stream-json", "--output-format", "stream-json", "--verbose"];
const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];
const user = (content: unknown) => JSON.stringify({ type: "user", message: { role: "user", content }, parent_tool_use_id: null, session_id: "" });
const request = (id: string, body: Record<string, unknown>) => JSON.stringify({ type: "control_request", request_id: id, request: body });
const input = (...lines: string[]) => `${lines.join("\n")}\n`;

/** Every stdout line is one of the protocol's: a message of Claude Code's, or a control frame. */
function protocolLines(stdout: string) {
  const lines = ndjson(stdout);
  for (const line of lines) {
    const schema = line.type === "control_request" ? ClaudeControlRequest : line.type === "control_response" ? ClaudeControlResponse : ClaudeOutputLine;
    expect(v.safeParse(schema, line).success).toBe(true);
  }
  return lines;
}

test("bad lines are said on stderr and skipped, an unknown request gets an error response, a block zot cannot take gets an error result; the rest is answered", async () => {
  const mock = startMockLlm([{ text: "Still here." }]);
  try {
    const run = await zot([...anthropic(mock), ...STREAM], {
      stdin: input(
        request("init-1", { subtype: "initialize", systemPrompt: [""] }),
        "this is not JSON",
        JSON.stringify({ type: "bogus" }),
        JSON.stringify({ type: "user", message: { role: "assistant", content: "x" } }),
        request("r-2", { subtype: "rewind_files" }),
        request("r-3", { subtype: "set_model", model: "no-such-model" }),
        request("r-4", { subtype: "mcp_status" }),
        JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: "never-asked", response: {} } }),
        user([{ type: "document", source: { type: "text", data: "x" } }]),
        user("are you there?"),
      ),
    });
    expect(run.code).toBe(0);
    const lines = protocolLines(run.stdout);
    const responses = Object.fromEntries(lines.filter((l) => l.type === "control_response").map((l) => [l.response.request_id, l.response]));
    expect(responses["init-1"]).toMatchObject({ subtype: "success", response: { output_style: "default", account: {} } });
    expect(responses["init-1"].response.models.map((m: { value: string }) => m.value)).toContain("claude-sonnet-4-5");
    expect(responses["r-2"]).toEqual({
      subtype: "error",
      request_id: "r-2",
      error: 'zot does not serve "rewind_files"; it serves initialize, interrupt, set_model, set_permission_mode, mcp_status, mcp_reconnect',
    });
    expect(responses["r-3"]).toMatchObject({ subtype: "error", error: expect.stringContaining("no-such-model") });
    expect(responses["r-4"]).toEqual({ subtype: "success", request_id: "r-4", response: { mcpServers: [] } });
    const results = lines.filter((l) => l.type === "result");
    // Each user message gets its result, in order: one zot could not read, one it cannot take, one answered.
    expect(results.map((r) => r.is_error)).toEqual([true, true, false]);
    expect(results[0].errors[0]).toStartWith("zot could not read this user message: line 4 (user) is not as Claude Code's protocol says at message.role");
    expect(results[1].errors).toEqual(['a user message\'s "document" block is not something zot takes as a prompt (text, and base64 images, are)']);
    expect(results[2].result).toBe("Still here.");
    expect(mock.requests).toHaveLength(1);
    expect(run.stderr).toContain("zot: stream-json: line 2 is not JSON");
    expect(run.stderr).toContain('zot: stream-json: line 3 has type "bogus"; zot reads user, control_request, control_response, control_cancel_request and keep_alive lines; skipped');
    expect(run.stderr).toContain("zot: stream-json: line 4 (user) is not as Claude Code's protocol says at message.role");
    expect(run.stderr).toContain('a control_response for "never-asked", which no request of zot\'s waits for; ignored');
  } finally {
    await mock.stop();
  }
});

test("without an initialize the first line is a prompt; a prompt's image goes to the model; stdin's end is the end", async () => {
  const mock = startMockLlm([{ text: "A red dot." }]);
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
  try {
    const run = await zot([...anthropic(mock), ...STREAM], {
      stdin: input(user([{ type: "text", text: "what is this?" }, { type: "image", source: { type: "base64", media_type: "image/png", data: png } }])),
    });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
    const lines = protocolLines(run.stdout);
    expect(lines.map((l) => l.type)).toEqual(["system", "assistant", "result"]);
    const sent = mock.requests[0].body.messages[0].content;
    expect(sent.find((b: { type: string }) => b.type === "image").source).toEqual({ type: "base64", media_type: "image/png", data: png });
    expect(sent.find((b: { type: string }) => b.type === "text").text).toContain("what is this?");
  } finally {
    await mock.stop();
  }
});

test("stdin closed while a call waits for can_use_tool: the call is refused, the prompt still gets its result", async () => {
  const mock = startMockLlm([{ tool_calls: [{ id: "toolu_1", name: "bash", args: { command: "touch never.txt" } }] }, { text: "Could not." }]);
  const cwd = tempDir("zot-cs-closed-");
  try {
    const run = await zot([...anthropic(mock), ...STREAM, "--permission-prompt-tool", "stdio"], { cwd, stdin: input(request("i", { subtype: "initialize" }), user("make it")) });
    expect(run.code).toBe(0);
    const lines = protocolLines(run.stdout);
    // The question went out (or was not asked at all once stdin had closed); either way the call did not run.
    expect(lines.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "Could not.", permission_denials: [{ tool_name: "Bash", tool_use_id: "toolu_1" }] });
    expect(JSON.stringify(mock.requests[1].body.messages)).toContain("the program closed stdin");
    expect(await Bun.file(`${cwd}/never.txt`).exists()).toBe(false);
  } finally {
    await mock.stop();
  }
});

test("the mode's flags: stream-json out, no prompt on the command line, stdio the one prompt tool; --permission-prompt-tool needs the mode", async () => {
  const home = tempDir("zot-cs-flags-");
  const cases: [string[], string][] = [
    [["--input-format", "stream-json"], "zot: --input-format stream-json needs --output-format stream-json, as in Claude Code: the answers are its messages, one per line"],
    [[...STREAM, "hello"], 'zot: --input-format stream-json takes its prompts on stdin as user messages, not "hello" on the command line'],
    [[...STREAM, "--permission-prompt-tool", "mcp__auth__approve"], "zot: --permission-prompt-tool mcp__auth__approve: zot asks the program driving it (stdio, the Claude Agent SDK's canUseTool); an MCP tool cannot answer zot's confirmations"],
    [["-p", "hi", "--permission-prompt-tool", "stdio"], "zot: --permission-prompt-tool goes with --input-format stream-json (the program driving zot answers); in the TUI zot asks you, and over rpc a client that sends hello with confirm: true answers"],
  ];
  for (const [args, message] of cases) {
    const run = await zot(args, { home, stdin: "" });
    expect({ args, code: run.code, stderr: run.stderr.trim().split("\n")[0] }).toEqual({ args, code: 2, stderr: message });
  }
});

test("once stdin closed, the program's PreToolUse hook can no longer answer: the call it guards is refused, not let through", async () => {
  const mock = startMockLlm([{ tool_calls: [{ id: "toolu_1", name: "bash", args: { command: "touch unguarded.txt" } }] }, { text: "Refused." }]);
  const cwd = tempDir("zot-cs-gone-");
  try {
    const hooks = { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["h0"] }], PostToolUse: [{ hookCallbackIds: ["h1"] }] };
    const run = await zot([...anthropic(mock), ...STREAM], { cwd, stdin: input(request("i", { subtype: "initialize", hooks }), user("go")) });
    expect(run.code).toBe(0);
    expect(await Bun.file(`${cwd}/unguarded.txt`).exists()).toBe(false);
    expect(protocolLines(run.stdout).at(-1)).toMatchObject({ type: "result", result: "Refused.", permission_denials: [{ tool_name: "Bash", tool_use_id: "toolu_1" }] });
    expect(JSON.stringify(mock.requests[1].body.messages)).toContain("the program whose PreToolUse hook guards this cannot answer (the program closed stdin)");
    // Its other hooks do nothing then, without a word.
    expect(run.stderr).toBe("");
  } finally {
    await mock.stop();
  }
});

test("an initialize after the run started cannot configure it: one with hooks is refused, a bare one is answered", async () => {
  const mock = startMockLlm([{ text: "One." }]);
  try {
    const run = await zot([...anthropic(mock), ...STREAM], {
      stdin: input(user("one"), request("late", { subtype: "initialize", hooks: { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["h0"] }] } }), request("bare", { subtype: "initialize" })),
    });
    expect(run.code).toBe(0);
    const responses = Object.fromEntries(protocolLines(run.stdout).filter((l) => l.type === "control_response").map((l) => [l.response.request_id, l.response]));
    expect(responses.late).toEqual({ subtype: "error", request_id: "late", error: "zot takes initialize's hooks only as the first line, before any prompt; this run started without them" });
    expect(responses.bare.subtype).toBe("success");
  } finally {
    await mock.stop();
  }
});

test("no API key: a program gets an error, not the demo's answer; a failed start exits though the program keeps stdin open", async () => {
  const proc = Bun.spawn([ZOT, ...STREAM], {
    cwd: tempDir("zot-cs-nokey-"),
    env: cleanEnv(tempDir("zot-cs-nokey-home-"), { HOME: tempDir("zot-cs-nokey-user-") }),
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  proc.stdin.write(`${request("i", { subtype: "initialize" })}\n${user("hello")}\n`);
  proc.stdin.flush();
  // stdin stays open: zot must still exit.
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  proc.stdin.end();
  expect(code).toBe(2);
  const lines = protocolLines(stdout);
  const message =
    "no API key found, and a program driving zot (--input-format stream-json) does not get the built-in demo: set ANTHROPIC_API_KEY or OPENAI_API_KEY, pass --api-key or --provider ollama, or --provider scripted --script <file> to play turns";
  expect(lines[0]).toEqual({ type: "control_response", response: { subtype: "error", request_id: "i", error: message } });
  expect(lines[1]).toMatchObject({ type: "result", is_error: true, errors: [message] });
  expect(stderr).toContain(message);
});

test("the program's subagents are said to be not run; its MCP servers sent in initialize start as --mcp-config's", async () => {
  const mock = startMockLlm([{ tool_calls: [{ id: "toolu_1", name: "mcp__odd__ok", args: { text: "hi" } }] }, { text: "Done." }]);
  try {
    const servers = { odd: { command: "node", args: [MISBEHAVING] } };
    const run = await zot([...anthropic(mock), ...STREAM, "--await-initialize"], {
      stdin: input(request("i", { subtype: "initialize", mcpServers: servers, agents: { reviewer: { description: "reviews", prompt: "review" } } }), user("go")),
    });
    expect(run.code).toBe(0);
    const lines = protocolLines(run.stdout);
    expect(lines[0].response).toMatchObject({ subtype: "success", response: { mcp_servers_applied: true } });
    expect(lines.find((l) => l.type === "system").mcp_servers).toEqual([{ name: "odd", status: "connected" }]);
    expect(lines.find((l) => l.type === "user").message.content[0]).toMatchObject({ tool_use_id: "toolu_1", content: "ok: hi", is_error: false });
    expect(run.stderr).toContain("zot: the program's subagents (reviewer) are not run: zot has no subagents");
  } finally {
    await mock.stop();
  }
});
