// The extension SDK (src/sdk/extension.ts) as an extension author meets it: small extensions in
// test/fixtures/sdk/ run as real `bun` child processes, and this file plays zot on their stdio.
// Rule: assert whole frames, so a field the SDK should not send fails the test as surely as a
// missing one; and every frame must pass the host's own schemas (test/support/wire-child.ts).
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PANEL_KEYS } from "../../src/protocol/ext-frames.ts";
import * as sdk from "../../src/sdk/extension.ts";
import { type Frame, helloAck, WireChild } from "../support/wire-child.ts";

const ROOT = join(import.meta.dir, "..", "..");
const FIXTURES = join(ROOT, "test", "fixtures", "sdk");
const SDK_FILE = join(ROOT, "src", "sdk", "extension.ts");

const children: WireChild[] = [];

function start(fixture: string): WireChild {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.BUN_BE_BUN;
  const child = new WireChild([process.execPath, join(FIXTURES, fixture)], { cwd: FIXTURES, env });
  children.push(child);
  return child;
}

/** Starts the full fixture, reads its handshake, and sends hello_ack. */
async function connected(): Promise<WireChild> {
  const child = start("full.ts");
  // Take the whole handshake, so next() starts with what the test provokes.
  while ((await child.next()).message !== "queued before run");
  child.send(helloAck());
  return child;
}

afterEach(() => {
  for (const child of children.splice(0)) {
    expect(child.badLines).toEqual([]);
    child.kill();
  }
});

describe("handshake", () => {
  test("hello, registrations in order, subscribe with only what has handlers, ready, then what was queued", async () => {
    const child = start("full.ts");
    const frames: Frame[] = [];
    for (let i = 0; i < 21; i++) frames.push(await child.next());

    expect(frames[0]).toEqual({ type: "hello", name: "fixture", version: "1.2.3", capabilities: ["commands", "tools", "events", "tool_cancel", "call_tool"] });
    expect(frames.slice(1, 13)).toEqual(
      [
        ["disp", "display the args"],
        ["ask", "prompt with the args"],
        ["ins", "insert text"],
        ["nop", "do nothing"],
        ["err", "fail"],
        ["str", "return a plain string"],
        ["void", "return nothing"],
        ["throw", "throw"],
        ["slow", "answer after 300 ms"],
        ["host", "show hello_ack"],
        ["stray", "print to stdout by mistake"],
        ["notes", "notify then clear"],
      ].map(([name, description]) => ({ type: "register_command", name, description })),
    );
    const empty = { type: "object", properties: {} };
    expect(frames.slice(13, 18)).toEqual([
      {
        type: "register_tool",
        name: "weather",
        description: "Current weather for a city.",
        schema: {
          type: "object",
          properties: { city: { type: "string" }, days: { type: "integer" }, unit: { type: "string", enum: ["c", "f"] } },
          required: ["city"],
        },
      },
      { type: "register_tool", name: "blocks", description: "text and an image", schema: empty },
      { type: "register_tool", name: "fails", description: "throws", schema: empty },
      { type: "register_tool", name: "errres", description: "error result", schema: empty },
      { type: "register_tool", name: "slowtool", description: "answers after 300 ms", schema: empty },
    ]);
    // Events in the protocol's order (not the order of on() calls); no turn_start intercept: none registered.
    expect(frames[18]).toEqual({ type: "subscribe", events: ["turn_start", "tool_call", "turn_end"], intercept: ["tool_call", "assistant_message"] });
    expect(frames[19]).toEqual({ type: "ready" });
    // notify() before run() waits until the handshake is out: hello must be the first frame.
    expect(frames[20]).toEqual({ type: "notify", level: "info", message: "queued before run" });
  });

  test("an extension with only a turn_start interceptor subscribes to that intercept and no events", async () => {
    const child = start("turn-gate.ts");
    expect(await child.next()).toEqual({ type: "hello", name: "turn-gate", version: "0.0.0", capabilities: ["events", "tool_cancel", "call_tool"] });
    expect(await child.next()).toEqual({ type: "subscribe", intercept: ["turn_start"] });
    expect(await child.next()).toEqual({ type: "ready" });
  });

  test("an extension with nothing to observe sends no subscribe frame", async () => {
    const child = start("bare.ts");
    expect(await child.next()).toEqual({ type: "hello", name: "bare", version: "0.1.0", capabilities: ["commands", "tool_cancel", "call_tool"] });
    expect(await child.next()).toEqual({ type: "register_command", name: "hi", description: "say hi" });
    expect(await child.next()).toEqual({ type: "ready" });
    child.send(helloAck());
    child.send({ type: "command_invoked", id: 1, name: "hi", args: "there" });
    expect(await child.next()).toEqual({ type: "command_response", id: 1, action: "display", display: "hi there" });
  });
});

describe("commands", () => {
  test("each helper becomes its command_response", async () => {
    const child = await connected();
    const cases: [string, string | undefined, Frame][] = [
      ["disp", "a  b", { action: "display", display: "echo:a  b" }],
      ["ask", "x", { action: "prompt", prompt: "p:x" }],
      ["ins", undefined, { action: "insert", insert: "inserted" }],
      ["nop", undefined, { action: "noop" }],
      // error() goes out as noop + error, the form every zot host understands.
      ["err", undefined, { action: "noop", error: "bad thing" }],
      ["str", undefined, { action: "display", display: "plain string" }],
      ["void", undefined, { action: "noop" }],
      ["throw", undefined, { action: "noop", error: "kaboom" }],
      ["missing", undefined, { action: "noop", error: "no handler for /missing" }],
    ];
    cases.forEach(([name, args], i) => child.send({ type: "command_invoked", id: `c${i}`, name, ...(args === undefined ? {} : { args }) }));
    for (const [i, [, , expected]] of cases.entries()) {
      expect(await child.reply(`c${i}`)).toEqual({ type: "command_response", id: `c${i}`, ...expected });
    }
    await child.stderrContaining("kaboom");
  });

  test("the handler's context carries the id and hello_ack, the same as ext.host", async () => {
    const child = await connected();
    child.send({ type: "command_invoked", id: 42, name: "host" });
    const reply = await child.reply(42);
    const { type: _type, ...host } = helloAck();
    expect(JSON.parse(String(reply.display))).toEqual({ host, same: true, id: 42 });
  });

  test("ids are echoed exactly: numbers as numbers, strings as strings", async () => {
    const child = await connected();
    child.send({ type: "command_invoked", id: 7, name: "nop" });
    child.send({ type: "command_invoked", id: "7", name: "nop" });
    child.send({ type: "command_invoked", id: "007", name: "nop" });
    child.send({ type: "tool_call", id: 0, name: "errres", args: {} });
    child.send({ type: "event_intercept", id: 12.5, event: "turn_start", step: 1 });
    expect((await child.reply(7)).id).toBe(7);
    expect((await child.reply("7")).id).toBe("7");
    expect((await child.reply("007")).id).toBe("007");
    expect((await child.reply(0)).id).toBe(0);
    expect((await child.reply(12.5)).id).toBe(12.5);
  });

  test("a slow command does not hold up the next one", async () => {
    const child = await connected();
    child.send({ type: "command_invoked", id: "slow", name: "slow" });
    child.send({ type: "command_invoked", id: "fast", name: "disp", args: "quick" });
    child.send({ type: "tool_call", id: "slowtool", name: "slowtool", args: {} });
    child.send({ type: "tool_call", id: "fasttool", name: "weather", args: { city: "Oslo" } });
    child.send({ type: "event_intercept", id: "gate", event: "tool_call", tool_name: "read", tool_args: {} });
    const order: unknown[] = [];
    for (let i = 0; i < 5; i++) order.push((await child.take((frame) => frame.id !== undefined)).id);
    expect(order.slice(0, 3).sort()).toEqual(["fast", "fasttool", "gate"]);
    expect(order.slice(3).sort()).toEqual(["slow", "slowtool"]);
  });

  test("console.log inside a handler goes to stderr, never onto the wire", async () => {
    const child = await connected();
    child.send({ type: "command_invoked", id: 1, name: "stray" });
    expect(await child.reply(1)).toEqual({ type: "command_response", id: 1, action: "display", display: "ok" });
    await child.stderrContaining("stray output that must not reach stdout");
  });

  test("notify and clearNotes go out as they are called, before the command's reply", async () => {
    const child = await connected();
    child.send({ type: "command_invoked", id: 1, name: "notes" });
    expect(await child.next()).toEqual({ type: "notify", level: "warn", message: "careful" });
    expect(await child.next()).toEqual({ type: "clear_notes" });
    expect(await child.next()).toEqual({ type: "command_response", id: 1, action: "noop" });
  });
});

describe("tools", () => {
  const result = (id: number, text: string, isError = false): Frame => ({
    type: "tool_result",
    id,
    content: [{ type: "text", text }],
    ...(isError ? { is_error: true } : {}),
  });

  test("strings, blocks, error results, thrown errors and unknown tools", async () => {
    const child = await connected();
    child.send({ type: "tool_call", id: 1, name: "weather", args: { city: "Berlin", days: 3 } });
    child.send({ type: "tool_call", id: 2, name: "blocks", args: {} });
    child.send({ type: "tool_call", id: 3, name: "fails", args: {} });
    child.send({ type: "tool_call", id: 4, name: "errres", args: {} });
    child.send({ type: "tool_call", id: 5, name: "ghost", args: {} });
    expect(await child.reply(1)).toEqual(result(1, "Berlin: 16°C for 3 days"));
    expect(await child.reply(2)).toEqual({
      type: "tool_result",
      id: 2,
      content: [
        { type: "text", text: "a chart:" },
        { type: "image", mime_type: "image/png", data: "aGk=" },
      ],
    });
    expect(await child.reply(3)).toEqual(result(3, "tool exploded", true));
    expect(await child.reply(4)).toEqual(result(4, "nope", true));
    expect(await child.reply(5)).toEqual(result(5, 'no handler for tool "ghost"', true));
  });

  test("arguments are checked against the schema before the handler runs", async () => {
    const child = await connected();
    child.send({ type: "tool_call", id: 1, name: "weather", args: { days: 3 } });
    child.send({ type: "tool_call", id: 2, name: "weather", args: { city: 5 } });
    child.send({ type: "tool_call", id: 3, name: "weather", args: { city: "Rome", days: 2.5 } });
    child.send({ type: "tool_call", id: 4, name: "weather", args: { city: "Rome", unit: "k" } });
    child.send({ type: "tool_call", id: 5, name: "weather", args: { city: "Rome", days: null, unit: "f" } });
    expect(await child.reply(1)).toEqual(result(1, 'weather: argument "city" is required (string); call the tool again with it', true));
    expect(await child.reply(2)).toEqual(result(2, 'weather: argument "city" must be a string, not number 5', true));
    expect(await child.reply(3)).toEqual(result(3, 'weather: argument "days" must be an integer, not number 2.5', true));
    expect(await child.reply(4)).toEqual(result(4, 'weather: argument "unit" must be one of "c", "f", not "k"', true));
    // An optional argument sent as null counts as absent, as the handler's type says.
    expect(await child.reply(5)).toEqual(result(5, "Rome: 16°C (61°F)"));
  });
});

describe("interception", () => {
  const intercept = (id: number | string, fields: Frame): Frame => ({ type: "event_intercept", id, ...fields });
  const answer = (id: number | string, fields: Frame = {}): Frame => ({ type: "event_intercept_response", id, ...fields });

  test("tool_call: block, rewritten args folded through two interceptors, respond, allow", async () => {
    const child = await connected();
    child.send(intercept(1, { event: "tool_call", tool_id: "t1", tool_name: "bash", tool_args: { command: "rm -rf / --no-preserve-root" } }));
    child.send(intercept(2, { event: "tool_call", tool_id: "t2", tool_name: "bash", tool_args: { command: "ls" } }));
    child.send(intercept(3, { event: "tool_call", tool_id: "t3", tool_name: "cached", tool_args: {} }));
    child.send(intercept(4, { event: "tool_call", tool_id: "t4", tool_name: "cached_err", tool_args: {} }));
    child.send(intercept(5, { event: "tool_call", tool_id: "t5", tool_name: "read", tool_args: { path: "x" } }));
    expect(await child.reply(1)).toEqual(answer(1, { block: true, reason: "refusing rm -rf /" }));
    expect(await child.reply(2)).toEqual(answer(2, { modified_args: { command: "set -o pipefail; ls", seen: true } }));
    expect(await child.reply(3)).toEqual(answer(3, { respond: { content: [{ type: "text", text: "from cache" }] } }));
    expect(await child.reply(4)).toEqual(answer(4, { respond: { content: [{ type: "text", text: "cached failure" }], is_error: true } }));
    expect(await child.reply(5)).toEqual(answer(5));
  });

  test("tool_call: the interceptor learns which extension asked for the call (origin_extension)", async () => {
    const child = await connected();
    child.send(intercept(1, { event: "tool_call", tool_id: "rogue/1", tool_name: "read", tool_args: { path: "x" }, origin_extension: "rogue" }));
    child.send(intercept(2, { event: "tool_call", tool_id: "t2", tool_name: "read", tool_args: { path: "x" } }));
    expect(await child.reply(1)).toEqual(answer(1, { block: true, reason: "calls asked for by rogue are refused" }));
    expect(await child.reply(2)).toEqual(answer(2));
  });

  test("an interceptor that throws answers allow and logs the error", async () => {
    const child = await connected();
    child.send(intercept("x", { event: "tool_call", tool_id: "t", tool_name: "explode", tool_args: {} }));
    child.send(intercept("y", { event: "assistant_message", text: "THROW" }));
    expect(await child.reply("x")).toEqual(answer("x"));
    expect(await child.reply("y")).toEqual(answer("y"));
    await child.stderrContaining("interceptor bug");
    await child.stderrContaining("assistant interceptor bug");
  });

  test("assistant_message: block, replace_text only when the text changed", async () => {
    const child = await connected();
    child.send(intercept(1, { event: "assistant_message", text: "please HIDE this" }));
    child.send(intercept(2, { event: "assistant_message", text: "the key is sk-abc123XYZ" }));
    child.send(intercept(3, { event: "assistant_message", text: "nothing secret" }));
    expect(await child.reply(1)).toEqual(answer(1, { block: true }));
    expect(await child.reply(2)).toEqual(answer(2, { replace_text: "the key is [redacted]" }));
    expect(await child.reply(3)).toEqual(answer(3));
  });

  test("an intercept nobody registered for still gets exactly one allow", async () => {
    const child = await connected();
    child.send(intercept(1, { event: "turn_start", step: 1 }));
    child.send(intercept(2, { event: "something_new" }));
    expect(await child.reply(1)).toEqual(answer(1));
    expect(await child.reply(2)).toEqual(answer(2));
    await Bun.sleep(50);
    expect(child.untaken()).toEqual([]);
  });

  test("turn_start: block with a reason, allow otherwise", async () => {
    const child = start("turn-gate.ts");
    await child.take((frame) => frame.type === "ready");
    child.send(helloAck());
    child.send(intercept(1, { event: "turn_start", step: 1 }));
    child.send(intercept(2, { event: "turn_start", step: 3 }));
    expect(await child.reply(1)).toEqual(answer(1));
    expect(await child.reply(2)).toEqual(answer(2, { block: true, reason: "step 3 is past the limit of 2" }));
  });
});

describe("events", () => {
  test("handlers get typed payloads, one at a time in arrival order; unsubscribed events are ignored", async () => {
    const child = await connected();
    child.send({ type: "event", event: "session_start" });
    child.send({ type: "event", event: "turn_start", step: 1 });
    child.send({ type: "event", event: "tool_call", tool_id: "t1", tool_name: "bash", tool_args: { command: "ls" } });
    child.send({ type: "event", event: "turn_end", stop: "error", error: "boom" });
    child.send({ type: "event", event: "turn_end", stop: "end" });
    const messages: unknown[] = [];
    for (let i = 0; i < 4; i++) messages.push((await child.take((frame) => frame.type === "notify")).message);
    // turn_start's handler sleeps 50 ms; the later events still wait their turn.
    expect(messages).toEqual(["turn_start step=1", 'tool_call bash {"command":"ls"}', "turn_end stop=error error=boom", "turn_end stop=end error=-"]);
  });
});

describe("lifecycle", () => {
  test("a line that is not JSON is skipped and the extension carries on", async () => {
    const child = await connected();
    child.send("this is not json");
    child.send("[1,2,3]");
    child.send({ type: "command_invoked", id: 1, name: "disp", args: "still here" });
    expect(await child.reply(1)).toEqual({ type: "command_response", id: 1, action: "display", display: "echo:still here" });
    await child.stderrContaining("not JSON");
  });

  test("shutdown: shutdown_ack is the last frame, then the process exits 0", async () => {
    const child = await connected();
    child.send({ type: "command_invoked", id: 1, name: "nop" });
    await child.reply(1);
    child.send({ type: "shutdown" });
    expect(await child.next()).toEqual({ type: "shutdown_ack" });
    expect(await child.exited).toBe(0);
    await child.stdoutClosed();
    expect(child.untaken()).toEqual([]);
  });

  test("replies still running at shutdown are dropped: shutdown_ack stays the last frame", async () => {
    const child = await connected();
    child.send({ type: "command_invoked", id: "late", name: "slow" });
    child.send({ type: "shutdown" });
    expect(await child.next()).toEqual({ type: "shutdown_ack" });
    expect(await child.exited).toBe(0);
    await child.stdoutClosed();
    expect(child.untaken()).toEqual([]);
  });

  test("closing stdin ends the extension with exit code 0, after running handlers finish", async () => {
    const child = await connected();
    child.send({ type: "command_invoked", id: "late", name: "slow" });
    await Bun.sleep(20);
    child.closeStdin();
    expect(await child.exited).toBe(0);
    await child.stdoutClosed();
    expect(child.frames.at(-1)).toEqual({ type: "command_response", id: "late", action: "display", display: "slow done" });
  });
});

describe("the SDK source", () => {
  const source = readFileSync(SDK_FILE, "utf8");

  test("imports nothing: it is copied out of the binary and must run from a bare directory", () => {
    expect(source).not.toMatch(/^\s*import\s/m);
    expect(source).not.toMatch(/\brequire\(/);
    expect(source).not.toMatch(/^\s*export\s+[^;]*\bfrom\s+["']/m);
  });

  test("documents every export", () => {
    const lines = source.split("\n");
    const undocumented = lines
      .map((line, i) => ({ line, i }))
      .filter(({ line }) => /^export /.test(line))
      .filter(({ i }) => {
        let j = i - 1;
        while (j >= 0 && lines[j]!.trim() === "") j--;
        return !lines[j]!.trimEnd().endsWith("*/");
      })
      .map(({ line }) => line);
    expect(undocumented).toEqual([]);
  });
});

describe("host services", () => {
  async function services(ack = helloAck()): Promise<WireChild> {
    const child = start("services.ts");
    while ((await child.next()).type !== "ready");
    child.send(ack);
    return child;
  }

  test("registration: the extra tool fields as the protocol names them; before_agent_start is subscribed", async () => {
    const child = start("services.ts");
    const frames: Frame[] = [];
    for (let frame = await child.next(); frame.type !== "ready"; frame = await child.next()) frames.push(frame);
    expect(frames[0].capabilities).toEqual(["commands", "tools", "events", "tool_cancel", "call_tool"]);
    const tools = frames.filter((f) => f.type === "register_tool");
    const empty = { type: "object", properties: {} };
    expect(tools).toEqual([
      {
        type: "register_tool",
        name: "deep",
        description: "deferred",
        schema: empty,
        exposure: "deferred",
        output_schema: { type: "object" },
        namespace: "deepns",
        namespace_description: "all things deep",
        namespace_instructions: "search first",
        replay: "idempotent",
      },
      { type: "register_tool", name: "coded", description: "codemode only", schema: empty, exposure: "codemode" },
      { type: "register_tool", name: "waiter", description: "waits for a person", schema: empty, interactive: true },
      { type: "register_tool", name: "nested", description: "calls read under its call", schema: empty },
    ]);
    expect(frames.find((f) => f.type === "subscribe")).toEqual({ type: "subscribe", intercept: ["before_agent_start"] });
  });

  test("a result's activate_tools, structured_content and markdown blocks reach zot", async () => {
    const child = await services();
    child.send({ type: "tool_call", id: "1", name: "deep", args: {} });
    expect(await child.reply("1")).toEqual({
      type: "tool_result",
      id: "1",
      content: [{ type: "text", text: "**deep**", format: "markdown" }],
      activate_tools: ["other"],
      structured_content: { depth: 1 },
    });
  });

  test("tool_cancel aborts the handler's signal, and the result it returns after that is not sent", async () => {
    const child = await services();
    child.send({ type: "tool_call", id: "7", name: "waiter", args: {} });
    child.send({ type: "tool_cancel", id: "7" });
    expect((await child.take((f) => f.type === "notify")).message).toBe("waiter 7 cancelled");
    child.send({ type: "command_invoked", id: "after", name: "peek", args: "a.md" });
    await child.reply("after");
    expect(child.untaken().filter((f) => f.id === "7")).toEqual([]);
  });

  test("ctx.callTool sends call_tool with the handled call as parent_id; zot's tool_result resolves it", async () => {
    const child = await services();
    child.send({ type: "tool_call", id: "9", name: "nested", args: {} });
    const asked = await child.take((f) => f.type === "call_tool");
    expect(asked).toEqual({ type: "call_tool", id: "call-1", name: "read", args: { path: "x" }, parent_id: "9" });
    child.send({ type: "tool_result", id: "call-1", name: "read", content: [{ type: "text", text: "hi" }], truncated: true });
    expect((await child.reply("9")).content).toEqual([
      { type: "text", text: 'nested got {"name":"read","content":[{"type":"text","text":"hi"}],"is_error":false,"truncated":true}' },
    ]);
  });

  test("ext.callTool from a command has no parent; aborting its signal sends call_tool_cancel; without the capability it rejects", async () => {
    const child = await services();
    child.send({ type: "command_invoked", id: "c", name: "call", args: "b.md" });
    const asked = await child.take((f) => f.type === "call_tool");
    expect(asked).toEqual({ type: "call_tool", id: "call-1", name: "read", args: { path: "b.md" } });
    child.send({ type: "tool_result", id: "call-1", name: "read", content: [], is_error: true });
    expect((await child.reply("c")).display).toBe('{"name":"read","content":[],"is_error":true,"truncated":false}');
    child.send({ type: "command_invoked", id: "d", name: "cancelled" });
    const second = await child.take((f) => f.type === "call_tool");
    expect(await child.take((f) => f.type === "call_tool_cancel")).toEqual({ type: "call_tool_cancel", id: second.id });
    child.send({ type: "tool_result", id: second.id, name: "read", content: [{ type: "text", text: "call_tool read: cancelled by call_tool_cancel" }], is_error: true });
    expect(String((await child.reply("d")).display)).toContain("cancelled by call_tool_cancel");

    const old = await services(helloAck({ capabilities: ["commands", "tools"] }));
    old.send({ type: "command_invoked", id: "e", name: "nocall" });
    expect(await old.reply("e")).toMatchObject({ action: "noop", error: 'callTool("read"): this zot does not offer call_tool (hello_ack.capabilities); update zot' });
  });

  test("toolPrompt answers tool_prompt, and refuses an empty tool name; interceptBeforeAgentStart chains, and nothing keeps the prompt", async () => {
    const child = await services();
    child.send({ type: "command_invoked", id: "1", name: "peek", args: "a.md" });
    expect(await child.reply("1")).toEqual({ type: "command_response", id: "1", action: "tool_prompt", prompt: "Summarize a.md", tool_name: "read", tool_args: { path: "a.md" } });
    child.send({ type: "command_invoked", id: "2", name: "badpeek" });
    expect(await child.reply("2")).toMatchObject({ error: "toolPrompt: the tool name is empty" });
    const ask = (id: string, prompt: string) => ({ type: "event_intercept", id, event: "before_agent_start", system_prompt: prompt, model: "m1", provider: "p", cwd: "/", session_id: "s", agent_run_id: "r" });
    child.send(ask("3", "base"));
    expect(await child.reply("3")).toEqual({ type: "event_intercept_response", id: "3", system_prompt: "base +one(m1) +two" });
    child.send(ask("4", "keep"));
    expect(await child.reply("4")).toEqual({ type: "event_intercept_response", id: "4", system_prompt: "keep +one(m1)" });
  });
});

describe("panels and input", () => {
  async function panels(): Promise<WireChild> {
    const child = start("panels.ts");
    while ((await child.next()).type !== "ready");
    child.send(helloAck());
    return child;
  }
  const render = (panel_id: string, fields: Frame): Frame => ({ type: "panel_render", panel_id, ...fields });
  const todo = (cursor: number, footer: string) => ({
    title: "Todo",
    lines: ["buy milk", "write tests"].map((item, i) => `${i === cursor ? "›" : " "} ${item}`),
    footer,
  });

  test("the SDK's panel keys are the protocol's", () => {
    expect([...sdk.PANEL_KEYS]).toEqual([...PANEL_KEYS]);
  });

  test("a command answers openPanel: command_response with action open_panel and the panel", async () => {
    const child = await panels();
    child.send({ type: "command_invoked", id: "1", name: "todo" });
    expect(await child.reply("1")).toEqual({
      type: "command_response",
      id: "1",
      action: "open_panel",
      open_panel: { id: "todo", ...todo(0, "s submit · h help · q close") },
    });
    // Written by hand, as JavaScript may: it goes out as the same frame.
    child.send({ type: "command_invoked", id: "2", name: "handmade" });
    expect(await child.reply("2")).toEqual({ type: "command_response", id: "2", action: "open_panel", open_panel: { id: "hand", lines: ["a"] } });
  });

  test("a panel without an id, a line that is no string, an unknown action or an array fails the command, saying what it was", async () => {
    const child = await panels();
    const asked: [string, string][] = [
      ["nameless", "openPanel: a panel needs an id, a non-empty string (not string \"\")"],
      ["badlines", "openPanel: the panel's lines must be strings; line 1 is number 2"],
      ["shout", '/shout answered the unknown action "shout"; a command returns display(…), prompt(…), insert(…), openPanel(…), toolPrompt(…), noop(), error(…), a string or nothing'],
      ["blocks", "/blocks answered an array; a command returns display(…), prompt(…), insert(…), openPanel(…), toolPrompt(…), noop(), error(…), a string or nothing"],
    ];
    asked.forEach(([name], i) => child.send({ type: "command_invoked", id: `c${i}`, name }));
    for (const [i, [, message]] of asked.entries()) {
      expect(await child.reply(`c${i}`)).toEqual({ type: "command_response", id: `c${i}`, action: "noop", error: message });
    }
  });

  test("at any time: a tool opens, redraws and closes a panel, in order, before its result", async () => {
    const child = await panels();
    child.send({ type: "tool_call", id: "t", name: "flash", args: {} });
    expect(await child.next()).toEqual({ type: "open_panel", panel: { id: "flash", title: "Flash", lines: ["one"] } });
    expect(await child.next()).toEqual(render("flash", { lines: ["two"] }));
    expect(await child.next()).toEqual({ type: "panel_close", panel_id: "flash" });
    expect(await child.next()).toEqual({ type: "tool_result", id: "t", content: [{ type: "text", text: "flashed" }] });
  });

  test("keys reach onPanelKey one at a time, in the order pressed; a handler that throws is logged and the next key still handled", async () => {
    const child = await panels();
    child.send({ type: "panel_key", panel_id: "todo", key: "down" });
    child.send({ type: "panel_key", panel_id: "todo", key: "up" });
    child.send({ type: "panel_key", panel_id: "todo", key: "rune", text: "!" });
    child.send({ type: "panel_key", panel_id: "todo", key: "rune", text: "é" });
    expect(await child.next()).toEqual(render("todo", todo(1, "down")));
    // "up" sleeps before it redraws; "é" still comes after it.
    expect(await child.next()).toEqual(render("todo", todo(0, "up")));
    expect(await child.next()).toEqual(render("todo", todo(0, "rune é")));
    await child.stderrContaining("a panel_key handler threw");
    await child.stderrContaining("key handler bug");
  });

  test("a key handler closes its panel with closePanel", async () => {
    const child = await panels();
    child.send({ type: "panel_key", panel_id: "todo", key: "rune", text: "q" });
    expect(await child.next()).toEqual({ type: "panel_close", panel_id: "todo" });
  });

  test("panel_resize and panel_close reach their handlers", async () => {
    const child = await panels();
    child.send({ type: "panel_resize", panel_id: "todo", width: 100, height: 20 });
    expect(await child.next()).toEqual(render("todo", { footer: "100x20" }));
    child.send({ type: "panel_close", panel_id: "todo" });
    expect(await child.next()).toEqual({ type: "notify", level: "info", message: "closed todo" });
  });

  test("a slow event handler does not hold up the keys", async () => {
    const child = await panels();
    child.send({ type: "event", event: "turn_end", stop: "end" });
    child.send({ type: "panel_key", panel_id: "todo", key: "down" });
    expect(await child.next()).toEqual(render("todo", todo(1, "down")));
    expect(await child.next()).toEqual({ type: "notify", level: "info", message: "turn_end handled" });
  });

  test("submit and submitSlash send the text as typed; submitSlash refuses a text without a slash, submit an empty one", async () => {
    const child = await panels();
    child.send({ type: "panel_key", panel_id: "todo", key: "rune", text: "s" });
    expect(await child.next()).toEqual({ type: "submit", text: "work on: buy milk" });
    child.send({ type: "panel_key", panel_id: "todo", key: "rune", text: "h" });
    expect(await child.next()).toEqual({ type: "submit_slash", text: "/help" });
    child.send({ type: "command_invoked", id: "1", name: "badslash" });
    expect(await child.reply("1")).toMatchObject({ error: 'submitSlash: "compact" is not a slash command; it starts with "/" (e.g. "/compact")' });
    child.send({ type: "command_invoked", id: "2", name: "emptysubmit" });
    expect(await child.reply("2")).toMatchObject({ error: "submit: the text is empty" });
  });

  test("an extension without panel handlers skips panel frames and carries on", async () => {
    const child = start("bare.ts");
    while ((await child.next()).type !== "ready");
    child.send(helloAck());
    child.send({ type: "panel_key", panel_id: "p", key: "enter" });
    child.send({ type: "panel_resize", panel_id: "p", width: 80, height: 10 });
    child.send({ type: "panel_close", panel_id: "p" });
    child.send({ type: "command_invoked", id: "1", name: "hi", args: "again" });
    expect(await child.next()).toEqual({ type: "command_response", id: "1", action: "display", display: "hi again" });
  });
});
