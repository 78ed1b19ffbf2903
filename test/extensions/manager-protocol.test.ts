// The ExtensionManager's side of the current protocol, with real extension processes and a real
// Agent: late starters that join a running zot, submit routing, the panel board, and the
// observational notifications (permission_decision with the confirmation gate's source,
// tool_confirmation_requested, tool_result status, pre/post_compact, session_end on a switch).
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { Agent } from "../../src/core/agent.ts";
import { type ConfirmAnswer, ConfirmGate } from "../../src/core/confirm-gate.ts";
import { ExtensionManager, type Note } from "../../src/extensions/manager.ts";
import type { PanelView } from "../../src/extensions/panels.ts";
import type { ModelInfo } from "../../src/protocol/models.ts";
import type { Tool } from "../../src/protocol/tool.ts";
import { eventually, scriptedExtension } from "../fixtures/extensions/make.ts";
import { extensionLayout, fakeProvider, type Turn } from "../support/manager-fixture.ts";
import { testModel } from "../support/test-model.ts";

const model: ModelInfo = testModel();
const managers: ExtensionManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.stop()));
});
const manager = () => {
  const m = new ExtensionManager();
  managers.push(m);
  return m;
};
const layout = () => extensionLayout("zot-mgrp-");
const signal = () => new AbortController().signal;
/** The frames recorded so far; a last line still being written (no newline yet) is not one. */
const lines = (file: string): any[] =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .slice(0, -1)
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];

const echo: Tool = {
  name: "run",
  description: "runs a command",
  parameters: { type: "object" },
  async execute(args) {
    return { content: [{ type: "text", text: `ran ${JSON.stringify(args)}` }], is_error: false };
  },
};

describe("starting", () => {
  test("with a bounded wait, a slow extension joins later: its command appears and a note says so", async () => {
    const l = layout();
    scriptedExtension(l.global, "quick", { on_ack: [{ type: "register_command", name: "fast" }] });
    scriptedExtension(l.global, "cold", { hello_delay: 1.5, on_ack: [{ type: "register_command", name: "warm" }] });
    const m = manager();
    const notes: Note[] = [];
    m.onNotify({ notify: (n) => notes.push(n) });
    const report = await m.load(l.options({ wait: 500 }));
    expect(m.hasCommand("fast")).toBe(true);
    expect(m.hasCommand("warm")).toBe(false);
    expect(report.warnings).toEqual([]);
    await eventually(() => m.hasCommand("warm"), "the late command");
    expect(notes).toEqual([{ extension: "cold", level: "info", message: "started late and joined: /warm" }]);
  });

  test('waiting for "all", onWaiting names the extensions still starting, once', async () => {
    const l = layout();
    scriptedExtension(l.global, "cold", { hello_delay: 1, on_ack: [{ type: "register_command", name: "warm" }] });
    const m = manager();
    const waiting: string[][] = [];
    await m.load(l.options({ onWaiting: (names) => waiting.push(names), waitingNoticeMs: 200 }));
    expect(waiting).toEqual([["cold"]]);
    expect(m.hasCommand("WARM")).toBe(true);
  });
});

describe("input and panels", () => {
  test("submit and submit_slash go to the input sink; without one, or when not a slash command, they are logged", async () => {
    const l = layout();
    scriptedExtension(l.global, "loop", {
      on_ack: [{ type: "subscribe", events: ["session_start"] }],
      on_event: {
        session_start: [
          { type: "submit", text: "  remind me  " },
          { type: "submit_slash", text: "no slash" },
          { type: "submit_slash", text: "/compact" },
        ],
      },
    });
    const m = manager();
    await m.load(l.options());
    m.emitSessionStart();
    await eventually(() => l.log("loop").includes("submit_slash ignored"), "the ignored submits");
    expect(l.log("loop")).toContain("submit ignored: only the interactive TUI takes input from extensions");
    const got: string[] = [];
    m.onInput({ submit: (text, ext) => got.push(`submit ${ext}: ${text}`), submitSlash: (text, ext) => got.push(`slash ${ext}: ${text}`) });
    m.emitSessionStart();
    await eventually(() => got.length === 2, "two submissions");
    expect(got).toEqual(["submit loop: remind me", "slash loop: /compact"]);
    expect(l.log("loop")).toContain('submit_slash refused (not a slash command): "no slash"');
  });

  test("the panel board: open, render, keys and resize to the owner, a foreign render ignored, Esc closes and tells the extension", async () => {
    const l = layout();
    const record = l.file("todo.ndjson");
    scriptedExtension(l.global, "todo", {
      record,
      on_ack: [{ type: "register_command", name: "todo" }],
      commands: { todo: { action: "open_panel", open_panel: { id: "main", lines: ["one"], footer: "esc closes" } } },
    });
    scriptedExtension(l.global, "other", {
      on_ack: [{ type: "subscribe", events: ["session_start"] }],
      on_event: { session_start: [{ type: "panel_render", panel_id: "main", lines: ["hijack"] }] },
    });
    const m = manager();
    await m.load(l.options());
    const shown: string[] = [];
    const view = (v: PanelView) => `${v.extension}/${v.id} "${v.title}" ${v.lines.join("|")} (${v.footer})`;
    m.panels.show({
      open: (v) => shown.push(`open ${view(v)}`),
      update: (v) => shown.push(`update ${view(v)}`),
      close: (v, why) => shown.push(`close ${v.extension}/${v.id} by ${why}`),
    });
    m.panels.resize(80, 10);
    expect(await m.runCommand("todo", "", signal())).toMatchObject({ action: "open_panel" });
    expect(m.panels.current?.title).toBe("todo");
    m.emitSessionStart();
    await eventually(() => l.log("other").includes("not the panel this extension has open"), "the foreign render refused");
    m.panels.key("down");
    m.panels.key("rune", "x");
    m.panels.closeByUser();
    await eventually(() => lines(record).some((f) => f.type === "panel_close"), "panel_close to the extension");
    expect(shown).toEqual(['open todo/main "todo" one (esc closes)', "close todo/main by user"]);
    expect(lines(record).filter((f) => f.type.startsWith("panel_"))).toEqual([
      { type: "panel_resize", panel_id: "main", width: 80, height: 10 },
      { type: "panel_key", panel_id: "main", key: "down" },
      { type: "panel_key", panel_id: "main", key: "rune", text: "x" },
      { type: "panel_close", panel_id: "main" },
    ]);
  });
});

describe("notifications", () => {
  async function run(l: ReturnType<typeof layout>, turns: Turn[], answers: ConfirmAnswer[]) {
    const record = l.file("seen.ndjson");
    scriptedExtension(l.global, "audit", {
      record,
      on_ack: [
        {
          type: "subscribe",
          events: ["tool_confirmation_requested", "permission_decision", "tool_result", "pre_compact", "post_compact", "session_start", "session_end"],
        },
      ],
    });
    const agent = new Agent({ provider: fakeProvider(turns), model, tools: [echo], system: "sys", cwd: l.cwd });
    const gate = new ConfirmGate({ confirmer: async () => answers.shift() ?? { answer: "no" } });
    agent.chain.add(gate);
    const m = manager();
    await m.load(l.options());
    m.attach(agent, gate);
    return { agent, m, seen: () => lines(record).filter((f) => f.type === "event") };
  }

  test("asked, said yes for the tool, then remembered; and a no: sources and statuses as the protocol names them", async () => {
    const l = layout();
    const { agent, seen } = await run(
      l,
      [
        { calls: [{ id: "a", name: "run", args: { command: "ls" } }] },
        { calls: [{ id: "b", name: "run", args: { command: "pwd" } }] },
        { calls: [{ id: "c", name: "missing", args: {} }] },
        { text: "done" },
      ],
      [{ answer: "yes_tool" }],
    );
    await agent.prompt({ text: "go" }, signal());
    await eventually(() => seen().filter((e) => e.event === "tool_result").length === 3, "three results");
    const events = seen();
    expect(events.filter((e) => e.event === "tool_confirmation_requested").map((e) => [e.tool_id, e.tool_name, e.tool_preview])).toEqual([["a", "run", "ls"]]);
    expect(events.filter((e) => e.event === "permission_decision").map((e) => [e.tool_id, e.decision, e.source])).toEqual([
      ["a", "approved", "user"],
      ["b", "approved", "remembered"],
    ]);
    expect(events.filter((e) => e.event === "tool_result").map((e) => [e.tool_id, e.status, e.executed, e.tool_args])).toEqual([
      ["a", "completed", true, { command: "ls" }],
      ["b", "completed", true, { command: "pwd" }],
      ["c", "failed", false, {}],
    ]);
  });

  test("a person's no is denied by the user; every compaction attempt is bracketed by pre_compact and post_compact", async () => {
    const l = layout();
    const { agent, seen } = await run(
      l,
      [{ calls: [{ id: "a", name: "run", args: { command: "rm x" } }] }, { text: "ok" }, { text: "fine" }, { text: "the summary" }],
      [{ answer: "no", reason: "not now" }],
    );
    await agent.prompt({ text: "go" }, signal());
    // One turn is too short to compact: the attempt fails, and says so.
    await agent.compact(signal());
    await agent.prompt({ text: "again" }, signal());
    const before = agent.messages.length;
    await agent.compact(signal());
    await eventually(() => seen().filter((e) => e.event === "post_compact").length === 2, "two post_compact");
    const events = seen();
    expect(events.find((e) => e.event === "permission_decision")).toMatchObject({
      tool_id: "a",
      decision: "denied",
      source: "user",
      stage: "pre_execution",
      reason: "the user declined: not now",
    });
    expect(events.find((e) => e.event === "tool_result")).toMatchObject({ status: "blocked", executed: false });
    const pre = events.filter((e) => e.event === "pre_compact");
    const post = events.filter((e) => e.event === "post_compact");
    expect(pre.map((e) => e.compaction_id)).toEqual(["1", "2"]);
    expect(post.map((e) => [e.compaction_id, e.status])).toEqual([
      ["1", "failed"],
      ["2", "completed"],
    ]);
    expect(post[0].error).toContain("nothing to compact");
    expect(pre[1].message_count).toBe(before);
    expect(pre[1].token_estimate).toBeGreaterThan(0);
  });

  test("a session switch ends the old session and starts the new one with its id", async () => {
    const l = layout();
    const { m, seen } = await run(l, [], []);
    m.setSessionId("first");
    m.emitSessionStart();
    m.switchSession("second");
    await eventually(() => seen().length === 3, "three notifications");
    expect(seen().map((e) => [e.event, e.session_id, e.reason])).toEqual([
      ["session_start", "first", undefined],
      ["session_end", "first", "session_switch"],
      ["session_start", "second", undefined],
    ]);
  });
});

describe("a panel opened before the front end is ready", () => {
  test("is kept and shown when the sink is installed", async () => {
    const l = layout();
    scriptedExtension(l.global, "early", {
      on_ack: [{ type: "subscribe", events: ["session_start"] }],
      on_event: { session_start: [{ type: "open_panel", panel: { id: "dash", title: "Dashboard", lines: ["up"] } }] },
    });
    const m = manager();
    await m.load(l.options());
    m.emitSessionStart();
    await eventually(() => m.panels.current !== undefined, "the panel kept");
    const opened: string[] = [];
    m.panels.show({ open: (v) => opened.push(`${v.extension}/${v.id} ${v.title}`), update: () => {}, close: () => {} });
    expect(opened).toEqual(["early/dash Dashboard"]);
  });
});
