// The host services of the current protocol in-process, with real extension processes (python3,
// test/fixtures/extensions/call_rules.py and scripted.py) and a real Agent whose model is a
// stand-in: call_tool's every rule, tool_cancel and late results, deadlines (made short here),
// interactive tools, exposures, deferred activation across clear and resume, and the
// before_agent_start pass (load order, each seeing the last, failures keeping the prompt).
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../src/core/agent.ts";
import { ExtensionManager, type LoadOptions } from "../../src/extensions/manager.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import type { Message } from "../../src/protocol/messages.ts";
import { ConfirmGate, type ConfirmRequest } from "../../src/core/confirm-gate.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { readTool } from "../../src/tools/read.ts";
import { eventually, FIXTURES, scriptedExtension } from "../fixtures/extensions/make.ts";
import { extensionLayout, fakeProvider, type Turn } from "../support/manager-fixture.ts";
import { testModel } from "../support/test-model.ts";

const managers: ExtensionManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.stop()));
});

/** The rules extension installed globally, its record file, and a started manager attached to an agent. */
async function rules(turns: Turn[], options: { config?: Record<string, unknown>; load?: Partial<LoadOptions>; gate?: ConfirmGate; more?: (global: string) => void } = {}) {
  const l = extensionLayout("zot-svc-");
  const dir = join(l.global, "rules");
  mkdirSync(dir, { recursive: true });
  mkdirSync(l.cwd, { recursive: true });
  writeFileSync(join(l.cwd, "a.txt"), "alpha\n");
  writeFileSync(join(l.cwd, "b.txt"), "beta\n");
  const record = l.file("rules.ndjson");
  writeFileSync(join(dir, "config.json"), JSON.stringify({ record, ...options.config }));
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "rules", exec: "python3", args: [join(FIXTURES, "call_rules.py"), "config.json"] }));
  options.more?.(l.global);
  const manager = new ExtensionManager();
  managers.push(manager);
  const report = await manager.load(l.options(options.load));
  expect(report.ready).toBeGreaterThanOrEqual(1);
  const provider = fakeProvider(turns);
  const agent = new Agent({ provider, model: testModel(), tools: [readTool, bashTool], system: "base", cwd: l.cwd });
  if (options.gate) agent.chain.add(options.gate);
  const events: AgentEvent[] = [];
  agent.onEvent((event) => events.push(event));
  manager.attach(agent, options.gate);
  const frames = () => (existsSync(record) ? readFileSync(record, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line)) : []);
  return { l, manager, agent, provider, events, frames };
}

const call = (name: string, args: Record<string, unknown> = {}, id = "t1") => ({ calls: [{ id, name, args }] });
const signal = () => new AbortController().signal;
/** The text of the tool result the model got last. */
function lastResult(provider: { requests: { messages: { role: string; content: any[] }[] }[] }): string {
  const messages = provider.requests.at(-1)?.messages ?? [];
  const block = messages.at(-1)?.content.find((b) => b.type === "tool_result");
  return (block?.content ?? []).map((c: any) => c.text).join("");
}

describe("call_tool's rules", () => {
  test("a chain holds at most 4 calls, counting the first", async () => {
    const s = await rules([call("chain1"), { text: "ok" }]);
    await s.agent.prompt({ text: "go" }, signal());
    expect(lastResult(s.provider)).toBe(
      "chain1 > chain2 > chain3 > chain4 > call_tool chain5: a call chain holds at most 4 calls, counting the first (chain1 → chain2 → chain3 → chain4 → chain5)",
    );
  });

  test("without parent_id while handling a call: refused; a duplicate id: ignored, with a diagnostic", async () => {
    const s = await rules([call("no_parent"), call("dup", {}, "t2"), { text: "ok" }]);
    await s.agent.prompt({ text: "go" }, signal());
    expect(JSON.stringify(s.provider.requests[1].messages.at(-1))).toContain(
      'call_tool read: call_tool without parent_id while this extension is handling tool_call \\"1\\"; send the id of the tool_call it belongs to as parent_id, so the call ends with it',
    );
    // The first of the two frames ran; the second, with the same id, was dropped.
    expect(lastResult(s.provider)).toBe("slowish 1");
    expect(s.frames().filter((f) => f.type === "tool_call" && f.name === "slowish")).toHaveLength(1);
    expect(s.manager.list()[0].diagnostics?.map((d) => d.kind)).toContain("duplicate_call_id");
  });

  test("call_tool_cancel cancels the call (and the tool it ran gets tool_cancel); its late result is expected, not a mistake", async () => {
    const s = await rules([call("cancel_call"), { text: "ok" }]);
    await s.agent.prompt({ text: "go" }, signal());
    expect(lastResult(s.provider)).toBe("call_tool slow: cancelled by call_tool_cancel");
    const slowCall = s.frames().find((f) => f.type === "tool_call" && f.name === "slow");
    await eventually(() => s.l.log("rules").includes(`tool_result for tool_call "${slowCall.id}" came after zot gave up on it; ignored`), "the late result");
    await eventually(() => s.frames().some((f) => f.type === "tool_cancel" && f.id === slowCall.id), "tool_cancel for slow");
    expect(s.manager.list()[0].diagnostics?.map((d) => d.kind) ?? []).not.toContain("unknown_reply_id");
    // The nested call's events say who asked.
    expect(s.events.find((e) => e.type === "tool_call" && e.name === "slow")).toMatchObject({ origin_extension: "rules" });
  });

  test("model-only tools cannot be called, codemode ones only so; neither the deferred-and-inactive", async () => {
    const s = await rules([call("call_any", { name: "mo" }), call("call_any", { name: "cm" }, "t2"), { text: "ok" }]);
    await s.agent.prompt({ text: "go" }, signal());
    const offered = s.provider.requests[0].tools.map((t) => t.name);
    expect(offered).toContain("mo");
    expect(offered).not.toContain("cm");
    expect(JSON.stringify(s.provider.requests[1].messages.at(-1))).toContain('call_tool mo: the tool is model-only: extension \\"rules\\" offers it to the model alone');
    expect(lastResult(s.provider)).toBe("cm");
  });

  test("an extension that did not declare call_tool is refused; one without tool_cancel is not sent it", async () => {
    const s = await rules([call("call_any", { name: "read" }), { text: "ok" }], { config: { capabilities: ["tools"] } });
    await s.agent.prompt({ text: "go" }, signal());
    expect(lastResult(s.provider)).toBe('call_tool read: this extension did not list "call_tool" in its hello frame\'s capabilities; add it there');
    const controller = new AbortController();
    const slow = s.agent.tools.find((t) => t.name === "slow")!;
    const running = slow.execute({}, { cwd: s.l.cwd, signal: controller.signal, onProgress: () => {} });
    await eventually(() => s.frames().some((f) => f.type === "tool_call" && f.name === "slow"), "the slow call");
    controller.abort();
    expect((await running).is_error).toBe(true);
    await Bun.sleep(100);
    expect(s.frames().some((f) => f.type === "tool_cancel")).toBe(false);
  });

  test("the deadline of a call_tool (shortened here from 60 s) ends it; a nested call ends with the call it was made under", async () => {
    const s = await rules([call("call_any", { name: "slow" }), { text: "ok" }], { load: { timeouts: { callToolMs: 300 } } });
    await s.agent.prompt({ text: "go" }, signal());
    expect(lastResult(s.provider)).toBe("call_tool slow: timed out after 0.3 s");

    const parent = new AbortController();
    const any = s.agent.tools.find((t) => t.name === "call_any")!;
    const running = any.execute({ name: "slow" }, { cwd: s.l.cwd, signal: parent.signal, onProgress: () => {} });
    await eventually(() => s.frames().filter((f) => f.type === "tool_call" && f.name === "slow").length === 2, "the nested slow call");
    parent.abort();
    await running;
    const nested = s.frames().filter((f) => f.type === "tool_call" && f.name === "slow")[1];
    await eventually(() => s.frames().some((f) => f.type === "tool_cancel" && f.id === nested.id), "tool_cancel for the nested call");
  });
});

describe("call_tool through the gates", () => {
  test("the confirmation gate asks about a call_tool like the model's own; a no refuses it, in the audit trail with the extension's name", async () => {
    const asked: ConfirmRequest[] = [];
    const gate = new ConfirmGate({
      confirmer: async (request) => {
        asked.push(request);
        return request.tool === "bash" ? { answer: "no", reason: "not now" } : { answer: "yes" };
      },
    });
    const s = await rules([call("call_any", { name: "bash" }), { text: "ok" }], { gate });
    await s.agent.prompt({ text: "go" }, signal());
    expect(asked.map((r) => r.tool)).toEqual(["call_any", "bash"]);
    expect(lastResult(s.provider)).toBe("the user declined: not now");
    expect(s.events.find((e) => e.type === "intercept" && e.participant === "confirm")).toMatchObject({ stage: "approve_tool", action: "deny", origin_extension: "rules" });
  });

  test("an interceptor is told which extension asked for a call (origin_extension), and nothing for the model's own", async () => {
    let watched = "";
    const s = await rules([call("call_any", { name: "cm" }), { text: "ok" }], {
      more: (global) => {
        watched = join(global, "watcher.ndjson");
        scriptedExtension(global, "watcher", { record: watched, after_hello: [{ type: "subscribe", intercept: ["tool_call"] }], intercept: { tool_call: {} } });
      },
    });
    await s.agent.prompt({ text: "go" }, signal());
    expect(lastResult(s.provider)).toBe("cm");
    const asked = readFileSync(watched, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line)).filter((f) => f.type === "event_intercept");
    expect(asked.map((f) => [f.tool_name, f.origin_extension])).toEqual([
      ["call_any", undefined],
      ["cm", "rules"],
    ]);
  });

  test("with nobody to ask (--no-yolo, headless) it is refused; a reply over 256 KiB is cut and says truncated", async () => {
    const gate = new ConfirmGate({ unattended: "refused: nobody to confirm", unasked: (c) => c.name === "call_any" || c.name === "big" });
    const s = await rules([call("call_any", { name: "bash" }), call("call_any", { name: "big" }, "t2"), { text: "ok" }], {
      gate,
      more: (global) =>
        scriptedExtension(global, "big", {
          after_hello: [{ type: "register_tool", name: "big", description: "300 KiB" }],
          tools: { big: { eval: '{"content": [{"type": "text", "text": "x" * 300000}]}' } },
        }),
    });
    await s.agent.prompt({ text: "go" }, signal());
    expect(JSON.stringify(s.provider.requests[1].messages.at(-1))).toContain("refused: nobody to confirm");
    await eventually(() => s.frames().some((f) => f.type === "tool_result" && f.name === "big"), "the big reply");
    const reply = s.frames().find((f) => f.type === "tool_result" && f.name === "big");
    expect(reply.truncated).toBe(true);
    expect(reply.content[0].text.length).toBe(256 * 1024);
  });
});

describe("tool deadlines, cancellation and interactive tools", () => {
  test("a tool call past its deadline ends timed_out, with tool_cancel; a late result is logged, not a mistake", async () => {
    const s = await rules([call("late"), { text: "ok" }], { load: { timeouts: { toolMs: 300 } } });
    await s.agent.prompt({ text: "go" }, signal());
    expect(lastResult(s.provider)).toBe("extension rules/late failed: timed out after 0.3 s");
    expect(s.events.find((e) => e.type === "tool_result" && e.name === "late")).toMatchObject({ status: "timed_out", is_error: true });
    const sent = s.frames().find((f) => f.type === "tool_call" && f.name === "late");
    await eventually(() => s.frames().some((f) => f.type === "tool_cancel" && f.id === sent.id), "tool_cancel for the late call");
    await eventually(() => s.l.log("rules").includes("came after zot gave up on it; ignored"), "the late result in the log");
    expect(s.manager.list()[0].diagnostics?.map((d) => d.kind) ?? []).not.toContain("unknown_reply_id");
  });

  test("an interactive tool has no deadline where someone can interact, and is refused where nobody can", async () => {
    const s = await rules([call("patient"), { text: "ok" }], { load: { timeouts: { toolMs: 200 }, interactive: true } });
    await s.agent.prompt({ text: "go" }, signal());
    expect(lastResult(s.provider)).toBe("answered");
    const headless = await rules([call("patient"), { text: "ok" }], { load: { interactive: false } });
    await headless.agent.prompt({ text: "go" }, signal());
    expect(lastResult(headless.provider)).toContain("it is an interactive tool (it waits for a person)");
    expect(headless.frames().some((f) => f.type === "tool_call")).toBe(false);
  });

  test("an unknown replay counts as never, with a diagnostic", async () => {
    const s = await rules([]);
    expect(s.manager.list()[0].diagnostics?.find((d) => d.kind === "tool_replay")?.message).toBe(
      'tool "odd" has unknown replay "sometimes"; using "never" (known: never, safe, idempotent, reconcile)',
    );
    expect(s.agent.tools.some((t) => t.name === "odd")).toBe(true);
  });
});

describe("deferred tools", () => {
  test("activated for the conversation: gone again after clear; a transcript that calls one keeps it active", async () => {
    const l = extensionLayout("zot-deferred-");
    scriptedExtension(l.global, "bridge", {
      after_hello: [
        { type: "register_tool", name: "finder", description: "finds" },
        { type: "register_tool", name: "deep", description: "deep", exposure: "deferred" },
      ],
      tools: { finder: { content: [{ type: "text", text: "found" }], activate_tools: ["deep"] }, deep: { content: [{ type: "text", text: "deep!" }] } },
    });
    const manager = new ExtensionManager();
    managers.push(manager);
    await manager.load(l.options());
    const provider = fakeProvider([call("finder"), call("deep", {}, "t2"), { text: "ok" }, { text: "after clear" }]);
    const agent = new Agent({ provider, model: testModel(), tools: [], system: "", cwd: l.root });
    manager.attach(agent);
    await agent.prompt({ text: "go" }, signal());
    const offered = provider.requests.map((r) => r.tools.map((t) => t.name));
    expect(offered[0]).toEqual(["finder"]);
    expect(offered[1]).toEqual(["deep", "finder"]);
    expect(manager.activeDeferredTools()).toEqual(["deep"]);
    const transcript = agent.messages.slice();
    agent.clear();
    expect(manager.activeDeferredTools()).toEqual([]);
    await agent.prompt({ text: "again" }, signal());
    expect(provider.requests[3].tools.map((t) => t.name)).toEqual(["finder"]);
    // A resumed conversation that called it has it again.
    agent.replaceTranscript(transcript);
    manager.switchSession("resumed");
    expect(manager.activeDeferredTools()).toEqual(["deep"]);
  });

  /** A transcript (a resumed session's) that called the bridge's deferred `deep`. */
  const calledDeep: Message[] = [
    { role: "user", content: [{ type: "text", text: "go" }] },
    { role: "assistant", content: [{ type: "tool_call", id: "t0", name: "deep", args: {} }] },
    { role: "tool", content: [{ type: "tool_result", id: "t0", name: "deep", content: [{ type: "text", text: "deep!" }] }] },
    { role: "assistant", content: [{ type: "text", text: "done" }] },
  ] as Message[];
  const bridge = (global: string, config: Record<string, unknown> = {}) =>
    scriptedExtension(global, "bridge", {
      ...config,
      after_hello: [{ type: "register_tool", name: "deep", description: "deep", exposure: "deferred" }],
      tools: { deep: { content: [{ type: "text", text: "deep!" }] } },
    });

  test("a transcript that calls one, attached before its extension loads (the first /reload-ext of a run that had none): active once it has loaded", async () => {
    const l = extensionLayout("zot-deferred-late-");
    mkdirSync(l.global, { recursive: true });
    const manager = new ExtensionManager();
    managers.push(manager);
    const provider = fakeProvider([{ text: "next" }]);
    const agent = new Agent({ provider, model: testModel(), tools: [], system: "", cwd: l.root, messages: calledDeep });
    // As late-extensions.ts does: attached first, so a guard among them holds calls while they start.
    manager.attach(agent);
    bridge(l.global);
    await manager.load(l.options());
    manager.announceLoaded();
    expect(manager.activeDeferredTools()).toEqual(["deep"]);
    await agent.prompt({ text: "more" }, signal());
    expect(provider.requests[0].tools.map((t) => t.name)).toEqual(["deep"]);
  });

  test("a transcript that calls one a running extension registers later (registrations come at any time): active once registered", async () => {
    const l = extensionLayout("zot-deferred-registered-");
    scriptedExtension(l.global, "bridge", {
      after_hello: [{ type: "subscribe", events: ["session_start"] }],
      on_event: { session_start: [{ type: "register_tool", name: "deep", description: "deep", exposure: "deferred" }] },
      tools: { deep: { content: [{ type: "text", text: "deep!" }] } },
    });
    const manager = new ExtensionManager();
    managers.push(manager);
    await manager.load(l.options());
    const provider = fakeProvider([{ text: "next" }]);
    const agent = new Agent({ provider, model: testModel(), tools: [], system: "", cwd: l.root, messages: calledDeep });
    manager.attach(agent);
    expect(manager.activeDeferredTools()).toEqual([]);
    manager.emitSessionStart();
    await eventually(() => manager.activeDeferredTools().length > 0, "deep registered and active", 3_000);
    await agent.prompt({ text: "more" }, signal());
    expect(provider.requests[0].tools.map((t) => t.name)).toEqual(["deep"]);
  });

  test("a transcript that calls one whose extension joins late (still starting when the run began): active once it joins", async () => {
    const l = extensionLayout("zot-deferred-join-");
    bridge(l.global, { hello_delay: 0.4 });
    const manager = new ExtensionManager();
    managers.push(manager);
    await manager.load(l.options({ wait: 50 }));
    const provider = fakeProvider([{ text: "next" }]);
    const agent = new Agent({ provider, model: testModel(), tools: [], system: "", cwd: l.root, messages: calledDeep });
    manager.attach(agent);
    expect(manager.activeDeferredTools()).toEqual([]);
    await eventually(() => manager.activeDeferredTools().length > 0, "the late bridge's deep active", 3_000);
    expect(manager.activeDeferredTools()).toEqual(["deep"]);
    await agent.prompt({ text: "more" }, signal());
    expect(provider.requests[0].tools.map((t) => t.name)).toEqual(["deep"]);
  });
});

describe("before_agent_start", () => {
  test("asked in load order (--ext first), each seeing the previous prompt; a silent one keeps it; every kept rewrite is in the audit trail", async () => {
    const l = extensionLayout("zot-bas-");
    const rewrite = (tag: string) => ({
      after_hello: [{ type: "subscribe", intercept: ["before_agent_start"] }],
      intercept: { before_agent_start: { eval: `{"system_prompt": f["system_prompt"] + " +${tag}"}` } },
    });
    // Priority says z-first first; load order (the flag's, then the global ones by directory) wins.
    const flagged = scriptedExtension(l.root, "z-first", rewrite("z"), { priority: 10 });
    scriptedExtension(l.global, "a-second", rewrite("a"), { priority: -10 });
    scriptedExtension(l.global, "b-silent", { after_hello: [{ type: "subscribe", intercept: ["before_agent_start"] }], intercept: { before_agent_start: { never: true } } });
    scriptedExtension(l.global, "c-third", rewrite("c"));
    const manager = new ExtensionManager();
    managers.push(manager);
    await manager.load(l.options({ explicit: [flagged], timeouts: { interceptMs: 200 } }));
    const provider = fakeProvider([{ text: "one" }, { text: "two" }]);
    const agent = new Agent({ provider, model: testModel(), tools: [], system: "base", cwd: l.root });
    const audit: AgentEvent[] = [];
    agent.onEvent((event) => event.type === "intercept" && audit.push(event));
    manager.attach(agent);
    await agent.prompt({ text: "hi" }, signal());
    expect(provider.requests[0].system).toBe("base +z +a +c");
    expect(audit.map((e) => (e.type === "intercept" ? [e.participant, e.stage, e.action] : []))).toEqual([
      ["z-first", "before_agent_start", "modify"],
      ["a-second", "before_agent_start", "modify"],
      ["c-third", "before_agent_start", "modify"],
    ]);
    expect(l.log("b-silent")).toContain("intercept before_agent_start: timed out after 0.2 s; allowing");
    // A model switch: the next prompt is prepared again, from zot's own prompt.
    agent.switchModel(testModel({ id: "other" }));
    await agent.prompt({ text: "again" }, signal());
    expect(provider.requests[1].system).toBe("base +z +a +c");
  });
});
