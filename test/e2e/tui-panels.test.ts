// Extension panels, submit and submit_slash, and extension notes, through a real pseudo-terminal:
// dist/zot with the todo-list extension (test/fixtures/extensions/todo_panel.py, which talks like
// the original's Go SDK: hello, wait for hello_ack, string ids). The screen is read back by xterm
// headless; what the extension received is read from the file it records its frames in.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { eventually, scriptedExtension, todoPanelExtension } from "../fixtures/extensions/make.ts";
import { recorded } from "../fixtures/hooks/make.ts";
import { startMockLlm } from "../support/mock-llm.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { expectEscClosesPanel, expectKeysDriveList, expectSubmitSlashRuns, expectToolOpensPanelItCloses, openTodoPanel, panelOpen } from "../support/todo-panel-checks.ts";
import { tempDir } from "../support/zot.ts";
import { lastUserText, ready, startZot } from "../support/zot-pty.ts";

const runs = ptyRuns();

const ESC = "\x1b";

/** zot with the todo extension (and any more extensions); `frames()` is what the extension received. */
function zotWithTodo(turns: Parameters<typeof startMockLlm>[0], options: Parameters<typeof startZot>[1] & { more?: string[] } = {}) {
  const parent = tempDir("zot-ext-");
  const record = join(parent, "frames.jsonl");
  const todo = todoPanelExtension(parent, record);
  const extensions = [todo, ...(options.more ?? [])].flatMap((dir) => ["--ext", dir]);
  const run = runs.start(startMockLlm(turns), { ...options, args: ["--no-ext", ...extensions, ...(options.args ?? [])] });
  const frames = (): Record<string, unknown>[] => recorded(record);
  return { ...run, frames, parent };
}

describe("an extension's panel", () => {
  test("/todo opens it; keys reach the extension and its renders redraw it; a resize tells it its room; Esc closes it, tells it, and the editor works again", async () => {
    const { session, mock, frames } = zotWithTodo([{ text: "hello back" }], { cols: 100, rows: 30 });
    await openTodoPanel(session);
    const text = () => session.screen.text();
    expect(text()).toContain("↑/↓ move · x toggle · enter pick · q close");
    expect(text()).toContain("esc close");
    // The editor and the status bar stay under the panel.
    const rows = session.screen.lines();
    expect(rows.findIndex((row) => row.includes("esc close"))).toBeLessThan(rows.findIndex((row) => row.includes("(anthropic)")));
    expect(rows.some((row) => row.startsWith("> "))).toBe(true);

    await expectKeysDriveList(session);
    session.type(" ");
    await session.waitForText("› [ ] write tests");
    session.type("é");
    await eventually(() => frames().some((f) => f.type === "panel_key" && f.text === "é"), "the non-ASCII key to reach the extension");
    // The keys went to the panel, not the editor.
    expect(session.screen.lines().some((row) => row.includes("> x") || row.includes("> é"))).toBe(false);

    const keys = frames().filter((f) => f.type === "panel_key");
    expect(keys).toEqual([
      { type: "panel_key", panel_id: "todo", key: "down" },
      { type: "panel_key", panel_id: "todo", key: "rune", text: "x" },
      { type: "panel_key", panel_id: "todo", key: "enter" },
      { type: "panel_key", panel_id: "todo", key: "rune", text: " " },
      { type: "panel_key", panel_id: "todo", key: "rune", text: "é" },
    ]);
    // Ids are strings, as the Go SDK requires; the extension echoed its command's id and it worked.
    const invoked = frames().find((f) => f.type === "command_invoked");
    expect(typeof invoked?.id).toBe("string");
    // Its room: the terminal's width, and the lines that show in full (30 rows - 6 for the band - 4 for the panel's frame).
    expect(frames().filter((f) => f.type === "panel_resize")).toEqual([{ type: "panel_resize", panel_id: "todo", width: 100, height: 20 }]);
    await session.resize(80, 24);
    await eventually(() => frames().filter((f) => f.type === "panel_resize").length === 2, "panel_resize after the terminal's resize");
    expect(frames().filter((f) => f.type === "panel_resize")[1]).toEqual({ type: "panel_resize", panel_id: "todo", width: 80, height: 14 });

    await expectEscClosesPanel(session, mock, frames);
  }, 30_000);

  test("an extension opens a panel from a tool call while the turn goes on, and closes it itself", async () => {
    const { session, frames } = zotWithTodo([{ tool_calls: [{ name: "todo_show", args: {} }] }, { text: "the list is up" }]);
    await expectToolOpensPanelItCloses(session, frames);
  }, 30_000);

  test("a panel goes when its extension exits; the editor has the keys again", async () => {
    const { session } = zotWithTodo([]);
    await ready(session);
    session.type("/todo\r");
    await session.waitForText("── Todo (3 open)");
    session.type("E");
    await session.waitFor((screen) => !panelOpen(screen.text()), "the panel gone with its extension");
    session.type("abc");
    await session.waitFor((screen) => screen.lines().includes("> abc"), "the editor to have the keys again");
  });
});

describe("an extension installed while zot runs, with none at the start", () => {
  test("/reload-ext starts it: its panel takes keys and learns its room, and its submit starts a turn", async () => {
    const { session, home, mock } = runs.start(startMockLlm([{ text: "on it" }]), { cols: 100, rows: 30 });
    await ready(session);
    const record = join(tempDir("zot-ext-"), "frames.jsonl");
    todoPanelExtension(join(home, "extensions"), record);
    session.type("/reload-ext\r");
    await session.waitForText("extensions reloaded: 0 stopped, 1 running: todo");
    await openTodoPanel(session);
    await expectKeysDriveList(session);
    expect(recorded(record).filter((f) => f.type === "panel_resize")).toEqual([{ type: "panel_resize", panel_id: "todo", width: 100, height: 20 }]);
    session.type("s");
    await session.waitForText("on it");
    expect(mock.requests.map((request) => lastUserText(request.body))).toEqual(["work on: write tests"]);
    expect(session.screen.allLines().some((row) => row.includes("prompt from extension todo"))).toBe(true);
  }, 30_000);
});

describe("input from an extension", () => {
  test("submit starts a turn (a grey line names the extension) or waits in the queue, named; the panel stays open meanwhile", async () => {
    const slow = Array.from({ length: 30 }, (_, i) => `milk step ${i}`).join("\n");
    const { session, mock } = zotWithTodo([{ text: slow, chunk_size: 4, chunk_delay_ms: 25 }, { text: "tests written" }]);
    await ready(session);
    session.type("/todo\r");
    await session.waitForText("── Todo (3 open)");
    session.type("S");
    await session.waitForText("↳ queued from todo: and then: write tests");
    await session.waitForText("tests written", 20_000);
    expect(mock.requests.map((request) => lastUserText(request.body))).toEqual(["work on: buy milk", "and then: write tests"]);
    const all = session.screen.allLines();
    expect(all).toContain("› work on: buy milk");
    expect(all.some((row) => row.includes("prompt from extension todo"))).toBe(true);
    expect(session.screen.text()).not.toContain("queued");
    expect(session.screen.text()).toContain("── Todo (3 open)");
  }, 30_000);

  test("submit_slash runs a built-in command and an extension's command as if typed; the model is not called", async () => {
    const { session, mock } = zotWithTodo([]);
    await expectSubmitSlashRuns(session, mock);
  });
});

describe("extension notes", () => {
  test("clear_notes takes back only that extension's notes; Esc dismisses them (a draft stays); /clear removes them", async () => {
    const other = scriptedExtension(tempDir("zot-ext-"), "other", { on_ack: [{ type: "notify", level: "warn", message: "other note" }] });
    const { session } = zotWithTodo([], { more: [other] });
    await ready(session);
    await session.waitForText("[other] other note");
    session.type("/todo-note\r");
    await session.waitForText("[todo] todo note");
    session.type("/todo-forget\r");
    await session.waitFor((screen) => !screen.text().includes("todo note"), "the todo note taken back");
    expect(session.screen.text()).toContain("[other] other note");

    session.type("/todo-note\r");
    await session.waitForText("[todo] todo note");
    session.type("a draft");
    await session.waitFor((screen) => screen.lines().includes("> a draft"), "the draft");
    session.type(ESC);
    await session.waitFor((screen) => !screen.text().includes("other note") && !screen.text().includes("todo note"), "Esc to dismiss the notes");
    expect(session.screen.lines()).toContain("> a draft");

    session.type("\x15/todo-note\r");
    await session.waitForText("[todo] todo note");
    session.type("/clear\r");
    await session.waitForText("transcript cleared");
    expect(session.screen.text()).not.toContain("todo note");
  });
});
