// A Read(…)/Edit(…) rule's path against absolute paths: where each form is anchored, and the
// gitignore-style wildcards.
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compilePathPattern } from "../../src/permission-rules/path-pattern.ts";
import { tempDir } from "../support/zot.ts";

const anchors = { cwd: "/work/project", userHome: "/home/ann" };
function compiled(pattern: string, at = anchors) {
  const test = compilePathPattern(pattern, at);
  if ("error" in test) throw new Error(test.error);
  return test;
}
const matches = (pattern: string, absolute: string) => compiled(pattern)(absolute);

describe("where a path pattern is anchored", () => {
  test("`//` is the filesystem's root", () => {
    expect(matches("//etc/passwd", "/etc/passwd")).toBe(true);
    expect(matches("//etc/passwd", "/work/project/etc/passwd")).toBe(false);
  });

  test("`~/` is the home folder", () => {
    expect(matches("~/.ssh/**", "/home/ann/.ssh/id_ed25519")).toBe(true);
    expect(matches("~/.ssh/**", "/work/project/.ssh/x")).toBe(false);
  });

  test("`/` is the project (the working directory), `./` and a bare path the working directory", () => {
    expect(matches("/src/**/*.ts", "/work/project/src/a/b.ts")).toBe(true);
    expect(matches("/src/**/*.ts", "/src/a/b.ts")).toBe(false);
    expect(matches("./.env", "/work/project/.env")).toBe(true);
    expect(matches(".env", "/work/project/.env")).toBe(true);
    expect(matches(".env", "/work/project/sub/.env")).toBe(false);
    expect(matches("../shared/x", "/work/shared/x")).toBe(true);
  });
});

describe("wildcards", () => {
  test("`*` stays within a folder, `**` crosses any number of them (none too)", () => {
    expect(matches("src/*.ts", "/work/project/src/a.ts")).toBe(true);
    expect(matches("src/*.ts", "/work/project/src/sub/a.ts")).toBe(false);
    expect(matches("src/**/*.ts", "/work/project/src/a.ts")).toBe(true);
    expect(matches("src/**/*.ts", "/work/project/src/x/y/a.ts")).toBe(true);
    expect(matches("**/.env", "/work/project/a/b/.env")).toBe(true);
    expect(matches("**/.env", "/work/project/.env")).toBe(true);
  });

  test("`?` is one character and `[…]` one of a set", () => {
    expect(matches("log?.txt", "/work/project/log1.txt")).toBe(true);
    expect(matches("log?.txt", "/work/project/log12.txt")).toBe(false);
    expect(matches("key.[pk]em", "/work/project/key.pem")).toBe(true);
    expect(matches("key.[!pk]em", "/work/project/key.pem")).toBe(false);
  });

  test("dots and other characters are themselves", () => {
    expect(matches(".env", "/work/project/xenv")).toBe(false);
    expect(matches("a+b(c)", "/work/project/a+b(c)")).toBe(true);
  });
});

describe("folders", () => {
  test("a pattern naming a folder covers everything inside it", () => {
    expect(matches("./secrets", "/work/project/secrets/key.pem")).toBe(true);
    expect(matches("./secrets", "/work/project/secrets")).toBe(true);
    expect(matches("./secrets", "/work/project/secrets-not")).toBe(false);
  });

  test("a trailing slash is the folder's content; a trailing /** the folder and its content", () => {
    expect(matches("build/", "/work/project/build/out.js")).toBe(true);
    expect(matches("build/**", "/work/project/build/a/b.js")).toBe(true);
    expect(matches("build/**", "/work/project/build")).toBe(true);
    expect(matches("build/**", "/work/project/builder/x")).toBe(false);
  });
});

describe("links and patterns that cannot be read", () => {
  test("a rule on a folder that is a link holds on where the link leads", () => {
    const root = tempDir("zot-perm-pattern-");
    mkdirSync(join(root, "data", "aws"), { recursive: true });
    mkdirSync(join(root, "home"));
    symlinkSync(join(root, "data", "aws"), join(root, "home", ".aws"));
    const rule = compiled("~/.aws/**", { cwd: root, userHome: join(root, "home") });
    expect(rule(join(root, "home", ".aws", "credentials"))).toBe(true);
    expect(rule(join(root, "data", "aws", "credentials"))).toBe(true);
    expect(rule(join(root, "data", "other"))).toBe(false);
  });

  test("a rule without wildcards on a link holds on what it links to, folder or file", () => {
    const root = tempDir("zot-perm-pattern-");
    mkdirSync(join(root, "data", "aws"), { recursive: true });
    mkdirSync(join(root, "home"));
    symlinkSync(join(root, "data", "aws"), join(root, "home", ".aws"));
    writeFileSync(join(root, "real.env"), "k");
    symlinkSync(join(root, "real.env"), join(root, ".env"));
    const at = { cwd: root, userHome: join(root, "home") };
    expect(compiled("~/.aws", at)(join(root, "data", "aws", "credentials"))).toBe(true);
    expect(compiled("~/.aws/", at)(join(root, "data", "aws", "credentials"))).toBe(true);
    expect(compiled("./.env", at)(join(root, "real.env"))).toBe(true);
  });

  test("a set that is not one is an error, not a pattern", () => {
    expect(compilePathPattern("[z-a].txt", anchors)).toEqual({ error: expect.stringMatching(/^is not a path pattern zot can read \(.+\)$/) });
  });
});
