// What the TUI shows of its sessions, through a real pseudo-terminal (dist/zot against the mock
// LLM): the context share in the status bar after a resume and after /clear, the model /sessions
// lists for a session that switched models, and where /session export writes.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm } from "../support/mock-llm.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { ready, startZot } from "../support/zot-pty.ts";
import { tempDir } from "../support/zot.ts";

const runs = ptyRuns();

/** zot against this test's mock LLM (one per test, shared by every zot the test starts) */
function zot(options: Parameters<typeof startZot>[1] = {}) {
  return runs.start(runs.mock ?? startMockLlm(), options);
}

// The default model's window is 1M: after the call the share is a few tenths of a percent (not 0.0%).
const CONTEXT = /(?!0\.0%)\d+\.\d%\/1\.0M/;
const LONG = "tell me about it ".repeat(400);

describe("the context share in the status bar", () => {
  test("is there after a resume (-c), before any new call, and after /clear (0.0%)", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    const first = zot({ home, cwd });
    first.mock.push({ text: "a long answer. ".repeat(200) });
    await ready(first.session);
    first.session.type(`${LONG}\r`);
    await first.session.waitFor((screen) => CONTEXT.test(screen.text()), "the context share after a call");
    first.session.type("/exit\r");
    expect(await first.session.exited()).toBe(0);

    const second = zot({ home, cwd, args: ["-c"] });
    await ready(second.session);
    await second.session.waitForText("resumed session");
    const share = /(\d+\.\d)%\/1\.0M/.exec(second.session.screen.text());
    expect(share).not.toBeNull();
    expect(Number(share![1])).toBeGreaterThan(0);

    second.session.type("/clear\r");
    await second.session.waitForText("transcript cleared");
    await second.session.waitFor((screen) => screen.text().includes("0.0%/1.0M"), "0.0% after /clear");
  });
});

describe("/sessions", () => {
  test("lists the model a session is on now, after a /model switch in it, whether or not a prompt followed", async () => {
    const { session, mock } = zot({ rows: 40 });
    mock.push({ text: "first answer" }, { text: "second answer" });
    await ready(session);
    session.type("question one\r");
    await session.waitForText("first answer");
    session.type("/model claude-haiku-4-5\r");
    await session.waitForText("model: claude-haiku-4-5");
    session.type("/clear\r");
    await session.waitForText("transcript cleared");
    session.type("question two\r");
    await session.waitForText("second answer");
    session.type("/model claude-opus-4-5\r");
    await session.waitForText("model: claude-opus-4-5");
    session.type("/sessions\r");
    await session.waitForText("Resume a session");
    const rows = session.screen.lines();
    // The picker's rows (the chat above has the prompts too).
    const earlier = rows.find((line) => line.includes("question one") && line.includes(" · "));
    const current = rows.find((line) => line.includes("question two") && line.includes(" · "));
    expect(earlier).toContain("claude-haiku-4-5");
    expect(current).toContain("claude-opus-4-5");
    expect(current).toContain("this session");
  });
});

describe("/session export", () => {
  test("with no file named, writes to $ZOT_HOME/exports and leaves the project alone; a named file goes where the user says", async () => {
    const { session, mock, home, cwd } = zot({ cols: 160 });
    mock.push({ text: "recorded answer" });
    await ready(session);
    session.type("something to record\r");
    await session.waitForText("recorded answer");
    session.type("/session export\r");
    await session.waitForText("exported session");
    const exports = join(home, "exports");
    const files = readdirSync(exports);
    expect(files).toHaveLength(1);
    expect(files[0]).toEndWith(".zotsession");
    expect(session.screen.text()).toContain(join(exports, files[0]!));
    expect(readdirSync(cwd)).toEqual([]);

    session.type("/session export notes/shared\r");
    await session.waitFor((screen) => screen.text().includes("notes/shared.zotsession") || screen.text().includes("could not write"), "the named export");
    expect(session.screen.text()).toContain("could not write");
    session.type("/session export shared\r");
    await session.waitForText(join(cwd, "shared.zotsession"));
    expect(existsSync(join(cwd, "shared.zotsession"))).toBe(true);
  });
});

describe("leaving zot", () => {
  /** The ids of the sessions recorded under `home`. */
  const recorded = (home: string) => [...new Bun.Glob("sessions/**/*.jsonl").scanSync(home)].map((file) => file.split("/").at(-1)!.replace(/\.jsonl$/, ""));

  test("Ctrl+C twice: the scrollback keeps the transcript, not the status bar, editor or hints; one line says how to resume, and that resumes it", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    const { session, mock } = zot({ home, cwd, after: "echo shell-after-zot" });
    mock.push({ text: "the recorded answer" }, { text: "answered again" });
    await ready(session);
    session.type("remember this\r");
    await session.waitForText("the recorded answer");
    session.type("\x03");
    await session.waitForText("ctrl+c again to exit");
    session.type("\x03");
    await session.exited();
    const [id] = recorded(home);
    expect(id).toBeDefined();
    const rows = session.screen.allLines();
    const text = rows.join("\n");
    expect(text).toContain("the recorded answer");
    expect(rows).toContain(`resume this session with: zot -r ${id}`);
    for (const chrome of ["ask anything", "ctrl+c again to exit", "(anthropic)", cwd]) expect(text).not.toContain(chrome);
    // The hint comes after the transcript, the shell after the hint.
    const at = (needle: string) => rows.findIndex((row) => row.includes(needle));
    expect(at("the recorded answer")).toBeLessThan(at("resume this session with"));
    expect(at("resume this session with")).toBeLessThan(at("zot exited 0"));

    const again = zot({ home, cwd, args: ["-r", id!] });
    await ready(again.session);
    await again.session.waitForText("resumed session");
    expect(again.session.screen.text()).toContain("the recorded answer");
  });

  test("-r with an id or a session file that is not there ends zot with an error naming it, before the picker; it never becomes the prompt", async () => {
    for (const ref of ["20261127-9999", "./no-such.jsonl"]) {
      const home = tempDir("zot-home-");
      const { session, mock } = zot({ home, args: ["-r", ref], after: "echo shell-after-zot" });
      mock.push({ text: "the typo reached the model" });
      await session.waitForText("shell-after-zot");
      const text = session.screen.allLines().join("\n");
      expect(text).toContain("zot exited 2");
      expect(text).toContain(ref.startsWith(".") ? "no session file" : `no session "${ref}"`);
      expect(text).toContain("zot sessions list");
      expect(text).not.toContain("resume which session?");
      expect(mock.requests).toHaveLength(0);
      expect(recorded(home)).toEqual([]);
    }
  });

  test("no line about resuming with --no-session, or when nothing was said (no session file); /exit and Ctrl+D leave no chrome either", async () => {
    for (const [args, leave] of [
      [["--no-session"], "/exit\r"],
      [[], "\x04"],
    ] as const) {
      const home = tempDir("zot-home-");
      const { session, mock } = zot({ home, args: [...args], after: "echo shell-after-zot" });
      if (args.length > 0) mock.push({ text: "an unrecorded answer" });
      await ready(session);
      if (args.length > 0) {
        session.type("say something\r");
        await session.waitForText("an unrecorded answer");
      }
      session.type(leave);
      await session.exited();
      const text = session.screen.allLines().join("\n");
      expect(text).toContain("shell-after-zot");
      expect(text).not.toContain("resume this session");
      expect(text).not.toContain("ask anything");
      expect(recorded(home)).toEqual([]);
    }
  });
});
