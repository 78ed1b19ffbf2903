// ExtensionManager with real extension processes and a real Agent (a stand-in provider plays the
// model): discovery and precedence, name conflicts, tools in the loop, every interception
// outcome, event fan-out, notes, reload and stop.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../src/core/agent.ts";
import { ExtensionManager, type Note } from "../../src/extensions/manager.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import type { ModelInfo } from "../../src/protocol/models.ts";
import type { Tool } from "../../src/protocol/tool.ts";
import { alive, eventually, rewriteConfig, type ScriptedConfig, scriptedExtension } from "../fixtures/extensions/make.ts";
import { extensionLayout, fakeProvider, type Turn } from "../support/manager-fixture.ts";
import { testModel } from "../support/test-model.ts";

const model: ModelInfo = testModel();

/** A built-in stand-in that records the args it was run with. */
function recorder(seen: unknown[]): Tool {
  return {
    name: "run",
    description: "runs a command",
    parameters: { type: "object" },
    async execute(args) {
      seen.push(args);
      return { content: [{ type: "text", text: `ran ${JSON.stringify(args)}` }], is_error: false };
    },
  };
}

const managers: ExtensionManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.stop()));
});

const layout = () => extensionLayout("zot-mgr-");

function manager(): ExtensionManager {
  const m = new ExtensionManager();
  managers.push(m);
  return m;
}

/** The frames recorded so far; a last line still being written (no newline yet) is not one. */
function lines(file: string): any[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .slice(0, -1)
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

const reg = (type: "register_command" | "register_tool", ...names: string[]) => names.map((name) => ({ type, name }));

describe("loading", () => {
  test("precedence, shadowing, broken and disabled manifests: every conflict reported, the rest load", async () => {
    const l = layout();
    scriptedExtension(l.project, "alpha", { after_hello: [...reg("register_command", "hello", "help"), ...reg("register_tool", "bash", "shared")] });
    scriptedExtension(l.global, "beta", { after_hello: [...reg("register_command", "hello", "beta-only"), ...reg("register_tool", "shared", "beta_tool")] });
    scriptedExtension(l.global, "alpha", { countfile: l.file("global-alpha-count") });
    scriptedExtension(l.global, "off", { countfile: l.file("off-count") }, { enabled: false });
    scriptedExtension(l.global, "broken", {}, { exec: 42 });
    scriptedExtension(l.global, "slowstart", {}, { timeouts: { hello: -1 } });

    const m = manager();
    const report = await m.load(l.options());
    expect(report.started).toBe(2);
    expect(report.ready).toBe(2);
    const warnings = report.warnings.join("\n");
    expect(warnings).toContain(join(l.global, "broken", "extension.json"));
    expect(warnings).toContain('"exec" must be a string (got 42)');
    // A field inside an object is named with its value.
    expect(warnings).toContain('(timeouts.hello is -1)');
    expect(warnings).toContain('extension "alpha": its command /help is shadowed by zot\'s built-in command; it is not used');
    expect(warnings).toContain('extension "alpha": its tool "bash" is shadowed by zot\'s built-in tool; it is not used');
    expect(warnings).toContain('extension "beta": its command /hello is shadowed by extension "alpha", which comes first; it is not used');
    expect(warnings).toContain('extension "beta": its tool "shared" is shadowed by extension "alpha", which comes first; it is not used');

    expect(m.commands().map((c) => [c.name, c.extension])).toEqual([
      ["hello", "alpha"],
      ["beta-only", "beta"],
    ]);
    expect(m.tools().map((t) => [t.name, t.extension])).toEqual([
      ["shared", "alpha"],
      ["beta_tool", "beta"],
    ]);
    // The shadowed global "alpha" and the disabled "off" never ran.
    expect(existsSync(l.file("global-alpha-count"))).toBe(false);
    expect(existsSync(l.file("off-count"))).toBe(false);
    expect(l.log("alpha")).toContain(`${join(l.global, "alpha")} is not started: ${join(l.project, "alpha")} has the same name "alpha"`);
    expect(l.log("alpha")).toContain("command /help is shadowed by zot's built-in command");
    expect(l.log("beta")).toContain('command /hello is shadowed by extension "alpha"');
  });

  test("--ext wins over an installed extension with the same name; --no-ext keeps only --ext", async () => {
    const l = layout();
    scriptedExtension(l.global, "weather", { countfile: l.file("installed"), after_hello: reg("register_command", "installed") });
    scriptedExtension(l.global, "other", { countfile: l.file("other") });
    const mine = scriptedExtension(l.root, "weather", { countfile: l.file("mine"), after_hello: reg("register_command", "mine") }, {}, "work-copy");

    const m = manager();
    await m.load(l.options({ explicit: [mine] }));
    expect(m.commands().map((c) => c.name)).toEqual(["mine"]);
    expect(existsSync(l.file("installed"))).toBe(false);
    expect(existsSync(l.file("other"))).toBe(true);
    await m.stop();

    const only = manager();
    await only.load(l.options({ explicit: [mine], noDiscovery: true }));
    expect(only.list().map((e) => [e.name, e.source])).toEqual([["weather", "flag"]]);
    expect(readFileSync(l.file("other"), "utf8")).toBe("1");
  });

  test("notes sent while loading wait for a listener; later ones go straight to it", async () => {
    const l = layout();
    scriptedExtension(l.global, "noisy", {
      after_hello: [{ type: "notify", level: "success", message: "loaded" }, ...reg("register_command", "ping")],
      commands: { ping: { action: "noop" } },
      on_ack: [{ type: "subscribe", events: ["session_start"] }],
      on_event: { session_start: [{ type: "notify", level: "warn", message: "session!" }] },
    });
    const m = manager();
    await m.load(l.options());
    const notes: Note[] = [];
    m.onNotify({ notify: (n) => notes.push(n) });
    expect(notes).toEqual([{ extension: "noisy", level: "success", message: "loaded" }]);
    m.emitSessionStart();
    await eventually(() => notes.length === 2, "the second note");
    expect(notes[1]).toEqual({ extension: "noisy", level: "warn", message: "session!" });
  });
});

describe("with an agent", () => {
  async function agentWith(l: ReturnType<typeof layout>, turns: Turn[], seen: unknown[] = []) {
    const provider = fakeProvider(turns);
    const agent = new Agent({ provider, model, tools: [recorder(seen)], system: "sys", cwd: l.cwd });
    const events: AgentEvent[] = [];
    agent.onEvent((e) => events.push(e));
    const m = manager();
    const report = await m.load(l.options({ timeouts: { interceptMs: 400 } }));
    m.attach(agent);
    return { agent, events, provider, m, report, seen };
  }
  const signal = () => new AbortController().signal;
  const toolResults = (events: AgentEvent[]) => events.filter((e) => e.type === "tool_result");

  test("extension tools join the agent's tools and run in the loop, named by their extension", async () => {
    const l = layout();
    scriptedExtension(l.global, "weather", {
      after_hello: [{ type: "register_tool", name: "forecast", description: "the weather", schema: { type: "object", properties: { city: { type: "string" } } } }],
      tools: { forecast: { eval: "{'content': [{'type': 'text', 'text': f['args']['city'] + ': fog'}]}" } },
    });
    const { agent, events, provider } = await agentWith(l, [
      { calls: [{ id: "c1", name: "forecast", args: { city: "Berlin" } }] },
      { text: "It is foggy." },
    ]);
    expect(agent.tools.map((t) => t.name)).toEqual(["run", "forecast"]);
    expect(provider.requests[0]).toBeUndefined();
    await agent.prompt({ text: "weather?" }, signal());
    expect(provider.requests[0].tools.map((t) => t.name)).toEqual(["forecast", "run"]);
    expect(provider.requests[0].tools[0].parameters).toEqual({ type: "object", properties: { city: { type: "string" } } });
    expect(toolResults(events)).toEqual([
      { type: "tool_result", id: "c1", name: "forecast", extension: "weather", is_error: false, content: [{ type: "text", text: "Berlin: fog" }] },
    ]);
  });

  test("tool_call block: the tool does not run and the model sees the reason (or a default naming the extension)", async () => {
    const l = layout();
    scriptedExtension(l.global, "guard", {
      after_hello: [{ type: "subscribe", intercept: ["tool_call"] }],
      intercept: { tool_call: { eval: "{'block': True, 'reason': 'refused: rm -rf'} if 'rm' in f['tool_args']['command'] else {'block': True}" } },
    });
    const { agent, events, seen } = await agentWith(l, [
      { calls: [{ id: "a", name: "run", args: { command: "rm -rf /" } }, { id: "b", name: "run", args: { command: "ls" } }] },
      { text: "ok" },
    ]);
    await agent.prompt({ text: "go" }, signal());
    expect(seen).toEqual([]);
    expect(toolResults(events).map((e) => [e.is_error, e.content])).toEqual([
      [true, [{ type: "text", text: "refused: rm -rf" }]],
      [true, [{ type: "text", text: "blocked by guard" }]],
    ]);
    expect(events.filter((e) => e.type === "intercept")).toContainEqual({
      type: "intercept",
      participant: "guard",
      stage: "tool_call",
      action: "deny",
      reason: "refused: rm -rf",
    });
  });

  test("modified_args chain through two extensions in priority order; invalid ones are ignored and logged", async () => {
    const l = layout();
    const zetaRecord = l.file("zeta.ndjson");
    const alphaRecord = l.file("alpha.ndjson");
    // zeta runs first (priority -1) although alpha sorts first by name.
    scriptedExtension(
      l.global,
      "zeta",
      {
        record: zetaRecord,
        after_hello: [{ type: "subscribe", intercept: ["tool_call"] }],
        intercept: { tool_call: { eval: "{'modified_args': {'command': f['tool_args']['command'] + ' | one'}}" } },
      },
      { priority: -1 },
    );
    scriptedExtension(l.global, "alpha", {
      record: alphaRecord,
      after_hello: [{ type: "subscribe", intercept: ["tool_call"] }],
      intercept: { tool_call: { eval: "{'modified_args': {'command': f['tool_args']['command'] + ' | two'}}" } },
    });
    scriptedExtension(l.global, "broken-rewriter", {
      after_hello: [{ type: "subscribe", intercept: ["tool_call"] }],
      intercept: { tool_call: { modified_args: ["not", "an", "object"] } },
    }, { priority: 5 });
    const { agent, events, seen } = await agentWith(l, [{ calls: [{ id: "a", name: "run", args: { command: "ls" } }] }, { text: "ok" }]);
    await agent.prompt({ text: "go" }, signal());
    expect(seen).toEqual([{ command: "ls | one | two" }]);
    expect(lines(alphaRecord).find((f) => f.type === "event_intercept").tool_args).toEqual({ command: "ls | one" });
    expect(lines(zetaRecord).find((f) => f.type === "event_intercept").tool_args).toEqual({ command: "ls" });
    expect(l.log("broken-rewriter")).toContain('modified_args for run must be a JSON object (got an array); ignored');
    // The transcript and the tool_call event keep what the model asked for.
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({ args: { command: "ls" } });
    expect(events.filter((e) => e.type === "intercept").map((e) => e.type === "intercept" && e.participant)).toEqual(["zeta", "alpha"]);
  });

  test("respond: the extension answers for the tool, which does not run", async () => {
    const l = layout();
    scriptedExtension(l.global, "cache", {
      after_hello: [{ type: "subscribe", intercept: ["tool_call"] }],
      intercept: { tool_call: { respond: { content: [{ type: "text", text: "cached answer" }], is_error: false }, reason: "from cache" } },
    });
    const { agent, events, seen, provider } = await agentWith(l, [{ calls: [{ id: "a", name: "run", args: { command: "ls" } }] }, { text: "ok" }]);
    await agent.prompt({ text: "go" }, signal());
    expect(seen).toEqual([]);
    expect(toolResults(events)[0]).toMatchObject({ is_error: false, content: [{ type: "text", text: "cached answer" }] });
    expect(JSON.stringify(provider.requests[1].messages.at(-1))).toContain("cached answer");
  });

  test("assistant_message: replace_text changes what the user sees, not the transcript; block hides it", async () => {
    const l = layout();
    scriptedExtension(l.global, "redact", {
      after_hello: [{ type: "subscribe", intercept: ["assistant_message"] }],
      intercept: {
        assistant_message: {
          eval: "{'block': True} if 'HIDE' in f['text'] else {'replace_text': f['text'].replace('SECRET', '[redacted]')}",
        },
      },
    });
    const { agent, events } = await agentWith(l, [{ text: "the key is SECRET" }, { text: "HIDE me" }]);
    await agent.prompt({ text: "key?" }, signal());
    const shown = events.filter((e) => e.type === "assistant_message");
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ content: [{ type: "text", text: "the key is [redacted]" }] });
    expect(agent.messages.at(-1)?.content).toEqual([{ type: "text", text: "the key is SECRET" }]);

    await agent.prompt({ text: "again" }, signal());
    expect(events.filter((e) => e.type === "assistant_message")).toHaveLength(1);
    expect(agent.messages.at(-1)?.content).toEqual([{ type: "text", text: "HIDE me" }]);
  });

  test("turn_start block ends the turn with the reason", async () => {
    const l = layout();
    scriptedExtension(l.global, "hours", {
      after_hello: [{ type: "subscribe", intercept: ["turn_start"] }],
      intercept: { turn_start: { block: true, reason: "outside business hours" } },
    });
    const { agent, events, provider } = await agentWith(l, [{ text: "never" }]);
    const outcome = await agent.prompt({ text: "hi" }, signal());
    expect(outcome).toEqual({ status: "blocked", reason: "turn blocked by hours: outside business hours" });
    expect(provider.requests).toHaveLength(0);
    expect(events).toContainEqual({ type: "turn_end", stop: "error", error: "outside business hours", code: "blocked" });
  });

  test("an interceptor that never answers is allowed after its timeout; one that crashes is allowed at once", async () => {
    const l = layout();
    scriptedExtension(l.global, "sleepy", { after_hello: [{ type: "subscribe", intercept: ["tool_call"] }], intercept: { tool_call: { never: true } } });
    scriptedExtension(l.global, "crashy", { after_hello: [{ type: "subscribe", intercept: ["tool_call"] }], intercept: { tool_call: { exit: 9 } } });
    const { agent, seen } = await agentWith(l, [{ calls: [{ id: "a", name: "run", args: { command: "ls" } }] }, { text: "ok" }]);
    await agent.prompt({ text: "go" }, signal());
    expect(seen).toEqual([{ command: "ls" }]);
    expect(l.log("sleepy")).toContain("intercept tool_call: timed out after 0.4 s; allowing");
    expect(l.log("crashy")).toContain("intercept tool_call: the extension exited (code 9); allowing");
  });

  test("events reach subscribers in the order the agent emits them", async () => {
    const l = layout();
    const record = l.file("events.ndjson");
    scriptedExtension(l.global, "watcher", {
      record,
      after_hello: [{ type: "subscribe", events: ["session_start", "turn_start", "tool_call", "turn_end", "assistant_message"] }],
    });
    const { agent, m } = await agentWith(l, [
      { text: "checking", calls: [{ id: "c1", name: "run", args: { command: "ls" } }] },
      { text: "done" },
    ]);
    m.emitSessionStart();
    await agent.prompt({ text: "go" }, signal());
    const expected = [
      { type: "event", event: "session_start" },
      { type: "event", event: "turn_start", step: 1 },
      { type: "event", event: "assistant_message", text: "checking" },
      { type: "event", event: "tool_call", tool_id: "c1", tool_name: "run", tool_args: { command: "ls" } },
      { type: "event", event: "turn_end", stop: "tool_use" },
      { type: "event", event: "turn_start", step: 2 },
      { type: "event", event: "assistant_message", text: "done" },
      // A finished answer is "end" for extensions (what the original sent); --json keeps end_turn.
      { type: "event", event: "turn_end", stop: "end" },
    ];
    await eventually(() => lines(record).filter((f) => f.type === "event").length === expected.length, "all events");
    const got = lines(record).filter((f) => f.type === "event");
    expect(got.map(({ session_id: _, cwd: __, sequence: ___, ...rest }) => rest)).toEqual(expected);
    // Every notification carries the conversation, the working directory and a rising sequence.
    expect(new Set(got.map((f) => f.session_id)).size).toBe(1);
    expect(got.every((f) => f.cwd === l.cwd)).toBe(true);
    const sequence = got.map((f) => f.sequence as number);
    expect(sequence.every((n, i) => i === 0 || n > sequence[i - 1])).toBe(true);
  });

  test("a tool registered late joins the live agent; a crash takes the extension's tools away", async () => {
    const l = layout();
    scriptedExtension(l.global, "lazy", {
      on_ack: [{ type: "subscribe", events: ["turn_start"] }],
      on_event: { turn_start: [{ type: "register_tool", name: "late" }] },
      tools: { late: { exit: 4 } },
    });
    const { agent, events } = await agentWith(l, [{ text: "one" }, { calls: [{ id: "x", name: "late", args: {} }] }, { text: "after" }]);
    expect(agent.tools.map((t) => t.name)).toEqual(["run"]);
    await agent.prompt({ text: "first" }, signal());
    await eventually(() => agent.tools.some((t) => t.name === "late"), "the late tool");
    await agent.prompt({ text: "second" }, signal());
    expect(toolResults(events)[0]).toMatchObject({
      extension: "lazy",
      is_error: true,
      content: [{ type: "text", text: "extension lazy/late failed: the extension exited (code 4)" }],
    });
    await eventually(() => !agent.tools.some((t) => t.name === "late"), "the dead extension's tool to go");
    expect(agent.tools.map((t) => t.name)).toEqual(["run"]);
  });

  test("reload respawns everything, swaps tools and participants in place, and keeps --ext", async () => {
    const l = layout();
    const count = l.file("count");
    const pidfile = l.file("pid");
    const dir = scriptedExtension(l.root, "dev", { countfile: count, pidfile, after_hello: reg("register_tool", "v1") }, {}, "dev-ext");
    const provider = fakeProvider([]);
    const agent = new Agent({ provider, model, tools: [recorder([])], system: "sys", cwd: l.cwd });
    const m = manager();
    await m.load(l.options({ explicit: [dir], noDiscovery: true }));
    m.attach(agent);
    expect(agent.tools.map((t) => t.name)).toEqual(["run", "v1"]);
    expect(readFileSync(count, "utf8")).toBe("1");
    const firstPid = Number(readFileSync(pidfile, "utf8"));

    rewriteConfig(dir, {
      countfile: count,
      pidfile,
      after_hello: [...reg("register_tool", "v2"), { type: "subscribe", intercept: ["tool_call"] }],
    });
    const report = await m.reload();
    expect(report).toMatchObject({ stopped: 1, started: 1, ready: 1, warnings: [] });
    expect(readFileSync(count, "utf8")).toBe("2");
    expect(alive(firstPid)).toBe(false);
    expect(agent.tools.map((t) => t.name)).toEqual(["run", "v2"]);
    expect(agent.chain.list().map((p) => [p.name, [...p.stages]])).toEqual([["dev", ["tool_call"]]]);
  });

  test("reload while an extension is still starting: the instance it stops is not announced (neither joined nor failed); the new one is", async () => {
    const l = layout();
    const dir = scriptedExtension(l.root, "slow", { hello_delay: 0.6, after_hello: reg("register_command", "c0") }, {}, "slow-ext");
    const m = manager();
    const notes: Note[] = [];
    await m.load(l.options({ explicit: [dir], noDiscovery: true, wait: 50 }));
    m.onNotify({ notify: (n) => notes.push(n) });
    expect(m.starting()).toEqual(["slow"]);
    const report = await m.reload();
    expect(report.warnings).toEqual([]);
    await eventually(() => notes.length > 0, "the new instance's note");
    // Time for a stale note of the stopped instance to arrive, had it been sent.
    await Bun.sleep(300);
    expect(notes).toEqual([{ extension: "slow", level: "info", message: "started late and joined: /c0" }]);
  });

  test("reload while a turn runs: a guard (fail_closed) guards every tool call of the gap, stopped or still starting", async () => {
    const l = layout();
    const pidfile = l.file("pid");
    const guard = { pidfile, after_hello: [{ type: "subscribe", intercept: ["tool_call"] }], intercept: { tool_call: { block: true, reason: "guarded" } } };
    const dir = scriptedExtension(l.root, "guard", guard, { fail_closed: true }, "guard-ext");
    const seen: unknown[] = [];
    const provider = fakeProvider([{ calls: [{ id: "a", name: "run", args: { command: "rm -rf /tmp/x" } }] }, { text: "ok" }]);
    const agent = new Agent({ provider, model, tools: [recorder(seen)], system: "sys", cwd: l.cwd });
    const m = manager();
    await m.load(l.options({ explicit: [dir], noDiscovery: true }));
    m.attach(agent);
    const firstPid = Number(readFileSync(pidfile, "utf8"));
    // The new process takes a second to say hello.
    rewriteConfig(dir, { ...guard, hello_delay: 1 });
    const reloading = m.reload();
    await eventually(() => !alive(firstPid), "the old guard to stop");
    const events: AgentEvent[] = [];
    agent.onEvent((e) => events.push(e));
    await agent.prompt({ text: "go" }, signal());
    expect(seen).toEqual([]);
    expect(toolResults(events)[0]).toMatchObject({ is_error: true });
    await reloading;
  });

  test("stop ends every extension process", async () => {
    const l = layout();
    scriptedExtension(l.global, "one", { pidfile: l.file("one") });
    scriptedExtension(l.global, "two", { pidfile: l.file("two"), ignore_shutdown: true });
    const m = manager();
    await m.load(l.options({ timeouts: { graceMs: 200, termMs: 200 } }));
    const pids = [l.file("one"), l.file("two")].map((f) => Number(readFileSync(f, "utf8")));
    expect(pids.every(alive)).toBe(true);
    await m.stop();
    expect(pids.some(alive)).toBe(false);
  });
});
