// The memory files of the folders below the working directory, found for a file the model works on:
// which folders, which names, once each, none outside the cwd, and their imports read as the
// start's are (the size limit, the not-text rule, trust).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findNestedMemory, type NestedMemoryOptions } from "../../src/config/nested-memory-files.ts";

let tmp: string;
let userHome: string;
let repo: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "zot-nested-")));
  userHome = path.join(tmp, "user");
  repo = path.join(tmp, "repo");
  fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const write = (file: string, text: string | Buffer) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};

const options = (more: Partial<NestedMemoryOptions> = {}): NestedMemoryOptions => ({ userHome, projectTrusted: true, given: [], ...more });
/** The files found for `file`, as paths relative to the repository, with their content. */
const found = (file: string, cwd = repo, more: Partial<NestedMemoryOptions> = {}) =>
  findNestedMemory(file, cwd, options(more)).files.map((f) => [path.relative(repo, f.path), f.content.trim(), path.relative(repo, f.folder)]);

describe("findNestedMemory", () => {
  test("every folder strictly below the cwd down to the file's, outermost first, each folder's files in the start's order", () => {
    write(path.join(repo, "CLAUDE.md"), "root: in the system prompt already");
    write(path.join(repo, "packages", "CLAUDE.md"), "packages");
    write(path.join(repo, "packages", "api", "AGENTS.md"), "api agents");
    write(path.join(repo, "packages", "api", "CLAUDE.md"), "api claude");
    write(path.join(repo, "packages", "api", ".claude", "CLAUDE.md"), "api dot-claude");
    write(path.join(repo, "packages", "api", "CLAUDE.local.md"), "api local");
    write(path.join(repo, "packages", "api", "src", "handler.ts"), "export {};\n");
    write(path.join(repo, "packages", "web", "CLAUDE.md"), "web: another package");
    // AGENTS.md is read from the root down to the cwd only, as Codex reads it: a subfolder's is not the project's word.
    expect(found("packages/api/src/handler.ts")).toEqual([
      ["packages/CLAUDE.md", "packages", "packages"],
      ["packages/api/CLAUDE.md", "api claude", "packages/api"],
      ["packages/api/.claude/CLAUDE.md", "api dot-claude", "packages/api"],
      ["packages/api/CLAUDE.local.md", "api local", "packages/api"],
    ]);
    // An absolute path is the same file.
    expect(found(path.join(repo, "packages", "api", "src", "handler.ts")).length).toBe(4);
  });

  test("a file in the cwd itself, or outside it, brings none", () => {
    write(path.join(repo, "packages", "api", "CLAUDE.md"), "api");
    write(path.join(tmp, "elsewhere", "CLAUDE.md"), "elsewhere");
    write(path.join(tmp, "elsewhere", "deep", "x.ts"), "");
    expect(found("README.md")).toEqual([]);
    expect(found(path.join(tmp, "elsewhere", "deep", "x.ts"))).toEqual([]);
    expect(found("../elsewhere/deep/x.ts")).toEqual([]);
    // Started in packages/api: its CLAUDE.md is the system prompt's, not a subfolder's.
    expect(found("src/handler.ts", path.join(repo, "packages", "api"))).toEqual([]);
  });

  test("a file given already (by its real path) is not found again, nor its imports; a link to one is the same file", () => {
    write(path.join(repo, "packages", "api", "CLAUDE.md"), "api, see @docs/style.md");
    write(path.join(repo, "packages", "api", "docs", "style.md"), "api style");
    const first = findNestedMemory("packages/api/src/a.ts", repo, options());
    expect(first.files.map((f) => f.content.trim())).toEqual(["api, see @docs/style.md", "api style"]);
    expect(first.files[1]).toMatchObject({ importedBy: path.join(repo, "packages", "api", "CLAUDE.md"), folder: path.join(repo, "packages", "api") });
    const again = findNestedMemory("packages/api/src/b.ts", repo, options({ given: first.files.map((f) => f.path) }));
    expect(again.files).toEqual([]);
    // The system prompt's own import of the package's style guide: the package's CLAUDE.md does not send it twice.
    const styleGiven = findNestedMemory("packages/api/src/a.ts", repo, options({ given: [path.join(repo, "packages", "api", "docs", "style.md")] }));
    expect(styleGiven.files.map((f) => f.content.trim())).toEqual(["api, see @docs/style.md"]);
    fs.symlinkSync("CLAUDE.md", path.join(repo, "packages", "api", "CLAUDE.local.md"));
    expect(findNestedMemory("packages/api/src/a.ts", repo, options()).files.map((f) => f.content.trim())).toEqual(["api, see @docs/style.md", "api style"]);
  });

  test("--setting-sources: without project no CLAUDE.md nor .claude/CLAUDE.md, without local no CLAUDE.local.md; a subfolder's AGENTS.md never", () => {
    write(path.join(repo, "packages", "api", "AGENTS.md"), "agents");
    write(path.join(repo, "packages", "api", "CLAUDE.md"), "claude");
    write(path.join(repo, "packages", "api", ".claude", "CLAUDE.md"), "dot-claude");
    write(path.join(repo, "packages", "api", "CLAUDE.local.md"), "local");
    const contents = (claudeSources: NestedMemoryOptions["claudeSources"]) => found("packages/api/x.ts", repo, { claudeSources }).map(([, content]) => content);
    expect(contents(["local"])).toEqual(["local"]);
    expect(contents(["project"])).toEqual(["claude", "dot-claude"]);
    expect(contents([])).toEqual([]);
  });

  test("imports: from the repository the cwd is the root of, trusted or not; never from outside it (the user's files), with a note; a link out is not read; too big and not text are left out with a note", () => {
    write(path.join(userHome, ".ssh", "id_rsa"), "SECRET KEY");
    write(path.join(repo, "packages", "api", "CLAUDE.md"), "api: @~/.ssh/id_rsa @../../docs/shared.md @diagram.png @huge.md");
    write(path.join(repo, "docs", "shared.md"), "shared, inside the folder");
    write(path.join(repo, "packages", "api", "diagram.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]));
    write(path.join(repo, "packages", "api", "huge.md"), "x".repeat(300 * 1024));
    const api = path.join(repo, "packages", "api");
    for (const projectTrusted of [false, true]) {
      const read = findNestedMemory("packages/api/src/a.ts", repo, options({ projectTrusted }));
      expect(read.files.map((f) => f.content.split(":")[0]!.trim())).toEqual(["api", "shared, inside the folder"]);
      expect(JSON.stringify(read.files)).not.toContain("SECRET KEY");
      expect(read.notes).toEqual([
        `${path.join(api, "diagram.png")}, imported by ${path.join(api, "CLAUDE.md")}, is not text (it holds NUL bytes); it is left out of what the model is given`,
        `${path.join(api, "huge.md")} is 300 KB, over the 256 KB a memory file may be; it is left out of what the model is given`,
        `${path.join(api, "CLAUDE.md")} imports @${path.join(userHome, ".ssh", "id_rsa")}, outside its own folder; a subfolder's memory file imports only from inside it (or from the repository the working directory is the root of), trusted or not`,
      ]);
    }
    fs.rmSync(path.join(api, "CLAUDE.md"));
    fs.symlinkSync(path.join(userHome, ".ssh", "id_rsa"), path.join(api, "CLAUDE.md"));
    for (const projectTrusted of [false, true]) {
      const linked = findNestedMemory("packages/api/src/a.ts", repo, options({ projectTrusted }));
      expect(linked.files).toEqual([]);
      expect(linked.notes).toEqual([`${path.join(api, "CLAUDE.md")} is a link to ${path.join(userHome, ".ssh", "id_rsa")}, outside this folder, so it is not read: a subfolder's memory file is read only from inside its own folder (or the repository the working directory is the root of), trusted or not`]);
    }
  });

  test("a clone or a folder below a trusted home imports only from inside itself; nothing under node_modules is read", () => {
    write(path.join(userHome, "secret.txt"), "HOME SECRET");
    write(path.join(userHome, ".aws", "credentials"), "AWS SECRET");
    const clone = path.join(userHome, "dl", "evil");
    fs.mkdirSync(path.join(clone, ".git"), { recursive: true });
    write(path.join(clone, "CLAUDE.md"), "evil: @../../secret.txt @notes.md");
    write(path.join(clone, "notes.md"), "clone notes");
    const tarball = path.join(userHome, "dl", "tarball");
    write(path.join(tarball, "CLAUDE.md"), "tarball: @~/secret.txt");
    const inHome = (file: string) => findNestedMemory(file, userHome, options({ userHome, projectTrusted: true }));
    expect(inHome(path.join(clone, "a.ts")).files.map((f) => f.content.trim())).toEqual(["evil: @../../secret.txt @notes.md", "clone notes"]);
    expect(JSON.stringify(inHome(path.join(tarball, "a.ts")).files)).not.toContain("HOME SECRET");
    // A home that is itself a repository (dotfiles): still not the reach of a folder below it.
    fs.mkdirSync(path.join(userHome, ".git"), { recursive: true });
    expect(JSON.stringify(inHome(path.join(tarball, "a.ts")).files)).not.toContain("HOME SECRET");
    // A dependency's memory file is not the project's, and never reaches the model.
    write(path.join(repo, "node_modules", "leftpad", "CLAUDE.md"), "dep: @~/.aws/credentials");
    expect(found("node_modules/leftpad/index.js")).toEqual([]);
    for (const dependency of ["vendor/lib", ".venv/lib/python3.12/site-packages/pkg"]) {
      write(path.join(repo, dependency, "CLAUDE.md"), "dep: @../../.env");
      expect([dependency, found(`${dependency}/x.py`)]).toEqual([dependency, []]);
    }
    // A clone's CLAUDE.md that is a link to the project's .env is held to the clone, as its imports are.
    write(path.join(repo, ".env"), "PROJECT SECRET");
    const nested = path.join(repo, "tools", "clone");
    fs.mkdirSync(path.join(nested, ".git"), { recursive: true });
    fs.symlinkSync(path.join(repo, ".env"), path.join(nested, "CLAUDE.md"));
    const linked = findNestedMemory(path.join(nested, "a.ts"), repo, options());
    expect(JSON.stringify(linked.files)).not.toContain("PROJECT SECRET");
    expect(linked.notes).toEqual([`${path.join(nested, "CLAUDE.md")} is a link to ${path.join(repo, ".env")}, outside ${nested}, so it is not read: a subfolder's memory file is read only from inside its own folder (or the repository the working directory is the root of), trusted or not`]);
  });

  test("a cwd reached through a link: the file's folders are found by the path as written and by where it leads", () => {
    write(path.join(repo, "packages", "api", "CLAUDE.md"), "api");
    const link = path.join(tmp, "link");
    fs.symlinkSync(repo, link);
    expect(found("packages/api/a.ts", link)).toEqual([["packages/api/CLAUDE.md", "api", "packages/api"]]);
    expect(found(path.join(repo, "packages", "api", "a.ts"), link)).toEqual([["packages/api/CLAUDE.md", "api", "packages/api"]]);
  });
});
