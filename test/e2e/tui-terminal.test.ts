// What the interactive app does to the terminal itself, through a real pseudo-terminal: the render
// budget while a long answer streams (no full redraw, the scrollback never cleared, each row written
// into it once, also with a command's tall output arriving meanwhile) and the terminal given back
// when zot is killed mid-turn.
import { describe, expect, test } from "bun:test";
import { startMockLlm } from "../support/mock-llm.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { PtySession } from "../support/pty.ts";
import { cleanEnv, tempDir, ZOT } from "../support/zot.ts";
import { ready } from "../support/zot-pty.ts";

const runs = ptyRuns();

const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;
const item = (i: number) => `- item ${String(i).padStart(3, "0")} of the streamed answer, 日本語 and 🚀 emoji, padded to a long row`;

describe("the terminal", () => {
  test("a 300-line streamed answer in a 40-row terminal: no full redraw, no clear of the scrollback, each row in it once", async () => {
    const text = Array.from({ length: 300 }, (_, i) => item(i + 1)).join("\n");
    const { session } = runs.start(startMockLlm([{ text, chunk_size: 80, chunk_delay_ms: 3 }]), { cols: 120, rows: 40 });
    await ready(session);
    const start = session.output.length;
    const bytesBefore = session.bytes;
    session.type("stream\r");
    await session.waitFor((screen) => screen.text().includes("item 300 of the streamed answer") && !screen.text().includes("working"), "the whole answer", 30_000);
    const written = session.output.slice(start);
    expect(count(written, "\x1b[3J")).toBe(0); // scrollback cleared
    expect(count(written, "\x1b[2J")).toBe(0); // screen cleared
    expect(count(written, "\x1b[H")).toBe(0); // viewport repainted from the top
    expect(count(written, "\x1b[?2026h")).toBeGreaterThan(50); // many frames, each one synchronized
    expect((session.bytes - bytesBefore) / 300).toBeLessThan(2048);
    const items = session.screen.allLines().filter((line) => line.includes("of the streamed answer"));
    expect(items).toHaveLength(300);
    items.forEach((line, i) => expect(line).toContain(`item ${String(i + 1).padStart(3, "0")} `));
  }, 40_000);

  test("/help taller than the screen, run while an answer streams: the whole answer, then the help, each row once in the scrollback", async () => {
    const text = Array.from({ length: 60 }, (_, i) => `- answer row ${String(i + 1).padStart(2, "0")} of a slow answer`).join("\n");
    const { session } = runs.start(startMockLlm([{ text, chunk_size: 12, chunk_delay_ms: 25 }]), { cols: 100, rows: 30 });
    await ready(session);
    session.type("stream then help\r");
    await session.waitForText("answer row 10");
    session.type("/help\r");
    // Taller than the screen, the help waits under the streaming answer until the answer is complete.
    await session.waitForText("more rows to come once the output above is complete");
    expect(session.screen.text()).not.toContain("Keys");
    await session.waitFor((screen) => screen.text().includes("Ctrl+O expands tool output") && !/working · /.test(screen.text()), "the answer done and the help shown", 30_000);
    const rows = session.screen.allLines();
    const answer = rows.filter((row) => row.includes("of a slow answer"));
    expect(answer).toHaveLength(60);
    answer.forEach((row, i) => expect(row).toContain(`answer row ${String(i + 1).padStart(2, "0")} `));
    expect(rows.filter((row) => row.trim() === "Commands")).toHaveLength(1);
    expect(rows.filter((row) => row.includes("/help — Show the commands and keys"))).toHaveLength(1);
    expect(rows.findIndex((row) => row.trim() === "Commands")).toBeGreaterThan(rows.findIndex((row) => row.includes("answer row 60")));
  }, 40_000);

  test("SIGTERM mid-turn: the terminal is given back (cooked mode, cursor shown, bracketed paste off) and the request dropped", async () => {
    const text = Array.from({ length: 200 }, (_, i) => `slow line ${i}`).join("\n");
    const run = runs.start(startMockLlm([{ text, chunk_size: 4, chunk_delay_ms: 30 }]), {
      after: "stty -a | tr ' ' '\\n' | grep -x -e '-\\?icanon' -e '-\\?echo'",
    });
    const { session, mock } = run;
    await ready(session);
    expect(session.screen.bracketedPaste).toBe(true);
    session.type("go\r");
    await session.waitForText("slow line 2");
    process.kill(run.pid(), "SIGTERM");
    await session.exited();
    expect(session.screen.text()).toContain("zot exited 143");
    expect(session.screen.cursorHidden).toBe(false);
    expect(session.screen.bracketedPaste).toBe(false);
    const modes = session.screen.lines().map((line) => line.trim()).filter((line) => /^-?(icanon|echo)$/.test(line));
    expect(modes.sort()).toEqual(["echo", "icanon"]);
    await Bun.sleep(100);
    expect(mock.requests[0].aborted).toBe(true);
  });

  for (const [what, args] of [
    ["an unknown tool", ["--tools", "nope"]],
    ["a session that does not exist", ["--session", "doesnotexist"]],
  ] as const) {
    test(`a start that fails on ${what}: the terminal's answer to zot's query is read, none is left in the shell's input`, async () => {
      // Whatever waits in the terminal's input once zot is gone, read as the shell would, shown as bytes.
      const pending = "stty -icanon -echo min 0 time 3; printf 'left:['; dd bs=64 count=1 2>/dev/null | od -An -c | tr -s ' \\n' ' '; echo ']'";
      const { session } = runs.start(startMockLlm(), { args: [...args], after: pending });
      await session.exited();
      expect(session.output).toContain("\x1b[c"); // the app had asked the terminal
      const text = session.screen.text();
      expect(text).toContain("zot exited 2");
      expect(text).toContain("left:[]");
      expect(text).not.toContain("1;2c");
    });
  }

  test("a runtime that cannot start (no key): the drawn frame is taken away, the error is on a clean screen, exit 2", async () => {
    const session = runs.track(
      new PtySession(["sh", "-c", `'${ZOT}' --provider anthropic; echo "zot exited $?"`], { cols: 80, rows: 12, env: cleanEnv(tempDir("zot-home-")), cwd: tempDir() }),
    );
    await session.exited();
    expect(session.output).toContain("\x1b[?2026h"); // the app had drawn
    const text = session.screen.text();
    expect(text).toContain("zot: no API key for anthropic");
    expect(text).toContain("zot exited 2");
    expect(text).not.toContain("ask anything");
    expect(session.screen.cursorHidden).toBe(false);
  });
});
