// edit: exact matches validated all-or-nothing against the original, messages that help a retry,
// CRLF/BOM preserved, unified diff returned.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TextBlock } from "../../src/protocol/messages.ts";
import { editTool } from "../../src/tools/edit.ts";

const dir = mkdtempSync(join(tmpdir(), "zot-edit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctx = { cwd: dir, signal: new AbortController().signal, onProgress() {} };

async function edit(args: Record<string, unknown>) {
  const result = await editTool.execute(args, ctx);
  return { ...result, text: (result.content[0] as TextBlock).text, details: result.details as Record<string, unknown> };
}
const put = (name: string, content: string | Buffer) => writeFileSync(join(dir, name), content);
const get = (name: string) => readFileSync(join(dir, name), "utf8");

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join("");

test("single edit: replaces, returns a unified diff with headers, hunk ranges and 3 lines of context", async () => {
  put("ten.txt", numbered(10));
  const r = await edit({ path: "ten.txt", edits: [{ old_text: "line 5\n", new_text: "five\nFIVE\n" }] });
  expect(r.is_error).toBe(false);
  expect(get("ten.txt")).toBe(numbered(10).replace("line 5\n", "five\nFIVE\n"));
  expect(r.text).toBe(
    [
      "edited ten.txt: 1 edit",
      "--- a/ten.txt",
      "+++ b/ten.txt",
      "@@ -2,7 +2,8 @@",
      " line 2",
      " line 3",
      " line 4",
      "-line 5",
      "+five",
      "+FIVE",
      " line 6",
      " line 7",
      " line 8",
    ].join("\n"),
  );
  expect(r.details.diff).toStartWith("--- a/ten.txt\n+++ b/ten.txt\n@@ -2,7 +2,8 @@");
});

test("multiple edits apply together; far-apart changes get separate hunks with right new line numbers", async () => {
  put("thirty.txt", numbered(30));
  const r = await edit({
    path: "thirty.txt",
    edits: [
      { old_text: "line 3\n", new_text: "" },
      { old_text: "line 25", new_text: "line 25a\nline 25b" },
    ],
  });
  expect(r.is_error).toBe(false);
  expect(get("thirty.txt")).toBe(numbered(30).replace("line 3\n", "").replace("line 25", "line 25a\nline 25b"));
  const hunks = r.text.split("\n").filter((l) => l.startsWith("@@"));
  expect(hunks).toEqual(["@@ -1,6 +1,5 @@", "@@ -22,7 +21,8 @@"]);
  expect(r.text).toContain("-line 3\n");
  expect(r.text).toContain("-line 25\n+line 25a\n+line 25b\n");
});

test("edits are matched against the original, not each other's results", async () => {
  put("swap.txt", "a = 1\nb = 2\n");
  const r = await edit({
    path: "swap.txt",
    edits: [
      { old_text: "a = 1", new_text: "b = 2" },
      { old_text: "b = 2", new_text: "a = 1" },
    ],
  });
  expect(r.is_error).toBe(false);
  expect(get("swap.txt")).toBe("b = 2\na = 1\n");
});

test("replace_all changes every occurrence", async () => {
  put("many.txt", "foo();\nbar();\nfoo();\nfoo();\n");
  const r = await edit({ path: "many.txt", edits: [{ old_text: "foo", new_text: "baz", replace_all: true }] });
  expect(r.is_error).toBe(false);
  expect(get("many.txt")).toBe("baz();\nbar();\nbaz();\nbaz();\n");
  expect(r.text).toStartWith("edited many.txt: 1 edit (3 replacements)");
});

test("several matches without replace_all: error lists the line numbers, file unchanged", async () => {
  const content = "x\nfoo\ny\nfoo\nz\nfoo\n";
  put("dup.txt", content);
  const r = await edit({ path: "dup.txt", edits: [{ old_text: "foo", new_text: "bar" }] });
  expect(r.is_error).toBe(true);
  expect(r.text).toContain("old_text matches 3 times in dup.txt (at lines 2, 4, 6)");
  expect(r.text).toContain("replace_all");
  expect(r.text).toContain("No changes were made to dup.txt.");
  expect(get("dup.txt")).toBe(content);
  // Matches on one line name it once.
  put("one-line.txt", "a a a\n");
  const same = await edit({ path: "one-line.txt", edits: [{ old_text: "a", new_text: "b" }] });
  expect(same.text).toContain("old_text matches 3 times in one-line.txt (all on line 1)");
  put("lines.txt", "a a\nb\na\n");
  expect((await edit({ path: "lines.txt", edits: [{ old_text: "a", new_text: "b" }] })).text).toContain("old_text matches 3 times in lines.txt (at lines 1, 3)");
});

test("not found: names the nearest similar line with its number", async () => {
  put("code.ts", "function one() {\n  return computeTotal(items);\n}\n");
  const r = await edit({ path: "code.ts", edits: [{ old_text: "return computeTotals(items);", new_text: "x" }] });
  expect(r.is_error).toBe(true);
  expect(r.text).toContain("old_text was not found in code.ts");
  expect(r.text).toContain("most similar line is 2");
  expect(r.text).toContain("     2\t  return computeTotal(items);");
});

test("not found because of whitespace: says so and shows the file's lines", async () => {
  put("tabs.go", "func main() {\n\tfmt.Println(1)\n\tfmt.Println(2)\n}\n");
  const r = await edit({ path: "tabs.go", edits: [{ old_text: "    fmt.Println(1)\n    fmt.Println(2)", new_text: "x" }] });
  expect(r.is_error).toBe(true);
  expect(r.text).toContain("matches lines 2-3 if whitespace is ignored");
  expect(r.text).toContain("tabs vs spaces");
});

test("not found because read's line numbers were pasted: says to drop them", async () => {
  put("num.txt", "alpha\nbeta\n");
  const r = await edit({ path: "num.txt", edits: [{ old_text: "     1\talpha\n     2\tbeta", new_text: "x" }] });
  expect(r.is_error).toBe(true);
  expect(r.text).toContain("line-number prefixes");
});

test("all or nothing: one bad edit among good ones writes nothing and reports every problem", async () => {
  put("aon.txt", "one\ntwo\nthree\n");
  const r = await edit({
    path: "aon.txt",
    edits: [
      { old_text: "one", new_text: "1" },
      { old_text: "", new_text: "x" },
      { old_text: "three", new_text: "three" },
      { old_text: "four", new_text: "4" },
    ],
  });
  expect(r.is_error).toBe(true);
  expect(r.text).toContain("edits[1].old_text is empty");
  expect(r.text).toContain("edits[2].old_text and new_text are identical");
  expect(r.text).toContain("edits[3].old_text was not found");
  expect(r.text).not.toContain("edits[0]");
  expect(get("aon.txt")).toBe("one\ntwo\nthree\n");
});

test("overlapping edits are refused", async () => {
  put("ov.txt", "hello world\n");
  const r = await edit({
    path: "ov.txt",
    edits: [
      { old_text: "hello world", new_text: "hi" },
      { old_text: "world", new_text: "there" },
    ],
  });
  expect(r.is_error).toBe(true);
  expect(r.text).toContain("edits[0] and edits[1] overlap (near line 1); merge them into one edit");
  expect(get("ov.txt")).toBe("hello world\n");
});

test("CRLF: matches LF old_text, writes new lines as CRLF, leaves other bytes alone", async () => {
  put("win.txt", "first\r\nsecond\r\nthird\r\n");
  const r = await edit({ path: "win.txt", edits: [{ old_text: "second\nthird", new_text: "2nd\nand a half\n3rd" }] });
  expect(r.is_error).toBe(false);
  expect(get("win.txt")).toBe("first\r\n2nd\r\nand a half\r\n3rd\r\n");
  expect(r.text).not.toContain("\r");
  expect(r.text).toContain("-second\n-third\n+2nd\n+and a half\n+3rd");
});

test("mixed line endings: untouched lines keep their own ending", async () => {
  put("mixed.txt", "a\r\nb\nc\r\nd\r\n");
  await edit({ path: "mixed.txt", edits: [{ old_text: "c", new_text: "C" }] });
  expect(get("mixed.txt")).toBe("a\r\nb\nC\r\nd\r\n");
});

test("a UTF-8 BOM is kept", async () => {
  put("bom.txt", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("key=value\n")]));
  const r = await edit({ path: "bom.txt", edits: [{ old_text: "key=value", new_text: "key=other" }] });
  expect(r.is_error).toBe(false);
  const bytes = readFileSync(join(dir, "bom.txt"));
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(bytes.subarray(3).toString()).toBe("key=other\n");
});

test("old_text (and new_text) copied with the file's byte-order mark match, and the file keeps one mark", async () => {
  put("bom-copied.txt", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("hi\nthere\n")]));
  const r = await edit({ path: "bom-copied.txt", edits: [{ old_text: "\uFEFFhi", new_text: "\uFEFFhello" }] });
  expect(r.is_error).toBe(false);
  expect(readFileSync(join(dir, "bom-copied.txt")).toString("latin1")).toBe("\xef\xbb\xbfhello\nthere\n");
});

test("an edit that only drops the byte-order mark is told edit keeps it, and how to remove it; the mark it names is removed by that command", async () => {
  put("bom-drop.txt", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("hi\n")]));
  const r = await edit({ path: "bom-drop.txt", edits: [{ old_text: "\uFEFFhi", new_text: "hi" }] });
  expect(r.is_error).toBe(true);
  expect(r.text).toContain("differ only in the byte-order mark (U+FEFF) at the start, and edit and write keep a file's mark");
  expect(readFileSync(join(dir, "bom-drop.txt")).toString("latin1")).toBe("\xef\xbb\xbfhi\n");
  const command = r.text.match(/\(perl (.*) FILE\)/)?.[1];
  expect(command).toBeDefined();
  const perl = Bun.spawnSync(["sh", "-c", `perl ${command} bom-drop.txt`], { cwd: dir });
  expect(perl.exitCode).toBe(0);
  expect(readFileSync(join(dir, "bom-drop.txt"), "utf8")).toBe("hi\n");
  // The same text with the mark on both sides is still simply identical.
  put("bom-same.txt", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("hi\n")]));
  const same = await edit({ path: "bom-same.txt", edits: [{ old_text: "\uFEFFhi", new_text: "\uFEFFhi" }] });
  expect(same.text).toContain("old_text and new_text are identical");
});

test("an old_text that differs from the file only in look-alike characters is told which, by code point, and on which line", async () => {
  put("quotes.md", "# Notes\nIt\u2019s done\u00a0today.\nCaf\u00e9 opens\n");
  const curly = await edit({ path: "quotes.md", edits: [{ old_text: "It's done today.", new_text: "It is done." }] });
  expect(curly.is_error).toBe(true);
  expect(curly.text).toContain(`Its line "It's done today." is the file's line 2 but for characters that look alike: the file has U+2019 (right single quotation mark), U+00A0 (no-break space).`);
  // Decomposed (NFD) in old_text, composed in the file.
  const nfd = await edit({ path: "quotes.md", edits: [{ old_text: "Cafe\u0301 opens", new_text: "Cafe closed" }] });
  expect(nfd.text).toContain("is the file's line 3 but for characters that look alike: the file has U+00E9 (\u00e9, composed: NFC), and old_text has U+0301 (a combining mark");
  // Written as the file has them, it applies.
  const fixed = await edit({ path: "quotes.md", edits: [{ old_text: "It\u2019s done\u00a0today.", new_text: "It is done." }] });
  expect(fixed.is_error).toBe(false);
  // A text that is simply not there still gets the usual hint.
  const absent = await edit({ path: "quotes.md", edits: [{ old_text: "Nothing like this", new_text: "x" }] });
  expect(absent.text).not.toContain("look alike");
});

test("accepts camelCase keys and a single top-level edit", async () => {
  put("camel.txt", "alpha beta\n");
  const camel = await edit({ path: "camel.txt", edits: [{ oldText: "alpha", newText: "ALPHA" }] });
  expect(camel.is_error).toBe(false);
  const single = await edit({ file_path: "camel.txt", old_string: "beta", new_string: "BETA" });
  expect(single.is_error).toBe(false);
  expect(get("camel.txt")).toBe("ALPHA BETA\n");
});

test("a change of the final newline shows in the diff", async () => {
  put("eof.txt", "a\nb");
  const r = await edit({ path: "eof.txt", edits: [{ old_text: "b", new_text: "b\n" }] });
  expect(get("eof.txt")).toBe("a\nb\n");
  expect(r.text).toContain("-b\n\\ No newline at end of file\n+b");
});

test("joining lines shows the merged line, not an empty diff", async () => {
  put("join.txt", "one\ntwo\nthree\n");
  const r = await edit({ path: "join.txt", edits: [{ old_text: "one\n", new_text: "one " }] });
  expect(get("join.txt")).toBe("one two\nthree\n");
  expect(r.text).toContain("-one\n-two\n+one two");
});

test("keeps the file mode, leaves no temp files, never creates files", async () => {
  put("exec.sh", "echo a\n");
  chmodSync(join(dir, "exec.sh"), 0o700);
  await edit({ path: "exec.sh", edits: [{ old_text: "echo a", new_text: "echo b" }] });
  expect(statSync(join(dir, "exec.sh")).mode & 0o777).toBe(0o700);
  expect(readdirSync(dir).filter((n) => n.includes(".zot-"))).toEqual([]);

  const missing = await edit({ path: "nope.txt", edits: [{ old_text: "a", new_text: "b" }] });
  expect(missing.is_error).toBe(true);
  expect(missing.text).toContain("nope.txt does not exist");
  expect(missing.text).toContain("use write");
  expect(existsSync(join(dir, "nope.txt"))).toBe(false);
});

test("argument errors name the field", async () => {
  put("args.txt", "x\n");
  const noEdits = await edit({ path: "args.txt" });
  expect(noEdits.text).toStartWith('edit: "edits" is required');
  const empty = await edit({ path: "args.txt", edits: [] });
  expect(empty.text).toStartWith('edit: "edits" must not be empty');
  const noNew = await edit({ path: "args.txt", edits: [{ old_text: "x" }] });
  expect(noNew.text).toStartWith('edit: "edits[0].new_text" is required (string)');
});

test("preview: the diff the edit would make, without writing; an edit that would fail has none", async () => {
  writeFileSync(join(dir, "preview.ts"), "const a = 1;\nconst b = 2;\n");
  const diff = await editTool.preview!({ path: "preview.ts", edits: [{ old_text: "const b = 2;", new_text: "const b = 3;" }] }, dir);
  expect(diff).toBe("--- a/preview.ts\n+++ b/preview.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3;");
  expect(readFileSync(join(dir, "preview.ts"), "utf8")).toBe("const a = 1;\nconst b = 2;\n");
  expect(await editTool.preview!({ path: "preview.ts", edits: [{ old_text: "missing", new_text: "x" }] }, dir)).toBeUndefined();
  expect(await editTool.preview!({ path: "nowhere.ts", edits: [{ old_text: "a", new_text: "b" }] }, dir)).toBeUndefined();
});

test("a replace_all over 700,000 lines is reported as done, with its diff cut short: the file is written, so the call never reads as failed", async () => {
  put("big.csv", `id,status\n${Array.from({ length: 700_000 }, (_, i) => `${i},pending\n`).join("")}`);
  const r = await edit({ path: "big.csv", edits: [{ old_text: "pending", new_text: "done", replace_all: true }] });
  expect(r.is_error).toBe(false);
  expect(r.text).toStartWith("edited big.csv: 1 edit (700000 replacements)");
  expect(r.text).toContain("[diff truncated:");
  expect(get("big.csv")).not.toContain("pending");
}, 60_000);

test("a change in one long minified line shows where it changed, with what is left out counted, not a diff of headers only", async () => {
  const before = `${"a".repeat(60_000)}var limit=10;${"b".repeat(60_000)}`;
  put("bundle.min.js", `${before}\n/* end */\n`);
  const r = await edit({ path: "bundle.min.js", edits: [{ old_text: "var limit=10;", new_text: "var limit=20;" }] });
  expect(r.is_error).toBe(false);
  expect(get("bundle.min.js")).toContain("var limit=20;");
  const lines = r.text.split("\n");
  const removed = lines.find((line) => line.startsWith("-") && !line.startsWith("---"));
  const added = lines.find((line) => line.startsWith("+") && !line.startsWith("+++"));
  // From 200 characters before the first that differs ("1" against "2", at 60,010) to 200 after
  // the last: the rest of each side counted.
  expect(removed).toBe(`-[… 59810 characters] ${"a".repeat(190)}var limit=10;${"b".repeat(198)} [… 59802 characters]`);
  expect(added).toBe(`+[… 59810 characters] ${"a".repeat(190)}var limit=20;${"b".repeat(198)} [… 59802 characters]`);
  expect(r.text).not.toContain("[diff truncated:");
  expect(r.text.length).toBeLessThan(2_000);
  // A bundle without a newline at its end: the marker line between the two sides does not hide the change.
  put("bare.min.js", before);
  const bare = await edit({ path: "bare.min.js", edits: [{ old_text: "var limit=10;", new_text: "var limit=20;" }] });
  expect(bare.text.split("\n").slice(4)).toEqual([
    `-[… 59810 characters] ${"a".repeat(190)}var limit=10;${"b".repeat(198)} [… 59802 characters]`,
    "\\ No newline at end of file",
    `+[… 59810 characters] ${"a".repeat(190)}var limit=20;${"b".repeat(198)} [… 59802 characters]`,
    "\\ No newline at end of file",
  ]);
});

test("a path with a NUL byte is refused in words", async () => {
  const r = await edit({ path: "a\0b", edits: [{ old_text: "x", new_text: "y" }] });
  expect(r.text).toBe('edit: "path" holds a NUL byte, which no file\'s path can');
});

test("texts that differ only in line endings are said to: edit keeps the file's own, and bash changes them", async () => {
  put("crlf.txt", "x\r\ny\r\n");
  const r = await edit({ path: "crlf.txt", old_text: "x\r\ny\r\n", new_text: "x\ny\n" });
  expect(r.is_error).toBe(true);
  expect(r.text).toContain("old_text and new_text differ only in line endings, and edit keeps the file's own");
  expect(get("crlf.txt")).toBe("x\r\ny\r\n");
  put("same.txt", "x\n");
  expect((await edit({ path: "same.txt", old_text: "x\n", new_text: "x\n" })).text).toContain("old_text and new_text are identical");
});

test("a blank old_text that is not found is not said to hold line-number prefixes", async () => {
  put("blank.txt", "a\n\nb\n");
  for (const old_text of ["\n\n\n", "   \n\t\n"]) {
    const r = await edit({ path: "blank.txt", old_text, new_text: "z" });
    expect(r.is_error).toBe(true);
    expect([old_text, r.text]).toEqual([old_text, expect.not.stringContaining("line-number prefixes")]);
  }
});

test("an old_text ending in a newline the file's last line does not have: the hint says so, not tabs and spaces", async () => {
  put("nonl.txt", "first\nlast line");
  const r = await edit({ path: "nonl.txt", old_text: "last line\n", new_text: "LAST\n" });
  expect(r.is_error).toBe(true);
  expect(r.text).toContain("The file has no newline at its end, and old_text ends with one");
  expect(r.text).not.toContain("tabs vs spaces");
});

test("an edit that needs the text an earlier edit of the call puts in is told that every edit is matched against the file as it was", async () => {
  put("chain.txt", "alpha\n");
  const r = await edit({ path: "chain.txt", edits: [{ old_text: "alpha", new_text: "beta" }, { old_text: "beta", new_text: "gamma" }] });
  expect(r.is_error).toBe(true);
  expect(r.text).toContain("edits[1].old_text was not found in chain.txt: it is in the text edits[0] puts in, but every edit of a call is matched against the file as it was");
  expect(get("chain.txt")).toBe("alpha\n");
});

test("an edit whose text another edit's new_text holds is blamed on that edit only where the other, applied, makes it; else the usual hint", async () => {
  put("tabs.txt", "\tbeta\nalpha\n");
  // edits[0] is not found either, so nothing it would make counts; edits[1] misses on whitespace, and is told so.
  const r = await edit({ path: "tabs.txt", edits: [{ old_text: "zeta", new_text: "  beta" }, { old_text: "  beta", new_text: "gamma" }] });
  expect(r.is_error).toBe(true);
  expect(r.text).not.toContain("edits[1].old_text was not found in tabs.txt: it is in the text edits[0] puts in");
  expect(r.text).toContain("tabs vs spaces");
  // An empty file and an old_text of one newline: not the no-newline-at-end hint.
  put("empty.txt", "");
  expect((await edit({ path: "empty.txt", old_text: "\n", new_text: "x" })).text).not.toContain("no newline at its end");
});
