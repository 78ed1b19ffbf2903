// What a user adds to a prompt or the conversation, in process: @mentions attached (which files,
// which not and why, the prompt split back for display) and the `!command` message's format,
// both drawn by the transcript's user message.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ATTACH_MAX_BYTES, attachMentions, type ResourceReader, splitAttachments } from "../../src/conversation/file-mentions.ts";
import { ChatView } from "../../src/modes/interactive/chat-view.ts";
import { parseShellContext, shellCommandOf, shellContextText } from "../../src/modes/interactive/shell-context.ts";
import { OUTPUT_ROWS, PROMPT_ROWS, UserMessage } from "../../src/modes/interactive/user-message.ts";
import { createTheme } from "../../src/tui/theme.ts";
import { tempDir } from "../support/zot.ts";

const theme = createTheme({ color: false });
/** A user message's rows as the screen shows them, styles (the bold marker) stripped. */
const draw = (message: UserMessage, width: number) => message.render(width).map((row) => Bun.stripANSI(row));

describe("@mentions", () => {
  test("each mentioned text file once, in order, quoted or not, punctuation after it forgiven, absolute paths too", async () => {
    const cwd = tempDir("zot-mention-");
    writeFileSync(join(cwd, "a.ts"), "one\ntwo\n");
    writeFileSync(join(cwd, "with space.md"), "spaced");
    mkdirSync(join(cwd, "dir"));
    const prompt = `compare @a.ts, @'with space.md' and @${join(cwd, "a.ts")} (again: @a.ts) with @dir`;
    const { text, attached, skipped } = await attachMentions(prompt, cwd);
    expect(attached).toEqual([
      { path: "a.ts", lines: 2 },
      { path: "with space.md", lines: 1 },
    ]);
    expect(skipped).toEqual([]);
    expect(text).toBe(`${prompt}\n\n[files the user attached with @, as they are now]\n<file path="a.ts">\none\ntwo\n</file>\n<file path="with space.md">\nspaced\n</file>`);
    expect(splitAttachments(text)).toEqual({ prompt, attached });
  });

  test("nothing to attach leaves the prompt as typed; a file too big or not text is named with why", async () => {
    const cwd = tempDir("zot-mention-");
    writeFileSync(join(cwd, "big.log"), "x".repeat(ATTACH_MAX_BYTES + 1));
    writeFileSync(join(cwd, "img.png"), new Uint8Array([137, 80, 78, 71, 0, 0]));
    expect(await attachMentions("mail me@example.com or @nobody", cwd)).toEqual({ text: "mail me@example.com or @nobody", attached: [], skipped: [], seen: new Map() });
    const { text, skipped } = await attachMentions("see @big.log and @img.png", cwd);
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

  test("the transcript shows the prompt as typed and a line per attached file", async () => {
    const cwd = tempDir("zot-mention-");
    writeFileSync(join(cwd, "a.ts"), "one\n");
    const { text } = await attachMentions("fix @a.ts", cwd);
    expect(draw(new UserMessage(text, theme, 1), 60)).toEqual(["", "› fix @a.ts [1 image]", "  ⎿ attached a.ts (1 line)"]);
  });
});

describe("@server:uri mentions of MCP resources", () => {
  /** A reader as the TUI's: the server "docs" has resources; any other name is no resource server. */
  const reads: string[] = [];
  const reader: ResourceReader = (server, uri) => {
    if (server !== "docs") return undefined;
    reads.push(uri);
    if (uri === "file://api/auth") return Promise.resolve({ text: "Tokens expire after an hour.\nRefresh them." });
    return Promise.resolve({ why: `MCP server "docs" could not read ${uri}: Resource not found` });
  };

  test("a long prompt (a big paste) shows its first rows and how many more until Ctrl+O; one that fits is whole", () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n");
    const message = new UserMessage(text, theme);
    const rows = draw(message, 60);
    expect(rows).toHaveLength(1 + PROMPT_ROWS);
    expect(rows[1]).toBe("› line 0");
    expect(rows.at(-2)).toBe(`  line ${PROMPT_ROWS - 2}`);
    expect(rows.at(-1)).toBe(`  … ${200 - (PROMPT_ROWS - 1)} more rows · ctrl+o to expand`);
    message.setExpanded(true);
    expect(draw(message, 60)).toHaveLength(201);
    const fits = Array.from({ length: PROMPT_ROWS }, (_, i) => `line ${i}`).join("\n");
    expect(draw(new UserMessage(fits, theme), 60)).toHaveLength(1 + PROMPT_ROWS);
    expect(draw(new UserMessage(fits, theme), 60).at(-1)).toBe(`  line ${PROMPT_ROWS - 1}`);
  });

  test("a resource is read and attached after the typed prompt, once, punctuation after it forgiven; the transcript shows a line for it", async () => {
    const cwd = tempDir("zot-mention-");
    writeFileSync(join(cwd, "a.ts"), "one\n");
    reads.length = 0;
    const prompt = "explain @docs:file://api/auth, compare with @a.ts and @docs:file://api/auth again";
    const sent = await attachMentions(prompt, cwd, reader);
    expect(reads).toEqual(["file://api/auth"]);
    expect(sent.attached).toEqual([
      { path: "docs:file://api/auth", lines: 2 },
      { path: "a.ts", lines: 1 },
    ]);
    expect(sent.text).toBe(
      `${prompt}\n\n[files the user attached with @, as they are now]\n<resource server="docs" uri="file://api/auth">\nTokens expire after an hour.\nRefresh them.\n</resource>\n<file path="a.ts">\none\n</file>`,
    );
    expect(splitAttachments(sent.text)).toEqual({ prompt, attached: sent.attached });
    expect(draw(new UserMessage(sent.text, theme), 60)).toEqual([
      "",
      "› explain @docs:file://api/auth, compare with @a.ts and",
      "  @docs:file://api/auth again",
      "  ⎿ attached docs:file://api/auth (2 lines)",
      "  ⎿ attached a.ts (1 line)",
    ]);
  });

  test("a resource that cannot be read is named with why; a name that is no resource server is left to the files", async () => {
    const cwd = tempDir("zot-mention-");
    writeFileSync(join(cwd, "notes:x"), "a file whose name has a colon\n");
    const missing = await attachMentions("see @docs:file://nope", cwd, reader);
    expect(missing.text).toBe("see @docs:file://nope");
    expect(missing.skipped).toEqual(['@docs:file://nope was not attached: MCP server "docs" could not read file://nope: Resource not found']);
    const other = await attachMentions("see @other:file://x and @notes:x", cwd, reader);
    expect(other.attached).toEqual([{ path: "notes:x", lines: 1 }]);
    expect(other.skipped).toEqual([]);
  });

  test('a URI with a quote reads back whole', async () => {
    const quoted: ResourceReader = () => Promise.resolve({ text: "q" });
    const sent = await attachMentions('@docs:x://a"b&c', tempDir("zot-mention-"), quoted);
    expect(splitAttachments(sent.text).attached).toEqual([{ path: 'docs:x://a"b&c', lines: 1 }]);
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
    expect(rows.slice(-2)).toEqual(["    … 5 more lines (the model has them all) · ctrl+o to expand", "    [exit 1] 5ms"]);
  });

  test("Ctrl+O shows a long output whole, as it does a tool's result, and collapses it again", () => {
    const output = [...Array.from({ length: OUTPUT_ROWS + 5 }, (_, i) => `row ${i}`), "[exit 0] 5ms"].join("\n");
    const chat = new ChatView(theme);
    chat.addUserMessage(shellContextText({ command: "seq 15", output }));
    const rows = () => Bun.stripANSI(chat.render(80).join("\n")).split("\n");
    expect(rows()).not.toContain(`    row ${OUTPUT_ROWS + 4}`);
    chat.toggleExpanded();
    expect(rows()).toContain(`    row ${OUTPUT_ROWS + 4}`);
    expect(rows().join("\n")).not.toContain("more lines");
    expect(rows().at(-1)).toBe("    [exit 0] 5ms");
    chat.toggleExpanded();
    expect(rows()).not.toContain(`    row ${OUTPUT_ROWS + 4}`);
  });
});
