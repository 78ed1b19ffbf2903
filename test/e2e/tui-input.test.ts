// The interactive app's input through a real pseudo-terminal: the slash popup (built-in and
// extension commands, filter, Tab, Enter), every action of an extension's command, extension notes,
// the @ file picker, and the keys that leave (Ctrl+C twice, Ctrl+D).
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { programExtension } from "../fixtures/extensions/make.ts";
import { startMockLlm } from "../support/mock-llm.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { ROOT, tempDir } from "../support/zot.ts";
import { lastUserText, ready, startZot } from "../support/zot-pty.ts";

const runs = ptyRuns();

function zot(turns: Parameters<typeof startMockLlm>[0], options: Parameters<typeof startZot>[1] = {}) {
  return runs.start(startMockLlm(turns), { ...options, args: ["--no-ext", ...(options.args ?? [])] });
}

/** A python extension with a command per action and a note at start; /forget retracts its notes. */
const NOTES_EXTENSION = `import json, sys
def send(frame):
    sys.stdout.write(json.dumps(frame) + "\\n")
    sys.stdout.flush()
send({"type": "hello", "name": "notes", "version": "1.0.0"})
for name in ["hi", "forget", "fill", "boom", "ask"]:
    send({"type": "register_command", "name": name, "description": "the " + name + " command"})
answers = {
    "hi": {"action": "display", "display": "hello from the extension"},
    "forget": {"action": "noop"},
    "fill": {"action": "insert", "insert": "text from fill"},
    "boom": {"action": "prompt", "error": "it broke"},
    "ask": {"action": "prompt", "prompt": "a prompt from the extension"},
}
for line in sys.stdin:
    frame = json.loads(line)
    if frame["type"] == "hello_ack":
        send({"type": "notify", "level": "warn", "message": "watching this session"})
        send({"type": "ready"})
    elif frame["type"] == "command_invoked":
        if frame["name"] == "forget":
            send({"type": "clear_notes"})
        send(dict(type="command_response", id=frame["id"], **answers[frame["name"]]))
    elif frame["type"] == "shutdown":
        send({"type": "shutdown_ack"})
        break
`;


/** An extension relaying words with escapes in them (a clipboard write, a title) in a note and in a display. */
const ESCAPING_EXTENSION = `import json, sys
def send(frame):
    sys.stdout.write(json.dumps(frame) + "\\n")
    sys.stdout.flush()
send({"type": "hello", "name": "relay", "version": "1.0.0"})
send({"type": "register_command", "name": "relay", "description": "relays a title"})
for line in sys.stdin:
    frame = json.loads(line)
    if frame["type"] == "hello_ack":
        send({"type": "notify", "level": "info", "message": "notify \\u001b]52;c;UFdORUQ=\\u0007text\\u001b]0;TITLE-notify\\u0007 \\u001b[1mbold\\u001b[0m"})
        send({"type": "ready"})
    elif frame["type"] == "command_invoked":
        send({"type": "command_response", "id": frame["id"], "action": "display", "display": "display \\u001b]0;TITLE-display\\u0007text"})
    elif frame["type"] == "shutdown":
        send({"type": "shutdown_ack"})
        break
`;

describe("slash commands", () => {
  test("the popup lists built-ins, then extension commands under a divider; typing filters, Tab completes, the command runs", async () => {
    const weather = join(ROOT, "extensions-examples", "weather");
    const { session, mock } = zot([{ tool_calls: [{ name: "weather", args: { city: "Berlin" } }] }, { text: "It says: {{last_tool_result}}" }], { args: ["--ext", weather] });
    await ready(session);
    session.type("/");
    await session.waitForText("› /help");
    session.type("ea");
    await session.waitForText("── extensions");
    const rows = session.screen.lines();
    const divider = rows.findIndex((row) => row.includes("── extensions"));
    expect(rows.findIndex((row) => row.includes("/clear"))).toBeGreaterThan(-1);
    expect(rows.findIndex((row) => row.includes("/clear"))).toBeLessThan(divider);
    expect(rows.findIndex((row) => row.includes("/weather"))).toBeGreaterThan(divider);
    expect(session.screen.text()).not.toContain("/help");
    session.type("t");
    await session.waitFor((screen) => !screen.text().includes("/clear"), "the list narrowed to /weather");
    expect(session.screen.text()).toContain("› /weather");
    session.type("\t");
    await session.waitFor((screen) => screen.lines().includes("> /weather"), "the name completed into the editor");
    expect(session.screen.text()).not.toContain("── extensions");
    session.type("Berlin\r");
    await session.waitForText("It says: Berlin:");
    expect(lastUserText(mock.requests[0].body)).toContain("What is the weather in Berlin");
    expect(session.screen.text()).toMatch(/╭─ weather · weather /);
  }, 20_000);

  test("Enter in the popup runs the highlighted built-in; an unknown command stays in the editor with an error", async () => {
    const { session, mock } = zot([]);
    await ready(session);
    session.type("/hel");
    await session.waitForText("› /help");
    session.type("\r");
    // The list may be taller than the screen: its heading is then in the scrollback.
    await session.waitFor((screen) => screen.allLines().join("\n").includes("Commands"), "the /help output");
    expect(session.screen.allLines().join("\n")).toContain("/model");
    session.type("/nosuch please\r");
    await session.waitForText("unknown command /nosuch; /help lists the commands");
    expect(session.screen.lines()).toContain("> /nosuch please");
    // Another agent's name for a command points at zot's.
    session.type("\x15/resume\r");
    await session.waitForText("unknown command /resume; zot's is /sessions (a picker of this folder's sessions)");
    session.type("\x15/Cost\r");
    await session.waitForText("unknown command /Cost; zot's is the status bar (the cost so far), or zot sessions list");
    // A built-in's name in any case, with arguments: /JUMP 1 is /jump 1 (which has no turn to show yet).
    session.type("\x15/JUMP 1\r");
    await session.waitForText("no turns to jump to yet");
    expect(session.screen.text()).not.toContain("unknown command /JUMP");
    // A name Object's prototype has is no other agent's command.
    session.type("\x15/constructor\r");
    await session.waitForText("unknown command /constructor; /help lists the commands");
    expect(mock.requests).toHaveLength(0);
  });

  test("an extension command's actions: display (a note with the extension's name), insert, prompt, error; notes clear on clear_notes and on the next prompt", async () => {
    const extensions = tempDir("zot-ext-");
    const dir = programExtension(extensions, "notes", { name: "main.py", text: NOTES_EXTENSION }, { exec: "python3", args: ["main.py"] });
    const { session, mock } = zot([{ text: "answer to the extension" }, { text: "answer to mine" }], { args: ["--ext", dir] });
    await ready(session);
    await session.waitForText("[notes] watching this session");
    session.type("/forget\r");
    await session.waitFor((screen) => !screen.text().includes("watching this session"), "clear_notes to take the note back");
    session.type("/hi\r");
    await session.waitForText("[notes] hello from the extension");
    session.type("/fill\r");
    await session.waitFor((screen) => screen.lines().includes("> text from fill"), "the inserted text in the editor");
    session.type("\x15/boom\r");
    await session.waitForText("/boom (extension notes): it broke");
    expect(mock.requests).toHaveLength(0);
    session.type("/ask\r");
    await session.waitForText("answer to the extension");
    expect(lastUserText(mock.requests[0].body)).toBe("a prompt from the extension");
    expect(session.screen.text()).toContain("› a prompt from the extension");
    expect(session.screen.text()).not.toContain("hello from the extension");
    session.type("/hi\r");
    await session.waitForText("[notes] hello from the extension");
    session.type("mine\r");
    await session.waitForText("answer to mine");
    expect(session.screen.text()).not.toContain("hello from the extension");
  });
});

describe("before and after", () => {
  test("what is typed while zot starts (an extension slow to come up) waits in the queue and is sent once it is up", async () => {
    const extensions = tempDir("zot-ext-");
    const slow = `import json, sys, time
time.sleep(1.5)
sys.stdout.write(json.dumps({"type": "hello", "name": "slow", "version": "1.0.0"}) + "\\n")
sys.stdout.write(json.dumps({"type": "ready"}) + "\\n")
sys.stdout.flush()
for line in sys.stdin:
    if json.loads(line)["type"] == "shutdown":
        break
`;
    const dir = programExtension(extensions, "slow", { name: "main.py", text: slow }, { exec: "python3", args: ["main.py"] });
    const { session, mock } = zot([{ text: "answered after the start" }], { args: ["--ext", dir] });
    await session.waitForText("ask anything");
    expect(session.screen.text()).toContain("starting");
    session.type("early bird\r");
    await session.waitForText("↳ queued: early bird");
    expect(mock.requests).toHaveLength(0);
    await session.waitForText("answered after the start");
    expect(lastUserText(mock.requests[0].body)).toBe("early bird");
  });

  test("a command typed with Enter before zot has the terminal (the shell's cooked mode made the Enter a line feed) runs once it is ready", async () => {
    const { session } = zot([], { rows: 12 });
    session.type("/model haiku\r");
    await ready(session);
    await session.waitForText("model: claude-haiku-5-5");
  });

  test("/jump shows the transcript from an earlier turn in a window; Esc goes back", async () => {
    const long = Array.from({ length: 40 }, (_, i) => `first answer row ${i}`).join("\n\n");
    const { session } = zot([{ text: long }, { text: "second answer" }], { rows: 24 });
    await ready(session);
    session.type("question one\r");
    await session.waitForText("first answer row 39");
    session.type("question two\r");
    await session.waitForText("second answer");
    expect(session.screen.text()).not.toContain("› question one");
    session.type("/jump 1\r");
    await session.waitForText("turn 1 of 2");
    const rows = session.screen.lines();
    const title = rows.findIndex((row) => row.includes("turn 1 of 2"));
    expect(rows.slice(title + 1, title + 3)).toContain("› question one");
    session.type("\x1b[6~");
    await session.waitFor((screen) => !screen.text().includes("› question one"), "the window scrolled a page down");
    session.type("\x1b");
    await session.waitFor((screen) => !screen.text().includes("turn 1 of 2"), "the window closed");
    expect(session.screen.lines().some((row) => row.startsWith("> "))).toBe(true);
  });
});

describe("extension notes", () => {
  test("a note's and a display's escapes (a clipboard write, a title) are not written; their styles are", async () => {
    const dir = programExtension(tempDir("zot-ext-"), "relay", { name: "main.py", text: ESCAPING_EXTENSION }, { exec: "python3", args: ["main.py"] });
    const { session } = zot([], { args: ["--ext", dir] });
    await ready(session);
    await session.waitForText("[relay] notify text bold");
    session.type("/relay\r");
    await session.waitForText("[relay] display text");
    expect(session.output).not.toContain("\x1b]52");
    expect(session.output).not.toContain("TITLE-");
    expect(session.output).toContain("\x1b[1mbold");
  });
});

describe("the @ file picker", () => {
  test("lists the working directory, opens folders; Tab puts the picked path in the prompt, alone", async () => {
    const cwd = tempDir("zot-cwd-");
    mkdirSync(join(cwd, "src"));
    writeFileSync(join(cwd, "src", "app.ts"), "export {};\n");
    writeFileSync(join(cwd, "src", "other.ts"), "export {};\n");
    writeFileSync(join(cwd, "README.md"), "# hi\n");
    const { session, mock } = zot([{ text: "read it" }], { cwd });
    await ready(session);
    session.type("look at @");
    await session.waitForText("README.md");
    expect(session.screen.text()).toContain("src/");
    session.type("sr");
    await session.waitFor((screen) => !screen.text().includes("README.md"), "the list filtered");
    session.type("\r");
    await session.waitFor((screen) => screen.lines().includes("> look at @src/"), "the folder opened");
    await session.waitForText("other.ts");
    session.type("app\t");
    await session.waitFor((screen) => screen.lines().includes("> look at src/app.ts"), "the path in the prompt");
    session.type("please\r");
    await session.waitForText("read it");
    expect(lastUserText(mock.requests[0].body)).toBe("look at src/app.ts please");
  });
});

describe("a file whose name holds escape sequences (a cloned repository can ship one)", () => {
  test("picked with @ and sent, then resumed: its OSC 52 (the clipboard) and OSC 0 (the title) never reach the terminal", async () => {
    const cwd = tempDir("zot-cwd-");
    const name = "READ\x1b]52;c;ZWNobyBQV05FRA==\x07\x1b]0;PWNED-title\x07ME.md";
    writeFileSync(join(cwd, name), "hello\n");
    const first = zot([{ text: "read it" }], { cwd });
    await ready(first.session);
    first.session.type("see @READ");
    // The picker lists the name as it is, each control as a mark.
    await first.session.waitForText("› READ\u241b]52;c;ZWNobyBQV05FRA==\u2407\u241b]0;PWNED-title\u2407ME.md");
    first.session.type("\r");
    await first.session.waitFor((screen) => !screen.text().includes("tab: its path only"), "the file picked");
    first.session.type("\r");
    await first.session.waitForText("read it");
    expect(first.session.screen.text()).toContain("⎿ attached README.md (1 line)");
    expect(lastUserText(first.mock.requests[0].body)).toContain("hello");
    first.session.type("\x04");
    await first.session.exited();
    const resumed = zot([], { cwd, home: first.home, args: ["-c"] });
    await resumed.session.waitForText("⎿ attached README.md (1 line)");
    for (const { session } of [first, resumed]) {
      expect(session.output).not.toContain("\x1b]52");
      expect(session.output).not.toContain("PWNED-title\x07");
    }
  });
});

describe("a big paste", () => {
  test("goes to the model whole, takes a dozen rows of the transcript until Ctrl+O, and one ↑ in the history", async () => {
    const body = Array.from({ length: 200 }, (_, i) => `pasted line ${i}`).join("\n");
    const { session, mock } = zot([{ text: "first answer" }, { text: "got the paste" }]);
    await ready(session);
    session.type("a first prompt\r");
    await session.waitForText("first answer");
    session.type("summarise: ");
    session.paste(body);
    await session.waitForText("[pasted text #1 +200 lines]");
    session.type("\r");
    await session.waitForText("got the paste");
    expect(lastUserText(mock.requests[1]!.body)).toBe(`summarise: ${body}`);
    const all = session.screen.allLines();
    expect(all).toContain("› summarise: pasted line 0");
    expect(all.some((row) => row.includes("pasted line 150"))).toBe(false);
    expect(all.some((row) => /… 189 more rows · ctrl\+o to expand/.test(row))).toBe(true);
    // ↑ brings the paste back, a second ↑ the prompt before it (not the paste's next row up).
    session.type("\x1b[A");
    await session.waitFor((screen) => screen.text().includes("pasted line 199"), "the paste recalled");
    session.type("\x1b[A");
    await session.waitFor((screen) => screen.lines().includes("> a first prompt"), "the prompt before it");
    session.type("\x15\x03");
    session.type("\x0f");
    await session.waitFor((screen) => screen.allLines().some((row) => row.includes("pasted line 150")), "the paste expanded by Ctrl+O");
  });
});

describe("the prompt history", () => {
  test("↑ walks past a bare /command and an @mention without opening their popups, and Enter sends the entry again", async () => {
    const { session, mock, cwd } = zot([{ text: "ok1" }, { text: "ok2" }, { text: "ok3" }, { text: "ok4" }]);
    writeFileSync(join(cwd, "notes.md"), "the notes\n");
    await ready(session);
    session.type("first prompt\r");
    await session.waitForText("ok1");
    session.type("/help");
    await session.waitForText("› /help");
    session.type("\r");
    await session.waitForText("ask anything");
    session.type("explain @notes.md");
    await session.waitForText("notes.md");
    session.type("\x1b");
    await session.waitFor((screen) => !screen.text().includes("tab: its path only"), "Esc to close the picker");
    session.type("\r");
    await session.waitForText("ok2");
    session.type("last\r");
    await session.waitForText("ok3");
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const before = session.screen.lines().find((row) => row.startsWith("> "));
      session.type("\x1b[A");
      await session.waitFor((screen) => screen.lines().find((row) => row.startsWith("> ")) !== before, `↑ number ${i + 1} to change the editor`);
      seen.push(session.screen.lines().find((row) => row.startsWith("> "))!);
    }
    expect(seen).toEqual(["> last", "> explain @notes.md", "> /help", "> first prompt"]);
    session.type("\x1b[B\x1b[B");
    await session.waitFor((screen) => screen.lines().includes("> explain @notes.md"), "↓ ↓ back at the mention");
    expect(session.screen.text()).not.toContain("tab: its path only"); // the picker's hint: closed
    session.type("\x7f"); // typing on the recalled entry opens the picker as usual
    await session.waitForText("tab: its path only");
    session.type("d\x1b");
    await session.waitFor((screen) => !screen.text().includes("tab: its path only") && screen.lines().includes("> explain @notes.md"), "the picker closed by Esc");
    session.type("\r");
    await session.waitForText("ok4");
    expect(lastUserText(mock.requests[3]!.body)).toContain("the notes");
  });

  test("a draft's paste survives Esc and Ctrl+C: ↑ brings it back whole, and it goes to the model whole", async () => {
    const body = Array.from({ length: 20 }, (_, i) => `log line ${i}`).join("\n");
    const { session, mock } = zot([{ text: "got it" }]);
    await ready(session);
    session.type("D: ");
    session.paste(body);
    await session.waitForText("[pasted text #1 +20 lines]");
    session.type("\x1b");
    await session.waitFor((screen) => screen.text().includes("ask anything"), "Esc cleared the editor");
    session.type("\x1b[A");
    await session.waitForText("log line 19");
    session.type("\x03");
    await session.waitForText("input cleared");
    session.type("\x1b[A");
    await session.waitForText("log line 19");
    session.type("\x1b[F\r");
    await session.waitForText("got it");
    expect(lastUserText(mock.requests[0]!.body)).toBe(`D: ${body}`);
  });
});

describe("Ctrl+R", () => {
  test("searches the earlier prompts: typing narrows, Ctrl+C leaves the draft, Esc takes the match to edit (↓ gives the draft back), Enter sends it", async () => {
    const { session, mock } = zot([{ text: "ok1" }, { text: "ok2" }, { text: "ok3" }, { text: "ok4" }]);
    await ready(session);
    for (const [i, prompt] of ["deploy the staging build", "run the unit tests", "check the logs"].entries()) {
      session.type(`${prompt}\r`);
      await session.waitForText(`ok${i + 1}`);
    }
    const editorRow = () => session.screen.lines().find((row) => row.startsWith("> "));
    session.type("/he");
    await session.waitForText("› /help");
    session.type("\x12"); // the popup closes, the search opens over the text typed
    await session.waitFor((screen) => screen.text().includes("search prompts:") && !screen.text().includes("› /help"), "the search instead of the popup");
    session.type("stag");
    await session.waitFor(() => editorRow() === "> deploy the staging build", "the match for 'stag'");
    session.type("\x03");
    await session.waitFor((screen) => editorRow() === "> /he" && !screen.text().includes("search prompts:"), "Ctrl+C to end the search");
    expect(session.screen.text()).not.toContain("input cleared"); // it cancelled the search, not the draft
    session.type("\x12UNIT");
    await session.waitFor(() => editorRow() === "> run the unit tests", "the match for 'UNIT'");
    session.type("\x1b");
    await session.waitFor((screen) => !screen.text().includes("search prompts:") && editorRow() === "> run the unit tests", "Esc to take the match");
    session.type("\x1b[B");
    await session.waitFor(() => editorRow() === "> check the logs", "↓ to the prompt after the match, as in a shell");
    session.type("\x1b[B");
    await session.waitFor(() => editorRow() === "> /he", "↓ past the newest to bring the draft back");
    session.type("\x12logs\r");
    await session.waitForText("ok4");
    expect(lastUserText(mock.requests[3]!.body)).toBe("check the logs");
  });
});

describe("Ctrl+G", () => {
  /** An editor that shows it has the terminal, reads a line typed there and adds it to the prompt's file. */
  const EDITOR = `import os, sys
path = sys.argv[1]
text = open(path).read()
runs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runs")
n = len(open(runs).read()) + 1 if os.path.exists(runs) else 1
open(runs, "w").write("x" * n)
sys.stdout.write("EDITOR HAS THE TERMINAL, RUN %d\\n" % n)
sys.stdout.flush()
line = sys.stdin.readline().strip()
open(path, "w").write(text.rstrip("\\n").upper() + " + " + line + "\\n")
`;

  test("opens the prompt in $EDITOR, which has the keyboard; what it saves is the prompt (Ctrl+_ gives the old one back), and Enter sends it", async () => {
    const dir = tempDir("zot-editor-");
    writeFileSync(join(dir, "ed.py"), EDITOR);
    const { session, mock } = zot([{ text: "ok1" }], { env: { VISUAL: "", EDITOR: `python3 ${join(dir, "ed.py")}` } });
    await ready(session);
    session.type("fix the bug");
    await session.waitFor((screen) => screen.lines().includes("> fix the bug"), "the draft");
    session.type("\x07");
    await session.waitForText("EDITOR HAS THE TERMINAL, RUN 1");
    session.type("in the parser\r"); // typed into the editor, not zot
    await session.waitFor((screen) => screen.lines().includes("> FIX THE BUG + in the parser"), "the edited prompt back in zot");
    session.type("\x1f");
    await session.waitFor((screen) => screen.lines().includes("> fix the bug"), "Ctrl+_ to undo the edit");
    session.type("\x07");
    await session.waitForText("EDITOR HAS THE TERMINAL, RUN 2");
    session.type("again\r");
    await session.waitFor((screen) => screen.lines().includes("> FIX THE BUG + again"), "edited once more");
    session.type("\r");
    await session.waitForText("ok1");
    expect(lastUserText(mock.requests[0]!.body)).toBe("FIX THE BUG + again");
  });

  test("a Ctrl+C while the editor waits in a cooked terminal (a window editor's --wait) ends the editor, not zot", async () => {
    const dir = tempDir("zot-editor-");
    writeFileSync(join(dir, "wait.py"), "import sys, time\nprint('WAITING FOR THE WINDOW', flush=True)\ntime.sleep(60)\n");
    const { session } = zot([], { env: { VISUAL: `python3 ${join(dir, "wait.py")}`, EDITOR: "" } });
    await ready(session);
    session.type("draft stays");
    await session.waitFor((screen) => screen.lines().includes("> draft stays"), "the draft");
    session.type("\x07");
    await session.waitForText("WAITING FOR THE WINDOW");
    session.type("\x03"); // the terminal is cooked now: a SIGINT to every process in the foreground group
    await session.waitForText("the prompt is as it was");
    expect(session.screen.lines()).toContain("> draft stays");
    session.type(" still here");
    await session.waitFor((screen) => screen.lines().includes("> draft stays still here"), "zot still taking keys");
  });

  test("what the editor saves is cleaned as a paste is (CRLF, escape sequences); an editor that saves nothing leaves the prompt as it was, its trailing newline and paste chip too", async () => {
    const dir = tempDir("zot-editor-");
    writeFileSync(join(dir, "dirty.py"), "import sys\nopen(sys.argv[1], 'w').write('one\\r\\ntwo \\x1b[2J\\x1b[31mred\\x1b[0m\\x07\\r\\n')\n");
    const { session, mock } = zot([{ text: "ok1" }], { env: { VISUAL: `python3 ${join(dir, "dirty.py")}`, EDITOR: "" } });
    await ready(session);
    session.type("\x07");
    await session.waitFor((screen) => screen.lines().includes("> one") && screen.lines().some((row) => row.trim() === "two red"), "the cleaned text");
    session.type("\r");
    await session.waitForText("ok1");
    expect(lastUserText(mock.requests[0]!.body)).toBe("one\ntwo red");

    const { session: kept } = zot([], { env: { VISUAL: "true", EDITOR: "" } });
    await ready(kept);
    kept.type("first line\x1b\r");
    kept.paste(`${Array.from({ length: 20 }, (_, i) => `log ${i}`).join("\n")}\n`); // a paste ending in a newline, as most do
    await kept.waitForText("[pasted text #1 +20 lines]");
    kept.type("\x07");
    await Bun.sleep(300);
    await kept.waitForText("[pasted text #1 +20 lines]");
    expect(kept.screen.text()).not.toContain("log 19");
  });

  test("zot ending while the editor runs (SIGTERM) ends the editor first and removes its file; what the editor left running on its own outlives zot", async () => {
    const dir = tempDir("zot-editor-");
    const marker = join(dir, "instance.pid");
    // A window editor's first run: it leaves its instance running (detached), then waits.
    writeFileSync(join(dir, "gui.sh"), `#!/bin/sh\nsetsid sleep 300 </dev/null >/dev/null 2>&1 &\necho $! > ${marker}\necho "$1" > ${join(dir, "file-was")}\necho EDITOR WAITING\nexec sleep 300\n`);
    const { session, pid } = runs.start(startMockLlm([{ tool_calls: [{ name: "bash", args: { command: "echo tool ran" } }] }, { text: "done" }]), {
      args: ["--no-ext"],
      env: { VISUAL: `sh ${join(dir, "gui.sh")}`, EDITOR: "" },
    });
    await ready(session);
    session.type("run a tool\r"); // zot has spawned a child of its own: it claims every descendant now
    await session.waitForText("done");
    session.type("\x07");
    await session.waitForText("EDITOR WAITING");
    const instance = Number(readFileSync(marker, "utf8"));
    const file = readFileSync(join(dir, "file-was"), "utf8").trim();
    const zotPid = pid();
    const began = Date.now();
    process.kill(zotPid, "SIGTERM");
    for (let i = 0; i < 100 && existsSync(`/proc/${zotPid}`); i++) await Bun.sleep(50);
    expect(existsSync(`/proc/${zotPid}`)).toBe(false);
    expect(Date.now() - began).toBeLessThan(5000);
    expect(existsSync(file)).toBe(false);
    try {
      expect(existsSync(`/proc/${instance}`)).toBe(true);
    } finally {
      try {
        process.kill(instance, "SIGKILL");
      } catch {}
    }
  });

  test("an editor that fails leaves the prompt as it was and says why; one not found says how to set one", async () => {
    const { session } = zot([], { env: { VISUAL: "sh -c 'exit 3'", EDITOR: "" } });
    await ready(session);
    session.type("keep me");
    await session.waitFor((screen) => screen.lines().includes("> keep me"), "the draft");
    session.type("\x07");
    await session.waitForText("exited with code 3; the prompt is as it was");
    expect(session.screen.lines()).toContain("> keep me");
    const missing = zot([], { env: { VISUAL: "no-such-editor-zot", EDITOR: "" } }).session;
    await ready(missing);
    missing.type("\x07");
    await missing.waitForText("no-such-editor-zot was not found; set VISUAL or EDITOR");
  });
});

describe("leaving", () => {
  test("Ctrl+C clears the editor, a second Ctrl+C within 2 s exits 0 and gives the terminal back", async () => {
    const { session } = zot([]);
    await ready(session);
    session.type("a draft");
    await session.waitFor((screen) => screen.lines().includes("> a draft"), "the draft");
    session.type("\x03");
    await session.waitForText("input cleared · ctrl+c again to exit");
    expect(session.screen.text()).toContain("ask anything");
    session.type("\x03");
    expect(await session.exited()).toBe(0);
    expect(session.screen.cursorHidden).toBe(false);
    expect(session.screen.bracketedPaste).toBe(false);
  });

  test("Ctrl+D deletes forward while there is text and exits on an empty editor", async () => {
    const { session } = zot([]);
    await ready(session);
    session.type("ab\x1b[D\x04");
    await session.waitFor((screen) => screen.lines().includes("> a"), "the character under the cursor deleted");
    expect(session.proc.exitCode).toBeNull();
    session.type("\x15\x04");
    expect(await session.exited()).toBe(0);
  });
});


