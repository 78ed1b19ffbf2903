// The Claude Agent SDK (@anthropic-ai/claude-agent-sdk, Anthropic's own) driving the compiled zot
// in Claude Code's place (`pathToClaudeCodeExecutable`), as a program written for it runs it: the
// SDK spawns `zot --output-format stream-json --verbose --input-format stream-json …`, sends its
// initialize and the prompts on stdin and reads Claude Code's messages back. It runs under node,
// as the SDK's users run it, against the mock LLM speaking the Anthropic wire format.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { cleanEnv, ROOT, tempDir, ZOT } from "../support/zot.ts";

const SDK = pathToFileURL(join(ROOT, "node_modules", "@anthropic-ai", "claude-agent-sdk", "sdk.mjs")).href;
/** zod, which the SDK's tool() takes schemas of (a peer dependency of the SDK's, here through the MCP SDK) */
const ZOD = pathToFileURL(Bun.resolveSync("zod", ROOT)).href;

interface SdkRun {
  code: number;
  stderr: string;
  /** what the script printed last on stdout, parsed */
  out: any;
}

/**
 * Runs `body` (an ES module's statements) under node with `query`, `tool`, `createSdkMcpServer` and
 * `options` (pathToClaudeCodeExecutable: zot, cwd) in scope; `out(value)` is what the test reads.
 */
async function runSdk(body: string, mock: MockLlm, cwd = tempDir("zot-asdk-cwd-")): Promise<SdkRun & { cwd: string }> {
  const script = `
    const { query, tool, createSdkMcpServer } = await import(${JSON.stringify(SDK)});
    const { z } = await import(${JSON.stringify(ZOD)});
    const options = { pathToClaudeCodeExecutable: ${JSON.stringify(ZOT)}, cwd: process.cwd() };
    const out = (value) => console.log(JSON.stringify(value));
    ${body}`;
  const proc = Bun.spawn(["node", "--input-type=module", "-e", script], {
    cwd,
    env: cleanEnv(tempDir("zot-asdk-home-"), { HOME: tempDir("zot-asdk-user-"), ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: mock.url }),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const last = stdout.trim().split("\n").at(-1) ?? "";
  let out: unknown;
  try {
    out = JSON.parse(last);
  } catch {
    out = stdout;
  }
  return { code, stderr, out, cwd };
}

const texts = (request: { body: any }) =>
  request.body.messages.flatMap((m: any) => (typeof m.content === "string" ? [m.content] : m.content.map((b: any) => b.text ?? (typeof b.content === "string" ? b.content : JSON.stringify(b.content ?? b.input)))));

describe("the Claude Agent SDK drives zot as claude", () => {
  test("query() with a prompt: Claude Code's init, assistant, tool result and result messages, and the tool really ran", async () => {
    const mock = startMockLlm([
      { tool_calls: [{ id: "toolu_1", name: "bash", args: { command: "echo made > made.txt && echo ok" } }], usage: { input: 100, output: 20, cache_read: 0, cache_write: 0 } },
      { text: "Made the file.", usage: { input: 150, output: 5, cache_read: 0, cache_write: 0 } },
    ]);
    try {
      const run = await runSdk(
        `const seen = [];
         for await (const m of query({ prompt: "make a file", options: { ...options, allowedTools: ["Bash"] } })) seen.push(m);
         out(seen);`,
        mock,
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      const seen = run.out as any[];
      // The session's state around the prompt: the SDK keeps its stdin open while it is not idle.
      expect(seen.map((m) => `${m.type}${m.subtype ? `/${m.subtype}` : ""}${m.state ? `/${m.state}` : ""}`)).toEqual([
        "system/init",
        "system/session_state_changed/running",
        "assistant",
        "user",
        "assistant",
        "result/success",
        "system/session_state_changed/idle",
      ]);
      seen.splice(1, 1);
      expect(seen[0]).toMatchObject({ cwd: run.cwd, model: "claude-sonnet-5-5", permissionMode: "default" });
      expect(seen[0].tools).toEqual(expect.arrayContaining(["Bash", "Read", "Edit", "Write"]));
      expect(seen[1].message.content).toEqual([{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "echo made > made.txt && echo ok" } }]);
      expect(seen[2].message.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1", content: expect.stringContaining("ok"), is_error: false });
      expect(seen[4]).toMatchObject({ result: "Made the file.", is_error: false, num_turns: 2, usage: { input_tokens: 250, output_tokens: 25 } });
      expect(seen[seen.length - 1]).toMatchObject({ subtype: "session_state_changed", state: "idle", session_id: seen[0].session_id });
      expect(seen[4].session_id).toBe(seen[0].session_id);
      expect(readFileSync(join(run.cwd, "made.txt"), "utf8")).toBe("made\n");
      expect(mock.requests[0].body.messages[0].content.at(-1).text).toBe("make a file");
      // zot's own system prompt: the SDK's default sends an empty one, which keeps it.
      expect(JSON.stringify(mock.requests[0].body.system)).toContain("zot");
    } finally {
      await mock.stop();
    }
  });

  test("streaming input: two prompts in one conversation, each with its result; the system prompt and its append from the SDK's options", async () => {
    const mock = startMockLlm([{ text: "First answer." }, { text: "Second answer." }]);
    try {
      const run = await runSdk(
        `let release;
         const firstDone = new Promise((resolve) => (release = resolve));
         async function* prompts() {
           yield { type: "user", message: { role: "user", content: "first question" }, parent_tool_use_id: null, session_id: "" };
           await firstDone;
           yield { type: "user", message: { role: "user", content: [{ type: "text", text: "second question" }] }, parent_tool_use_id: null, session_id: "" };
         }
         const seen = [];
         const q = query({ prompt: prompts(), options: { ...options, systemPrompt: "You are a terse helper." } });
         for await (const m of q) {
           seen.push(m);
           if (m.type === "result") {
             if (seen.filter((x) => x.type === "result").length === 1) release();
             else break;
           }
         }
         out(seen.filter((m) => m.type === "result").map((m) => m.result));`,
        mock,
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      expect(run.out).toEqual(["First answer.", "Second answer."]);
      expect(mock.requests).toHaveLength(2);
      expect(texts(mock.requests[1])).toEqual(["first question", "First answer.", "second question"]);
      // The SDK's systemPrompt replaces zot's own (its sections, the skills and the environment, follow).
      expect(mock.requests[0].body.system[0].text).toStartWith("You are a terse helper.\n\n");
    } finally {
      await mock.stop();
    }
  });

  test("a compaction between two prompts reaches the program as Claude Code's compact_boundary message (SDKCompactBoundaryMessage)", async () => {
    // The first call reports 90% of the window: before the second prompt's call, an automatic compaction.
    const mock = startMockLlm([{ text: "First answer.", usage: { input: 900_000, output: 20 } }, { text: "## Goal\nSUMMARY" }, { text: "Second answer." }]);
    try {
      const run = await runSdk(
        `let release;
         const firstDone = new Promise((resolve) => (release = resolve));
         async function* prompts() {
           yield { type: "user", message: { role: "user", content: "first question" }, parent_tool_use_id: null, session_id: "" };
           await firstDone;
           yield { type: "user", message: { role: "user", content: "second question" }, parent_tool_use_id: null, session_id: "" };
         }
         const seen = [];
         for await (const m of query({ prompt: prompts(), options })) {
           if (m.type !== "system" || m.subtype !== "session_state_changed") seen.push(m);
           if (m.type === "result") {
             if (seen.filter((x) => x.type === "result").length === 1) release();
             else break;
           }
         }
         out(seen);`,
        mock,
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      const seen = run.out as any[];
      expect(seen.map((m) => `${m.type}${m.subtype ? `/${m.subtype}` : ""}`)).toEqual([
        "system/init", "assistant", "result/success", "system/compact_boundary", "assistant", "result/success",
      ]);
      expect(seen[3]).toEqual({
        type: "system",
        subtype: "compact_boundary",
        uuid: expect.any(String),
        session_id: seen[0].session_id,
        compact_metadata: { trigger: "auto", pre_tokens: expect.any(Number) },
      });
      // The first call's count (input and output), and the second prompt's estimate since.
      expect(seen[3].compact_metadata.pre_tokens).toBeGreaterThan(900_020);
      expect(seen[3].compact_metadata.pre_tokens).toBeLessThan(900_200);
      expect(seen[5].result).toBe("Second answer.");
      expect(texts(mock.requests[2])[0]).toContain("SUMMARY");
    } finally {
      await mock.stop();
    }
  });

  test("canUseTool answers zot's confirmations: an allowed call runs, a denied one does not and the model reads why", async () => {
    const mock = startMockLlm([
      {
        tool_calls: [
          { id: "toolu_1", name: "bash", args: { command: "echo yes > allowed.txt" } },
          { id: "toolu_2", name: "bash", args: { command: "touch denied.txt" } },
        ],
      },
      { text: "Done." },
    ]);
    try {
      const run = await runSdk(
        `const asked = [];
         const canUseTool = async (name, input, { toolUseID }) => {
           asked.push([name, input, toolUseID]);
           return input.command.startsWith("echo") ? { behavior: "allow", updatedInput: input } : { behavior: "deny", message: "no touching" };
         };
         const seen = [];
         for await (const m of query({ prompt: "go", options: { ...options, canUseTool } })) seen.push(m);
         out({ asked, result: seen.findLast((m) => m.type === "result"), init: seen[0] });`,
        mock,
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      expect(run.out.asked).toEqual([
        ["Bash", { command: "echo yes > allowed.txt" }, "toolu_1"],
        ["Bash", { command: "touch denied.txt" }, "toolu_2"],
      ]);
      expect(run.out.init.permissionMode).toBe("default");
      expect(existsSync(join(run.cwd, "allowed.txt"))).toBe(true);
      expect(existsSync(join(run.cwd, "denied.txt"))).toBe(false);
      expect(run.out.result.permission_denials).toEqual([{ tool_name: "Bash", tool_use_id: "toolu_2", tool_input: { command: "touch denied.txt" } }]);
      expect(texts(mock.requests[1]).join("\n")).toContain("no touching");
    } finally {
      await mock.stop();
    }
  });

  test("a tool of the program's own MCP server (createSdkMcpServer) is offered to the model and answers through the SDK", async () => {
    const mock = startMockLlm([{ tool_calls: [{ id: "toolu_1", name: "mcp__calc__add", args: { a: 2, b: 40 } }] }, { text: "It is 42." }]);
    try {
      const run = await runSdk(
        `const calls = [];
         const calc = createSdkMcpServer({
           name: "calc",
           version: "1.0.0",
           tools: [tool("add", "Add two numbers", { a: z.number(), b: z.number() }, async ({ a, b }) => {
             calls.push([a, b]);
             return { content: [{ type: "text", text: String(a + b) }] };
           })],
         });
         const seen = [];
         for await (const m of query({ prompt: "add 2 and 40", options: { ...options, mcpServers: { calc }, allowedTools: ["mcp__calc__add"] } })) seen.push(m);
         out({ calls, init: seen[0], result: seen.findLast((m) => m.type === "result"), toolResult: seen.find((m) => m.type === "user") });`,
        mock,
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      expect(run.out.calls).toEqual([[2, 40]]);
      expect(run.out.init.tools).toContain("mcp__calc__add");
      expect(run.out.init.mcp_servers).toEqual([{ name: "calc", status: "connected" }]);
      expect(run.out.toolResult.message.content[0]).toMatchObject({ tool_use_id: "toolu_1", content: "42", is_error: false });
      expect(run.out.result.result).toBe("It is 42.");
      const offered = mock.requests[0].body.tools.find((t: { name: string }) => t.name === "mcp__calc__add");
      expect(offered).toMatchObject({ description: "Add two numbers", input_schema: { properties: { a: { type: "number" }, b: { type: "number" } } } });
    } finally {
      await mock.stop();
    }
  });

  test("the SDK's hooks run as callbacks: PreToolUse sees the call under Claude Code's names and its deny holds; PostToolUse sees the result", async () => {
    const mock = startMockLlm([
      {
        tool_calls: [
          { id: "toolu_1", name: "bash", args: { command: "echo kept > kept.txt" } },
          { id: "toolu_2", name: "bash", args: { command: "rm -rf precious" } },
        ],
      },
      { text: "Done." },
    ]);
    const cwd = tempDir("zot-asdk-hooks-");
    mkdirSync(join(cwd, "precious"));
    try {
      const run = await runSdk(
        `const seen = [];
         const hooks = {
           PreToolUse: [{ matcher: "Bash", hooks: [async (input, toolUseID) => {
             seen.push(["pre", input.hook_event_name, input.tool_name, input.tool_input.command, toolUseID]);
             return input.tool_input.command.startsWith("rm")
               ? { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "rm is not allowed here" } }
               : {};
           }] }],
           PostToolUse: [{ hooks: [async (input) => { seen.push(["post", input.tool_name, input.tool_input.command]); return {}; }] }],
         };
         const messages = [];
         // bypassPermissions: only the hook stands between the model and the calls.
         for await (const m of query({ prompt: "tidy up", options: { ...options, hooks, permissionMode: "bypassPermissions", allowDangerouslySkipPermissions: true } })) messages.push(m);
         out({ seen, result: messages.findLast((m) => m.type === "result") });`,
        mock,
        cwd,
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      expect(run.out.seen).toEqual([
        // zot runs a message's calls one after another: the first's PostToolUse before the second's PreToolUse.
        ["pre", "PreToolUse", "Bash", "echo kept > kept.txt", "toolu_1"],
        ["post", "Bash", "echo kept > kept.txt"],
        ["pre", "PreToolUse", "Bash", "rm -rf precious", "toolu_2"],
      ]);
      expect(existsSync(join(cwd, "kept.txt"))).toBe(true);
      expect(existsSync(join(cwd, "precious"))).toBe(true);
      expect(texts(mock.requests[1]).join("\n")).toContain("rm is not allowed here");
      expect(run.out.result.permission_denials.map((d: { tool_use_id: string }) => d.tool_use_id)).toEqual(["toolu_2"]);
    } finally {
      await mock.stop();
    }
  });

  test("interrupt() ends the running turn (a command that would run for a minute) with an error result, and the process exits", async () => {
    const mock = startMockLlm([
      {
        tool_calls: [
          { id: "toolu_1", name: "bash", args: { command: "sleep 60" } },
          { id: "toolu_2", name: "bash", args: { command: "sleep 61" } },
        ],
      },
      { text: "never" },
    ]);
    try {
      const run = await runSdk(
        `const q = query({ prompt: "wait", options: { ...options, allowedTools: ["Bash(sleep *)"] } });
         const seen = [];
         for await (const m of q) {
           seen.push(m);
           if (m.type === "assistant") setTimeout(() => q.interrupt(), 300);
         }
         out({ result: seen.findLast((m) => m.type === "result"), answered: seen.filter((m) => m.type === "user").map((m) => m.message.content[0].tool_use_id) });`,
        mock,
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      expect(run.out.result).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true });
      // The call the interrupt kept from running has its result too.
      expect(run.out.answered).toEqual(["toolu_1", "toolu_2"]);
      expect(mock.requests).toHaveLength(1);
    } finally {
      await mock.stop();
    }
  });

  test("includePartialMessages: the answer streams as stream_event lines (text deltas, a tool call's block) before each whole message", async () => {
    const mock = startMockLlm([
      { text: "Let me look.", tool_calls: [{ id: "toolu_1", name: "bash", args: { command: "echo hi" } }] },
      { text: "All done, it said hi." },
    ]);
    try {
      const run = await runSdk(
        `const seen = [];
         for await (const m of query({ prompt: "look", options: { ...options, includePartialMessages: true, allowedTools: ["Bash"] } })) seen.push(m);
         out(seen.map((m) => m.type === "stream_event" ? { type: m.type, event: m.event } : { type: m.type }));`,
        mock,
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      const seen = run.out as { type: string; event?: any }[];
      const events = seen.filter((m) => m.type === "stream_event").map((m) => m.event);
      expect(events.filter((e) => e.type === "message_start")).toHaveLength(2);
      const text = (call: number) => {
        const starts = events.map((e, i) => (e.type === "message_start" ? i : -1)).filter((i) => i >= 0);
        return events
          .slice(starts[call], starts[call + 1])
          .filter((e) => e.type === "content_block_delta" && e.delta.type === "text_delta")
          .map((e) => e.delta.text)
          .join("");
      };
      expect(text(0)).toBe("Let me look.");
      expect(text(1)).toBe("All done, it said hi.");
      expect(events.find((e) => e.type === "content_block_start" && e.content_block.type === "tool_use").content_block).toEqual({ type: "tool_use", id: "toolu_1", name: "Bash", input: {} });
      expect(events.filter((e) => e.type === "message_delta").map((e) => e.delta.stop_reason)).toEqual(["tool_use", "end_turn"]);
      // Each model call: its stream events, then the whole message.
      const kinds = seen.map((m) => (m.type === "stream_event" ? m.event.type : m.type));
      expect(kinds.indexOf("assistant")).toBeGreaterThan(kinds.indexOf("message_stop"));
      expect(kinds.filter((k) => k !== "system").at(-1)).toBe("result");
    } finally {
      await mock.stop();
    }
  });

  test("the SDK's common options reach zot as flags it takes: tools, effort, maxTurns, bypassPermissions with its leave, settingSources, persistSession", async () => {
    const mock = startMockLlm([{ tool_calls: [{ id: "toolu_1", name: "bash", args: { command: "echo one" } }] }, { text: "never asked" }]);
    try {
      const run = await runSdk(
        `const seen = [];
         const q = query({ prompt: "go", options: { ...options, tools: ["Bash"], effort: "max", maxTurns: 1, permissionMode: "bypassPermissions", allowDangerouslySkipPermissions: true, settingSources: ["project"], persistSession: false, thinking: { type: "adaptive" } } });
         for await (const m of q) seen.push(m);
         out({ init: seen[0], result: seen.findLast((m) => m.type === "result") });`,
        mock,
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      // No session recorded: the lines still carry an id (a UUID, not a zot session's), as Claude Code's do.
      expect(run.out.init).toMatchObject({ tools: ["Bash"], permissionMode: "bypassPermissions" });
      expect(run.out.init.session_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(run.out.result.session_id).toBe(run.out.init.session_id);
      expect(run.out.result).toMatchObject({ subtype: "error_max_turns", is_error: true, num_turns: 1 });
      expect(mock.requests).toHaveLength(1);
      expect(mock.requests[0].body.tools.map((t: { name: string }) => t.name)).toEqual(["bash"]);
      // effort reached the request: the default model (claude-sonnet-5-5) takes it as output_config.effort
      // (max as it is), its thinking adaptive, never a budget.
      expect(mock.requests[0].body.output_config).toEqual({ effort: "max" });
      expect(mock.requests[0].body.thinking).toMatchObject({ type: "adaptive" });
      expect(mock.requests[0].body.thinking.budget_tokens).toBeUndefined();
    } finally {
      await mock.stop();
    }
  });

  test("canUseTool's deny with interrupt ends the turn: the refusal is a permission denial, every tool_use gets its result, the result says the program's reason", async () => {
    const mock = startMockLlm([
      {
        tool_calls: [
          { id: "toolu_1", name: "bash", args: { command: "touch first.txt" } },
          { id: "toolu_2", name: "bash", args: { command: "touch second.txt" } },
        ],
      },
      { text: "never" },
    ]);
    try {
      const run = await runSdk(
        `const canUseTool = async () => ({ behavior: "deny", message: "stop everything", interrupt: true });
         const seen = [];
         for await (const m of query({ prompt: "go", options: { ...options, canUseTool } })) seen.push(m);
         out(seen);`,
        mock,
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      const seen = run.out as any[];
      const results = seen.filter((m) => m.type === "user").map((m) => m.message.content[0].tool_use_id);
      expect(results).toEqual(["toolu_1", "toolu_2"]);
      expect(seen.findLast((m) => m.type === "result")).toMatchObject({ type: "result", is_error: true, errors: ["stop everything"], permission_denials: [{ tool_name: "Bash", tool_use_id: "toolu_1" }] });
      expect(existsSync(join(run.cwd, "first.txt")) || existsSync(join(run.cwd, "second.txt"))).toBe(false);
      expect(mock.requests).toHaveLength(1);
    } finally {
      await mock.stop();
    }
  });

  test("with no permission mode and no canUseTool, zot is in Claude Code's default mode: a call no rule allows is refused, a read inside the folder runs", async () => {
    const mock = startMockLlm([
      {
        tool_calls: [
          { id: "toolu_1", name: "read", args: { path: "notes.txt" } },
          { id: "toolu_2", name: "bash", args: { command: "touch refused.txt" } },
        ],
      },
      { text: "Read it; could not touch." },
    ]);
    const cwd = tempDir("zot-asdk-default-");
    writeFileSync(join(cwd, "notes.txt"), "the notes\n");
    try {
      const run = await runSdk(
        `const seen = [];
         for await (const m of query({ prompt: "go", options })) seen.push(m);
         out({ init: seen[0], results: seen.filter((m) => m.type === "user").map((m) => m.message.content[0]), result: seen.findLast((m) => m.type === "result") });`,
        mock,
        cwd,
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      expect(run.out.init.permissionMode).toBe("default");
      expect(run.out.results[0]).toMatchObject({ tool_use_id: "toolu_1", is_error: false, content: expect.stringContaining("the notes") });
      expect(run.out.results[1]).toMatchObject({ tool_use_id: "toolu_2", is_error: true });
      expect(run.out.result.permission_denials).toEqual([{ tool_name: "Bash", tool_use_id: "toolu_2", tool_input: { command: "touch refused.txt" } }]);
      expect(existsSync(join(cwd, "refused.txt"))).toBe(false);
      expect(texts(mock.requests[1]).join("\n")).toContain("Claude Code's default permission mode");
    } finally {
      await mock.stop();
    }
  });

  test("streaming input with callbacks: the SDK keeps stdin open across the prompts (session_state_changed), so the second prompt's hook answers too", async () => {
    const mock = startMockLlm([
      { tool_calls: [{ id: "toolu_1", name: "bash", args: { command: "echo one" } }] },
      { text: "One." },
      { tool_calls: [{ id: "toolu_2", name: "bash", args: { command: "echo two" } }] },
      { text: "Two." },
    ]);
    try {
      const run = await runSdk(
        `const hooked = [];
         const hooks = {
           UserPromptSubmit: [{ hooks: [async (input) => { hooked.push(["prompt", input.prompt]); return {}; }] }],
           PreToolUse: [{ hooks: [async (input) => { hooked.push(["pre", input.tool_input.command]); return {}; }] }],
         };
         async function* prompts() {
           yield { type: "user", message: { role: "user", content: "first" }, parent_tool_use_id: null, session_id: "" };
           yield { type: "user", message: { role: "user", content: "second" }, parent_tool_use_id: null, session_id: "" };
         }
         const seen = [];
         for await (const m of query({ prompt: prompts(), options: { ...options, hooks, allowedTools: ["Bash"] } })) seen.push(m);
         out({ hooked, results: seen.filter((m) => m.type === "result").map((m) => m.result ?? m.errors), states: seen.filter((m) => m.subtype === "session_state_changed").map((m) => m.state) });`,
        mock,
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      expect(run.out.results).toEqual(["One.", "Two."]);
      expect(run.out.hooked).toEqual([
        ["prompt", "first"],
        ["pre", "echo one"],
        ["prompt", "second"],
        ["pre", "echo two"],
      ]);
    } finally {
      await mock.stop();
    }
  });

  test("a call an extension makes after the last prompt is put to canUseTool, and the session goes back to idle, so the SDK's query ends", async () => {
    const mock = startMockLlm([{ text: "Answered." }]);
    const dir = tempDir("zot-asdk-late-ext-");
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "late", version: "1.0.0", exec: "ext.ts" }));
    writeFileSync(
      join(dir, "ext.ts"),
      `import { extension } from "@zot/sdk";
       const ext = extension({ name: "late", version: "1.0.0" });
       ext.on("turn_end", () => setTimeout(() => ext.callTool("bash", { command: "touch late.txt" }).catch(() => {}), 300));
       await ext.run();`,
    );
    try {
      const run = await runSdk(
        `const asked = [];
         const canUseTool = async (name, input) => { asked.push([name, input.command]); return { behavior: "deny", message: "not now" }; };
         let seenResult;
         const resultSeen = new Promise((resolve) => (seenResult = resolve));
         async function* prompts() {
           yield { type: "user", message: { role: "user", content: "hello" }, parent_tool_use_id: null, session_id: "" };
           await resultSeen;
           await new Promise((resolve) => setTimeout(resolve, 1500));
         }
         const states = [];
         for await (const m of query({ prompt: prompts(), options: { ...options, canUseTool, extraArgs: { ext: ${JSON.stringify(dir)} } } })) {
           if (m.type === "result") seenResult();
           if (m.subtype === "session_state_changed") states.push(m.state);
         }
         out({ asked, states });`,
        mock,
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      expect(run.out.asked).toEqual([["Bash", "touch late.txt"]]);
      expect(run.out.states).toEqual(["running", "idle", "requires_action", "idle"]);
    } finally {
      await mock.stop();
    }
  });
});
