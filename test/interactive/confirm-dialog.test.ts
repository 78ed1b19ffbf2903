// The --no-yolo dialog: the four answers through the real confirmation gate and a real agent turn
// calling bash (Anthropic SDK against the mock LLM), Esc, and several questions waiting in turn.
import { afterEach, describe, expect, test } from "bun:test";
import { ConfirmGate, type ConfirmRequest } from "../../src/core/confirm-gate.ts";
import { createDialogConfirmer } from "../../src/modes/interactive/confirm-dialog.ts";
import { BUILTIN_SLASH_COMMANDS } from "../../src/modes/interactive/commands/index.ts";
import { createRuntime, type Runtime } from "../../src/runtime.ts";
import type { Component } from "../../src/tui/component.ts";
import { createTheme } from "../../src/tui/theme.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { tempDir } from "../support/zot.ts";
import { DOWN, ENTER, ESC, fakeApp, type FakeApp } from "./fake-app.ts";

let mock: MockLlm | undefined;
let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  await mock?.stop();
  runtime = undefined;
  mock = undefined;
});

const bash = (command: string, id = `call-${command.replace(/\W/g, "")}`) => ({ id, name: "bash", args: { command } });

async function setup(turns: Parameters<typeof startMockLlm>[0]): Promise<{ app: FakeApp; gate: ConfirmGate; rt: Runtime }> {
  mock = startMockLlm(turns);
  runtime = await createRuntime({
    provider: "anthropic",
    apiKey: "sk-test",
    baseUrl: mock.url,
    home: tempDir("zot-confirm-home-"),
    cwd: tempDir("zot-confirm-cwd-"),
    tools: ["bash", "read"],
    extensions: { explicit: [], noDiscovery: true },
    env: {},
  });
  const app = fakeApp(runtime);
  const gate = new ConfirmGate({ confirmer: createDialogConfirmer(app) });
  runtime.agent.chain.add(gate);
  return { app, gate, rt: runtime };
}

async function waitForOverlay(app: FakeApp, what: string): Promise<string> {
  for (let i = 0; i < 500 && !app.screen().join("\n").includes(what); i++) await Bun.sleep(10);
  const text = app.screen().join("\n");
  if (!text.includes(what)) throw new Error(`no dialog showing ${JSON.stringify(what)}; overlay: ${text || "(none)"}`);
  return text;
}

function results(rt: Runtime): { text: string; error: boolean }[] {
  return rt.agent.messages
    .filter((m) => m.role === "tool")
    .flatMap((m) => m.content)
    .flatMap((b) => (b.type === "tool_result" ? [{ text: JSON.stringify(b.content), error: b.is_error }] : []));
}

describe("the confirmation dialog", () => {
  test("1 runs the call; the dialog names the tool and shows the command", async () => {
    const { app, rt } = await setup([{ tool_calls: [bash("echo confirmed-run")] }, { text: "done" }]);
    const turn = rt.agent.prompt({ text: "go" }, new AbortController().signal);
    const screen = await waitForOverlay(app, "echo confirmed-run");
    expect(screen).toContain("Allow bash?");
    for (const label of ["1. Yes", "2. Yes, and don't ask again for bash this session", "3. Yes to everything this session", "4. No"]) {
      expect(screen).toContain(label);
    }
    app.press("1");
    await turn;
    expect(app.overlay).toBeUndefined();
    expect(results(rt)).toEqual([{ text: expect.stringContaining("confirmed-run"), error: false }]);
  });

  test("4 refuses: the tool does not run and the model is told the user declined", async () => {
    const { app, rt } = await setup([{ tool_calls: [bash("echo never-ran > marker")] }, { text: "ok" }]);
    const turn = rt.agent.prompt({ text: "go" }, new AbortController().signal);
    await waitForOverlay(app, "never-ran");
    app.press("4");
    await turn;
    expect(results(rt)).toEqual([{ text: expect.stringContaining("the user declined"), error: true }]);
    expect(await Bun.file(`${rt.agent.cwd}/marker`).exists()).toBe(false);
  });

  test("Esc is no, with the reason \"user cancelled\"", async () => {
    const { app, rt } = await setup([{ tool_calls: [bash("echo escaped")] }, { text: "ok" }]);
    const turn = rt.agent.prompt({ text: "go" }, new AbortController().signal);
    await waitForOverlay(app, "escaped");
    app.press(ESC);
    await turn;
    expect(results(rt)).toEqual([{ text: expect.stringContaining("the user declined: user cancelled"), error: true }]);
  });

  test("2 runs it and every later call of that tool unasked; another tool is still asked", async () => {
    const { app, gate, rt } = await setup([
      { tool_calls: [bash("echo first"), bash("echo second")] },
      { tool_calls: [{ id: "r1", name: "read", args: { path: "nothing-here.txt" } }] },
      { text: "done" },
    ]);
    const turn = rt.agent.prompt({ text: "go" }, new AbortController().signal);
    await waitForOverlay(app, "echo first");
    app.press("2");
    await waitForOverlay(app, "Allow read?");
    app.press(ENTER);
    await turn;
    expect(gate.rememberedTools()).toEqual(["bash"]);
    const texts = results(rt).map((r) => r.text);
    expect(texts[0]).toContain("first");
    expect(texts[1]).toContain("second");
    expect(texts).toHaveLength(3);
  });

  test("3 runs it and every later call unasked: confirmations are off", async () => {
    const { app, gate, rt } = await setup([
      { tool_calls: [bash("echo one")] },
      { tool_calls: [{ id: "r1", name: "read", args: { path: "nothing-here.txt" } }, bash("echo two")] },
      { text: "done" },
    ]);
    const turn = rt.agent.prompt({ text: "go" }, new AbortController().signal);
    await waitForOverlay(app, "echo one");
    app.press(DOWN, DOWN, ENTER);
    await turn;
    expect(gate.confirming).toBe(false);
    expect(app.overlay).toBeUndefined();
    expect(results(rt)).toHaveLength(3);
    expect(results(rt)[2]!.text).toContain("two");
  });

  test("a turn cancelled while the dialog shows closes it, and the tool does not run", async () => {
    const { app, rt } = await setup([{ tool_calls: [bash("echo x > cancelled-marker")] }]);
    const controller = new AbortController();
    const turn = rt.agent.prompt({ text: "go" }, controller.signal);
    await waitForOverlay(app, "cancelled-marker");
    controller.abort();
    await turn;
    expect(app.overlay).toBeUndefined();
    expect(await Bun.file(`${rt.agent.cwd}/cancelled-marker`).exists()).toBe(false);
  });
});

describe("questions in a queue", () => {
  const request = (tool: string, preview: string): ConfirmRequest => ({ id: preview, tool, preview, args: {} });

  test("one at a time, with how many wait; an answer shows the next", async () => {
    mock = startMockLlm();
    runtime = await createRuntime({ provider: "anthropic", apiKey: "k", baseUrl: mock.url, home: tempDir(), cwd: tempDir(), tools: "none", extensions: { explicit: [], noDiscovery: true }, env: {} });
    const app = fakeApp(runtime);
    const confirm = createDialogConfirmer(app);
    const signal = new AbortController().signal;
    const first = confirm(request("bash", "make build"), signal);
    const second = confirm(request("write", "notes.md"), signal);
    const third = confirm(request("bash", "make test"), signal);
    expect(app.screen().join("\n")).toContain("make build");
    expect(app.screen().join("\n")).toContain("(2 more queued)");
    app.press("1");
    expect(await first).toEqual({ answer: "yes" });
    expect(app.screen().join("\n")).toContain("notes.md");
    expect(app.screen().join("\n")).toContain("(1 more queued)");
    app.press("4");
    expect(await second).toEqual({ answer: "no" });
    expect(app.screen().join("\n")).not.toContain("more queued");
    app.press("3");
    expect(await third).toEqual({ answer: "yes_all" });
    expect(app.overlay).toBeUndefined();
  });

  test("yes for this tool answers the queued questions about it; a question whose call stopped waiting leaves", async () => {
    mock = startMockLlm();
    runtime = await createRuntime({ provider: "anthropic", apiKey: "k", baseUrl: mock.url, home: tempDir(), cwd: tempDir(), tools: "none", extensions: { explicit: [], noDiscovery: true }, env: {} });
    const app = fakeApp(runtime);
    const confirm = createDialogConfirmer(app);
    const live = new AbortController();
    const cancelled = new AbortController();
    const a = confirm(request("bash", "ls"), live.signal);
    const b = confirm(request("write", "a.txt"), cancelled.signal);
    const c = confirm(request("bash", "pwd"), live.signal);
    const d = confirm(request("write", "b.txt"), live.signal);
    expect(app.screen().join("\n")).toContain("(3 more queued)");
    cancelled.abort();
    expect(await b).toEqual({ answer: "no", reason: "user cancelled" });
    expect(app.screen().join("\n")).toContain("(2 more queued)");
    app.press("2");
    expect(await a).toEqual({ answer: "yes_tool" });
    expect(await c).toEqual({ answer: "yes" });
    expect(app.screen().join("\n")).toContain("b.txt");
    live.abort();
    expect(await d).toEqual({ answer: "no", reason: "user cancelled" });
    expect(app.overlay).toBeUndefined();
  });
});

describe("/yolo", () => {
  test("turns confirmations off (a waiting call runs at once, later ones unasked) and back on", async () => {
    mock = startMockLlm([
      { tool_calls: [bash("echo waited")] },
      { text: "ok" },
      { tool_calls: [bash("echo unasked")] },
      { text: "ok" },
      { tool_calls: [bash("echo asked-again")] },
      { text: "ok" },
    ]);
    let app: FakeApp | undefined;
    const host = { theme: createTheme({ color: false }), openOverlay: (c: Component) => app!.openOverlay(c) };
    runtime = await createRuntime({
      provider: "anthropic",
      apiKey: "k",
      baseUrl: mock.url,
      home: tempDir(),
      cwd: tempDir(),
      tools: ["bash"],
      extensions: { explicit: [], noDiscovery: true },
      env: {},
      noYolo: true,
      confirmer: createDialogConfirmer(host),
    });
    const rt = runtime;
    app = fakeApp(rt);
    const yolo = BUILTIN_SLASH_COMMANDS.find((c) => c.name === "yolo")!;
    expect(rt.confirmGate?.confirming).toBe(true);

    const first = rt.agent.prompt({ text: "go" }, new AbortController().signal);
    await waitForOverlay(app, "echo waited");
    await yolo.run(app, "");
    await first;
    expect(app.overlay).toBeUndefined();
    expect(app.notes.at(-1)).toEqual({ text: "yolo: tool calls run without asking; /yolo again to confirm each one", level: "warn" });
    expect(results(rt)[0]).toEqual({ text: expect.stringContaining("waited"), error: false });

    await rt.agent.prompt({ text: "again" }, new AbortController().signal);
    expect(results(rt)[1]).toEqual({ text: expect.stringContaining("unasked"), error: false });

    await yolo.run(app, "");
    expect(app.notes.at(-1)).toEqual({ text: "confirmations on: each tool call asks first", level: "success" });
    const third = rt.agent.prompt({ text: "once more" }, new AbortController().signal);
    await waitForOverlay(app, "echo asked-again");
    app.press("1");
    await third;
    expect(results(rt)[2]).toEqual({ text: expect.stringContaining("asked-again"), error: false });
  });

  test("without a confirmation gate it says so", async () => {
    const { rt } = await setup([]);
    const bare = fakeApp({ ...rt, confirmGate: undefined });
    await BUILTIN_SLASH_COMMANDS.find((c) => c.name === "yolo")!.run(bare, "");
    expect(bare.notes.at(-1)?.level).toBe("error");
  });
});
