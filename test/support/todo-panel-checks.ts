// What the todo panel extensions (tests' fixtures: the protocol by hand in python, and on @zot/sdk)
// must both do in the TUI, written once so the two cannot drift apart.
import { expect } from "bun:test";
import type { MockLlm } from "./mock-llm.ts";
import type { PtySession } from "./pty.ts";
import { ready } from "./zot-pty.ts";

const ESC = "\x1b";
const panelOpen = (text: string) => /── Todo/.test(text);

/** The panel's `h` submits `/help` and its `/todo-later` command `/todo`, as if typed: each runs, and the model is never called. */
export async function expectSubmitSlashRuns(session: PtySession, mock: MockLlm): Promise<void> {
  await ready(session);
  session.type("/todo\r");
  await session.waitForText("── Todo (3 open)");
  session.type("h");
  await session.waitForText("Extension commands");
  expect(session.screen.allLines().some((row) => row.includes("/help run by extension todo"))).toBe(true);
  session.type(ESC);
  await session.waitFor((screen) => !panelOpen(screen.text()), "the panel closed");
  session.type("/todo-later\r");
  await session.waitForText("/todo run by extension todo");
  await session.waitForText("── Todo (3 open)");
  expect(mock.requests).toHaveLength(0);
}
