// A failed file operation in words: the common codes as phrases, another code with the system's
// short description and never the path Node appends, zot's own errors by their message.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { errnoWords } from "../../src/protocol/errno-words.ts";
import { tempDir } from "../support/zot.ts";

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("it did not throw");
}

describe("errnoWords", () => {
  test("what the system says for a loop, a folder, a missing file and a long name, in words", () => {
    const dir = tempDir("zot-errno-");
    const loop = join(dir, "loop");
    symlinkSync(loop, loop);
    mkdirSync(join(dir, "folder"));
    expect(errnoWords(thrown(() => readFileSync(loop)))).toBe("it is a link that loops");
    expect(errnoWords(thrown(() => readFileSync(join(dir, "folder"))))).toBe("it is a directory");
    expect(errnoWords(thrown(() => readFileSync(join(dir, "missing"))))).toBe("no such file");
    expect(errnoWords(thrown(() => readFileSync(join(dir, "x".repeat(5000)))))).toBe("the path is too long");
  });

  test("another code keeps the system's description without the path; no code is the message; Object's words are no code", () => {
    const exdev = Object.assign(new Error("EXDEV: cross-device link not permitted, rename '/a' -> '/b'"), { code: "EXDEV" });
    expect(errnoWords(exdev)).toBe("EXDEV: cross-device link not permitted");
    expect(errnoWords(Object.assign(new Error("something odd"), { code: "EODD" }))).toBe("EODD");
    expect(errnoWords(new Error("it is a named pipe, not a regular file"))).toBe("it is a named pipe, not a regular file");
    expect(errnoWords(Object.assign(new Error("x"), { code: "constructor" }))).toBe("constructor");
    expect(errnoWords("a string")).toBe("a string");
  });
});
