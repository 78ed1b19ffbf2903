// Ctrl+Z in the interactive app, as in a shell: dist/zot run by bash with job control in a real
// pseudo-terminal (the screen read back by xterm headless). zot stops and the shell has the
// terminal as it was (cooked: what is typed echoes, Enter ends a line); `fg` brings zot back under
// the shell's lines, with nothing of the conversation lost or written twice.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../support/zot.ts";
import { startMockLlm } from "../support/mock-llm.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { lastUserText, ready } from "../support/zot-pty.ts";

const runs = ptyRuns();

/** After zot stops: say so, read a line from the terminal, echo it, then `fg`. */
const SHELL = `echo "zot stopped"; read -r typed; echo "the shell read: $typed"; fg; echo "zot exited $?"`;

const count = (rows: string[], text: string) => rows.filter((row) => row.includes(text)).length;

describe("Ctrl+Z", () => {
  test("stops zot and gives the shell its terminal; fg brings zot back under the shell's lines and the conversation goes on", async () => {
    const { session, mock } = runs.start(startMockLlm([{ text: "the first answer" }, { text: "the second answer" }]), { jobControl: SHELL, rows: 20 });
    await ready(session);
    session.type("one\r");
    await session.waitForText("the first answer");
    session.type("\x1a");
    await session.waitForText("zot stopped");
    const screen = session.screen;
    // The terminal as the shell wants it: no bracketed paste, cursor shown; the band is gone, the conversation stays.
    expect(screen.bracketedPaste).toBe(false);
    expect(screen.cursorHidden).toBe(false);
    expect(screen.allLines().join("\n")).not.toContain("ask anything");
    expect(screen.allLines().join("\n")).toMatch(/Stopped/);
    // Cooked mode: the tty echoes what is typed and Enter ends the line (raw mode would leave `read` waiting).
    session.type("some words\r");
    await session.waitForText("the shell read: some words");
    await session.waitFor((s) => {
      const rows = s.allLines();
      const read = rows.findIndex((row) => row.includes("the shell read: some words"));
      return read !== -1 && rows.slice(read).some((row) => row.includes("ask anything"));
    }, "zot back under the shell's lines");
    await session.waitFor((s) => s.bracketedPaste, "bracketed paste on again");
    session.type("two\r");
    await session.waitForText("the second answer");
    const rows = screen.allLines();
    const at = (text: string) => rows.findIndex((row) => row.includes(text));
    expect(at("› one")).toBeLessThan(at("the first answer"));
    expect(at("the first answer")).toBeLessThan(at("zot stopped"));
    expect(at("zot stopped")).toBeLessThan(at("the shell read: some words"));
    expect(at("the shell read: some words")).toBeLessThan(at("› two"));
    expect(at("› two")).toBeLessThan(at("the second answer"));
    // Nothing written twice, and the band once, at the bottom.
    for (const text of ["› one", "the first answer", "› two", "the second answer", "ask anything"]) expect(count(rows, text)).toBe(1);
    expect(lastUserText(mock.requests[1].body)).toBe("two");
    session.type("\x04");
    await session.waitForText("zot exited 0");
  });

  test("while an answer streams: the stream waits while zot is stopped and goes on after fg; every row of it is on screen, the settled ones once", async () => {
    const answer = Array.from({ length: 14 }, (_, i) => `streamed row ${i + 1}`).join("\n\n");
    const { session } = runs.start(startMockLlm([{ text: answer, chunk_size: 8, chunk_delay_ms: 30 }]), { jobControl: SHELL, rows: 40 });
    await ready(session);
    session.type("go\r");
    await session.waitForText("streamed row 3");
    session.type("\x1a");
    await session.waitForText("zot stopped");
    const stoppedAt = session.screen.allLines().filter((row) => row.includes("streamed row")).length;
    expect(stoppedAt).toBeLessThan(14);
    session.type("\r");
    await session.waitForText("streamed row 14", 15_000);
    await session.waitFor((s) => s.text().includes("ask anything"), "the band back");
    const rows = session.screen.allLines();
    const stopped = rows.findIndex((row) => row.includes("zot stopped"));
    for (let i = 1; i <= 14; i++) expect(rows.filter((row) => row.trim() === `streamed row ${i}`).length).toBeGreaterThanOrEqual(1);
    // Rows above the stop that could not change any more are not drawn again; the live tail is drawn once more at most.
    const twice = Array.from({ length: 14 }, (_, i) => `streamed row ${i + 1}`).filter((text) => rows.filter((row) => row.trim() === text).length > 1);
    expect(twice.length).toBeLessThanOrEqual(1);
    expect(rows.slice(stopped).some((row) => row.includes("streamed row 14"))).toBe(true);
    session.type("\x04");
    await session.waitForText("zot exited 0");
  });

  test("where nothing can continue zot (it leads its own session, as in a container): it does not stop, says so, and works on", async () => {
    const { session } = runs.start(startMockLlm([{ text: "still here" }]), { rows: 20 });
    await ready(session);
    session.type("\x1a");
    await session.waitForText("cannot be suspended here");
    session.type("hi\r");
    await session.waitForText("still here");
    expect(session.screen.bracketedPaste).toBe(true);
    expect(count(session.screen.allLines(), "ask anything")).toBe(1);
  });

  test("stopped from outside (kill -STOP) and continued: raw mode is set again, and zot answers keys as before", async () => {
    const { session, pid } = runs.start(startMockLlm([{ text: "answered after the stop" }]), { rows: 20 });
    await ready(session);
    // While zot is stopped the shell has the terminal, and leaves it in its own modes (cooked).
    const tty = readlinkSync(`/proc/${pid()}/fd/0`);
    process.kill(pid(), "SIGSTOP");
    expect(Bun.spawnSync(["stty", "-F", tty, "sane"]).exitCode).toBe(0);
    process.kill(pid(), "SIGCONT");
    await session.waitFor((s) => s.text().includes("ask anything"), "the band");
    // The band was on screen before the stop: what says zot has the terminal again is raw mode.
    for (let i = 0; i < 500 && !Bun.spawnSync(["stty", "-F", tty, "-a"]).stdout.toString().includes("-icanon"); i++) await Bun.sleep(10);
    session.type("after\r");
    await session.waitForText("answered after the stop");
    // painted again where it was: one status bar on screen and in the scrollback
    expect(count(session.screen.allLines(), "ask anything")).toBe(1);
  });

  test("at an interactive shell: `kill %1` ends a stopped zot, and `bg` leaves it waiting for `fg` without touching the terminal (a background process that did would be stopped again, before a SIGTERM could end it)", async () => {
    const { session, pid } = runs.start(startMockLlm([{ text: "answered after bg and fg" }]), { interactiveShell: true, rows: 20 });
    await ready(session);
    const zotPid = pid();
    const state = () => readFileSync(`/proc/${zotPid}/stat`, "utf8").split(") ")[1]!.split(" ")[0];
    session.type("\x1a");
    await session.waitFor((s) => /Stopped/.test(s.text()), "the shell's Stopped line");
    session.type("bg\r");
    await Bun.sleep(500);
    // running in the background, not stopped again for touching the terminal
    expect(state()).not.toBe("T");
    session.type("fg\r");
    await session.waitFor((s) => s.text().split("\n").some((row, i, rows) => /^\$ fg/.test(row) && rows.slice(i).some((r) => r.includes("ask anything"))), "zot back after fg");
    session.type("hi\r");
    await session.waitForText("answered after bg and fg");
    session.type("\x1a");
    await session.waitFor((s) => s.text().split("\n").filter((row) => /Stopped/.test(row)).length >= 2, "stopped again");
    session.type("kill %1\r");
    for (let i = 0; i < 100 && existsSync(`/proc/${zotPid}`); i++) await Bun.sleep(50);
    expect(existsSync(`/proc/${zotPid}`)).toBe(false);
    // zot's exit left the shell's modes alone: its line editing echoes a line once (cooked modes under it would echo it twice)
    session.type("echo after-zot\r");
    await session.waitFor((s) => s.allLines().some((row) => row === "after-zot"), "the shell's answer");
    expect(session.screen.allLines().filter((row) => row.includes("echo after-zot"))).toHaveLength(1);
    // the shell's terminal as it was: zot's exit from the background wrote no modes into it
    expect(session.screen.bracketedPaste).toBe(true); // bash's own, for its prompt
  });

  test("at an interactive shell: an answer that streams on after `bg` is on screen whole after `fg`, none of its rows lost", async () => {
    const answer = Array.from({ length: 24 }, (_, i) => `bg row ${i + 1}`).join("\n\n");
    const { session } = runs.start(startMockLlm([{ text: answer, chunk_size: 12, chunk_delay_ms: 40 }]), { interactiveShell: true, rows: 30 });
    await ready(session);
    session.type("go\r");
    await session.waitForText("bg row 3");
    session.type("\x1a");
    await session.waitFor((s) => /Stopped/.test(s.text()), "the shell's Stopped line");
    session.type("bg\r");
    await Bun.sleep(1500);
    session.type("fg\r");
    await session.waitForText("bg row 24", 15_000);
    const rows = session.screen.allLines().map((row) => row.trim());
    for (let i = 1; i <= 24; i++) expect(rows).toContain(`bg row ${i}`);
  });

  test("at an interactive shell: Ctrl+Z in the editor of Ctrl+G stops zot with it (the shell gets the terminal), and fg continues both", async () => {
    const dir = tempDir("zot-editor-stop-");
    // As vim does on Ctrl+Z: a SIGTSTP to its whole process group.
    writeFileSync(
      join(dir, "ed.py"),
      "import os, signal, sys\npath = sys.argv[1]\ntext = open(path).read().rstrip('\\n')\nprint('EDITOR UP', flush=True)\nos.kill(0, signal.SIGTSTP)\nprint('EDITOR BACK', flush=True)\nline = sys.stdin.readline().strip()\nopen(path, 'w').write(text + ' + ' + line + '\\n')\n",
    );
    const { session, mock } = runs.start(startMockLlm([{ text: "sent after the editor" }]), { interactiveShell: true, rows: 20, env: { VISUAL: `python3 ${join(dir, "ed.py")}`, EDITOR: "" } });
    await ready(session);
    session.type("draft");
    await session.waitFor((s) => s.lines().includes("> draft"), "the draft");
    session.type("\x07");
    await session.waitFor((s) => /Stopped/.test(s.text()), "the shell's Stopped line");
    session.type("fg\r");
    await session.waitForText("EDITOR BACK");
    session.type("typed after fg\r");
    await session.waitFor((s) => s.lines().includes("> draft + typed after fg"), "the edited prompt in zot");
    session.type("\r");
    await session.waitForText("sent after the editor");
    expect(lastUserText(mock.requests[0]!.body)).toBe("draft + typed after fg");
  });

  test("at an interactive shell: `kill -TSTP` from outside suspends zot as Ctrl+Z does (band off, terminal given back), and fg brings it back once", async () => {
    const { session, pid } = runs.start(startMockLlm([{ text: "answered after kill -TSTP" }]), { interactiveShell: true, rows: 20 });
    await ready(session);
    process.kill(pid(), "SIGTSTP");
    await session.waitFor((s) => /Stopped/.test(s.text()), "the shell's Stopped line");
    expect(session.screen.allLines().join("\n")).not.toContain("ask anything");
    session.type("fg\r");
    await session.waitFor((s) => s.text().split("\n").some((row, i, rows) => /^\$ fg/.test(row) && rows.slice(i).some((r) => r.includes("ask anything"))), "zot back after fg");
    session.type("hi\r");
    await session.waitForText("answered after kill -TSTP");
    expect(count(session.screen.allLines(), "ask anything")).toBe(1);
  });

  test("keys read with Ctrl+Z were typed for the shell: they do not become zot's prompt after fg", async () => {
    const { session, mock } = runs.start(startMockLlm([{ text: "the only answer" }]), { jobControl: SHELL, rows: 20 });
    await ready(session);
    session.type("\x1als -d /\r");
    await session.waitForText("zot stopped");
    session.type("\r");
    await session.waitFor((s) => s.allLines().some((row, i, rows) => row.includes("the shell read:") && rows.slice(i).some((r) => r.includes("ask anything"))), "zot back");
    session.type("two\r");
    await session.waitForText("the only answer");
    expect(mock.requests).toHaveLength(1);
    expect(lastUserText(mock.requests[0].body)).toBe("two");
  });

  test("the window resized while zot is stopped, and narrowed after fg: zot paints at the new size, and the conversation from before the stop stays on screen", async () => {
    const { session } = runs.start(startMockLlm([{ text: "the first answer" }, { text: "the second answer" }]), { jobControl: SHELL, rows: 24, cols: 100 });
    await ready(session);
    session.type("one\r");
    await session.waitForText("the first answer");
    session.type("\x1a");
    await session.waitForText("zot stopped");
    await session.resize(70, 24);
    session.type("\r");
    await session.waitFor((s) => s.text().includes("ask anything"), "zot back");
    // the band fits the new width: its hint row is cut to 70 columns by zot, with its ellipsis, not by the terminal
    expect(session.screen.lines().every((row) => row.length <= 70)).toBe(true);
    session.type("two\r");
    await session.waitForText("the second answer");
    await session.resize(50, 24);
    await session.waitFor((s) => s.lines().join("\n").includes("the second answer"), "the repaint");
    const all = session.screen.allLines().join("\n");
    expect(all).toContain("the first answer");
    expect(all).toContain("› one");
  });
});
