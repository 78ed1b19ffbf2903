// `--input-format stream-json` driven by hand, a line at a time, as a program in any language
// drives it: what a bad line, an unknown request or a closed stdin does, through the compiled
// binary against the mock LLM. (test/e2e/claude-agent-sdk.test.ts drives it with Anthropic's SDK.)
import { expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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

/**
 * Every stdout line is one of the protocol's: a message of Claude Code's, or a control frame. The
 * session's states are checked (running as prompts are answered, idle at the end) and left out.
 */
function protocolLines(stdout: string) {
  const lines = ndjson(stdout);
  for (const line of lines) {
    const schema = line.type === "control_request" ? ClaudeControlRequest : line.type === "control_response" ? ClaudeControlResponse : ClaudeOutputLine;
    expect(v.parse(schema as v.GenericSchema, line)).toEqual(line);
  }
  const states = lines.filter((l) => l.subtype === "session_state_changed").map((l) => l.state);
  if (states.length > 0) {
    expect(states[0]).toBe("running");
    expect(states.at(-1)).toBe("idle");
  }
  return lines.filter((l) => l.subtype !== "session_state_changed");
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
        user([{ type: "text", text: "what is this?" }, { type: "image", source: { type: "base64", media_type: "image/svg+xml", data: Buffer.from("<svg/>").toString("base64") } }]),
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
    expect(results.map((r) => r.is_error)).toEqual([true, true, true, false]);
    expect(results[0].errors[0]).toStartWith("zot could not read this user message: line 4 (user) is not as Claude Code's protocol says at message.role");
    expect(results[1].errors).toEqual(['a user message\'s "document" block is not something zot takes as a prompt (text, and base64 images, are)']);
    // An image no model API takes would fail this prompt and every later one: refused before it is taken.
    expect(results[2].errors).toEqual([expect.stringContaining("a user message's image cannot be sent to the model: its type image/svg+xml is none the model APIs take")]);
    expect(results[3].result).toBe("Still here.");
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
    [[...STREAM, "--provider", "scripted"], "zot: --provider scripted plays turns from --script <file>; without one it is the built-in demo, which a program driving zot (--input-format stream-json) does not get"],
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
    // bypassPermissions: only the hook stands between the model and the call.
    const run = await zot([...anthropic(mock), ...STREAM, "--permission-mode", "bypassPermissions"], { cwd, stdin: input(request("i", { subtype: "initialize", hooks }), user("go")) });
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
    expect(responses.late).toEqual({ subtype: "error", request_id: "late", error: "zot takes initialize's hooks only before the first prompt or request; this run started without them" });
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
    const run = await zot([...anthropic(mock), ...STREAM, "--await-initialize", "--allowedTools", "mcp__odd"], {
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

/** zot in the mode as a live subprocess: lines are sent as they are needed, and read as they come. */
function drive(args: string[], cwd = tempDir("zot-cs-drive-")) {
  const proc = Bun.spawn([ZOT, ...STREAM, ...args], {
    cwd,
    env: cleanEnv(tempDir("zot-cs-drive-home-"), { HOME: tempDir("zot-cs-drive-user-") }),
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const all: any[] = [];
  return {
    cwd,
    all,
    send(...lines: string[]) {
      proc.stdin.write(input(...lines));
      proc.stdin.flush();
    },
    /** the next line that `wanted` accepts (the lines before it are kept in `all`) */
    async until(wanted: (line: any) => boolean): Promise<any> {
      for (;;) {
        const newline = buffered.indexOf("\n");
        if (newline >= 0) {
          const line = JSON.parse(buffered.slice(0, newline));
          buffered = buffered.slice(newline + 1);
          all.push(line);
          if (wanted(line)) return line;
          continue;
        }
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`zot's stdout ended; it wrote ${JSON.stringify(all)}`);
        buffered += decoder.decode(chunk.value, { stream: true });
      }
    },
    async end() {
      proc.stdin.end();
      return { code: await proc.exited, stderr: await new Response(proc.stderr).text() };
    },
  };
}

test("canUseTool's deny with interrupt ends that prompt, its other call unasked, never the prompt after it (no network to give a timer its chance)", async () => {
  const script = join(tempDir("zot-cs-script-"), "turns.json");
  writeFileSync(
    script,
    JSON.stringify([
      { tool_calls: [{ id: "t1", name: "bash", args: { command: "touch a.txt" } }, { id: "t2", name: "bash", args: { command: "touch b.txt" } }] },
      // The first prompt, interrupted, makes no second model call: the next turn is the second prompt's.
      { text: "Second answer." },
    ]),
  );
  const zot = drive(["--provider", "scripted", "--script", script, "--permission-prompt-tool", "stdio"]);
  zot.send(request("i", { subtype: "initialize" }), user("first"), user("second"));
  const asked = await zot.until((l) => l.type === "control_request");
  expect(asked.request).toMatchObject({ subtype: "can_use_tool", tool_name: "Bash", tool_use_id: "t1" });
  zot.send(JSON.stringify({ type: "control_response", response: { subtype: "success", request_id: asked.request_id, response: { behavior: "deny", message: "stop", interrupt: true } } }));
  const first = await zot.until((l) => l.type === "result");
  const second = await zot.until((l) => l.type === "result");
  const { code, stderr } = await zot.end();
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  expect(first).toMatchObject({ is_error: true, errors: ["stop"], permission_denials: [{ tool_name: "Bash", tool_use_id: "t1" }] });
  expect(second).toMatchObject({ is_error: false, result: "Second answer." });
  // Both calls of the first prompt have their result; the second was never put to the program.
  expect(zot.all.filter((l) => l.type === "user").map((l) => l.message.content[0].tool_use_id)).toEqual(["t1", "t2"]);
  expect(zot.all.filter((l) => l.type === "control_request")).toHaveLength(1);
  expect(existsSync(join(zot.cwd, "a.txt")) || existsSync(join(zot.cwd, "b.txt"))).toBe(false);
});

test("an initialize after a keep_alive or a line zot cannot read still configures the run; a truncated user line gets its result", async () => {
  const mock = startMockLlm([{ tool_calls: [{ id: "toolu_1", name: "bash", args: { command: "touch guarded.txt" } }] }, { text: "Refused." }]);
  const cwd = tempDir("zot-cs-late-init-");
  try {
    const hooks = { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["h0"] }] };
    const run = await zot([...anthropic(mock), ...STREAM, "--permission-mode", "bypassPermissions"], {
      cwd,
      stdin: input(JSON.stringify({ type: "keep_alive" }), "\uFEFFnot json", request("i", { subtype: "initialize", hooks }), '{"type":"user","message":{"role":"user","content":"cut sh', user("go")),
    });
    expect(run.code).toBe(0);
    const lines = protocolLines(run.stdout);
    expect(lines.find((l) => l.type === "control_response").response).toMatchObject({ subtype: "success", request_id: "i", response: { hooks_applied: true } });
    const results = lines.filter((l) => l.type === "result");
    expect(results[0]).toMatchObject({ is_error: true, errors: [expect.stringContaining("zot could not read this user message")] });
    // The hook registered, and the program (its stdin closed) cannot answer: the call it guards is refused.
    expect(results[1]).toMatchObject({ result: "Refused.", permission_denials: [{ tool_use_id: "toolu_1" }] });
    expect(existsSync(join(cwd, "guarded.txt"))).toBe(false);
  } finally {
    await mock.stop();
  }
});

test("stdin closed while the run starts, with a server the program hosts: zot does not wait out the server's start for an answer that cannot come", async () => {
  const mock = startMockLlm([{ text: "Without it." }]);
  try {
    const run = await zot([...anthropic(mock), ...STREAM], { stdin: input(request("i", { subtype: "initialize", sdkMcpServers: ["calc"] }), user("go")) });
    expect(run.code).toBe(0);
    const lines = protocolLines(run.stdout);
    expect(lines.find((l) => l.type === "system").mcp_servers).toEqual([{ name: "calc", status: "failed" }]);
    expect(lines.at(-1)).toMatchObject({ type: "result", result: "Without it." });
    expect(run.stderr).toContain('MCP server "calc"');
    expect(run.stderr).toContain("the program closed stdin");
  } finally {
    await mock.stop();
  }
}, 20_000);

test("set_permission_mode bypassPermissions is refused while a settings file's disableBypassPermissionsMode keeps confirmations on; default is answered", async () => {
  const mock = startMockLlm([]);
  try {
    const userHome = tempDir("zot-stream-user-");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(userHome, ".claude"), { recursive: true });
    writeFileSync(join(userHome, ".claude", "settings.json"), JSON.stringify({ permissions: { disableBypassPermissionsMode: "disable" } }));
    const run = await zot([...anthropic(mock), ...STREAM, "--permission-prompt-tool", "stdio"], {
      env: { HOME: userHome },
      stdin: input(request("p-1", { subtype: "set_permission_mode", mode: "bypassPermissions" }), request("p-2", { subtype: "set_permission_mode", mode: "default" })),
    });
    expect(run.code).toBe(0);
    const responses = Object.fromEntries(protocolLines(run.stdout).filter((l) => l.type === "control_response").map((l) => [l.response.request_id, l.response]));
    expect(responses["p-1"]).toMatchObject({ subtype: "error", error: expect.stringContaining('bypassPermissions is turned off: the permissions.disableBypassPermissionsMode "disable" of ~/.claude/settings.json keeps them on') });
    expect(responses["p-2"]).toMatchObject({ subtype: "success" });
  } finally {
    await mock.stop();
  }
});

test("a directory on stdin is said so (exit 2) before anything is read, not the system's EISDIR", async () => {
  const { cleanEnv, tempDir, ZOT } = await import("../support/zot.ts");
  const proc = Bun.spawn(["bash", "-c", `"$ZOT" -p ${STREAM.join(" ")} --provider anthropic --api-key k < "$DIR"; echo "rc=$?"`], {
    env: cleanEnv(tempDir("zot-stream-dir-home-"), { ZOT, DIR: tempDir("zot-stream-dir-") }),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  expect(stdout).toEndWith("rc=2\n");
  // The program reading the stream gets the sentence too, in its result.
  const result = JSON.parse(stdout.split("\n")[0]!);
  expect(result).toMatchObject({ type: "result", is_error: true, errors: [expect.stringContaining("and stdin is a directory; pipe them in")] });
  expect(stderr).toContain("--input-format stream-json reads its user messages from stdin, and stdin is a directory");
  expect(stderr + stdout).not.toContain("EISDIR");
});

/** zot in stream-json mode under a program that keeps stdin open and never answers a hook_callback. */
function silentProgram(mock: MockLlm, hooks: Record<string, unknown>) {
  const cwd = tempDir("zot-cs-silent-");
  const proc = Bun.spawn([ZOT, ...anthropic(mock), ...STREAM, "--permission-mode", "bypassPermissions"], {
    cwd,
    env: cleanEnv(tempDir("zot-cs-silent-home-")),
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const results: any[] = [];
  const seen: any[] = [];
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of proc.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let at: number;
      while ((at = buffer.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffer.slice(0, at));
        buffer = buffer.slice(at + 1);
        seen.push(line);
        if (line.type === "result") results.push(line);
      }
    }
  })();
  const send = (line: string) => proc.stdin.write(`${line}\n`);
  send(request("i", { subtype: "initialize", hooks }));
  return {
    proc,
    seen,
    cwd,
    async ask(text: string) {
      const count = results.length + 1;
      send(user(text));
      while (results.length < count) await Bun.sleep(20);
      return results.at(-1);
    },
    callbacks: () => seen.filter((l) => l.type === "control_request" && l.request.subtype === "hook_callback").map((l) => l.request.callback_id),
    async close() {
      proc.stdin.end();
      await reading;
      return proc.exited;
    },
  };
}

test("the program's UserPromptSubmit hook that does not answer within its timeout refuses the prompt, as Claude Code's: a policy gate does not fail open", async () => {
  const mock = startMockLlm([{ text: "never asked" }]);
  // A hook that never answers (the program keeps stdin open), with 1 s.
  const program = silentProgram(mock, { UserPromptSubmit: [{ hookCallbackIds: ["gate"], timeout: 1 }] });
  try {
    const result = await program.ask("first");
    expect(result).toMatchObject({ is_error: true });
    expect(JSON.stringify(result)).toContain("did not answer within 1 s, so the prompt is refused");
    // The model never saw the refused prompt.
    expect(mock.requests).toHaveLength(0);
    expect(program.callbacks()).toEqual(["gate"]);
    expect(await program.close()).toBe(0);
  } finally {
    program.proc.kill();
    await mock.stop();
  }
});

test("the program's PreToolUse hook that does not answer within its timeout refuses the call it guards, as Claude Code's", async () => {
  const mock = startMockLlm([{ tool_calls: [{ id: "toolu_1", name: "bash", args: { command: "touch unguarded.txt" } }] }, { text: "Refused." }]);
  const program = silentProgram(mock, { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["guard"], timeout: 1 }] });
  try {
    const result = await program.ask("go");
    expect(result).toMatchObject({ result: "Refused.", permission_denials: [{ tool_name: "Bash", tool_use_id: "toolu_1" }] });
    expect(existsSync(join(program.cwd, "unguarded.txt"))).toBe(false);
    expect(JSON.stringify(mock.requests[1].body.messages)).toContain("did not answer within 1 s, so the call is refused");
    expect(program.callbacks()).toEqual(["guard"]);
    expect(await program.close()).toBe(0);
  } finally {
    program.proc.kill();
    await mock.stop();
  }
});
