// edit and write beside other writers: nothing another process wrote is lost. The file keeps its
// inode (descriptors opened before, hard links, mode, owner); bytes appended while zot writes are
// kept after the new content; a file replaced under zot is worked out again; a file that changed
// since the model last read it is refused with a sentence telling it to read again.
import { afterAll, describe, expect, test } from "bun:test";
import {
  appendFileSync,
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  linkSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "../../src/core/agent.ts";
import type { TextBlock } from "../../src/protocol/messages.ts";
import type { FileView, FileViews, Tool, ToolContext } from "../../src/protocol/tool.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";
import { editTool } from "../../src/tools/edit.ts";
import { readTool } from "../../src/tools/read.ts";
import { rewriteInPlace } from "../../src/tools/rewrite-in-place.ts";
import { createFile, writeTool } from "../../src/tools/write.ts";
import { testModel } from "../support/test-model.ts";

const dir = mkdtempSync(join(tmpdir(), "zot-writers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function context(views?: FileViews): ToolContext {
  return { cwd: dir, signal: new AbortController().signal, onProgress() {}, ...(views ? { views } : {}) };
}

async function run(tool: Tool, args: Record<string, unknown>, ctx = context()) {
  const result = await tool.execute(args, ctx);
  return { ...result, text: (result.content[0] as TextBlock).text };
}

const path = (name: string) => join(dir, name);
const get = (name: string) => readFileSync(path(name), "utf8");

describe("the file stays the file other programs have", () => {
  test("a writer holding the file open keeps writing into the file everyone sees (edit and write)", async () => {
    writeFileSync(path("held.log"), "start\n");
    const fd = openSync(path("held.log"), "a");
    try {
      writeSync(fd, "one\n");
      expect((await run(editTool, { path: "held.log", edits: [{ old_text: "start\n", new_text: "begin\n" }] })).is_error).toBe(false);
      writeSync(fd, "two\n");
      expect(get("held.log")).toBe("begin\none\ntwo\n");
      expect((await run(writeTool, { path: "held.log", content: "fresh\n" })).is_error).toBe(false);
      writeSync(fd, "three\n");
      expect(get("held.log")).toBe("fresh\nthree\n");
    } finally {
      closeSync(fd);
    }
  });

  test("a hard link stays one file; mode and owner are kept", async () => {
    writeFileSync(path("linked.txt"), "a = 1\n");
    linkSync(path("linked.txt"), path("other-name.txt"));
    chmodSync(path("linked.txt"), 0o640);
    const root = process.getuid?.() === 0;
    if (root) chownSync(path("linked.txt"), 1234, 1234);
    await run(editTool, { path: "linked.txt", edits: [{ old_text: "a = 1", new_text: "a = 2" }] });
    expect(get("other-name.txt")).toBe("a = 2\n");
    await run(writeTool, { path: "other-name.txt", content: "a = 3\n" });
    expect(get("linked.txt")).toBe("a = 3\n");
    const info = statSync(path("linked.txt"));
    expect(info.ino).toBe(statSync(path("other-name.txt")).ino);
    expect(info.nlink).toBe(2);
    expect(info.mode & 0o777).toBe(0o640);
    if (root) expect([info.uid, info.gid]).toEqual([1234, 1234]);
  });
});

describe("bytes appended while zot writes are kept", () => {
  /** Appends `count` numbered lines, a few ms apart: opening the file for each, or holding it open. */
  function appender(file: string, count: number, held: boolean) {
    const line = `echo "appended $i" ${held ? ">&3" : `>> '${file}'`}; sleep 0.003`;
    const script = `${held ? `exec 3>>'${file}'; ` : ""}for i in $(seq 1 ${count}); do ${line}; done`;
    return Bun.spawn(["bash", "-c", script], { stdout: "ignore", stderr: "inherit" });
  }

  for (const held of [false, true]) {
    test(`edits racing an appender that ${held ? "holds the file open" : "opens it per line"}: every appended line is kept, in order`, async () => {
      const name = `race-${held}.log`;
      writeFileSync(path(name), "version 0\n");
      const child = appender(path(name), 61, held);
      let finished = false;
      void child.exited.then(() => (finished = true));
      // The edits keep the length or grow the file; shrinking has the one instant the docs admit to.
      let version = 0;
      while (!finished) {
        const result = await run(editTool, { path: name, edits: [{ old_text: `version ${version}\n`, new_text: `version ${version + 1}\n` }] });
        expect(result.is_error).toBe(false);
        version++;
      }
      expect(await child.exited).toBe(0);
      const lines = get(name).split("\n");
      expect(lines[0]).toBe(`version ${version}`);
      expect(lines.slice(1, -1)).toEqual(Array.from({ length: 61 }, (_, i) => `appended ${i + 1}`));
      expect(version).toBeGreaterThan(10);
    });
  }

  // Another writer appends in the instant between zot's read and its write (the rewrite step runs there).
  for (const [label, from, to] of [
    ["longer", "x\n", "x\nmore\n"],
    ["shorter", "x\nmore\n", "x\n"],
    ["the same length", "x = 1\n", "x = 2\n"],
  ] as const) {
    test(`the new content ${label}: the other writer's bytes follow it`, () => {
      writeFileSync(path("between.txt"), from);
      const result = rewriteInPlace(path("between.txt"), (current) => {
        appendFileSync(path("between.txt"), "theirs 1\n");
        return Buffer.from(current.toString().replace(from, to));
      });
      expect(result).toMatchObject({ ok: true, appended: 9 });
      expect(get("between.txt")).toBe(`${to}theirs 1\n`);
    });
  }

  test("the edit result says another program appended, and the next edit asks to read the end first", async () => {
    writeFileSync(path("noted.txt"), "top\n");
    const fd = openSync(path("noted.txt"), "a");
    /** The model's record, looked up right after the edit read the file: the moment another writer appends here. */
    class AppendOnLookup extends Map<string, FileView> {
      override get(key: string) {
        if (this.size > 0) writeSync(fd, "log\n");
        return super.get(key);
      }
    }
    const views = new AppendOnLookup();
    await run(readTool, { path: "noted.txt" }, context(views));
    const edited = await run(editTool, { path: "noted.txt", edits: [{ old_text: "top", new_text: "TOP" }] }, context(views));
    closeSync(fd);
    expect(edited.text).toContain("(another program appended 4 bytes to noted.txt while zot wrote it; they were kept after the new content");
    expect(get("noted.txt")).toBe("TOP\nlog\n");
    const next = await run(editTool, { path: "noted.txt", edits: [{ old_text: "TOP", new_text: "Top" }] }, context(new Map(views)));
    expect(next.is_error).toBe(true);
    expect(next.text).toContain("changed since you last read it (4 bytes longer)");
  });
});

describe("a file replaced or created under zot", () => {
  test("replaced by rename (an editor's save) while zot wrote: the change is worked out again on the new file", () => {
    writeFileSync(path("saved.txt"), "alpha\n");
    let calls = 0;
    const result = rewriteInPlace(path("saved.txt"), (current) => {
      calls++;
      if (calls === 1) {
        writeFileSync(path("saved.txt.new"), "alpha\nbeta from the editor\n");
        renameSync(path("saved.txt.new"), path("saved.txt"));
      }
      return Buffer.from(current.toString().replace("alpha", "ALPHA"));
    });
    expect(result.ok).toBe(true);
    expect(calls).toBe(2);
    expect(get("saved.txt")).toBe("ALPHA\nbeta from the editor\n");
  });

  test("a new file another program created first is not overwritten", () => {
    writeFileSync(path("theirs.txt"), "theirs\n");
    expect(createFile(path("theirs.txt"), Buffer.from("mine\n"))).toBe("exists");
    expect(get("theirs.txt")).toBe("theirs\n");
    expect(createFile(path("mine.txt"), Buffer.from("mine\n"))).toMatchObject({ mtimeMs: expect.any(Number) });
    expect(get("mine.txt")).toBe("mine\n");
  });
});

describe("a file that changed since the model last read it", () => {
  test("edit and write refuse, say why and to read again, and write nothing; after a read they go ahead", async () => {
    const views: FileViews = new Map();
    const ctx = context(views);
    writeFileSync(path("stale.ts"), "const a = 1;\n");
    await run(readTool, { path: "stale.ts" }, ctx);
    writeFileSync(path("stale.ts"), "const a = 1;\nconst b = 2; // the user's\n");

    const edit = await run(editTool, { path: "stale.ts", edits: [{ old_text: "a = 1", new_text: "a = 3" }] }, ctx);
    expect(edit.is_error).toBe(true);
    expect(edit.text).toBe(
      "edit: stale.ts: it changed since you last read it (27 bytes longer): the user, a formatter or another program " +
        "(or a command you ran) wrote to it. Read it again, then redo the edit.\nNo changes were made to stale.ts.",
    );
    const write = await run(writeTool, { path: "stale.ts", content: "const a = 3;\n" }, ctx);
    expect(write.is_error).toBe(true);
    expect(write.text).toContain("write: stale.ts: it changed since you last read it");
    expect(write.text).toContain("nothing was written");
    expect(get("stale.ts")).toBe("const a = 1;\nconst b = 2; // the user's\n");

    await run(readTool, { path: "stale.ts", offset: 2, limit: 1 }, ctx);
    expect((await run(editTool, { path: "stale.ts", edits: [{ old_text: "a = 1", new_text: "a = 3" }] }, ctx)).is_error).toBe(false);
    // its own edit is what the model has seen: the next edit needs no read
    expect((await run(editTool, { path: "stale.ts", edits: [{ old_text: "b = 2", new_text: "b = 4" }] }, ctx)).is_error).toBe(false);
    expect((await run(writeTool, { path: "stale.ts", content: "done\n" }, ctx)).is_error).toBe(false);
    expect((await run(editTool, { path: "stale.ts", edits: [{ old_text: "done", new_text: "DONE" }] }, ctx)).is_error).toBe(false);
    expect(get("stale.ts")).toBe("DONE\n");
  });

  test("write over a file the model never read in this conversation is refused; an empty one, a new one, and one it read are written", async () => {
    const views: FileViews = new Map();
    const ctx = context(views);
    writeFileSync(path("precious.txt"), "the user's notes\n");
    const refused = await run(writeTool, { path: "precious.txt", content: "gone\n" }, ctx);
    expect(refused.is_error).toBe(true);
    expect(refused.text).toBe(
      "write: precious.txt exists and you have not read it since this session was opened (a read from before a resume or a /clear does not count); read it first (or change part of it with edit), so its content is not replaced unseen; nothing was written.",
    );
    expect(get("precious.txt")).toBe("the user's notes\n");
    writeFileSync(path("empty.txt"), "");
    expect((await run(writeTool, { path: "empty.txt", content: "filled\n" }, ctx)).is_error).toBe(false);
    expect((await run(writeTool, { path: "brand-new.txt", content: "new\n" }, ctx)).is_error).toBe(false);
    await run(readTool, { path: "precious.txt" }, ctx);
    expect((await run(writeTool, { path: "precious.txt", content: "replaced\n" }, ctx)).is_error).toBe(false);
    expect(get("precious.txt")).toBe("replaced\n");
    // What read cannot show (binary, UTF-16) is not "read it first": the model could not.
    writeFileSync(path("blob.bin"), new Uint8Array([0, 1, 2, 3]));
    expect((await run(writeTool, { path: "blob.bin", content: "text now\n" }, ctx)).is_error).toBe(false);
    // An extension's call (a command's tool_prompt) is not judged by what the model saw.
    writeFileSync(path("ext-owned.txt"), "the extension's\n");
    const asked = { ...context(views), origin: { extension: "notes", chain: ["write"] } };
    expect((await run(writeTool, { path: "ext-owned.txt", content: "rewritten\n" }, asked)).is_error).toBe(false);
  });

  test("write over a file keeps its CRLF line ends and its byte-order mark, as edit does", async () => {
    writeFileSync(path("windows.txt"), "\uFEFFone\r\ntwo\r\n");
    expect((await run(writeTool, { path: "windows.txt", content: "uno\ndos\ntres\n" })).is_error).toBe(false);
    expect(readFileSync(path("windows.txt")).toString("latin1")).toBe("\xEF\xBB\xBFuno\r\ndos\r\ntres\r\n");
    writeFileSync(path("unix.txt"), "one\ntwo\n");
    await run(writeTool, { path: "unix.txt", content: "uno\ndos\n" });
    expect(get("unix.txt")).toBe("uno\ndos\n");
  });

  test("a file only touched (same content, new time) is not stale; one never read through zot is not judged", async () => {
    const views: FileViews = new Map();
    const ctx = context(views);
    writeFileSync(path("touched.txt"), "same\n");
    await run(readTool, { path: "touched.txt" }, ctx);
    utimesSync(path("touched.txt"), new Date(), new Date(Date.now() + 5000));
    expect((await run(editTool, { path: "touched.txt", edits: [{ old_text: "same", new_text: "new" }] }, ctx)).is_error).toBe(false);
    writeFileSync(path("unseen.txt"), "x\n");
    expect((await run(editTool, { path: "unseen.txt", edits: [{ old_text: "x", new_text: "y" }] }, ctx)).is_error).toBe(false);
  });

  test("through the agent: each tool call gets the agent's record; /clear forgets it", async () => {
    const file = path("agent.txt");
    writeFileSync(file, "v1\n");
    const meddler: Tool = {
      name: "meddle",
      description: "another program writes the file",
      parameters: { type: "object" },
      execute: async () => (writeFileSync(file, "v1\nmeddled\n"), { content: [{ type: "text", text: "ok" }], is_error: false }),
    };
    const provider = createScriptedProvider([
      { tool_calls: [{ id: "r", name: "read", args: { path: "agent.txt" } }] },
      { tool_calls: [{ id: "m", name: "meddle", args: {} }] },
      { tool_calls: [{ id: "e", name: "edit", args: { path: "agent.txt", edits: [{ old_text: "v1", new_text: "v2" }] } }] },
      { text: "done" },
    ]);
    const agent = new Agent({ provider, model: testModel(), tools: [readTool, editTool, meddler], system: "", cwd: dir, autoCompact: 0 });
    await agent.prompt({ text: "go" }, new AbortController().signal);
    const results = agent.messages.flatMap((m) => (m.role === "tool" ? m.content : []));
    const last = results.at(-1)!;
    expect(last.type === "tool_result" && last.is_error).toBe(true);
    expect(JSON.stringify(last)).toContain("changed since you last read it");
    expect(get("agent.txt")).toBe("v1\nmeddled\n");
    expect(agent.views.size).toBe(1);
    agent.clear();
    expect(agent.views.size).toBe(0);
  });
});

test("no temp file is left beside a created or rewritten file", async () => {
  await run(writeTool, { path: "tidy/new.txt", content: "x" });
  await run(writeTool, { path: "tidy/new.txt", content: "y" });
  expect(existsSync(path("tidy/new.txt"))).toBe(true);
  expect(readdirSync(path("tidy"))).toEqual(["new.txt"]);
});
