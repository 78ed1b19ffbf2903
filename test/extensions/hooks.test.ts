// PicoClaw-protocol process hooks through the ExtensionManager, with real python hook processes
// (test/fixtures/hooks/scripted_hook.py) and a real Agent (a stand-in provider plays the model):
// the handshake, every action at every stage, failure rules, chains with a zot extension among
// the hooks, observer events in both generations (PicoClaw's logging observer,
// test/fixtures/hooks/picoclaw_observer.py), and PicoClaw-format hooks.json.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../src/core/agent.ts";
import { ExtensionManager, type Note } from "../../src/extensions/manager.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import type { ModelRequest } from "../../src/protocol/provider.ts";
import type { Tool } from "../../src/protocol/tool.ts";
import { scriptedExtension } from "../fixtures/extensions/make.ts";
import {
  type HookConfig,
  hookExtension,
  hookProcess,
  observerExtension,
  PICOCLAW_OBSERVER,
  recorded,
  writeHooksJson,
} from "../fixtures/hooks/make.ts";
import { testModel } from "../support/test-model.ts";
import { running } from "../support/process-state.ts";
import { extensionLayout, fakeProvider, type Turn } from "../support/manager-fixture.ts";

/** A tool that echoes its text argument and records every run. */
function echoTool(name: string, runs: unknown[]): Tool {
  return {
    name,
    description: "echoes text",
    parameters: { type: "object", properties: { text: { type: "string" } } },
    async execute(args) {
      runs.push({ name, args });
      return { content: [{ type: "text", text: `echo: ${String(args.text)}` }], is_error: false };
    },
  };
}

const managers: ExtensionManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.stop()));
});

const layout = () => extensionLayout("zot-hooks-");

type Layout = ReturnType<typeof layout>;

/** A hook in the global extensions dir recording what it receives to <root>/<name>.jsonl. */
function hook(l: Layout, name: string, config: HookConfig, manifest: Record<string, unknown> = {}): string {
  const record = l.file(`${name}.jsonl`);
  hookExtension(l.global, name, { record, ...config }, manifest);
  return record;
}

async function run(l: Layout, turns: Turn[], tools: string[] = ["echo_text"]) {
  const runs: unknown[] = [];
  const provider = fakeProvider(turns);
  const agent = new Agent({ provider, model: testModel(), tools: tools.map((t) => echoTool(t, runs)), system: "sys", cwd: l.cwd });
  const events: AgentEvent[] = [];
  agent.onEvent((e) => events.push(e));
  const m = new ExtensionManager();
  managers.push(m);
  const report = await m.load(l.options());
  const notes: Note[] = [];
  m.onNotify({ notify: (n) => notes.push(n) });
  m.attach(agent);
  return { agent, events, provider, m, report, runs, notes };
}

const signal = () => new AbortController().signal;
const callEcho = (text = "original", name = "echo_text"): Turn => ({ calls: [{ id: "c1", name, args: { text } }] });
/** The text of the newest tool result the model was sent. */
function lastToolText(provider: { requests: ModelRequest[] }): string {
  const message = provider.requests.at(-1)?.messages.at(-1);
  const block = message?.content.find((b) => b.type === "tool_result");
  return block && block.type === "tool_result" ? block.content.map((c) => (c.type === "text" ? c.text : "")).join("") : "";
}
const methods = (messages: any[]) => messages.map((m) => m.method);
/** Longer than a test may take (bunfig: 30 s), so a test that waited for one would fail. */
const NO_DEADLINES = { before_tool: 120_000, after_tool: 120_000, approve_tool: 120_000 };

describe("handshake and framing", () => {
  test("hook.hello first with id 1, the name, version 1 and the modes; ids count up; both tool methods and approve", async () => {
    const l = layout();
    const record = hook(l, "gate", {}, { intercept: ["before_tool", "approve_tool"], observe: ["tool_exec_start"] });
    const { agent, runs, provider } = await run(l, [callEcho(), { text: "done" }]);
    await agent.prompt({ text: "go" }, signal());
    const got = recorded(record);
    expect(got[0]).toEqual({ jsonrpc: "2.0", id: 1, method: "hook.hello", params: { name: "gate", version: 1, modes: ["observe", "tool", "approve"] } });
    const requests = got.filter((m) => "id" in m);
    expect(requests.map((m) => m.id)).toEqual(requests.map((_, i) => i + 1));
    expect(methods(requests)).toEqual(["hook.hello", "hook.before_tool", "hook.approve_tool", "hook.after_tool"]);
    const before = requests[1];
    expect(before.params).toMatchObject({ tool: "echo_text", arguments: { text: "original" }, channel: "cli" });
    expect(before.params.meta).toMatchObject({ AgentID: "zot", TurnID: "zot-turn-1", Iteration: 1, TracePath: "turn.tool.before", Source: "runTurn" });
    expect(requests[3].params.result).toEqual({ for_llm: "echo: original", silent: false, is_error: false, async: false });
    expect(Number.isInteger(requests[3].params.duration)).toBe(true);
    expect(runs).toHaveLength(1);
    expect(lastToolText(provider)).toBe("echo: original");
  });

  test("a hello never answered disables the hook with a sentence; zot goes on", async () => {
    const l = layout();
    hook(l, "silent", { hello: { never: true } }, { timeouts: { hello: 300 } });
    const { agent, report, runs, m } = await run(l, [callEcho(), { text: "done" }]);
    expect(report.warnings.join("\n")).toContain('hook "silent" did not answer hook.hello within 0.3 s; the hook is disabled for this run');
    expect(m.list().find((e) => e.name === "silent")).toMatchObject({ state: "failed", protocol: "jsonrpc" });
    expect(agent.chain.list().map((p) => p.name)).not.toContain("silent");
    expect((await agent.prompt({ text: "go" }, signal())).status).toBe("ok");
    expect(runs).toHaveLength(1);
  });

  test("a hook that crashes at start, or answers hello with an error, is disabled", async () => {
    const l = layout();
    hook(l, "crash", { exit_at_start: 3 });
    hook(l, "refuse", { hello: { error: "not today" } });
    const { report } = await run(l, []);
    const warnings = report.warnings.join("\n");
    expect(warnings).toContain('hook "crash" exited with code 3 before answering hook.hello');
    expect(warnings).toContain('hook "refuse" hook.hello failed: not today');
    expect(report.ready).toBe(0);
  });

  test("a hook with no modes is not started; a bad intercept entry is a manifest error", async () => {
    const l = layout();
    hook(l, "idle", {}, { intercept: [] });
    hook(l, "typo", {}, { intercept: ["before_tools"] });
    const { report } = await run(l, []);
    const warnings = report.warnings.join("\n");
    expect(warnings).toContain('hook "idle"');
    expect(warnings).toContain("no hook modes enabled");
    expect(warnings).toContain('"intercept" must be an array of before_llm, after_llm, before_tool, after_tool, approve_tool');
    expect(report.started).toBe(0);
  });

  test("garbage lines and a string id are survived; the answer still counts", async () => {
    const l = layout();
    hook(l, "messy", {
      methods: {
        "hook.before_tool": {
          garbage: ["not json at all", '{"jsonrpc":"2.0","id":999,"result":{}}', "[1,2]"],
          then: { string_id: true, then: { action: "modify", call: { tool: "echo_text", arguments: { text: "cleaned" } } } },
        },
      },
    });
    const { agent, runs } = await run(l, [callEcho(), { text: "done" }]);
    await agent.prompt({ text: "go" }, signal());
    expect(runs).toEqual([{ name: "echo_text", args: { text: "cleaned" } }]);
    const log = l.log("messy");
    expect(log).toContain("not JSON: not json at all");
    expect(log).toContain("a reply for id 999, which no call is waiting for");
  });
});

describe("actions", () => {
  test("before_tool modify rewrites the arguments and after_tool's nested result reaches the model (PicoClaw's ipc:ipc)", async () => {
    const l = layout();
    hook(l, "ipc", {
      methods: {
        "hook.before_tool": { eval: "{'action': 'modify', 'call': {'tool': p['tool'], 'arguments': {'text': 'ipc'}}}" },
        "hook.after_tool": { eval: "{'action': 'modify', 'result': dict(p, result=dict(p['result'], for_llm='ipc:' + p['result']['for_llm']))}" },
      },
    });
    const { agent, events, provider } = await run(l, [callEcho(), { text: "done" }]);
    await agent.prompt({ text: "go" }, signal());
    expect(lastToolText(provider)).toBe("ipc:echo: ipc");
    const intercepts = events.filter((e) => e.type === "intercept").map((e) => [e.participant, e.stage, e.action]);
    expect(intercepts).toEqual([
      ["ipc", "tool_call", "modify"],
      ["ipc", "after_tool", "modify"],
    ]);
  });

  test("a flat after_tool result works too, and continue with the same call changes nothing (no intercept event)", async () => {
    const l = layout();
    hook(l, "flat", {
      methods: {
        "hook.before_tool": { eval: "{'action': 'continue', 'call': {'tool': p['tool'], 'arguments': p['arguments']}}" },
        "hook.after_tool": { action: "modify", result: { for_llm: "flat rewrite", is_error: true } },
      },
    });
    const { agent, events, provider } = await run(l, [callEcho(), { text: "done" }]);
    await agent.prompt({ text: "go" }, signal());
    const block = provider.requests[1].messages.at(-1)?.content[0];
    expect(block).toMatchObject({ type: "tool_result", is_error: true, content: [{ type: "text", text: "flat rewrite" }] });
    expect(events.filter((e) => e.type === "intercept").map((e) => e.type === "intercept" && e.stage)).toEqual(["after_tool"]);
  });

  test("before_tool renames the tool: the renamed tool runs and is approved under its new name", async () => {
    const l = layout();
    const approver = hook(l, "approver", {}, { intercept: ["approve_tool"], priority: 5 });
    hook(l, "renamer", { methods: { "hook.before_tool": { action: "modify", call: { tool: "echo_rewritten" } } } });
    const { agent, runs } = await run(l, [callEcho(), { text: "done" }], ["echo_text", "echo_rewritten"]);
    await agent.prompt({ text: "go" }, signal());
    expect(runs).toEqual([{ name: "echo_rewritten", args: { text: "original" } }]);
    expect(recorded(approver).find((m) => m.method === "hook.approve_tool").params.tool).toBe("echo_rewritten");
  });

  test("respond: the tool does not run, approve_tool and after_tool are skipped, tool events still come, for_user is shown", async () => {
    const l = layout();
    const record = hook(
      l,
      "responder",
      { methods: { "hook.before_tool": { action: "respond", result: { for_llm: "hook-responded: echo_text", for_user: "answered from the hook" } } } },
      { intercept: ["before_tool", "approve_tool"] },
    );
    const { agent, events, runs, provider, notes } = await run(l, [callEcho(), { text: "done" }]);
    await agent.prompt({ text: "go" }, signal());
    expect(runs).toEqual([]);
    expect(lastToolText(provider)).toBe("hook-responded: echo_text");
    expect(methods(recorded(record))).toEqual(["hook.hello", "hook.before_tool"]);
    expect(events.map((e) => e.type)).toContain("tool_call");
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ name: "echo_text", is_error: false });
    expect(notes).toEqual([{ extension: "responder", level: "info", message: "answered from the hook" }]);
  });

  test("respond for a zot built-in tool is ignored unless allow_builtin_respond; then it skips the tool", async () => {
    const l = layout();
    const respond = { methods: { "hook.before_tool": { action: "respond", result: { for_llm: "faked bash output" } } } };
    hook(l, "faker", respond);
    const first = await run(l, [callEcho("x", "bash"), { text: "done" }], ["bash"]);
    await first.agent.prompt({ text: "go" }, signal());
    expect(first.runs).toHaveLength(1);
    expect(lastToolText(first.provider)).toBe("echo: x");
    expect(l.log("faker")).toContain('respond for zot\'s built-in tool "bash" is not allowed');
    await first.m.stop();

    hook(l, "faker", respond, { allow_builtin_respond: true });
    const second = await run(l, [callEcho("x", "bash"), { text: "done" }], ["bash"]);
    await second.agent.prompt({ text: "go" }, signal());
    expect(second.runs).toHaveLength(0);
    expect(lastToolText(second.provider)).toBe("faked bash output");
  });

  test("deny_tool and an approval deny reach the model in PicoClaw's words; {} from an approver denies", async () => {
    const l = layout();
    hook(l, "denier", { methods: { "hook.before_tool": { eval: "{'action': 'deny_tool', 'reason': 'tool denied by hook'} if p['arguments']['text'] == 'a' else {'action': 'continue'}" } } });
    hook(l, "gate", { methods: { "hook.approve_tool": { eval: "{'approved': False, 'reason': 'blocked by ipc hook'} if p['arguments']['text'] == 'b' else {}" } } }, { intercept: ["approve_tool"] });
    const turns: Turn[] = [
      { calls: [{ id: "a", name: "echo_text", args: { text: "a" } }, { id: "b", name: "echo_text", args: { text: "b" } }, { id: "c", name: "echo_text", args: { text: "c" } }] },
      { text: "done" },
    ];
    const { agent, runs, provider } = await run(l, turns);
    await agent.prompt({ text: "go" }, signal());
    expect(runs).toEqual([]);
    const texts = provider.requests[1].messages.at(-1)?.content.map((b) => (b.type === "tool_result" ? [b.is_error, (b.content[0] as any).text] : []));
    expect(texts).toEqual([
      [true, "Tool execution denied by hook: tool denied by hook"],
      [true, "Tool execution denied by approval hook: blocked by ipc hook"],
      [true, "Tool execution denied by approval hook"],
    ]);
  });

  test("a deny in an envelope spelled as a Go struct (ID, Result) denies; so does a deny whose reason is not text", async () => {
    const l = layout();
    hook(l, "gostruct", { methods: { "hook.before_tool": { eval: "{'go_envelope': True, 'then': {'Action': 'deny_tool', 'Reason': 'no a'}} if p['arguments']['text'] == 'a' else {}" } } });
    hook(l, "oddreason", { methods: { "hook.before_tool": { eval: "{'action': 'deny_tool', 'reason': 7} if p['arguments']['text'] == 'b' else {}" } } });
    const turns: Turn[] = [{ calls: [{ id: "a", name: "echo_text", args: { text: "a" } }, { id: "b", name: "echo_text", args: { text: "b" } }] }, { text: "done" }];
    const { agent, runs, provider } = await run(l, turns);
    await agent.prompt({ text: "go" }, signal());
    expect(runs).toEqual([]);
    const texts = provider.requests[1].messages.at(-1)?.content.map((b) => (b.type === "tool_result" ? (b.content[0] as any).text : ""));
    expect(texts).toEqual(["Tool execution denied by hook: no a", "Tool execution denied by hook"]);
    expect(l.log("oddreason")).toContain("its deny_tool is kept, the rest dropped");
  });

  test("an unknown action (a misspelt deny) is ignored and logged: the tool runs", async () => {
    const l = layout();
    hook(l, "typo", { methods: { "hook.before_tool": { action: "deny", reason: "meant to deny" } } });
    const { agent, runs } = await run(l, [callEcho(), { text: "done" }]);
    await agent.prompt({ text: "go" }, signal());
    expect(runs).toHaveLength(1);
    expect(l.log("typo")).toContain('before_tool: action "deny" is not supported here');
  });

  test.each([
    ["hook.before_llm", "before_llm", ["before_llm"]],
    ["hook.after_llm", "after_llm", ["after_llm"]],
    ["hook.before_tool", "before_tool", ["before_tool"]],
    ["hook.after_tool", "after_tool", ["after_tool"]],
  ] as const)("abort_turn at %s ends the turn with the reason as an error; the transcript stays consistent", async (method, stage, intercept) => {
    const l = layout();
    hook(l, "stopper", { methods: { [method]: { action: "abort_turn", reason: "enough" } } }, { intercept });
    const { agent, events } = await run(l, [callEcho(), { text: "done" }]);
    const outcome = await agent.prompt({ text: "go" }, signal());
    expect(outcome).toEqual({ status: "error", code: "intercepted", message: `hook aborted turn during ${stage}: enough` });
    expect(events.filter((e) => e.type === "error").map((e) => e.type === "error" && e.message)).toEqual([`hook aborted turn during ${stage}: enough`]);
    // Every tool call in the transcript has its result.
    const calls = agent.messages.flatMap((m) => m.content.filter((b) => b.type === "tool_call").map((b) => (b as any).id));
    const results = agent.messages.flatMap((m) => m.content.filter((b) => b.type === "tool_result").map((b) => (b as any).call_id));
    expect(results).toEqual(calls);
  });

  test.each(["hook.before_llm", "hook.after_llm", "hook.before_tool", "hook.after_tool"] as const)(
    "hard_abort at %s takes the prompt's messages back out of the transcript",
    async (method) => {
      const l = layout();
      hook(l, "killer", { methods: { [method]: { action: "hard_abort", reason: "stop everything" } } }, { intercept: ["before_llm", "before_tool"] });
      const { agent } = await run(l, [callEcho(), { text: "done" }]);
      const outcome = await agent.prompt({ text: "go" }, signal());
      expect(outcome.status).toBe("error");
      expect(agent.messages).toEqual([]);
    },
  );

  test("before_llm modify: model, options, an appended message and an injected tool reach the provider", async () => {
    const l = layout();
    hook(
      l,
      "rewriter",
      {
        methods: {
          "hook.before_llm": {
            eval:
              "{'action': 'modify', 'request': dict(p, model='process-model', options={'max_tokens': 77}, " +
              "messages=p['messages'] + [{'role': 'user', 'content': 'also this'}], " +
              "tools=p.get('tools', []) + [{'type': 'function', 'function': {'name': 'my_plugin_tool', 'description': 'Plugin injected tool', 'parameters': {'type': 'object'}}}])}",
          },
        },
      },
      { intercept: ["before_llm"] },
    );
    const { agent, provider } = await run(l, [{ text: "hi" }]);
    await agent.prompt({ text: "hello" }, signal());
    const request = provider.requests[0];
    expect(request.model.id).toBe("process-model");
    expect(request.maxTokens).toBe(77);
    expect(request.system).toBe("sys");
    expect(request.tools.map((t) => t.name)).toEqual(["echo_text", "my_plugin_tool"]);
    expect(request.messages.map((m) => [m.role, (m.content[0] as any).text])).toEqual([
      ["user", "hello"],
      ["user", "also this"],
    ]);
  });

  test("before_llm echoing the request unchanged changes nothing; a user's images survive the round trip", async () => {
    const l = layout();
    hook(l, "echo", { methods: { "hook.before_llm": { eval: "{'action': 'modify', 'request': p}" } } }, { intercept: ["before_llm"] });
    const { agent, provider, events } = await run(l, [{ text: "hi" }]);
    await agent.prompt({ text: "look", images: [{ mime_type: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=" }] }, signal());
    expect(provider.requests[0].messages[0].content).toEqual([
      { type: "text", text: "look" },
      { type: "image", mime_type: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=" },
    ]);
    expect(events.some((e) => e.type === "intercept")).toBe(false);
  });

  test("after_llm modify (nested, PicoClaw's provider content|ipc) changes what the model said, transcript included", async () => {
    const l = layout();
    hook(
      l,
      "suffix",
      { methods: { "hook.after_llm": { eval: "{'action': 'modify', 'response': dict(p, response=dict(p['response'], content=p['response']['content'] + '|ipc'))}" } } },
      { intercept: ["after_llm"] },
    );
    const { agent, events } = await run(l, [{ text: "provider content" }]);
    await agent.prompt({ text: "hi" }, signal());
    const shown = events.find((e) => e.type === "assistant_message");
    expect(shown?.type === "assistant_message" && shown.content).toEqual([{ type: "text", text: "provider content|ipc" }]);
    expect(agent.messages.at(-1)?.content).toEqual([{ type: "text", text: "provider content|ipc" }]);
  });
});

describe("failure rules", () => {
  test("an interceptor that never answers is skipped after its timeout; an approver that never answers denies", async () => {
    const l = layout();
    hook(l, "slow-tool", { methods: { "hook.before_tool": { never: true } } }, { timeouts: { before_tool: 200 } });
    const { agent, runs } = await run(l, [callEcho(), { text: "done" }]);
    await agent.prompt({ text: "go" }, signal());
    expect(runs).toHaveLength(1);
    expect(l.log("slow-tool")).toContain('hook "slow-tool" did not answer hook.before_tool within 0.2 s; skipped');
    await managers.pop()?.stop();

    hook(l, "slow-gate", { methods: { "hook.approve_tool": { never: true } } }, { intercept: ["approve_tool"], timeouts: { approve_tool: 200 } });
    const second = await run(l, [callEcho(), { text: "done" }]);
    await second.agent.prompt({ text: "go" }, signal());
    expect(second.runs).toHaveLength(0);
    expect(lastToolText(second.provider)).toBe(
      'tool approval hook "slow-gate" failed: hook "slow-gate" did not answer hook.approve_tool within 0.2 s',
    );
  });

  test("an approver that failed to start still denies every tool (a dead review gate never lets tools through); its interceptors drop out", async () => {
    const l = layout();
    hook(l, "gate", { exit_at_start: 3 }, { intercept: ["before_tool", "approve_tool"] });
    const { agent, report, runs, provider } = await run(l, [callEcho(), { text: "done" }]);
    expect(report.warnings.join("\n")).toContain('hook "gate" exited with code 3 before answering hook.hello');
    const gate = agent.chain.list().find((p) => p.name === "gate");
    expect(gate?.stages).toEqual(["approve_tool"]);
    expect((await agent.prompt({ text: "go" }, signal())).status).toBe("ok");
    expect(runs).toEqual([]);
    expect(lastToolText(provider)).toStartWith('tool approval hook "gate" failed:');
    expect(lastToolText(provider)).toContain("did not start");
  });

  test("a hook that crashes mid-call fails that call at once and every later one by the same rules", async () => {
    const l = layout();
    // Deadlines longer than the test's own: had anything waited for one, the test would time out.
    hook(l, "crashy", { methods: { "hook.before_tool": { exit: 7 } } }, { intercept: ["before_tool", "approve_tool"], timeouts: NO_DEADLINES });
    const turns: Turn[] = [callEcho("one"), callEcho("two"), { text: "done" }];
    const { agent, runs, provider, m } = await run(l, turns);
    await agent.prompt({ text: "go" }, signal());
    // The crash skipped before_tool, then approve_tool had no one to ask: denied.
    expect(runs).toEqual([]);
    expect(provider.requests[1].messages.at(-1)?.content[0]).toMatchObject({ is_error: true });
    expect(lastToolText(provider)).toStartWith('tool approval hook "crashy" failed: hook "crashy" exited with code 7');
    expect(m.list().find((e) => e.name === "crashy")?.state).toBe("exited");
  });

  test("an error reply or a result of the wrong type skips an interceptor", async () => {
    const l = layout();
    hook(l, "err", { methods: { "hook.before_tool": { error: "boom" } } });
    hook(l, "bad-type", { methods: { "hook.before_tool": { action: 5 } } });
    const { agent, runs } = await run(l, [callEcho(), { text: "done" }]);
    await agent.prompt({ text: "go" }, signal());
    expect(runs).toHaveLength(1);
    expect(l.log("err")).toContain('hook "err" hook.before_tool failed: boom; skipped');
    expect(l.log("bad-type")).toContain('hook "bad-type" answered hook.before_tool with an invalid result (action:');
  });

  test("a reply line over the limit fails that call at once (skipped), and the hook keeps working", async () => {
    const l = layout();
    hook(l, "huge", {
      methods: {
        "hook.before_tool": { eval: "{'action': 'modify', 'call': {'tool': 'echo_text', 'arguments': {'text': 'small'}}}" },
        "hook.after_tool": { pad: 5 * 1024 * 1024, then: { action: "continue" } },
      },
    }, { timeouts: NO_DEADLINES });
    const { agent, runs, provider } = await run(l, [callEcho(), callEcho(), { text: "done" }]);
    await agent.prompt({ text: "go" }, signal());
    expect(runs).toEqual([
      { name: "echo_text", args: { text: "small" } },
      { name: "echo_text", args: { text: "small" } },
    ]);
    expect(lastToolText(provider)).toBe("echo: small");
    expect(l.log("huge")).toContain("sent a reply to hook.after_tool longer than");
  });
});

describe("one chain with zot extensions", () => {
  test("hooks and extensions interleave by priority, then name; the first deny stops the rest", async () => {
    const l = layout();
    const order = l.file("order");
    const note = (who: string) => ({ eval: `(open(${JSON.stringify(order)}, 'a').write('${who}\\n'), {'action': 'modify', 'call': {'tool': p['tool'], 'arguments': dict(p['arguments'], text=p['arguments']['text'] + '+${who}')}})[1]` });
    hook(l, "b-hook", { methods: { "hook.before_tool": note("b-hook") } }, { priority: 1 });
    hook(l, "a-hook", { methods: { "hook.before_tool": note("a-hook") } }, { priority: 1 });
    hook(l, "late-hook", { methods: { "hook.before_tool": note("late-hook") } }, { priority: 9 });
    scriptedExtension(l.global, "ext", {
      on_ack: [{ type: "subscribe", intercept: ["tool_call"] }],
      intercept: { tool_call: { eval: `(open(${JSON.stringify(order)}, 'a').write('ext\\n'), {'modified_args': dict(f['tool_args'], text=f['tool_args']['text'] + '+ext')})[1]` } },
    }, { priority: 5 });
    const { agent, runs } = await run(l, [callEcho("x"), { text: "done" }]);
    await agent.prompt({ text: "go" }, signal());
    expect(readFileSync(order, "utf8").trim().split("\n")).toEqual(["a-hook", "b-hook", "ext", "late-hook"]);
    expect(runs).toEqual([{ name: "echo_text", args: { text: "x+a-hook+b-hook+ext+late-hook" } }]);
  });

  test("an extension's block before a hook means the hook is never asked", async () => {
    const l = layout();
    const record = hook(l, "after-ext", {}, { priority: 10 });
    scriptedExtension(l.global, "blocker", { on_ack: [{ type: "subscribe", intercept: ["tool_call"] }], intercept: { tool_call: { block: true, reason: "no" } } });
    const { agent, runs } = await run(l, [callEcho(), { text: "done" }]);
    await agent.prompt({ text: "go" }, signal());
    expect(runs).toEqual([]);
    expect(methods(recorded(record))).not.toContain("hook.before_tool");
  });
});

describe("observer events", () => {
  test("hook.event notifications carry string Kinds, have no id, and follow the observe filter", async () => {
    const l = layout();
    const all = hook(l, "all-events", {}, { intercept: [], observe: ["*"] });
    const some = hook(l, "tool-events", {}, { intercept: [], observe: ["tool_exec_start", "tool_exec_skipped"] });
    hook(l, "denier", { methods: { "hook.before_tool": { eval: "{'action': 'deny_tool', 'reason': 'no'} if p['arguments']['text'] == 'b' else {}" } } });
    const turns: Turn[] = [
      { calls: [{ id: "a", name: "echo_text", args: { text: "a" } }, { id: "b", name: "echo_text", args: { text: "b" } }] },
      { text: "done" },
    ];
    const { agent, m } = await run(l, turns);
    await agent.prompt({ text: "go" }, signal());
    await m.stop();
    const kinds = (file: string) => recorded(file).filter((x) => x.method === "hook.event").map((x) => x.params.Kind);
    expect(kinds(all)).toEqual([
      "turn_start",
      "llm_request",
      // as PicoClaw tells them: the model call's response, then its tool calls
      "llm_response",
      "tool_exec_start",
      "tool_exec_start",
      "tool_exec_end",
      "tool_exec_skipped",
      "llm_request",
      "llm_response",
      "turn_end",
    ]);
    expect(kinds(some)).toEqual(["tool_exec_start", "tool_exec_start", "tool_exec_skipped"]);
    const events = recorded(all).filter((x) => x.method === "hook.event");
    expect(events.every((e) => !("id" in e) && e.jsonrpc === "2.0")).toBe(true);
    expect(events.find((e) => e.params.Kind === "tool_exec_skipped").params.Payload).toEqual({ Tool: "echo_text", Reason: "Tool execution denied by hook: no" });
    expect(events.at(-1).params.Payload).toMatchObject({ Status: "completed", Iterations: 2, FinalContentLen: 4 });
    expect(recorded(all)[0].params.modes).toEqual(["observe"]);
  });

  /** The kinds a PicoClaw observer logged to its stderr (zot's log for it), in order. */
  const observed = (l: Layout, name: string) => [...l.log(name).matchAll(/observed event: (.*)/g)].map((m) => m[1]);
  const twoCalls: Turn[] = [
    { calls: [{ id: "a", name: "echo_text", args: { text: "a" } }, { id: "b", name: "echo_text", args: { text: "b" } }] },
    { text: "done" },
  ];
  const denier: HookConfig = { methods: { "hook.before_tool": { eval: "{'action': 'deny_tool', 'reason': 'no'} if p['arguments']['text'] == 'b' else {}" } } };

  test("PicoClaw observers of both generations each get their events: HEAD's hook.runtime_event (lowercase kinds), the document's hook.event (Kinds)", async () => {
    const l = layout();
    const logs = { head: l.file("head.jsonl"), seed: l.file("seed.jsonl"), headAll: l.file("head-all.jsonl"), unset: l.file("head-unset.jsonl"), forced: l.file("forced.jsonl") };
    // HEAD's own documented config for its review-gate example, unchanged: no zot key in it.
    writeHooksJson(join(l.cwd, ".zot", "hooks.json"), {
      py_review_gate: {
        enabled: true,
        priority: 100,
        transport: "stdio",
        command: ["python3", PICOCLAW_OBSERVER, "head"],
        observe: ["agent.tool.exec_start", "agent.tool.exec_end", "agent.tool.exec_skipped"],
        intercept: ["before_tool", "approve_tool"],
        env: { PICOCLAW_HOOK_LOG_FILE: logs.head },
      },
    });
    const seedObserve = ["tool_exec_start", "tool_exec_end", "tool_exec_skipped"];
    observerExtension(l.global, "seed-gate", "seed", logs.seed, { observe: seedObserve, intercept: ["before_tool", "approve_tool"] });
    observerExtension(l.global, "head-all", "head", logs.headAll, { observe: ["*"], event_method: "hook.runtime_event" });
    // "*" says nothing about the generation: the document's form, which a HEAD hook ignores.
    observerExtension(l.global, "head-unset", "head", logs.unset, { observe: ["*"] });
    // event_method wins over HEAD's dotted names.
    observerExtension(l.global, "seed-dotted", "seed", logs.forced, { observe: ["agent.tool.exec_start"], event_method: "hook.event" });
    hook(l, "denier", denier);
    const { agent, m, report } = await run(l, twoCalls);
    expect(report.warnings).toEqual([]);
    await agent.prompt({ text: "go" }, signal());
    await m.stop();

    expect(observed(l, "py_review_gate")).toEqual(["agent.tool.exec_start", "agent.tool.exec_start", "agent.tool.exec_end", "agent.tool.exec_skipped"]);
    expect(observed(l, "seed-gate")).toEqual(["tool_exec_start", "tool_exec_start", "tool_exec_end", "tool_exec_skipped"]);
    expect(observed(l, "head-all")).toEqual([
      "agent.turn.start",
      "agent.llm.request",
      "agent.llm.response",
      "agent.tool.exec_start",
      "agent.tool.exec_start",
      "agent.tool.exec_end",
      "agent.tool.exec_skipped",
      "agent.llm.request",
      "agent.llm.response",
      "agent.turn.end",
    ]);
    expect(observed(l, "head-unset")).toEqual([]);
    expect(observed(l, "seed-dotted")).toEqual(["tool_exec_start", "tool_exec_start"]);

    // The log says which generation each hook gets, and why.
    expect(l.log("py_review_gate")).toContain(`observer events go as hook.runtime_event ("observe" names agent.tool.exec_start, the form of the kind only PicoClaw's current release accepts)`);
    expect(l.log("head-all")).toContain(`observer events go as hook.runtime_event ("event_method" says so)`);
    expect(l.log("head-unset")).toContain(`observer events go as hook.event (the default; set "event_method": "hook.runtime_event"`);

    // The wire: each hook only its generation's notification, without a JSON-RPC id.
    const notes = (file: string) => recorded(file).filter((x) => x.notification);
    expect(new Set(notes(logs.head).map((x) => x.method))).toEqual(new Set(["hook.runtime_event"]));
    expect(new Set(notes(logs.unset).map((x) => x.method))).toEqual(new Set(["hook.event"]));
    expect(notes(logs.seed).map((x) => x.params.Kind)).toEqual(["tool_exec_start", "tool_exec_start", "tool_exec_end", "tool_exec_skipped"]);
    // HEAD's envelope, and the same event id for every hook that gets the event.
    const [first] = notes(logs.head);
    expect(first.params).toEqual({
      id: expect.stringMatching(/^evt-\d+$/),
      kind: "agent.tool.exec_start",
      time: expect.any(String),
      source: { component: "agent", name: "zot" },
      scope: { agent_id: "zot", session_key: expect.any(String), turn_id: "zot-turn-1", channel: "cli", chat_id: first.params.scope.session_key },
      correlation: { trace_id: "turn.tool.start" },
      severity: "info",
      payload: { Tool: "echo_text", Arguments: { text: "a" } },
      attrs: { agent_source: "runTurn", iteration: 1 },
    });
    expect(notes(logs.headAll).find((x) => x.params.kind === "agent.tool.exec_start").params.id).toBe(first.params.id);
    const skipped = notes(logs.head).find((x) => x.params.kind === "agent.tool.exec_skipped").params;
    expect([skipped.severity, skipped.payload]).toEqual(["warn", { Tool: "echo_text", Reason: "Tool execution denied by hook: no" }]);
    const end = notes(logs.headAll).at(-1).params;
    expect(end.payload).toMatchObject({ Status: "completed", Workspace: l.cwd, Iterations: 2, UserMessage: "go", FinalContent: "done", ToolKinds: ["echo_text"] });
  });

  test("a hooks.json process named as one of zot's own participants (confirm) is not loaded; the approver standing in for it denies under another name, not as the person's no", async () => {
    const l = layout();
    const file = join(l.cwd, ".zot", "hooks.json");
    writeHooksJson(file, { confirm: { enabled: true, command: ["python3", PICOCLAW_OBSERVER, "head"], intercept: ["approve_tool"] } });
    const { report, agent, events, runs } = await run(l, [callEcho(), { text: "done" }]);
    expect(report.warnings.join("\n")).toContain(
      `${file}: hooks.processes.confirm: the name "confirm" is zot's own in the interception chain (what the hook did would be reported as zot's); choose another; not loaded`,
    );
    await agent.prompt({ text: "go" }, signal());
    expect(runs).toEqual([]);
    const denials = events.filter((e) => e.type === "intercept" && e.action === "deny").map((e) => e.type === "intercept" && e.participant);
    expect(denials).toEqual([`confirm (${file})`]);
  });

  test("event_method is hook.event or hook.runtime_event: anything else is an error naming the file and the field", async () => {
    const l = layout();
    const file = join(l.cwd, ".zot", "hooks.json");
    writeHooksJson(file, {
      odd: { enabled: true, command: ["python3", PICOCLAW_OBSERVER, "head"], observe: ["*"], event_method: "runtime_event" },
    });
    observerExtension(l.global, "odd-ext", "head", l.file("odd.jsonl"), { observe: ["*"], event_method: 2 });
    const { report, m } = await run(l, []);
    const warnings = report.warnings.join("\n");
    expect(warnings).toContain(
      `${file}: hooks.processes.odd: "event_method": must be "hook.event" (the protocol document's form) or "hook.runtime_event" (PicoClaw's current form), not "runtime_event"; not loaded`,
    );
    expect(warnings).toContain(`${join(l.global, "odd-ext", "extension.json")}: "event_method" must be "hook.event" or "hook.runtime_event" (got 2)`);
    expect(report.started).toBe(0);
    expect(m.list()).toEqual([]);
  });
});

describe("lifecycle", () => {
  test("stop closes stdin and the hook exits; one that ignores it is terminated after its grace", async () => {
    const l = layout();
    hook(l, "polite", {});
    hook(l, "stubborn", { stall_after: 1 }, { timeouts: { grace: 200 } });
    const { m } = await run(l, []);
    const pids = Object.fromEntries(m.list().map((e) => [e.name, e.pid]));
    expect(Object.values(pids).every((pid) => typeof pid === "number" && running(pid))).toBe(true);
    await m.stop();
    expect(running(pids.polite as number)).toBe(false);
    expect(running(pids.stubborn as number)).toBe(false);
    expect(l.log("polite")).toContain("exited with code 0");
    expect(l.log("stubborn")).toContain("still running 0.2 s after being asked to stop; sending SIGTERM");
  });

  test("reload starts every hook again: a new process, hello again with id 1", async () => {
    const l = layout();
    const record = hook(l, "again", {});
    const { m, agent } = await run(l, []);
    const before = m.list()[0].pid;
    const report = await m.reload();
    expect(report).toMatchObject({ stopped: 1, started: 1, ready: 1 });
    expect(m.list()[0].pid).not.toBe(before);
    expect(recorded(record).filter((x) => x.method === "hook.hello").map((x) => x.id)).toEqual([1, 1]);
    expect(agent.chain.list().map((p) => p.name)).toEqual(["again"]);
  });
});

describe("hooks.json (PicoClaw's config)", () => {
  test("processes run unchanged: enabled, priority, command, dir, env, observe, intercept; disabled ones do not", async () => {
    const l = layout();
    const record = l.file("picoclaw.jsonl");
    writeHooksJson(join(l.cwd, ".zot", "hooks.json"), {
      py_review_gate: hookProcess(l.file("cfg"), "gate", {
        record,
        methods: { "hook.before_tool": { eval: "{'action': 'modify', 'call': {'tool': p['tool'], 'arguments': {'text': __import__('os').environ['GATE_WORD'] + ':' + __import__('os').getcwd()}}}" } },
      }, { priority: 3, dir: "sub", env: { GATE_WORD: "from-env" }, intercept: ["before_tool"], observe: ["turn_end"] }),
      off: hookProcess(l.file("cfg"), "off", { record: l.file("off.jsonl") }, { enabled: false, intercept: ["before_tool"] }),
    });
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(l.cwd, "sub"), { recursive: true });
    const { agent, runs, m } = await run(l, [callEcho(), { text: "done" }]);
    await agent.prompt({ text: "go" }, signal());
    expect(runs).toEqual([{ name: "echo_text", args: { text: `from-env:${join(l.cwd, "sub")}` } }]);
    expect(recorded(record)[0].params).toEqual({ name: "py_review_gate", version: 1, modes: ["observe", "tool"] });
    expect(existsSync(l.file("off.jsonl"))).toBe(false);
    expect(m.list().find((e) => e.name === "py_review_gate")).toMatchObject({ source: "project hooks.json", protocol: "jsonrpc", state: "ready" });
    expect(agent.chain.list().find((p) => p.name === "py_review_gate")?.priority).toBe(3);
  });

  test("the project's file wins a name over $ZOT_HOME/hooks.json; defaults set the timeouts; bad entries are warnings", async () => {
    const l = layout();
    writeHooksJson(join(l.cwd, ".zot", "hooks.json"), {
      shared: hookProcess(l.file("cfg"), "project", { methods: { "hook.before_tool": { action: "modify", call: { tool: "echo_text", arguments: { text: "project" } } } } }, { intercept: ["before_tool"] }),
      broken: { enabled: true, command: [] },
      typo: { enabled: true, command: ["python3"], intercept: ["not_supported"] },
    });
    writeHooksJson(
      join(l.home, "hooks.json"),
      {
        shared: hookProcess(l.file("cfg"), "global", { record: l.file("global.jsonl") }, { intercept: ["before_tool"] }),
        slow: hookProcess(l.file("cfg"), "slow", { methods: { "hook.approve_tool": { never: true } } }, { intercept: ["approve_tool"] }),
      },
      { defaults: { approval_timeout_ms: 150 }, builtins: { example_logger: { enabled: true } } },
    );
    const { agent, runs, report, provider } = await run(l, [callEcho(), { text: "done" }]);
    await agent.prompt({ text: "go" }, signal());
    const warnings = report.warnings.join("\n");
    expect(warnings).toContain(`${join(l.cwd, ".zot", "hooks.json")}: hooks.processes.broken: "command": command is required`);
    expect(warnings).toContain('hooks.processes.typo: "intercept[0]"');
    expect(warnings).toContain("hooks.builtins.example_logger is a Go hook compiled into PicoClaw; zot cannot run it");
    expect(existsSync(l.file("global.jsonl"))).toBe(false);
    expect(runs).toEqual([]);
    expect(lastToolText(provider)).toBe('tool approval hook "slow" failed: hook "slow" did not answer hook.approve_tool within 0.15 s');
  });

  test("--no-ext leaves hooks.json alone; invalid JSON is one warning naming the file", async () => {
    const l = layout();
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(l.cwd, ".zot"), { recursive: true });
    writeFileSync(join(l.cwd, ".zot", "hooks.json"), "{ not json");
    const m = new ExtensionManager();
    managers.push(m);
    expect((await m.load(l.options({ noDiscovery: true }))).warnings).toEqual([]);
    const report = await new ExtensionManager().load(l.options());
    expect(report.warnings).toEqual([expect.stringContaining(`${join(l.cwd, ".zot", "hooks.json")}: not valid JSON`)]);
  });
});
