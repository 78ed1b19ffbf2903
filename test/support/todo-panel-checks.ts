// What the todo panel extensions (tests' fixtures: the protocol by hand in python, and on @zot/sdk)
// must both do in the TUI, written once so the two cannot drift apart.
import { expect } from "bun:test";
import type { MockLlm } from "./mock-llm.ts";
import type { PtySession } from "./pty.ts";
import { eventually } from "../fixtures/extensions/make.ts";
import { lastUserText, ready } from "./zot-pty.ts";

const ESC = "\x1b";

/** Whether the todo panel is on the screen. */
export const panelOpen = (text: string) => /── Todo/.test(text);

/** /todo opens the panel, titled with its id, the first item selected and the second under it. */
export async function openTodoPanel(session: PtySession): Promise<void> {
  await ready(session);
  session.type("/todo\r");
  await session.waitForText("── Todo (3 open) · todo ");
  expect(session.screen.text()).toContain("› [ ] buy milk");
  expect(session.screen.text()).toContain("  [ ] write tests");
}

/** In the open panel: ↓ moves the selection, `x` ticks the item off (the title counts one open fewer), Enter picks it. */
export async function expectKeysDriveList(session: PtySession): Promise<void> {
  session.type("\x1b[B");
  await session.waitForText("› [ ] write tests");
  session.type("x");
  await session.waitForText("› [x] write tests");
  expect(session.screen.text()).toContain("── Todo (2 open)");
  session.type("\r");
  await session.waitForText("picked: write tests · ↑/↓ move");
}

/** The panel's `h` submits `/help` and its `/todo-later` command `/todo`, as if typed: each runs, and the model is never called. */
export async function expectSubmitSlashRuns(session: PtySession, mock: MockLlm): Promise<void> {
  await ready(session);
  session.type("/todo\r");
  await session.waitForText("── Todo (3 open)");
  session.type("h");
  // /help's last section (with the panel open, its first rows may be above the rows shown)
  await session.waitForText("• Ctrl+O expands tool output");
  expect(session.screen.allLines().some((row) => row.includes("/help run by extension todo"))).toBe(true);
  session.type(ESC);
  await session.waitFor((screen) => !panelOpen(screen.text()), "the panel closed");
  session.type("/todo-later\r");
  await session.waitForText("/todo run by extension todo");
  await session.waitForText("── Todo (3 open)");
  expect(mock.requests).toHaveLength(0);
}

/** Esc closes the open todo panel: the extension hears panel_close, and the editor has the keys again (a prompt goes to the model). */
export async function expectEscClosesPanel(session: PtySession, mock: MockLlm, frames: () => Record<string, unknown>[]): Promise<void> {
  session.type(ESC);
  await session.waitFor((screen) => !panelOpen(screen.text()), "the panel closed");
  await eventually(() => frames().some((f) => f.type === "panel_close"), "panel_close to reach the extension");
  expect(frames().filter((f) => f.type === "panel_close")).toEqual([{ type: "panel_close", panel_id: "todo" }]);
  session.type("hello\r");
  await session.waitForText("hello back");
  expect(lastUserText(mock.requests[0]!.body)).toBe("hello");
}

/**
 * The model's todo_show opens the panel while the turn goes on; its keys reach the extension; its
 * `q` has the extension close the panel itself (nobody tells it so), and the editor has the keys again.
 */
export async function expectToolOpensPanelItCloses(session: PtySession, frames: () => Record<string, unknown>[]): Promise<void> {
  await ready(session);
  session.type("show my todos\r");
  await session.waitForText("── Todo from a tool · todo");
  await session.waitForText("the list is up");
  expect(session.screen.text()).toContain("› [ ] buy milk");
  session.type("\x1b[B");
  await session.waitForText("› [ ] write tests");
  expect(frames().filter((f) => f.type === "panel_key")).toEqual([{ type: "panel_key", panel_id: "todo-tool", key: "down" }]);
  session.type("q");
  await session.waitFor((screen) => !panelOpen(screen.text()), "the extension to take its panel down");
  expect(frames().some((f) => f.type === "panel_close")).toBe(false);
  session.type("abc");
  await session.waitFor((screen) => screen.lines().includes("> abc"), "the editor to have the keys again");
}
