import { describe, expect, test } from "bun:test";
import { EventEmitter } from "node:events";
import type { Component } from "../../src/tui/component.ts";
import { Dialog } from "../../src/tui/dialog.ts";
import { Editor } from "../../src/tui/editor.ts";
import { type Key, keyId } from "../../src/tui/keys.ts";
import { Terminal } from "../../src/tui/terminal.ts";
import { DIGIT_SETTLE_MS } from "../../src/tui/stray-typing.ts";
import { createTheme } from "../../src/tui/theme.ts";
import { Tui } from "../../src/tui/tui.ts";

/** stdin and stdout stand-ins: what the terminal wrote, raw mode, and a way to type. */
function fakeTerminal() {
  const input = Object.assign(new EventEmitter(), {
    isTTY: true,
    raw: false,
    setRawMode(mode: boolean) {
      input.raw = mode;
    },
    resume() {},
    pause() {},
  });
  const written: string[] = [];
  const output = Object.assign(new EventEmitter(), { columns: 40, rows: 10, write: (data: string) => void written.push(data) });
  const terminal = new Terminal({ input, output, handleSignals: false, escapeTimeoutMs: 5 });
  return { terminal, input, output, written, send: (data: string) => input.emit("data", Buffer.from(data)) };
}

describe("Terminal", () => {
  test("start: raw mode, bracketed paste, the Kitty query; stop restores every mode it set", () => {
    const t = fakeTerminal();
    t.terminal.start({ input() {}, resize() {} });
    expect(t.input.raw).toBe(true);
    expect(t.written.join("")).toBe("\x1b[?2004h\x1b[?u\x1b[c");
    t.send("\x1b[?1u\x1b[?62c");
    expect(t.terminal.keyboard).toBe("kitty");
    expect(t.written.at(-1)).toBe("\x1b[>1u");
    t.terminal.beforeRestore(() => "<park>");
    t.terminal.stop();
    expect(t.input.raw).toBe(false);
    expect(t.written.at(-1)).toBe("<park>\x1b[?2026l\x1b[?7h\x1b[<u\x1b[?2004l\x1b[0m\x1b[?25h");
    t.terminal.stop(); // twice is harmless
    expect(t.written.filter((data) => data.includes("<park>"))).toHaveLength(1);
  });

  test("a terminal that answers only device attributes gets modifyOtherKeys", () => {
    const t = fakeTerminal();
    t.terminal.start({ input() {}, resize() {} });
    t.send("\x1b[?1;2c");
    expect(t.terminal.keyboard).toBe("modifyOtherKeys");
    expect(t.written.at(-1)).toBe("\x1b[>4;2m");
    t.terminal.stop();
    expect(t.written.at(-1)).toContain("\x1b[>4;0m");
  });

  test("input: keys and pastes reach the handler, replies do not; a lone ESC after the timeout", async () => {
    const t = fakeTerminal();
    const seen: string[] = [];
    t.terminal.start({ input: (event) => seen.push(event.type === "key" ? keyId(event.key) : `paste:${event.text}`), resize() {} });
    t.send("a\x1b[?62c\x1b[200~p\x1b[201~\x1b");
    expect(seen).toEqual(["a", "paste:p"]);
    await Bun.sleep(30);
    expect(seen).toEqual(["a", "paste:p", "escape"]);
    // A UTF-8 character split across two reads arrives whole.
    const bytes = Buffer.from("日");
    t.input.emit("data", bytes.subarray(0, 1));
    t.input.emit("data", bytes.subarray(1));
    expect(seen.at(-1)).toBe("日");
    t.terminal.stop();
  });

  test("stop reads the answer to the startup query before it gives the terminal back, so the shell never gets it", async () => {
    const t = fakeTerminal();
    const seen: string[] = [];
    t.terminal.start({ input: (event) => seen.push(event.type), resize() {} });
    const stopped = t.terminal.stop();
    await Bun.sleep(20);
    // Still raw and reading: the answer, when it comes, is zot's to read.
    expect(t.input.raw).toBe(true);
    expect(t.input.listenerCount("data")).toBe(1);
    t.send("x\x1b[?1u");
    t.send("\x1b[?62c");
    await stopped;
    expect(t.input.raw).toBe(false);
    expect(t.input.listenerCount("data")).toBe(0);
    // Nothing more was switched on for the few milliseconds left, and keys typed meanwhile went nowhere.
    expect(t.written.join("")).not.toContain("\x1b[>1u");
    expect(t.written.join("")).not.toContain("\x1b[>4;2m");
    expect(seen).toEqual([]);
  });

  test("a terminal that never answers holds stop up for the query's wait only", async () => {
    const t = fakeTerminal();
    t.terminal.start({ input() {}, resize() {} });
    const started = performance.now();
    await t.terminal.stop();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(t.input.raw).toBe(false);
  });

  test("resize events reach the handler", () => {
    const t = fakeTerminal();
    let resized = 0;
    t.terminal.start({ input() {}, resize: () => resized++ });
    t.output.columns = 60;
    t.output.emit("resize");
    expect(resized).toBe(1);
    expect(t.terminal.columns).toBe(60);
    t.terminal.stop();
  });

  test("suspend: gives the terminal back before the stop (raw mode off, every mode reset, the hooks' output first) and takes it again after, with the keyboard protocol as negotiated", async () => {
    const order: string[] = [];
    const t = fakeTerminal();
    const terminal = new Terminal({
      input: t.input,
      output: t.output,
      handleSignals: false,
      // Stopped until the shell continues it: the continuation is a real SIGCONT.
      stopProcess: () => {
        order.push(`stop raw=${t.input.raw} last=${JSON.stringify(t.written.at(-1))}`);
        process.kill(process.pid, "SIGCONT");
      },
    });
    terminal.beforeRestore(() => "<park>");
    terminal.start({ input() {}, resize() {} });
    expect(terminal.canSuspend).toBe(false); // the startup query is not answered yet: its answer would reach the shell
    expect(await terminal.suspend()).toBe(false);
    expect(order).toEqual([]);
    t.send("\x1b[?1u\x1b[?62c");
    expect(terminal.keyboard).toBe("kitty");
    expect(terminal.canSuspend).toBe(true);
    const stopped = terminal.suspend();
    expect(order).toEqual([`stop raw=false last=${JSON.stringify("<park>\x1b[?2026l\x1b[?7h\x1b[<u\x1b[?2004l\x1b[0m\x1b[?25h")}`]);
    // taken again before suspend() returns, raw mode set anew (a shell may have changed it meanwhile)
    expect(t.input.raw).toBe(true);
    expect(t.written.at(-1)).toBe("\x1b[?2004h\x1b[>1u");
    expect(await stopped).toBe(true);
    expect(process.listenerCount("SIGCONT")).toBe(0);
    // Still started: stop() gives the terminal back once more.
    terminal.stop();
    expect(t.input.raw).toBe(false);
    expect(t.written.filter((data) => data.includes("<park>"))).toHaveLength(2);
  });

  test("suspend where nothing stops the process (the signal discarded, or the stop failing): the terminal is taken again at once, and suspend says so", async () => {
    const t = fakeTerminal();
    let stops = 0;
    const terminal = new Terminal({ input: t.input, output: t.output, handleSignals: false, keyboard: "legacy", stopProcess: () => void stops++ });
    terminal.start({ input() {}, resize() {} });
    const stopped = terminal.suspend();
    expect(stops).toBe(1);
    expect(t.input.raw).toBe(true);
    expect(t.written.at(-1)).toBe("\x1b[?2004h");
    // a second Ctrl+Z while the first waits for its answer does nothing
    expect(terminal.canSuspend).toBe(false);
    expect(await stopped).toBe(false);
    expect(terminal.canSuspend).toBe(true);
    terminal.stop();
    const failing = new Terminal({
      input: t.input,
      output: t.output,
      handleSignals: false,
      keyboard: "legacy",
      stopProcess: () => {
        throw new Error("EPERM");
      },
    });
    failing.start({ input() {}, resize() {} });
    expect(await failing.suspend()).toBe(false);
    expect(t.input.raw).toBe(true);
    failing.stop();
    expect(failing.canSuspend).toBe(false);
  });
});

describe("Tui", () => {
  const keyOf = (name: string, mods: Partial<Key> = {}): Key => ({ name, ctrl: false, alt: false, shift: false, ...mods });

  test("key handlers see keys first, then the focused component; focus moves the cursor", async () => {
    const t = fakeTerminal();
    const tui = new Tui(t.terminal);
    const theme = createTheme({ color: false });
    const editor = new Editor(theme);
    const seen: string[] = [];
    const other: Component = {
      render: () => ["other"],
      handleKey: (key) => {
        seen.push(`other:${keyId(key)}`);
        return true;
      },
    };
    tui.root.add(editor).add(other);
    tui.setFocus(editor);
    tui.onKey((key) => {
      seen.push(`handler:${keyId(key)}`);
      return keyId(key) === "ctrl+c";
    });
    tui.start();
    t.send("hi\x03");
    expect(editor.text).toBe("hi");
    expect(seen).toEqual(["handler:h", "handler:i", "handler:ctrl+c"]);
    tui.setFocus(other);
    expect(editor.focused).toBe(false);
    t.send("x");
    expect(seen.at(-1)).toBe("other:x");
    expect(editor.text).toBe("hi");
    tui.stop();
  });

  test("a question that opens while the prompt is being typed is told so; a number that answered one question is no typing for the next", async () => {
    const t = fakeTerminal();
    const tui = new Tui(t.terminal);
    const theme = createTheme({ color: false });
    const editor = new Editor(theme);
    const answers: string[] = [];
    const question = (title: string, next?: () => void) => {
      const dialog = new Dialog(theme, { title, choices: ["yes", "no"].map((label) => ({ label, value: `${title}:${label}` })) });
      dialog.onChoose = (value) => {
        answers.push(value);
        tui.root.remove(dialog);
        tui.setFocus(next ? (next(), tui.focus) : editor);
      };
      return dialog;
    };
    const open = (dialog: Dialog) => {
      tui.root.add(dialog);
      tui.setFocus(dialog);
    };
    const onScreen = () => tui.root.render(80).map((row) => Bun.stripANSI(row)).join("\n");
    tui.root.add(editor);
    tui.setFocus(editor);
    tui.start();
    // Two questions in a row (two tool calls to confirm), each answered by its number at once.
    const second = question("Allow write?");
    open(question("Allow bash?", () => open(second)));
    t.send("1");
    await Bun.sleep(DIGIT_SETTLE_MS + 20);
    expect(answers).toEqual(["Allow bash?:yes"]);
    expect(onScreen()).not.toContain("this is a question, not the prompt");
    t.send("2");
    await Bun.sleep(DIGIT_SETTLE_MS + 20);
    expect(answers).toEqual(["Allow bash?:yes", "Allow write?:no"]);
    expect(tui.focus).toBe(editor);
    // Typing a prompt (not sent) just before a question opens still makes it refuse numbers.
    t.send("fix step ");
    open(question("Trust this folder?"));
    t.send("1");
    await Bun.sleep(DIGIT_SETTLE_MS + 20);
    expect(answers).toHaveLength(2);
    expect(onScreen()).toContain("this is a question, not the prompt");
    await tui.stop();
  });

  test("Ctrl+L nobody used clears screen and scrollback", async () => {
    const t = fakeTerminal();
    const tui = new Tui(t.terminal);
    tui.root.add({ render: () => ["content"] });
    tui.start();
    t.send("\x0c");
    await Bun.sleep(40);
    expect(tui.renderer.stats.fullRedraws).toBe(1);
    expect(t.written.join("")).toContain("\x1b[3J");
    tui.stop();
  });

  test("stop paints what is pending, parks the cursor below the frame and restores the terminal", async () => {
    const t = fakeTerminal();
    const tui = new Tui(t.terminal);
    const text = { value: "first", render: () => [text.value] };
    tui.root.add(text);
    tui.start();
    t.send("\x1b[?62c");
    text.value = "last";
    tui.requestRender();
    await tui.stop();
    const out = t.written.join("");
    expect(out).toContain("last");
    expect(out.indexOf("last")).toBeLessThan(out.lastIndexOf("\r\n"));
    expect(out).toEndWith("\x1b[?25h");
    expect(t.input.raw).toBe(false);
  });
});
