// The workspace trust question in the TUI (dist/zot in a pseudo-terminal): asked once, before any of
// the folder's extensions and hooks start, naming what would run; the answer is remembered by real
// path in $ZOT_HOME/trust.json ("yes" and "no"); Esc starts without them and asks again next time.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scriptedExtension } from "../fixtures/extensions/make.ts";
import { startMockLlm } from "../support/mock-llm.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { tempDir } from "../support/zot.ts";
import { lastUserText, ready } from "../support/zot-pty.ts";

const runs = ptyRuns();
const ESC = "\x1b";

/** A folder holding an extension that leaves a mark when it starts, and a ZOT_HOME. */
function folder() {
  const cwd = tempDir("zot-tui-trust-");
  const home = tempDir("zot-tui-trust-home-");
  const mark = join(tempDir("zot-tui-trust-mark-"), "started");
  scriptedExtension(join(cwd, ".zot", "extensions"), "cloned", { countfile: mark });
  const answers = () => (existsSync(join(home, "trust.json")) ? JSON.parse(readFileSync(join(home, "trust.json"), "utf8")).folders : {});
  return { cwd, home, started: () => existsSync(mark), answers };
}

function start(f: ReturnType<typeof folder>) {
  return runs.start(startMockLlm([]), { cwd: f.cwd, home: f.home, args: ["--no-session"] });
}

const QUESTION = "Trust this folder?";

describe("the trust question", () => {
  test("yes: the extension starts, and the next start does not ask", async () => {
    const f = folder();
    const { session } = start(f);
    await session.waitForText(QUESTION);
    const text = session.screen.text();
    expect(text).toContain(`${f.cwd} has configuration that starts programs when zot starts here:`);
    expect(text).toContain(".zot/extensions: cloned (extensions)");
    expect(text).toContain("1. Yes, trust this folder");
    // nothing of the folder's runs while the question is open
    expect(f.started()).toBe(false);
    session.type("1");
    await ready(session);
    await session.waitFor(() => f.started(), "the extension to start");
    expect(f.answers()[f.cwd]).toMatchObject({ trusted: true });
    session.close();

    const again = start(f);
    await ready(again.session);
    expect(again.session.screen.text()).not.toContain(QUESTION);
  });

  test("the folder's path and its extensions' names are shown with their escapes as marks: a concealing SGR in them hides nothing of the question", async () => {
    const cwd = join(tempDir("zot-tui-trust-"), `proj${ESC}[8m`);
    mkdirSync(cwd);
    const home = tempDir("zot-tui-trust-home-");
    scriptedExtension(join(cwd, ".zot", "extensions"), `${ESC}[8mminer`, { countfile: join(tempDir("zot-tui-trust-mark-"), "started") });
    const { session } = runs.start(startMockLlm([]), { cwd, home, args: ["--no-session"] });
    await session.waitForText(QUESTION);
    const text = session.screen.text().replace(/\s*\n\s*/g, " ");
    expect(text).toContain(`proj\u241b[8m has configuration that starts programs when zot starts here:`);
    expect(text).toContain(".zot/extensions: \u241b[8mminer (extensions)");
    session.close();
  });

  test("yes to a folder whose settings name an apiKeyHelper: the note says it takes effect from the next start", async () => {
    const cwd = tempDir("zot-tui-trust-");
    const home = tempDir("zot-tui-trust-home-");
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify({ apiKeyHelper: "echo folder-key" }));
    const { session } = runs.start(startMockLlm([]), { cwd, home, args: ["--no-session"], env: { HOME: tempDir("zot-tui-trust-user-") } });
    await session.waitForText(QUESTION);
    expect(session.screen.text()).toContain(".claude/settings.json (Claude Code hooks, env and apiKeyHelper)");
    session.type("1");
    await session.waitForText("env, model and apiKeyHelper take effect from the next start");
    session.close();
  });

  test("yes: the folder's skills load in this run, as its commands do; no note says they wait for trust", async () => {
    const f = folder();
    mkdirSync(join(f.cwd, ".claude", "skills", "release"), { recursive: true });
    writeFileSync(join(f.cwd, ".claude", "skills", "release", "SKILL.md"), "---\ndescription: How to cut a release here\n---\nRELEASE SKILL BODY\n");
    mkdirSync(join(f.cwd, ".claude", "commands"), { recursive: true });
    writeFileSync(join(f.cwd, ".claude", "commands", "lint.md"), "LINT COMMAND BODY\n");
    const { session, mock } = runs.start(startMockLlm([{ text: "linted" }, { text: "released" }]), { cwd: f.cwd, home: f.home, args: ["--no-session"], env: { HOME: tempDir("zot-tui-trust-user-") } });
    await session.waitForText(QUESTION);
    session.type("1");
    await ready(session);
    session.type("/lint\r");
    await session.waitForText("linted");
    session.type("/release\r");
    await session.waitForText("released");
    expect(lastUserText(mock.requests[1]!.body)).toBe("RELEASE SKILL BODY");
    expect(session.screen.text()).not.toContain("are not loaded until you trust it");
    // The model is told of it too.
    expect(JSON.stringify(mock.requests[0]!.body.system)).toContain("How to cut a release here");
  });

  test("a prompt typed as zot starts ('1st fix' and Enter) answers nothing: the folder is not trusted, nothing of it runs", async () => {
    const f = folder();
    const { session } = start(f);
    // Typed at once, before the question is drawn: it reaches the app as the question opens.
    session.type("1st fix\r");
    await session.waitForText(QUESTION);
    await session.waitForText("this is a question, not the prompt");
    await Bun.sleep(400);
    expect(session.screen.text()).toContain(QUESTION);
    expect(f.answers()).toEqual({});
    expect(f.started()).toBe(false);
    // Looking at the answers, then a choice: that one counts.
    session.type("\x1b[B");
    session.type("\r");
    await ready(session);
    expect(f.answers()[f.cwd]).toMatchObject({ trusted: false });
    expect(f.started()).toBe(false);
    session.close();
  });

  test("an Enter typed at the shell before zot has the terminal (zot⏎⏎) answers nothing: the folder is not trusted, nothing of it runs", async () => {
    const f = folder();
    const { session } = start(f);
    session.type("\r");
    await session.waitForText(QUESTION);
    await Bun.sleep(400);
    expect(session.screen.text()).toContain(QUESTION);
    expect(f.answers()).toEqual({});
    expect(f.started()).toBe(false);
    session.type(ESC);
    await ready(session);
    session.close();
  });

  test("no: it starts without them, remembers, and says how to trust it", async () => {
    const f = folder();
    const { session } = start(f);
    await session.waitForText(QUESTION);
    session.type("2");
    await ready(session);
    await session.waitForText("zot trust");
    expect(session.screen.text()).toContain(".zot/extensions (cloned) did not run");
    expect(f.started()).toBe(false);
    expect(f.answers()[f.cwd]).toMatchObject({ trusted: false });
    session.close();

    const again = start(f);
    await ready(again.session);
    await again.session.waitForText("is not trusted (you said no on");
    expect(again.session.screen.text()).not.toContain(QUESTION);
    expect(f.started()).toBe(false);
  });

  test("Esc: not now; nothing is remembered and the next start asks again", async () => {
    const f = folder();
    const { session } = start(f);
    await session.waitForText(QUESTION);
    session.type(ESC);
    await ready(session);
    await session.waitForText("not trusted this time");
    expect(f.started()).toBe(false);
    expect(f.answers()).toEqual({});
    session.close();

    const again = start(f);
    await again.session.waitForText(QUESTION);
  });
});
