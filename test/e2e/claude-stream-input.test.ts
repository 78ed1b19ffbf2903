// `--input-format stream-json` driven by hand, a line at a time, as a program in any language
// drives it: what a bad line, an unknown request or a closed stdin does, through the compiled
// binary against the mock LLM. (test/e2e/claude-agent-sdk.test.ts drives it with Anthropic's SDK.)
import { expect, test } from "bun:test";
import * as v from "valibot";
import { ClaudeControlRequest, ClaudeControlResponse } from "../../src/protocol/claude-control.ts";
import { ClaudeOutputLine } from "../../src/protocol/claude-output.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";

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
    expect(results.map((r) => r.is_error)).toEqual([true, false]);
    expect(results[0].errors).toEqual(['a user message\'s "document" block is not something zot takes as a prompt (text, and base64 images, are)']);
    expect(results[1].result).toBe("Still here.");
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
