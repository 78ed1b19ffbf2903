// What a user adds to a prompt or the conversation, in process: @mentions attached (which files,
// which not and why, the prompt split back for display) and the `!command` message's format,
// both drawn by the transcript's user message.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ATTACH_MAX_BYTES, attachMentions, splitAttachments } from "../../src/modes/interactive/file-mentions.ts";
import { parseShellContext, shellCommandOf, shellContextText } from "../../src/modes/interactive/shell-context.ts";
import { OUTPUT_ROWS, UserMessage } from "../../src/modes/interactive/user-message.ts";
import { createTheme } from "../../src/tui/theme.ts";
import { tempDir } from "../support/zot.ts";

const theme = createTheme({ color: false });
/** A user message's rows as the screen shows them, styles (the bold marker) stripped. */
const draw = (message: UserMessage, width: number) => message.render(width).map((row) => Bun.stripANSI(row));

describe("@mentions", () => {
  test("each mentioned text file once, in order, quoted or not, punctuation after it forgiven, absolute paths too", () => {
    const cwd = tempDir("zot-mention-");
    writeFileSync(join(cwd, "a.ts"), "one\ntwo\n");
    writeFileSync(join(cwd, "with space.md"), "spaced");
    mkdirSync(join(cwd, "dir"));
    const prompt = `compare @a.ts, @'with space.md' and @${join(cwd, "a.ts")} (again: @a.ts) with @dir`;
    const { text, attached, skipped } = attachMentions(prompt, cwd);
    expect(attached).toEqual([
      { path: "a.ts", lines: 2 },
      { path: "with space.md", lines: 1 },
    ]);
    expect(skipped).toEqual([]);
    expect(text).toBe(`${prompt}\n\n[files the user attached with @, as they are now]\n<file path="a.ts">\none\ntwo\n</file>\n<file path="with space.md">\nspaced\n</file>`);
    expect(splitAttachments(text)).toEqual({ prompt, attached });
  });

  test("nothing to attach leaves the prompt as typed; a file too big or not text is named with why", () => {
    const cwd = tempDir("zot-mention-");
    writeFileSync(join(cwd, "big.log"), "x".repeat(ATTACH_MAX_BYTES + 1));
    writeFileSync(join(cwd, "img.png"), new Uint8Array([137, 80, 78, 71, 0, 0]));
    expect(attachMentions("mail me@example.com or @nobody", cwd)).toEqual({ text: "mail me@example.com or @nobody", attached: [], skipped: [] });
    const { text, skipped } = attachMentions("see @big.log and @img.png", cwd);
    expect(text).toBe("see @big.log and @img.png");
    expect(skipped).toEqual([
      "@big.log was not attached: it is 256 KB, over the 256 KB attached at most; the model can still read it",
      "@img.png was not attached: it is not text; the model can still read it",
    ]);
    expect(splitAttachments("a prompt that mentions [files the user attached with @, as they are now]")).toEqual({
      prompt: "a prompt that mentions [files the user attached with @, as they are now]",
      attached: [],
    });
  });

  test("the transcript shows the prompt as typed and a line per attached file", () => {
    const cwd = tempDir("zot-mention-");
    writeFileSync(join(cwd, "a.ts"), "one\n");
    const { text } = attachMentions("fix @a.ts", cwd);
    expect(draw(new UserMessage(text, theme, 1), 60)).toEqual(["", "› fix @a.ts [1 image]", "  ⎿ attached a.ts (1 line)"]);
  });
});

describe("!command", () => {
  test("what follows ! is the command; the message round-trips, a command of several lines too", () => {
    expect(shellCommandOf("!  git status ")).toBe("git status");
    expect(shellCommandOf("!")).toBe("");
    expect(shellCommandOf("not ! a command")).toBeUndefined();
    const context = { command: "for f in *; do\n  echo $f\ndone", output: "a\nb\n[exit 0] 3ms" };
    expect(parseShellContext(shellContextText(context))).toEqual(context);
    expect(parseShellContext("$ ls\nsomething a user typed")).toBeUndefined();
  });

  test("the transcript shows the command, the first rows of its output, how many more, and the exit status", () => {
    const output = [...Array.from({ length: OUTPUT_ROWS + 5 }, (_, i) => `row ${i}`), "[exit 1] 5ms"].join("\n");
    const rows = draw(new UserMessage(shellContextText({ command: "make test", output }), theme), 80);
    expect(rows.slice(0, 3)).toEqual(["", "› !make test", "  ⎿ row 0"]);
    expect(rows).toContain(`    row ${OUTPUT_ROWS - 1}`);
    expect(rows).not.toContain(`    row ${OUTPUT_ROWS}`);
    expect(rows.slice(-2)).toEqual(["    … 5 more lines (the model has them all)", "    [exit 1] 5ms"]);
  });
});
