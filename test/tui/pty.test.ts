// The toolkit end to end: the demo program (fixtures/demo.ts) in a real pseudo-terminal, read back
// by @xterm/headless. What is asserted is what a user would see, and the bytes the program wrote.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PtySession } from "../support/pty.ts";
import { tempDir } from "../support/zot.ts";

const DEMO = join(import.meta.dir, "fixtures", "demo.ts");
const sessions: PtySession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.close();
});

function demo(options: { cols?: number; rows?: number; env?: Record<string, string>; shell?: string; answers?: Record<string, string>; replyDelayMs?: number } = {}) {
  const dir = tempDir("zot-tui-");
  const files = { stats: join(dir, "stats.json"), pid: join(dir, "pid") };
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DEMO_STATS: files.stats, DEMO_PID: files.pid, TERM: "xterm-256color", ...options.env };
  delete env.NO_COLOR;
  // `shell` runs after the demo in the same terminal (to read its mode back with stty).
  const cmd = options.shell ? ["sh", "-c", `"${process.execPath}" "${DEMO}"; ${options.shell}`] : [process.execPath, DEMO];
  const session = new PtySession(cmd, { cols: options.cols ?? 80, rows: options.rows ?? 24, env, answers: options.answers, replyDelayMs: options.replyDelayMs });
  sessions.push(session);
  const stats = () => JSON.parse(readFileSync(files.stats, "utf8")) as { fullRedraws: number; viewportRepaints: number; frames: number; bytes: number; keyboard: string };
  const pid = () => Number(readFileSync(files.pid, "utf8"));
  return { session, stats, pid };
}

/** Text typed, then Enter. */
const submit = (session: PtySession, text: string) => session.type(`${text}\r`);
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe("the toolkit in a pseudo-terminal", () => {
  test("typing goes to the editor; Enter adds it to the transcript and clears the editor", async () => {
    const { session } = demo();
    await session.waitForText("type here");
    session.type("hello wörld");
    await session.waitForText("> hello wörld");
    expect(session.screen.cursor().x).toBe("> hello wörld".length);
    session.type("\r");
    await session.waitForText("you said: hello wörld");
    await session.waitFor((screen) => screen.lines().some((line) => line.startsWith("> type here")), "the editor cleared");
  });

  test("an idle screen writes nothing", async () => {
    const { session } = demo();
    await session.waitForText("type here");
    await Bun.sleep(100);
    const bytes = session.bytes;
    await Bun.sleep(400);
    expect(session.bytes).toBe(bytes);
  });

  test("editing keys: Alt+Enter newline, word kill, history with Up", async () => {
    const { session } = demo();
    await session.waitForText("type here");
    session.type("first\x1b\rsecond third\x17");
    await session.waitFor((screen) => screen.lines().includes("> first") && screen.lines().includes("  second"), "two editor rows");
    session.type("\r");
    await session.waitForText("you said: first");
    session.type("\x1b[A");
    await session.waitFor((screen) => screen.lines().includes("> first"), "the prompt back from history");
  });

  test("a large paste becomes a chip, expanded on submit", async () => {
    const { session } = demo({ rows: 40 });
    await session.waitForText("type here");
    session.paste(Array.from({ length: 15 }, (_, i) => `pasted line ${i}`).join("\n"));
    await session.waitForText("> [pasted text #1 +15 lines]");
    session.type("\r");
    await session.waitForText("pasted line 14");
  });

  test("CJK and emoji align: box borders in one column, the cursor after wide characters", async () => {
    const { session } = demo();
    await session.waitForText("type here");
    submit(session, "/box");
    await session.waitForText("mixed 中文");
    const rows = session.screen.lines();
    const top = rows.findIndex((row) => row.includes("box 🚀"));
    const right = session.screen.columnOf(top, "╮");
    expect(right).toBeGreaterThan(0);
    for (let row = top + 1; row <= top + 4; row++) {
      expect(session.screen.columnOf(row, "│")).toBe(0);
      expect(session.screen.columnOf(row, " │") + 1).toBe(right);
    }
    expect(session.screen.columnOf(top + 5, "╯")).toBe(right);
    session.type("日本🚀x");
    await session.waitForText("> 日本🚀x");
    expect(session.screen.cursor().x).toBe(2 + 7);
  });

  test("a 300-line streamed answer in a 40-row terminal: no full redraw, scrollback never cleared, each row once", async () => {
    // 8 ms between deltas: most deltas get a frame of their own (paints are at most 60 per second).
    const { session, stats } = demo({ rows: 40, env: { DEMO_DELAY_MS: "8" } });
    await session.waitForText("type here");
    const start = session.output.length;
    const bytesBefore = session.bytes;
    submit(session, "/stream 300");
    await session.waitForText("streamed 300", 30_000);
    const written = session.output.slice(start);
    expect(count(written, "\x1b[3J")).toBe(0);
    expect(count(written, "\x1b[2J")).toBe(0);
    expect(count(written, "\x1b[H")).toBe(0);
    const result = stats();
    expect(result.frames).toBeGreaterThan(100);
    expect(result.fullRedraws).toBe(0);
    expect(result.viewportRepaints).toBe(0);
    // Each appended row costs the row and the band below it, not the viewport: under 2 KB a row
    // (a viewport of these ~90-column rows would be 40 × 90 bytes).
    expect((session.bytes - bytesBefore) / 300).toBeLessThan(2048);
    // The scrollback holds every item once, in order: nothing above the viewport was rewritten.
    const items = session.screen.allLines().filter((line) => line.includes("of the streamed answer"));
    expect(items).toHaveLength(300);
    items.forEach((line, i) => expect(line).toContain(`item ${String(i + 1).padStart(3, "0")} `));
  }, 40_000);

  test("resize keeps the content: the viewport is repainted, the scrollback is not cleared", async () => {
    const { session, stats } = demo({ rows: 20 });
    await session.waitForText("type here");
    submit(session, "/stream 40");
    await session.waitForText("streamed 40");
    const start = session.output.length;
    const repainted = () => session.output.slice(start).includes("\x1b[H") && session.output.endsWith("\x1b[?2026l");
    await session.resize(60, 14);
    await session.waitFor(repainted, "the viewport repainted after the resize");
    const rows = session.screen.lines();
    expect(rows.some((line) => line.includes("item 040"))).toBe(true);
    expect(rows.at(-1)).toBe("streamed 40");
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(60);
    const second = session.output.length;
    await session.resize(100, 30);
    await session.waitFor(() => session.output.slice(second).includes("\x1b[H") && session.output.endsWith("\x1b[?2026l"), "the viewport repainted after growing");
    expect(session.screen.lines().at(-1)).toBe("streamed 40");
    expect(session.screen.lines().some((line) => line.includes("item 025"))).toBe(true);
    expect(session.output.slice(start)).not.toContain("\x1b[3J");
    submit(session, "/exit");
    expect(await session.exited()).toBe(0);
    expect(stats().fullRedraws).toBe(0);
  });

  test("exit leaves the screen as it was drawn and the prompt on a fresh row", async () => {
    const { session } = demo();
    await session.waitForText("type here");
    submit(session, "kept");
    await session.waitForText("you said: kept");
    session.type("\x04");
    expect(await session.exited()).toBe(0);
    expect(session.screen.text()).toContain("you said: kept");
    expect(session.screen.cursorHidden).toBe(false);
    expect(session.screen.bracketedPaste).toBe(false);
    const cursor = session.screen.cursor();
    expect(cursor.x).toBe(0);
    expect(session.screen.lines()[cursor.y - 1]).toBe("ready");
  });

  test("a crash restores the terminal: raw mode off, cursor shown, bracketed paste off", async () => {
    const { session } = demo({ shell: "stty -a | tr ' ' '\\n' | grep -x -e '-\\?icanon' -e '-\\?echo'" });
    await session.waitForText("type here");
    expect(session.screen.bracketedPaste).toBe(true);
    submit(session, "/crash");
    await session.exited();
    expect(session.screen.text()).toContain("demo crash");
    expect(session.screen.cursorHidden).toBe(false);
    expect(session.screen.bracketedPaste).toBe(false);
    expect(session.output).toContain("\x1b[>4;0m"); // modifyOtherKeys reset
    const modes = session.screen.lines().map((line) => line.trim()).filter((line) => /^-?(icanon|echo)$/.test(line));
    expect(modes.sort()).toEqual(["echo", "icanon"]);
  });

  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    test(`${signal} restores the terminal before the program ends`, async () => {
      const { session, pid } = demo({ shell: "stty -a | tr ' ' '\\n' | grep -x -e '-\\?icanon' -e '-\\?echo'" });
      await session.waitForText("type here");
      process.kill(pid(), signal);
      await session.exited();
      expect(session.screen.cursorHidden).toBe(false);
      expect(session.screen.bracketedPaste).toBe(false);
      const modes = session.screen.lines().map((line) => line.trim()).filter((line) => /^-?(icanon|echo)$/.test(line));
      expect(modes.sort()).toEqual(["echo", "icanon"]);
    });
  }

  test("SIGTERM before the terminal has answered the startup query: the answer is waited for, so it never reaches the shell as ^[[?1;2c", async () => {
    const { session, pid } = demo({ shell: "stty -a | tr ' ' '\\n' | grep -x -e '-\\?icanon' -e '-\\?echo'; sleep 0.5", replyDelayMs: 200 });
    await session.waitForText("type here");
    process.kill(pid(), "SIGTERM");
    await session.exited();
    // Read while still raw: the answer is not echoed (the shell lives on past it, to show it if it were).
    expect(session.screen.text()).not.toContain("^[");
    const modes = session.screen.lines().map((line) => line.trim()).filter((line) => /^-?(icanon|echo)$/.test(line));
    expect(modes.sort()).toEqual(["echo", "icanon"]);
  });

  test("a terminal that answers the Kitty query gets the Kitty protocol, and it is popped at exit", async () => {
    // Answer the query the way Kitty does, before the emulator answers device attributes.
    const { session, stats } = demo({ answers: { "\x1b[?u": "\x1b[?0u" } });
    await session.waitForText("type here");
    await session.waitFor(() => session.output.includes("\x1b[>1u"), "the Kitty flags pushed");
    session.type("a\x1b[13;2ub\x1b[98;3u"); // Shift+Enter in Kitty's encoding, then Alt+B (word left)
    session.type("X\r");
    await session.waitForText("you said: a");
    await session.waitForText("Xb");
    session.type("\x1b[100;5u"); // Ctrl+D
    expect(await session.exited()).toBe(0);
    expect(stats().keyboard).toBe("kitty");
    expect(session.output).toContain("\x1b[<u");
  });

  test("other terminals get xterm modifyOtherKeys, whose Shift+Enter inserts a newline", async () => {
    const { session, stats } = demo();
    await session.waitForText("type here");
    await session.waitFor(() => session.output.includes("\x1b[>4;2m"), "modifyOtherKeys on");
    session.type("one\x1b[27;2;13~two");
    await session.waitFor((screen) => screen.lines().includes("> one") && screen.lines().includes("  two"), "a newline from Shift+Enter");
    session.type("\x03");
    expect(await session.exited()).toBe(0);
    expect(stats().keyboard).toBe("modifyOtherKeys");
  });
});
