// write: parent directories, a new file created whole, an existing one rewritten in place (no
// leftovers), mode and symlinks kept.
import { afterAll, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  closeSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TextBlock } from "../../src/protocol/messages.ts";
import { writeTool } from "../../src/tools/write.ts";

const dir = mkdtempSync(join(tmpdir(), "zot-write-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctx = { cwd: dir, signal: new AbortController().signal, onProgress() {} };

async function write(args: Record<string, unknown>) {
  const result = await writeTool.execute(args, ctx);
  return { ...result, text: (result.content[0] as TextBlock).text, details: result.details as Record<string, unknown> };
}

test("creates parent directories and reports bytes and creation", async () => {
  const r = await write({ path: "a/b/c/new.txt", content: "héllo\n" });
  expect(r.is_error).toBe(false);
  expect(readFileSync(join(dir, "a/b/c/new.txt"), "utf8")).toBe("héllo\n");
  expect(r.text).toBe("wrote 7 bytes to a/b/c/new.txt (created a new file)");
  expect(r.details).toEqual({ path: join(dir, "a/b/c/new.txt"), bytes: 7, created: true });
});

test("overwriting keeps the file's mode and says it overwrote", async () => {
  const path = join(dir, "script.sh");
  writeFileSync(path, "#!/bin/sh\necho old\n");
  chmodSync(path, 0o751);
  const r = await write({ path: "script.sh", content: "#!/bin/sh\necho new\n" });
  expect(r.text).toContain("overwrote the existing file");
  expect(r.details.created).toBe(false);
  expect(statSync(path).mode & 0o777).toBe(0o751);
  expect(readFileSync(path, "utf8")).toBe("#!/bin/sh\necho new\n");
});

test("rewrites in place: a reader holding the file sees the new bytes, and no temp file is left", async () => {
  const path = join(dir, "atomic", "data.json");
  mkdirSync(join(dir, "atomic"));
  writeFileSync(path, '{"v":1}');
  const fd = openSync(path, "r");
  try {
    for (let i = 2; i <= 5; i++) expect((await write({ path: "atomic/data.json", content: `{"v":${i}}` })).is_error).toBe(false);
    // The same inode: what other programs hold open is the file (other-writers.test.ts says why).
    const buf = Buffer.alloc(16);
    const n = readSync(fd, buf, 0, 16, 0);
    expect(buf.subarray(0, n).toString()).toBe('{"v":5}');
  } finally {
    closeSync(fd);
  }
  expect(readFileSync(path, "utf8")).toBe('{"v":5}');
  expect(readdirSync(join(dir, "atomic"))).toEqual(["data.json"]);
});

test("a dangling symlink is refused with its target named", async () => {
  symlinkSync(join(dir, "nowhere.txt"), join(dir, "dangling.txt"));
  const r = await write({ path: "dangling.txt", content: "x" });
  expect(r.is_error).toBe(true);
  expect(r.text).toBe(`write: dangling.txt is a symbolic link to ${join(dir, "nowhere.txt")}, which does not exist; write that path instead`);
});

test("a link that loops is said as that, and nothing is written", async () => {
  symlinkSync(join(dir, "loop.txt"), join(dir, "loop.txt"));
  const r = await write({ path: "loop.txt", content: "x" });
  expect(r.is_error).toBe(true);
  expect(r.text).toBe("write: cannot write loop.txt: it is a link that loops; nothing was written");
  expect(lstatSync(join(dir, "loop.txt")).isSymbolicLink()).toBe(true);
});

test("writing through a symlink updates the target and keeps the link", async () => {
  writeFileSync(join(dir, "real.txt"), "old");
  symlinkSync(join(dir, "real.txt"), join(dir, "link.txt"));
  await write({ path: "link.txt", content: "new" });
  expect(lstatSync(join(dir, "link.txt")).isSymbolicLink()).toBe(true);
  expect(readFileSync(join(dir, "real.txt"), "utf8")).toBe("new");
});

test("empty content writes an empty file", async () => {
  const r = await write({ path: "empty.txt", content: "" });
  expect(r.is_error).toBe(false);
  expect(readFileSync(join(dir, "empty.txt"), "utf8")).toBe("");
  expect(r.details.bytes).toBe(0);
});

test("errors: a directory as path, a file in the way of a parent, missing arguments", async () => {
  mkdirSync(join(dir, "adir"));
  const d = await write({ path: "adir", content: "x" });
  expect(d.is_error).toBe(true);
  expect(d.text).toContain("adir is a directory");

  writeFileSync(join(dir, "plain"), "x");
  const blocked = await write({ path: "plain/child.txt", content: "x" });
  expect(blocked.is_error).toBe(true);
  expect(blocked.text).toBe(`write: cannot create plain/child.txt: ${join(dir, "plain")} is a file, not a directory; nothing was written`);

  const missing = await write({ path: "x.txt" });
  expect(missing.is_error).toBe(true);
  expect(missing.text).toBe('write: "content" is required (string)');
});

test("preview: the diff a write would make, leaving the file as it was; a new file is all additions", async () => {
  writeFileSync(join(dir, "preview.txt"), "one\ntwo\nthree\n");
  const diff = await writeTool.preview!({ path: "preview.txt", content: "one\nTWO\nthree\n" }, dir);
  expect(diff).toBe("--- a/preview.txt\n+++ b/preview.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three");
  expect(readFileSync(join(dir, "preview.txt"), "utf8")).toBe("one\ntwo\nthree\n");
  expect(await writeTool.preview!({ path: "new/made.txt", content: "hi\n" }, dir)).toBe("--- /dev/null\n+++ b/new/made.txt\n@@ -0,0 +1,1 @@\n+hi");
  expect(existsSync(join(dir, "new"))).toBe(false);
  expect(await writeTool.preview!({ path: "preview.txt", content: "one\ntwo\nthree\n" }, dir)).toBe("(no textual change)");
});

test("a path ending in a slash, and one under a file, are refused with what is wrong; nothing is made", async () => {
  const slash = await write({ path: "newdir/", content: "x" });
  expect(slash.is_error).toBe(true);
  expect(slash.text).toBe("write: newdir/ ends in a slash, so it names a directory; give the path of a file");
  expect(existsSync(join(dir, "newdir"))).toBe(false);
  writeFileSync(join(dir, "plain.txt"), "a file\n");
  const under = await write({ path: "plain.txt/sub/inner.txt", content: "x" });
  expect(under.is_error).toBe(true);
  expect(under.text).toBe(`write: cannot create plain.txt/sub/inner.txt: ${join(dir, "plain.txt")} is a file, not a directory; nothing was written`);
});

test("a folder on the path that is a symbolic link to nothing is named, with where it leads; nothing is made there", async () => {
  const nowhere = join(dir, "nowhere");
  symlinkSync(nowhere, join(dir, "gone"));
  const under = await write({ path: "gone/sub/inner.txt", content: "x" });
  expect(under.is_error).toBe(true);
  expect(under.text).toBe(`write: cannot create gone/sub/inner.txt: ${join(dir, "gone")} is a symbolic link to ${nowhere}, which does not exist; nothing was written`);
  expect(existsSync(nowhere)).toBe(false);
});

test("a working directory deleted during the run is not brought back: write refuses, as bash does, and creates nothing", async () => {
  const gone = join(dir, "doomed");
  mkdirSync(gone);
  rmSync(gone, { recursive: true });
  const result = await writeTool.execute({ path: "new.txt", content: "hi" }, { ...ctx, cwd: gone });
  expect(result.is_error).toBe(true);
  expect((result.content[0] as TextBlock).text).toBe(`write: the working directory ${gone} does not exist any more; nothing was written (it is not created again)`);
  expect(existsSync(gone)).toBe(false);
});

test("a device or a named pipe is no file to write: refused at once, saying what it is (/dev/zero was read without end)", async () => {
  for (const [path, kind] of [["/dev/zero", "a device"], ["/dev/null", "a device"]] as const) {
    const r = await write({ path, content: "hello" });
    expect(r.is_error).toBe(true);
    expect(r.text).toBe(`write: ${path} is ${kind}, not a regular file; zot writes files only, nothing was written`);
  }
  const fifo = join(dir, "fifo");
  Bun.spawnSync(["mkfifo", fifo]);
  const r = await write({ path: "fifo", content: "hello" });
  expect(r.text).toBe("write: fifo is a named pipe, not a regular file; zot writes files only, nothing was written");
  expect(lstatSync(fifo).isFIFO()).toBe(true);
});

test("a path with a NUL byte is refused in words, naming no temp file", async () => {
  const r = await write({ path: "a\0b", content: "x" });
  expect(r.is_error).toBe(true);
  expect(r.text).toBe('write: "path" holds a NUL byte, which no file\'s path can');
});
