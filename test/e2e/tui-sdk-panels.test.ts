// A TypeScript extension on @zot/sdk with a panel (test/fixtures/extensions/todo_panel.ts, the
// twin of the python todo_panel.py that tui-panels.test.ts drives), run by the compiled binary in a
// real pseudo-terminal: its command's openPanel answer, keys reaching its onPanelKey and its
// redraws, onPanelResize, onPanelClose, a panel opened and closed by the extension itself, and
// submit and submitSlash. What its handlers got is read from the file it records them in.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { eventually, sdkTodoPanelExtension } from "../fixtures/extensions/make.ts";
import { recorded } from "../fixtures/hooks/make.ts";
import { startMockLlm } from "../support/mock-llm.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { expectEscClosesPanel, expectKeysDriveList, expectSubmitSlashRuns, expectToolOpensPanelItCloses, openTodoPanel, panelOpen } from "../support/todo-panel-checks.ts";
import { tempDir } from "../support/zot.ts";
import { lastUserText, ready } from "../support/zot-pty.ts";

const runs = ptyRuns();


function zotWithSdkTodo(turns: Parameters<typeof startMockLlm>[0], options: { cols?: number; rows?: number } = {}) {
  const parent = tempDir("zot-sdk-panel-");
  const record = join(parent, "frames.jsonl");
  const run = runs.start(startMockLlm(turns), { ...options, args: ["--no-ext", "--ext", sdkTodoPanelExtension(parent, record)] });
  const frames = (): Record<string, unknown>[] => recorded(record);
  return { ...run, frames };
}

describe("a panel of an extension on @zot/sdk", () => {
  test("/todo opens it; keys reach onPanelKey and its redraws show; onPanelResize learns the room; Esc closes it and onPanelClose hears it", async () => {
    const { session, mock, frames } = zotWithSdkTodo([{ text: "hello back" }], { cols: 100, rows: 30 });
    await openTodoPanel(session);
    // The footer onPanelResize drew: the terminal's width, and the lines that show in full.
    await session.waitForText("100×20 · ↑/↓ move · x toggle · enter pick · q close");

    await expectKeysDriveList(session);
    session.type("é");
    await eventually(() => frames().some((f) => f.type === "panel_key" && f.text === "é"), "the non-ASCII key to reach the handler");
    // The keys went to the panel, not the editor.
    expect(session.screen.lines().some((row) => row.includes("> x") || row.includes("> é"))).toBe(false);
    expect(frames().filter((f) => f.type === "panel_key")).toEqual([
      { type: "panel_key", panel_id: "todo", key: "down" },
      { type: "panel_key", panel_id: "todo", key: "rune", text: "x" },
      { type: "panel_key", panel_id: "todo", key: "enter" },
      { type: "panel_key", panel_id: "todo", key: "rune", text: "é" },
    ]);
    await session.resize(80, 24);
    await session.waitForText("80×14 · ↑/↓ move");
    expect(frames().filter((f) => f.type === "panel_resize")).toEqual([
      { type: "panel_resize", panel_id: "todo", width: 100, height: 20 },
      { type: "panel_resize", panel_id: "todo", width: 80, height: 14 },
    ]);

    await expectEscClosesPanel(session, mock, frames);
  }, 30_000);

  test("a tool opens one with ext.openPanel while the turn goes on; its keys arrive; closePanel takes it down, unannounced", async () => {
    const { session, frames } = zotWithSdkTodo([{ tool_calls: [{ name: "todo_show", args: {} }] }, { text: "the list is up" }]);
    await expectToolOpensPanelItCloses(session, frames);
  }, 30_000);
});

describe("input from an extension on @zot/sdk", () => {
  test("submit sends a prompt as if typed: the model gets it, a grey line names the extension", async () => {
    const { session, mock } = zotWithSdkTodo([{ text: "milk bought" }]);
    await ready(session);
    session.type("/todo\r");
    await session.waitForText("── Todo (3 open)");
    session.type("s");
    await session.waitForText("milk bought");
    expect(mock.requests.map((request) => lastUserText(request.body))).toEqual(["work on: buy milk"]);
    expect(session.screen.allLines().some((row) => row.includes("prompt from extension todo"))).toBe(true);
  }, 30_000);

  test("submitSlash runs a built-in command and the extension's own as if typed; the model is not called", async () => {
    const { session, mock } = zotWithSdkTodo([]);
    await expectSubmitSlashRuns(session, mock);
  }, 30_000);
});
