import { describe, expect, test } from "bun:test";
import { CURSOR_MARKER } from "../../src/tui/component.ts";
import { EditBuffer } from "../../src/tui/edit-buffer.ts";
import { Editor, layoutRows } from "../../src/tui/editor.ts";
import { decodeKey } from "../../src/tui/keys.ts";
import { PASTE_CHIP, PasteStore, normalizePaste, quoteDroppedPaths } from "../../src/tui/paste.ts";
import { PromptHistory } from "../../src/tui/prompt-history.ts";
import { createTheme } from "../../src/tui/theme.ts";
import { visibleWidth } from "../../src/tui/width.ts";

const theme = createTheme({ color: false });

/** Feeds raw terminal input to the editor, one decoded key per sequence. */
function type(editor: Editor, ...sequences: string[]): boolean[] {
  return sequences.map((sequence) => {
    const key = decodeKey(sequence);
    if (!key) throw new Error(`no key for ${JSON.stringify(sequence)}`);
    return editor.handleKey(key);
  });
}
const typeText = (editor: Editor, text: string) => type(editor, ...Array.from(text));
/** Text with the cursor shown as "|". */
const shown = (editor: Editor) => `${editor.text.slice(0, editor.cursor)}|${editor.text.slice(editor.cursor)}`;

const KEYS = {
  left: "\x1b[D",
  right: "\x1b[C",
  up: "\x1b[A",
  down: "\x1b[B",
  home: "\x1b[H",
  end: "\x1b[F",
  altLeft: "\x1b[1;3D",
  altRight: "\x1b[1;3C",
  ctrlLeft: "\x1b[1;5D",
  altEnter: "\x1b\r",
  shiftEnter: "\x1b[13;2u",
  altBackspace: "\x1b\x7f",
  backspace: "\x7f",
  delete: "\x1b[3~",
};

describe("EditBuffer", () => {
  test("the cursor steps over whole graphemes", () => {
    const buffer = new EditBuffer();
    buffer.setText("a👨‍👩‍👧‍👦e\u0301");
    buffer.left();
    expect(buffer.cursor).toBe(buffer.text.length - 2);
    buffer.left();
    buffer.backspace();
    expect(buffer.text).toBe("👨‍👩‍👧‍👦e\u0301");
    buffer.right();
    buffer.backspace();
    expect(buffer.text).toBe("e\u0301");
  });

  test("an atom moves and deletes as one unit", () => {
    const buffer = new EditBuffer(/\[chip \d\]/g);
    buffer.setText("ab[chip 1]cd", 4);
    expect(buffer.cursor).toBe(10); // snapped out of the chip
    buffer.left();
    expect(buffer.cursor).toBe(2);
    buffer.right();
    expect(buffer.cursor).toBe(10);
    buffer.backspace();
    expect(buffer.text).toBe("abcd");
  });
});

describe("Editor keys", () => {
  test("typing, moving and deleting", () => {
    const editor = new Editor(theme);
    typeText(editor, "hello world");
    type(editor, KEYS.left, KEYS.left, KEYS.backspace);
    expect(shown(editor)).toBe("hello wo|ld");
    type(editor, KEYS.home);
    expect(shown(editor)).toBe("|hello wold");
    type(editor, KEYS.delete, "\x1b[C");
    expect(shown(editor)).toBe("e|llo wold");
    type(editor, "\x05"); // Ctrl+E
    expect(shown(editor)).toBe("ello wold|");
    type(editor, "\x01"); // Ctrl+A
    expect(shown(editor)).toBe("|ello wold");
  });

  test("word jumps: Alt+←/→, Ctrl+←, Alt+B/F", () => {
    const editor = new Editor(theme);
    typeText(editor, "one two-three four");
    type(editor, KEYS.altLeft);
    expect(shown(editor)).toBe("one two-three |four");
    type(editor, KEYS.ctrlLeft, "\x1bb");
    expect(shown(editor)).toBe("one |two-three four");
    type(editor, KEYS.altRight);
    expect(shown(editor)).toBe("one two|-three four");
    type(editor, "\x1bf");
    expect(shown(editor)).toBe("one two-three| four");
  });

  test("Ctrl+U / Ctrl+K kill to the line's start / end, Ctrl+Y yanks back", () => {
    const editor = new Editor(theme);
    typeText(editor, "first line");
    type(editor, KEYS.altEnter);
    typeText(editor, "second line");
    type(editor, KEYS.altLeft, "\x15");
    expect(shown(editor)).toBe("first line\n|line");
    type(editor, "\x0b");
    expect(shown(editor)).toBe("first line\n|");
    type(editor, "\x19");
    expect(shown(editor)).toBe("first line\nline|");
  });

  test("Ctrl+W kills back to the space; Alt+Backspace only the word", () => {
    const editor = new Editor(theme);
    typeText(editor, "cat src/tui/editor.ts");
    type(editor, KEYS.altBackspace);
    expect(editor.text).toBe("cat src/tui/editor.");
    type(editor, "\x17");
    expect(editor.text).toBe("cat ");
  });

  test("Alt+Enter, Shift+Enter, Ctrl+J and a trailing backslash insert newlines; Enter submits", () => {
    const editor = new Editor(theme);
    const sent: string[] = [];
    editor.onSubmit = (text) => sent.push(text);
    typeText(editor, "a");
    type(editor, KEYS.altEnter);
    typeText(editor, "b");
    type(editor, KEYS.shiftEnter);
    typeText(editor, "c");
    type(editor, "\n");
    typeText(editor, "d\\");
    type(editor, "\r");
    typeText(editor, "e");
    expect(editor.text).toBe("a\nb\nc\nd\ne");
    type(editor, "\r");
    expect(sent).toEqual(["a\nb\nc\nd\ne"]);
    expect(editor.text).toBe("");
  });

  test("whitespace is not submitted", () => {
    const editor = new Editor(theme);
    let called = false;
    editor.onSubmit = () => {
      called = true;
    };
    typeText(editor, "   ");
    type(editor, "\r");
    expect(called).toBe(false);
  });

  test("Ctrl+_ undoes a run of typing as one step", () => {
    const editor = new Editor(theme);
    typeText(editor, "hello world");
    type(editor, "\x1f");
    expect(editor.text).toBe("hello ");
    type(editor, "\x1f", "\x1f");
    expect(editor.text).toBe("");
  });

  test("keys the editor has no use for are left to the application", () => {
    const editor = new Editor(theme);
    expect(type(editor, "\x1b[27u", "\t", "\x03", "\x04", KEYS.up, KEYS.down)).toEqual([false, false, false, false, false, false]);
    typeText(editor, "x");
    expect(type(editor, "\x04")).toEqual([true]); // Ctrl+D deletes while there is text
  });

  test("↑/↓ move between rows keeping the column, and walk history past the first/last row", () => {
    const history = new PromptHistory(["older", "newer"]);
    const editor = new Editor(theme, { history });
    typeText(editor, "abc");
    type(editor, KEYS.altEnter);
    typeText(editor, "defgh");
    type(editor, KEYS.up);
    expect(shown(editor)).toBe("abc|\ndefgh");
    type(editor, KEYS.down);
    expect(shown(editor)).toBe("abc\ndefgh|");
    type(editor, KEYS.up, KEYS.up);
    expect(editor.text).toBe("newer");
    type(editor, KEYS.up);
    expect(editor.text).toBe("older");
    expect(type(editor, KEYS.up)).toEqual([false]);
    type(editor, KEYS.down, KEYS.down);
    expect(editor.text).toBe("abc\ndefgh"); // the draft comes back
  });

  test("a recalled entry left as it was is walked past at once, however many rows it has; once the cursor moves into it, ↑ moves rows", () => {
    const long = Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n");
    const history = new PromptHistory(["oldest", long, "newest"]);
    const editor = new Editor(theme, { history });
    type(editor, KEYS.up, KEYS.up);
    expect(editor.text).toBe(long);
    type(editor, KEYS.up);
    expect(editor.text).toBe("oldest"); // one press, not forty
    type(editor, KEYS.down);
    expect(editor.text).toBe(long);
    type(editor, KEYS.down);
    expect(editor.text).toBe("newest");
    type(editor, KEYS.up);
    expect(editor.text).toBe(long);
    type(editor, KEYS.left, KEYS.up);
    expect(shown(editor)).toBe(`${long.slice(0, long.lastIndexOf("\n") - 1)}|${long.slice(long.lastIndexOf("\n") - 1)}`);
    expect(editor.text).toBe(long); // moved a row, still the same entry
  });

  test("a draft survives an edit of a recalled entry: ↓ past the newest brings it back, and the edit stays on the walk", () => {
    const history = new PromptHistory(["old prompt"]);
    const editor = new Editor(theme, { history });
    typeText(editor, "my long unsent draft");
    type(editor, KEYS.up);
    expect(editor.text).toBe("old prompt");
    typeText(editor, "!");
    type(editor, KEYS.down);
    expect(editor.text).toBe("my long unsent draft");
    type(editor, KEYS.up);
    expect(editor.text).toBe("old prompt!");
    type(editor, KEYS.backspace, KEYS.down);
    expect(editor.text).toBe("my long unsent draft");
  });

  test("each place of a walk undoes only its own edits: an undo in the draft brought back never brings in an entry", () => {
    const history = new PromptHistory(["old prompt"]);
    const editor = new Editor(theme, { history });
    typeText(editor, "my long unsent draft");
    type(editor, KEYS.up, KEYS.backspace, KEYS.down);
    expect(editor.text).toBe("my long unsent draft");
    type(editor, "\x1f");
    expect(editor.text).toBe("my long unsent "); // the draft's own last step
    type(editor, KEYS.up);
    expect(editor.text).toBe("old promp");
    type(editor, "\x1f");
    expect(editor.text).toBe("old prompt");
    type(editor, "\x1f", KEYS.down);
    expect(editor.text).toBe("my long unsent ");
    typeText(editor, "x");
    type(editor, KEYS.up, "\x1f", "\x1f"); // nothing left to undo on the entry
    expect(editor.text).toBe("old prompt");
  });

  test("Esc or Ctrl+C on a recalled entry keeps the draft: the history gets it, then the entry shown", () => {
    const history = new PromptHistory(["old prompt"]);
    const editor = new Editor(theme, { history });
    typeText(editor, "a draft");
    type(editor, KEYS.up);
    editor.clearIntoHistory();
    expect(editor.text).toBe("");
    type(editor, KEYS.up);
    expect(editor.text).toBe("old prompt");
    type(editor, KEYS.up);
    expect(editor.text).toBe("a draft");
  });

  test("a history entry put in by ↑/↓ is told apart from typing (the app opens no popup for it)", () => {
    const editor = new Editor(theme, { history: new PromptHistory(["/yolo"]) });
    const changes: { text: string; recalled: boolean }[] = [];
    editor.onChange = (text, change) => changes.push({ text, ...change });
    typeText(editor, "/");
    type(editor, KEYS.backspace, KEYS.up);
    expect(changes).toEqual([
      { text: "/", recalled: false },
      { text: "", recalled: false },
      { text: "/yolo", recalled: true },
    ]);
  });

  test("Shift+Space types a space, Shift+Backspace and Shift+Delete delete, Ctrl+_ undoes as the Kitty protocol sends it", () => {
    const editor = new Editor(theme);
    typeText(editor, "I'M");
    type(editor, "\x1b[32;2u");
    typeText(editor, "HERE");
    type(editor, "\x1b[27;2;32~");
    typeText(editor, "NOW");
    expect(editor.text).toBe("I'M HERE NOW");
    type(editor, "\x1b[127;2u");
    expect(editor.text).toBe("I'M HERE NO");
    type(editor, KEYS.home, "\x1b[3;2~");
    expect(editor.text).toBe("'M HERE NO");
    type(editor, "\x1b[45;6u");
    expect(editor.text).toBe("I'M HERE NO");
    // xterm's modifyOtherKeys: Ctrl+_ (Ctrl+Shift+-), and Ctrl+/, which types Ctrl+_ in a legacy terminal
    typeText(editor, "a");
    type(editor, "\x1b[27;6;95~");
    expect(editor.text).toBe("I'M HERE NO");
    typeText(editor, "b");
    type(editor, "\x1b[47;5u");
    expect(editor.text).toBe("I'M HERE NO");
  });

  test("a Ctrl+J typed ahead at the shell (the cooked terminal's Enter) submits; any other Ctrl+J is a new line", () => {
    const editor = new Editor(theme);
    const sent: string[] = [];
    editor.onSubmit = (text) => sent.push(text);
    typeText(editor, "one");
    type(editor, "\n");
    expect(editor.text).toBe("one\n");
    typeText(editor, "two");
    editor.handleKey({ name: "j", ctrl: true, alt: false, shift: false, typedAhead: true });
    expect(sent).toEqual(["one\ntwo"]);
  });

  test("submitted prompts join the history", () => {
    const editor = new Editor(theme);
    typeText(editor, "first");
    type(editor, "\r");
    type(editor, KEYS.up);
    expect(editor.text).toBe("first");
  });
});

describe("Editor pastes", () => {
  test("a large paste becomes a chip that moves as one unit and expands on submit", () => {
    const editor = new Editor(theme);
    const sent: string[] = [];
    editor.onSubmit = (text) => sent.push(text);
    const body = Array.from({ length: 12 }, (_, i) => `line ${i}`).join("\r\n");
    typeText(editor, "see");
    editor.handlePaste(body);
    expect(editor.text).toBe("see [pasted text #1 +12 lines]");
    typeText(editor, "!");
    type(editor, KEYS.left, KEYS.left);
    expect(editor.cursor).toBe(4);
    type(editor, KEYS.right, KEYS.backspace);
    expect(editor.text).toBe("see !");
    type(editor, "\x1f"); // undo brings the chip back
    expect(editor.text).toBe("see [pasted text #1 +12 lines]!");
    type(editor, "\r");
    expect(sent).toEqual([`see ${body.replaceAll("\r\n", "\n")}!`]);
  });

  test("a chip keeps its paste through a history walk, an undo and the app putting the text back; clear and submit let it go", () => {
    const body = Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n");
    const editor = new Editor(theme, { history: new PromptHistory(["older"]) });
    const sent: string[] = [];
    editor.onSubmit = (text) => sent.push(text);
    typeText(editor, "D: ");
    editor.handlePaste(body);
    type(editor, KEYS.up);
    expect(editor.text).toBe("older");
    type(editor, KEYS.down);
    expect(editor.text).toBe("D: [pasted text #1 +20 lines]");
    expect(editor.value).toBe(`D: ${body}`);
    editor.setText(`${editor.text}\nqueued`); // a cancelled turn's queue put back after the draft
    expect(editor.value).toBe(`D: ${body}\nqueued`);
    type(editor, "\x1f");
    expect(editor.value).toBe(`D: ${body}`);
    type(editor, "\r");
    expect(sent).toEqual([`D: ${body}`]);
    editor.setText("[pasted text #1 +20 lines]"); // typed after the submit: stands for nothing now
    expect(editor.value).toBe("[pasted text #1 +20 lines]");
  });

  test("Ctrl+W just after a chip takes the whole chip, not the last word of its label", () => {
    const editor = new Editor(theme);
    const sent: string[] = [];
    editor.onSubmit = (text) => sent.push(text);
    typeText(editor, "keep ");
    editor.handlePaste(Array.from({ length: 20 }, (_, i) => `l${i}`).join("\n"));
    type(editor, "\x17");
    expect(shown(editor)).toBe("keep |");
    type(editor, "\x19"); // Ctrl+Y yanks it back whole
    expect(editor.text).toBe("keep [pasted text #1 +20 lines]");
    type(editor, "\r");
    expect(sent[0]).toStartWith("keep l0\nl1\n");
    typeText(editor, "see");
    editor.handlePaste(Array.from({ length: 20 }, (_, i) => `m${i}`).join("\n"));
    expect(editor.text).toBe("see [pasted text #2 +20 lines]");
    type(editor, KEYS.left, "\x7f", KEYS.end, "\x17"); // glued to the word: both go
    expect(editor.text).toBe("");
    editor.clear();
    type(editor, "\x19"); // the kill keeps its paste through a clear
    type(editor, "\r");
    expect(sent[1]).toStartWith("seem0\nm1\n");
  });

  test("small pastes are inserted as typed text, line endings normalised", () => {
    const editor = new Editor(theme);
    editor.handlePaste("alpha\rbeta\r\ngamma\x07");
    expect(editor.text).toBe("alpha\nbeta\ngamma");
  });

  test("a dropped path is quoted, with a space before it when glued to a word", () => {
    const editor = new Editor(theme, { pathExists: (path) => path === "/tmp/my file.png" });
    typeText(editor, "look at");
    editor.handlePaste("/tmp/my\\ file.png");
    expect(editor.text).toBe("look at '/tmp/my file.png'");
  });
});

describe("Editor rendering", () => {
  test("prompt, wrapping within the width, cursor marker where the cursor is", () => {
    const editor = new Editor(theme, { prompt: "> " });
    typeText(editor, "the quick brown fox jumps");
    type(editor, KEYS.home);
    const rows = editor.render(14);
    expect(rows.map((row) => row.replace(CURSOR_MARKER, "|"))).toEqual(["> |the quick ", "  brown fox ", "  jumps"]);
    for (const row of rows) expect(visibleWidth(row)).toBeLessThanOrEqual(14);
  });

  test("CJK and emoji wrap by columns and the cursor column counts them double", () => {
    const editor = new Editor(theme, { prompt: "" });
    typeText(editor, "日本語🚀abc");
    const rows = editor.render(6);
    for (const row of rows) expect(visibleWidth(row)).toBeLessThanOrEqual(5);
    expect(rows.join("").replace(CURSOR_MARKER, "")).toBe("日本語🚀abc");
    const withCursor = rows.find((row) => row.includes(CURSOR_MARKER)) ?? "";
    expect(withCursor.endsWith(CURSOR_MARKER)).toBe(true);
  });

  test("an unfocused editor shows no cursor; an empty one its placeholder", () => {
    const editor = new Editor(theme, { placeholder: "ask anything" });
    expect(editor.render(40)).toEqual([`> ${CURSOR_MARKER}ask anything`]);
    editor.focused = false;
    expect(editor.render(40)).toEqual(["> ask anything"]);
  });

  test("more rows than maxRows scroll with the cursor", () => {
    const editor = new Editor(theme, { maxRows: 3 });
    editor.setText(Array.from({ length: 8 }, (_, i) => `row ${i}`).join("\n"));
    expect(editor.render(40).map((row) => row.replace(CURSOR_MARKER, ""))).toEqual(["  row 5", "  row 6", "  row 7"]);
    type(editor, KEYS.up, KEYS.up, KEYS.up, KEYS.up, KEYS.up, KEYS.up, KEYS.up);
    expect(editor.render(40).map((row) => row.replace(CURSOR_MARKER, ""))).toEqual(["> row 0", "  row 1", "  row 2"]);
  });

  test("a control character in the text (a picked file's name) is never written: the rest of the text is, at the columns laid out", () => {
    const name = "READ\x1b]52;c;ZWNobyBQV05FRA==\x07\x1b]0;PWNED-title\x07ME.md";
    const editor = new Editor(theme, { prompt: "> " });
    editor.setText(`see @${name} now`);
    const rows = editor.render(30);
    expect(rows.join("")).not.toMatch(/[\x00-\x08\x0a-\x1a\x1c-\x1f\x7f-\x9f]|\x1b\]/);
    expect(rows.map((row) => row.replace(CURSOR_MARKER, "")).join("|")).toBe("> see |  @READ]52;c;ZWNobyBQV05FRA==|  ]0;PWNED-titleME.md now");
    for (const row of rows) expect(visibleWidth(row)).toBeLessThanOrEqual(30);
  });

  test("layoutRows breaks after spaces, and hard inside a word with none", () => {
    const text = "aaaa bbbb ccccccccccc";
    expect(layoutRows(text, 6).map((row) => text.slice(row.start, row.end))).toEqual(["aaaa ", "bbbb ", "cccccc", "ccccc"]);
  });
});

describe("paste helpers", () => {
  test("collapse thresholds: more than 10 lines, or more than 1000 characters; lines win", () => {
    const store = new PasteStore();
    expect(store.collapse(Array(10).fill("x").join("\n"))).toBeUndefined();
    expect(store.collapse("y".repeat(1000))).toBeUndefined();
    expect(store.collapse(Array(11).fill("x").join("\n"))).toBe("[pasted text #1 +11 lines]");
    expect(store.collapse("z".repeat(1500))).toBe("[pasted text #2 1500 chars]");
    expect(store.collapse(Array(12).fill("w".repeat(400)).join("\n"))).toBe("[pasted text #3 +12 lines]");
    expect(store.expand("[pasted text #2 1500 chars] and [pasted text #9 +3 lines]")).toBe(`${"z".repeat(1500)} and [pasted text #9 +3 lines]`);
    store.keepOnly("what was killed: [pasted text #3 +12 lines]");
    expect(store.expand("[pasted text #1 +11 lines]")).toBe("[pasted text #1 +11 lines]");
    expect(store.has(3)).toBe(true);
    expect("[pasted text #1 +11 lines]".match(PASTE_CHIP)).toHaveLength(1);
  });

  test("normalizePaste keeps tabs and newlines, drops escape sequences and control bytes", () => {
    expect(normalizePaste("a\tb\r\nc\rd\x1b[31me\x1b[0m\x00")).toBe("a\tb\nc\nde");
    // an OSC without its end is no sequence: the text after it is pasted
    expect(normalizePaste("one \x1b]8;;cut\ntwo\x1b]0;t\x07 three")).toBe("one 8;;cut\ntwo three");
  });

  test("quoteDroppedPaths: escaped spaces, quotes, file URLs, several paths, apostrophes", () => {
    const files = new Set(["/tmp/a b.txt", "/tmp/c.txt", "/tmp/it's.md", "/home/u/notes.md"]);
    const exists = (path: string) => files.has(path);
    expect(quoteDroppedPaths("/tmp/a\\ b.txt", exists, "/home/u")).toBe("'/tmp/a b.txt'");
    expect(quoteDroppedPaths("'/tmp/a b.txt' /tmp/c.txt", exists, "/home/u")).toBe("'/tmp/a b.txt' '/tmp/c.txt'");
    expect(quoteDroppedPaths("file:///tmp/a%20b.txt", exists, "/home/u")).toBe("'/tmp/a b.txt'");
    expect(quoteDroppedPaths("/tmp/it\\'s.md", exists, "/home/u")).toBe("'/tmp/it'\\''s.md'");
    expect(quoteDroppedPaths("~/notes.md", exists, "/home/u")).toBe("'/home/u/notes.md'");
  });

  test("quoteDroppedPaths leaves prose, missing paths, relative paths and multi-line pastes alone", () => {
    const exists = (path: string) => path === "/tmp/c.txt";
    for (const text of ["please read /tmp/c.txt", "/tmp/missing.txt", "c.txt", "/tmp/c.txt\n/tmp/c.txt", "/tmp/c.txt 'unclosed"]) {
      expect(quoteDroppedPaths(text, exists, "/home/u")).toBe(text);
    }
  });
});

describe("PromptHistory", () => {
  test("skips empty prompts and repeats of the newest", () => {
    const history = new PromptHistory();
    history.add("a");
    history.add("a");
    history.add("  ");
    history.add("b");
    expect(history.size).toBe(2);
  });

  test("walks back and forth and returns the draft", () => {
    const history = new PromptHistory(["a", "b"]);
    expect(history.next("draft")).toBeUndefined();
    expect(history.previous("draft")).toBe("b");
    expect(history.previous("b")).toBe("a");
    expect(history.previous("a")).toBeUndefined();
    expect(history.next("a")).toBe("b");
    expect(history.next("b")).toBe("draft");
    expect(history.browsing).toBe(false);
  });

  test("an entry edited on the walk keeps its edit while the walk goes on; a reset on it keeps the draft as an entry", () => {
    const history = new PromptHistory(["a", "b"]);
    expect(history.previous("draft")).toBe("b");
    expect(history.previous("b, edited")).toBe("a");
    expect(history.next("a")).toBe("b, edited");
    expect(history.next("b, edited")).toBe("draft");
    expect(history.previous("draft")).toBe("b, edited");
    history.reset();
    expect(history.previous("")).toBe("draft");
    expect(history.previous("draft")).toBe("b");
  });

  test("past the limit the oldest go, but not while a walk points into the entries", () => {
    const history = new PromptHistory(["a", "b"], 2);
    expect(history.previous("draft")).toBe("b");
    expect(history.previous("b")).toBe("a");
    history.add("c");
    expect(history.size).toBe(3);
    expect(history.next("a")).toBe("b");
    expect(history.next("b")).toBe("c");
    expect(history.next("c")).toBe("draft");
    history.reset();
    expect(history.size).toBe(2);
    history.add("d");
    expect(history.size).toBe(2);
    expect(history.previous("")).toBe("d");
    expect(history.previous("d")).toBe("c");
    expect(history.previous("c")).toBeUndefined();
  });

  test("a walk that ends on an entry puts the draft and the other entries' edits into the history", () => {
    const history = new PromptHistory(["a", "b"]);
    expect(history.previous("draft")).toBe("b");
    expect(history.previous("b2")).toBe("a");
    history.reset((text) => text.toUpperCase());
    expect(history.previous("")).toBe("DRAFT");
    expect(history.previous("DRAFT")).toBe("B2");
    expect(history.previous("B2")).toBe("b");
  });

  test("a prompt added during a walk leaves the walk where it is", () => {
    const history = new PromptHistory(["a"]);
    expect(history.previous("draft")).toBe("a");
    history.add("loaded");
    expect(history.next("a")).toBe("loaded");
    expect(history.next("loaded")).toBe("draft");
  });
});

describe("Editor Ctrl+R search", () => {
  const CTRL_R = "\x12";
  const rows = (editor: Editor) => editor.render(80).map((row) => Bun.stripANSI(row.replace(CURSOR_MARKER, "|")));
  const searchRow = (editor: Editor) => rows(editor).at(-1)!;

  test("typing narrows to the newest prompt holding the query; Ctrl+R goes older, skipping a text already shown; Enter sends it", () => {
    const history = new PromptHistory(["git status", "fix the Parser tests", "run tests", "git log", "run tests again", "run tests"]);
    const editor = new Editor(theme, { history });
    const sent: string[] = [];
    editor.onSubmit = (text) => sent.push(text);
    typeText(editor, "my draft");
    type(editor, CTRL_R);
    expect(editor.searching).toBe(true);
    typeText(editor, "TESTS");
    expect(rows(editor)[0]).toBe("> run tests"); // the newest, case aside
    expect(searchRow(editor)).toStartWith("search prompts: TESTS|");
    type(editor, CTRL_R);
    expect(rows(editor)[0]).toBe("> run tests again");
    type(editor, CTRL_R);
    expect(rows(editor)[0]).toBe("> fix the Parser tests"); // the older "run tests" was shown already
    type(editor, CTRL_R);
    expect(rows(editor)[0]).toBe("> fix the Parser tests"); // nothing older: kept, and said
    expect(searchRow(editor)).toStartWith("no match: TESTS|");
    expect(editor.text).toBe("my draft"); // the search only looks
    type(editor, "\r");
    expect(sent).toEqual(["fix the Parser tests"]);
    expect(editor.searching).toBe(false);
    expect(editor.text).toBe("");
  });

  test("a match holding a control character (a picked file's name sent before) is drawn without it", () => {
    const editor = new Editor(theme, { history: new PromptHistory(["see @READ\x1b]0;PWNED-title\x07ME.md"]) });
    type(editor, CTRL_R);
    typeText(editor, "READ");
    const drawn = editor.render(80);
    expect(drawn.join("\n")).not.toMatch(/\x1b\]|\x07/);
    expect(rows(editor)[0]).toBe("> see @READ]0;PWNED-titleME.md");
  });

  test("a failing query keeps the last match and says so; Backspace widens from the newest, and on an empty query ends the search", () => {
    const editor = new Editor(theme, { history: new PromptHistory(["alpha", "beta"]) });
    type(editor, CTRL_R);
    typeText(editor, "al");
    expect(rows(editor)[0]).toBe("> alpha");
    typeText(editor, "x");
    expect(rows(editor)[0]).toBe("> alpha");
    expect(searchRow(editor)).toStartWith("no match: alx|");
    type(editor, KEYS.backspace, KEYS.backspace, KEYS.backspace);
    expect(editor.searching).toBe(true);
    expect(rows(editor)[0]).toBe("> "); // the (empty) text as it is, until a query or Ctrl+R
    type(editor, CTRL_R);
    expect(rows(editor)[0]).toBe("> beta"); // an empty query: every prompt, newest first
    type(editor, KEYS.backspace);
    expect(editor.searching).toBe(false);
    expect(editor.text).toBe("");
  });

  test("Tab or Esc take the match to edit, as ↑ would have brought it (↓ brings the draft back); Ctrl+C and Ctrl+G leave the draft as it was", () => {
    const history = new PromptHistory(["deploy to staging"]);
    const editor = new Editor(theme, { history });
    typeText(editor, "draft");
    for (const cancel of ["\x03", "\x07"]) {
      type(editor, CTRL_R);
      typeText(editor, "deploy");
      type(editor, cancel);
      expect(editor.searching).toBe(false);
      expect(shown(editor)).toBe("draft|");
    }
    for (const take of ["\t", "\x1b"]) {
      type(editor, CTRL_R);
      typeText(editor, "stag");
      type(editor, take);
      expect(editor.searching).toBe(false);
      expect(shown(editor)).toBe("deploy to staging|");
      type(editor, KEYS.down);
      expect(shown(editor)).toBe("draft|");
    }
  });

  test("any other key takes the match and then acts: ← moves in it, Ctrl+A goes to its start", () => {
    const editor = new Editor(theme, { history: new PromptHistory(["make build"]) });
    type(editor, CTRL_R);
    typeText(editor, "make");
    type(editor, KEYS.left);
    expect(shown(editor)).toBe("make buil|d");
    type(editor, CTRL_R);
    typeText(editor, "build");
    type(editor, "\x01");
    expect(shown(editor)).toBe("|make build");
  });

  test("the match is marked where the query is, and a paste joins the query (its first line)", () => {
    const editor = new Editor(createTheme({ color: true }), { history: new PromptHistory(["open the pod bay doors"]) });
    type(editor, CTRL_R);
    editor.handlePaste("POD bay\nsecond line");
    expect(editor.render(80)[0]).toBe("> open the \x1b[7mpod bay\x1b[27m doors");
    expect(Bun.stripANSI(searchRow(editor))).toStartWith("search prompts: POD bay|");
  });

  test("the match becomes the walk's place: ↑ goes on to the prompt before it, ↓ past the newest brings back the draft, as in a shell", () => {
    const history = new PromptHistory(["alpha one", "beta two", "gamma three", "delta four"]);
    const editor = new Editor(theme, { history });
    typeText(editor, "unsent draft");
    type(editor, CTRL_R);
    typeText(editor, "gamma");
    type(editor, "\t");
    expect(editor.text).toBe("gamma three");
    type(editor, KEYS.up);
    expect(editor.text).toBe("beta two");
    type(editor, KEYS.down, KEYS.down, KEYS.down);
    expect(editor.text).toBe("unsent draft");
    // ↑ itself ends a search: it takes the match, then goes on from it.
    type(editor, CTRL_R);
    typeText(editor, "beta");
    type(editor, KEYS.up);
    expect(editor.text).toBe("alpha one");
    expect(history.all).toEqual(["alpha one", "beta two", "gamma three", "delta four"]);
  });

  test("an entry edited on the walk: Enter sends the match the search showed, not the edit (which Ctrl+_ gives back)", () => {
    const history = new PromptHistory(["alpha", "gamma ray"]);
    const editor = new Editor(theme, { history });
    const sent: string[] = [];
    editor.onSubmit = (text) => sent.push(text);
    type(editor, KEYS.up);
    expect(editor.text).toBe("gamma ray");
    type(editor, KEYS.backspace, KEYS.backspace, KEYS.backspace, KEYS.backspace); // "gamma"
    type(editor, "\x12");
    typeText(editor, "ray");
    expect(rows(editor)[0]).toBe("> gamma ray");
    type(editor, "\t");
    expect(editor.text).toBe("gamma ray");
    type(editor, "\x1f");
    expect(editor.text).toBe("gamma");
    type(editor, "\x12");
    typeText(editor, "ray");
    type(editor, "\r");
    expect(sent).toEqual(["gamma ray"]);
  });

  test("the mark covers whole graphemes, and a narrow row keeps the query and the cursor before the help", () => {
    const editor = new Editor(createTheme({ color: true }), { history: new PromptHistory(["cafe\u0301 au lait"]) });
    type(editor, CTRL_R);
    typeText(editor, "cafe");
    expect(editor.render(80)[0]).toBe("> \x1b[7mcafe\u0301\x1b[27m au lait");
    const row = (width: number) => Bun.stripANSI(editor.render(width).at(-1)!.replace(CURSOR_MARKER, "|"));
    expect(row(24)).toBe("search prompts: cafe|"); // no room for the help
    expect(row(12)).toBe("…mpts: cafe|"); // the query's end, and the cursor, stay
    expect(visibleWidth(row(12))).toBeLessThanOrEqual(12);
  });
});
