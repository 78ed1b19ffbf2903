// `zot ext …` through the compiled binary, as a user types it: list, install (directory, ".",
// git), remove, enable/disable, logs, new, check. Every assertion looks at what a user would see
// or what is left on disk, so a broken feature fails here.
import { describe, expect, test } from "bun:test";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { trustedProject } from "../support/trust.ts";
import { cleanEnv, tempDir, ZOT, zot } from "../support/zot.ts";

const PY_OK = `#!/usr/bin/env python3
import json, sys
def send(f):
    sys.stdout.write(json.dumps(f) + "\\n"); sys.stdout.flush()
send({"type": "hello", "name": sys.argv[1] if len(sys.argv) > 1 else "x", "version": "1"})
send({"type": "ready"})
for line in sys.stdin:
    if json.loads(line).get("type") == "shutdown":
        send({"type": "shutdown_ack"}); break
`;

/** An extension directory: extension.json (an object is written as JSON, a string verbatim) plus files. */
function makeExt(dir: string, manifest: Record<string, unknown> | string, files: Record<string, string> = {}): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), typeof manifest === "string" ? manifest : `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
    if (name.endsWith(".py") || name.endsWith(".sh")) chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

const pyExt = (dir: string, name: string, extra: Record<string, unknown> = {}) =>
  makeExt(dir, { name, version: "1.0.0", exec: "./main.py", args: [name], language: "python", ...extra }, { "main.py": PY_OK });

/** Every path under dir (relative), to prove a failed command left it exactly as it was. */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return ["<absent>"];
  return (readdirSync(dir, { recursive: true }) as string[]).sort();
}

function git(cwd: string, ...args: string[]) {
  const run = Bun.spawnSync(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
}

/** An extension named `name` in a git repository of one commit, to install by file:// URL. */
function committedExt(name: string): string {
  const repo = pyExt(join(tempDir("zot-repo-"), "repo"), name);
  git(repo, "init", "-q");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "first");
  return repo;
}

describe("zot ext usage", () => {
  test("no subcommand and --help print the usage and exit 0", async () => {
    for (const args of [["ext"], ["ext", "--help"]]) {
      const run = await zot(args);
      expect(run.code).toBe(0);
      for (const sub of ["list", "install", "remove", "enable", "disable", "logs", "new", "check"]) expect(run.stdout).toContain(sub);
    }
  });

  test("an unknown subcommand or flag exits 2 naming what is valid", async () => {
    const sub = await zot(["ext", "frob"]);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain('unknown ext subcommand "frob"');
    expect(sub.stderr).toContain("list, install, remove, enable, disable, logs, new, check");
    const flag = await zot(["ext", "list", "--jsn"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('unknown flag "--jsn"');
    expect(flag.stderr).toContain("--json");
    const lang = await zot(["ext", "new", "x", "--lang", "rust"]);
    expect(lang.code).toBe(2);
    expect(lang.stderr).toContain("ts, js, python");
  });

  test("a subcommand's --help shows its options", async () => {
    const run = await zot(["ext", "install", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("--force");
  });
});

describe("zot ext list", () => {
  test("rows for ok, disabled, broken and shadowed extensions, in aligned columns", async () => {
    const { home, cwd } = trustedProject();
    pyExt(join(cwd, ".zot", "extensions", "alpha"), "alpha", { description: "the project's alpha" });
    pyExt(join(home, "extensions", "alpha"), "alpha", { description: "the global alpha" });
    pyExt(join(home, "extensions", "beta"), "beta", { description: "béta, wide: 日本" });
    pyExt(join(home, "extensions", "gamma"), "gamma", { enabled: false });
    makeExt(join(home, "extensions", "delta"), { name: "delta", version: "2" });

    const run = await zot(["ext", "list"], { home, cwd });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    const header = lines[0];
    expect(header).toMatch(/^NAME\s+VERSION\s+ENABLED\s+STATE\s+SOURCE\s+LANGUAGE\s+DESCRIPTION$/);
    const row = (name: string, source: string) =>
      lines.find((l) => l.startsWith(`${name} `) && l.split(/\s{2,}/).includes(source)) ?? "";
    expect(row("alpha", "project").split(/\s{2,}/)).toEqual(["alpha", "1.0.0", "yes", "ok", "project", "python", "the project's alpha"]);
    expect(row("alpha", "global").split(/\s{2,}/).slice(0, 5)).toEqual(["alpha", "1.0.0", "yes", "shadowed", "global"]);
    expect(run.stdout).toContain(`shadowed by ${join(cwd, ".zot", "extensions", "alpha")}`);
    expect(row("beta", "global").split(/\s{2,}/).slice(2, 4)).toEqual(["yes", "ok"]);
    expect(row("gamma", "global").split(/\s{2,}/).slice(2, 4)).toEqual(["no", "disabled"]);
    expect(row("delta", "global").split(/\s{2,}/).slice(2, 4)).toEqual(["-", "broken"]);
    // Broken: which file, which field.
    expect(run.stdout).toContain(`broken: ${join(home, "extensions", "delta", "extension.json")}: "exec" is required`);
    // Aligned: every row's STATE column starts where the header's does (ASCII rows).
    const stateAt = header.indexOf("STATE");
    for (const name of ["alpha", "gamma", "delta"]) {
      const line = lines.find((l) => l.startsWith(`${name} `)) ?? "";
      expect(line.slice(stateAt)).toMatch(/^(ok|shadowed|disabled|broken) /);
    }
    // Descriptions (the original never showed them).
    expect(run.stdout).toContain("the global alpha");
    expect(run.stdout).toContain("béta, wide: 日本");
  });

  test("--json gives every field", async () => {
    const home = tempDir("zot-home-");
    pyExt(join(home, "extensions", "one"), "one", { description: "first" });
    makeExt(join(home, "extensions", "two"), "{ not json");
    const run = await zot(["ext", "list", "--json"], { home });
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ name: "one", version: "1.0.0", enabled: true, state: "ok", source: "global", language: "python", description: "first" });
    expect(rows[1]).toMatchObject({ name: "two", state: "broken", enabled: null });
    expect(rows[1].error).toContain("not valid JSON");
  });

  test("a folder's names and descriptions are listed as text: their escapes never reach the terminal", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    pyExt(join(cwd, ".zot", "extensions", "\u001b]52;c;ZXZpbA==\u0007planted"), "planted", { description: "tidy \u001b[2Jup" });
    const run = await zot(["ext", "list"], { home, cwd });
    expect(run.stdout).toContain("planted");
    expect(run.stdout).toContain("tidy up");
    expect(run.stdout).not.toContain("\u001b");
  });

  test("no extensions: a hint how to install or create one", async () => {
    const run = await zot(["ext", "list"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("zot ext install");
    expect(run.stderr).toContain("zot ext new");
  });
});

describe("zot ext install", () => {
  test("from a directory: named by its manifest, everything but .git copied", async () => {
    const home = tempDir("zot-home-");
    const src = pyExt(join(tempDir("zot-src-"), "some-folder"), "alpha", { version: "1.2.3" });
    writeFileSync(join(src, "data.txt"), "payload");
    mkdirSync(join(src, "node_modules", "dep"), { recursive: true });
    writeFileSync(join(src, "node_modules", "dep", "index.js"), "x");
    mkdirSync(join(src, ".git"));
    writeFileSync(join(src, ".git", "HEAD"), "ref");

    const run = await zot(["ext", "install", src], { home });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const dest = join(home, "extensions", "alpha");
    expect(run.stdout).toBe(`installed alpha 1.2.3 → ${dest}\n`);
    expect(readFileSync(join(dest, "data.txt"), "utf8")).toBe("payload");
    expect(existsSync(join(dest, "node_modules", "dep", "index.js"))).toBe(true);
    expect(existsSync(join(dest, ".git"))).toBe(false);
    // The script stays executable.
    expect(statSync(join(dest, "main.py")).mode & 0o111).not.toBe(0);
    expect(readdirSync(join(home, "extensions"))).toEqual(["alpha"]);
  });

  test("a bundle of skills with no exec installs, and zot ext check says there is nothing to start", async () => {
    const home = tempDir("zot-home-");
    const src = makeExt(join(tempDir("zot-src-"), "git-tools"), { name: "git-tools", version: "1.0.0", skills: ["skills"] }, {
      "skills/writing-commits/SKILL.md": "---\nname: writing-commits\ndescription: How to write a commit message\n---\nWrite the why.\n",
    });
    const check = await zot(["ext", "check", src], { home });
    expect([check.code, check.stdout]).toEqual([0, expect.stringContaining("skills only (1 folder); it is never started")]);
    const run = await zot(["ext", "install", src], { home });
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(existsSync(join(home, "extensions", "git-tools", "skills", "writing-commits", "SKILL.md"))).toBe(true);
  });

  test("`install .` from inside the extension's directory", async () => {
    const home = tempDir("zot-home-");
    const src = pyExt(join(tempDir("zot-src-"), "here"), "dotted");
    const run = await zot(["ext", "install", "."], { home, cwd: src });
    expect(run.code).toBe(0);
    expect(existsSync(join(home, "extensions", "dotted", "main.py"))).toBe(true);
  });

  test("from a git repository (file:// URL), shallow, without .git", async () => {
    const home = tempDir("zot-home-");
    const repo = committedExt("from-git");
    const run = await zot(["ext", "install", `file://${repo}`], { home });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const dest = join(home, "extensions", "from-git");
    expect(run.stdout).toContain(`installed from-git 1.0.0 → ${dest}`);
    expect(existsSync(join(dest, "main.py"))).toBe(true);
    expect(existsSync(join(dest, ".git"))).toBe(false);
  });

  test("a bare repository on disk, given by its path, is cloned rather than read as a folder", async () => {
    const home = tempDir("zot-home-");
    const bare = join(tempDir("zot-bare-"), "tool.git");
    git(tempDir("zot-clone-cwd-"), "clone", "-q", "--bare", committedExt("from-bare"), bare);
    const run = await zot(["ext", "install", bare], { home });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const dest = join(home, "extensions", "from-bare");
    expect(run.stdout).toContain(`installed from-bare 1.0.0 → ${dest}`);
    expect(existsSync(join(dest, "main.py"))).toBe(true);
    expect(existsSync(join(dest, "objects"))).toBe(false);
  });

  test("a URL is cloned even when the folder holds a directory spelled like it", async () => {
    const home = tempDir("zot-home-");
    const repo = committedExt("real-one");
    // A repository the user is in carries the URL's spelling as a path: path.resolve("file:///x") is <cwd>/file:/x.
    const cwd = tempDir("zot-evil-");
    pyExt(join(cwd, `file:${repo}`), "planted");
    const run = await zot(["ext", "install", `file://${repo}`], { home, cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("installed real-one");
    expect(readdirSync(join(home, "extensions"))).toEqual(["real-one"]);
  });

  test("six installs of one extension at once: one installs it, each other says so in a sentence (never a raw ENOTEMPTY), nothing is left half-done", async () => {
    for (let round = 0; round < 3; round++) {
      const home = tempDir("zot-home-");
      const source = pyExt(join(tempDir("zot-src-"), "ext"), "raced", { version: "1.0.0" });
      // files enough that each copy takes a while: the installs all look before any has put it in place
      mkdirSync(join(source, "data"));
      for (let i = 0; i < 400; i++) writeFileSync(join(source, "data", `${i}.txt`), "x".repeat(2000));
      const runs = await Promise.all(Array.from({ length: 6 }, () => zot(["ext", "install", source], { home })));
      expect(runs.filter((run) => run.code === 0)).toHaveLength(1);
      for (const run of runs.filter((run) => run.code !== 0)) {
        expect(run.stderr).toMatch(/"raced" (is already installed|was installed) at \S+( by another zot meanwhile)?; pass --force/);
      }
      expect(readdirSync(join(home, "extensions"))).toEqual(["raced"]);
    }
  });

  test("an installed name is refused without --force; --force replaces it", async () => {
    const home = tempDir("zot-home-");
    const first = pyExt(join(tempDir("zot-src-"), "v1"), "same", { version: "1.0.0" });
    writeFileSync(join(first, "only-in-v1.txt"), "old");
    expect((await zot(["ext", "install", first], { home })).code).toBe(0);

    const second = pyExt(join(tempDir("zot-src-"), "v2"), "same", { version: "2.0.0" });
    const refused = await zot(["ext", "install", second], { home });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("already installed");
    expect(refused.stderr).toContain("--force");
    const dest = join(home, "extensions", "same");
    expect(JSON.parse(readFileSync(join(dest, "extension.json"), "utf8")).version).toBe("1.0.0");

    const forced = await zot(["ext", "install", second, "--force"], { home });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain("installed same 2.0.0");
    expect(JSON.parse(readFileSync(join(dest, "extension.json"), "utf8")).version).toBe("2.0.0");
    expect(existsSync(join(dest, "only-in-v1.txt"))).toBe(false);
    expect(readdirSync(join(home, "extensions"))).toEqual(["same"]);
  });

  test("a broken manifest, an exec that is missing and a failing clone leave nothing behind", async () => {
    const home = tempDir("zot-home-");
    pyExt(join(home, "extensions", "keep"), "keep");
    const before = tree(join(home, "extensions"));

    const noExec = makeExt(join(tempDir("zot-src-"), "bad"), { name: "bad", version: "1" }, { "big.txt": "x".repeat(100_000) });
    const broken = await zot(["ext", "install", noExec], { home });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('"exec" is required');
    expect(broken.stderr).toContain(join(noExec, "extension.json"));
    expect(tree(join(home, "extensions"))).toEqual(before);

    const missing = makeExt(join(tempDir("zot-src-"), "gone"), { name: "gone", exec: "./nothere.py" }, { "a.txt": "a" });
    const unstartable = await zot(["ext", "install", missing], { home });
    expect(unstartable.code).toBe(1);
    expect(unstartable.stderr).toContain("nothere.py");
    expect(unstartable.stderr).toContain("does not exist");
    expect(tree(join(home, "extensions"))).toEqual(before);

    const clone = await zot(["ext", "install", `file://${tempDir("zot-norepo-")}/missing.git`], { home });
    expect(clone.code).toBe(1);
    expect(clone.stderr).toContain("git clone");
    expect(tree(join(home, "extensions"))).toEqual(before);

    const noManifest = await zot(["ext", "install", tempDir("zot-empty-")], { home });
    expect(noManifest.code).toBe(1);
    expect(noManifest.stderr).toContain("extension.json");
    expect(tree(join(home, "extensions"))).toEqual(before);
  });

  test("a failure with no extensions directory yet does not create one", async () => {
    const home = tempDir("zot-home-");
    const bad = makeExt(join(tempDir("zot-src-"), "bad"), { name: "bad", exec: "./missing" });
    const run = await zot(["ext", "install", bad], { home });
    expect(run.code).toBe(1);
    expect(existsSync(join(home, "extensions"))).toBe(false);
  });
});

describe("zot ext remove", () => {
  test("--yes removes; without it and without a terminal it refuses with exit 2", async () => {
    const home = tempDir("zot-home-");
    const dir = pyExt(join(home, "extensions", "folder"), "doomed");
    const refused = await zot(["ext", "remove", "doomed"], { home, stdin: "y\n" });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--yes");
    expect(existsSync(dir)).toBe(true);

    const removed = await zot(["ext", "rm", "doomed", "--yes"], { home });
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`removed doomed (${dir})`);
    expect(existsSync(dir)).toBe(false);

    const again = await zot(["ext", "remove", "doomed", "--yes"], { home });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no extension named "doomed"');
  });

  test("a name in both the project and the global directory is not guessed", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    const project = pyExt(join(cwd, ".zot", "extensions", "twin"), "twin");
    const global = pyExt(join(home, "extensions", "twin"), "twin");
    const ambiguous = await zot(["ext", "remove", "twin", "--yes"], { home, cwd });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(project);
    expect(ambiguous.stderr).toContain(global);
    expect(ambiguous.stderr).toContain("--scope");
    const scoped = await zot(["ext", "remove", "twin", "--yes", "--scope", "global"], { home, cwd });
    expect(scoped.code).toBe(0);
    expect(existsSync(global)).toBe(false);
    expect(existsSync(project)).toBe(true);
  });
});

describe("zot ext enable / disable", () => {
  test("only the enabled value changes; the file's layout is kept byte for byte", async () => {
    const home = tempDir("zot-home-");
    const original = `{\n    "exec":   "./main.py",\n\t"name" : "lay",   "enabled" :true,\n  "args": ["lay"] ,"x": {"enabled": true}\n}\n`;
    const dir = makeExt(join(home, "extensions", "lay"), original, { "main.py": PY_OK });
    const file = join(dir, "extension.json");

    const off = await zot(["ext", "disable", "lay"], { home });
    expect(off.code).toBe(0);
    expect(off.stdout).toContain("disabled lay");
    expect(readFileSync(file, "utf8")).toBe(original.replace('"enabled" :true,', '"enabled" :false,'));
    const listed = JSON.parse((await zot(["ext", "list", "--json"], { home })).stdout);
    expect(listed[0]).toMatchObject({ name: "lay", enabled: false, state: "disabled" });

    const on = await zot(["ext", "enable", "lay"], { home });
    expect(on.code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(original);
  });

  test("disabling a manifest without the field adds it and changes nothing else", async () => {
    const home = tempDir("zot-home-");
    const original = `{\n  "name": "plain",\n  "exec": "./main.py"\n}\n`;
    const dir = makeExt(join(home, "extensions", "plain"), original, { "main.py": PY_OK });
    const run = await zot(["ext", "disable", "plain"], { home });
    expect(run.code).toBe(0);
    const text = readFileSync(join(dir, "extension.json"), "utf8");
    expect(text.replace(/\n {2}"enabled": false,/, "")).toBe(original);
    expect(JSON.parse(text).enabled).toBe(false);
  });

  test("an unknown name fails with a sentence", async () => {
    const run = await zot(["ext", "enable", "ghost"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no extension named "ghost"');
  });
});

describe("registrations", () => {
  test("a tool or command registered again replaces the first, and the extension's log says so", async () => {
    const home = tempDir("zot-home-");
    const dup = `#!/usr/bin/env python3
import json, sys
def send(f):
    sys.stdout.write(json.dumps(f) + "\\n"); sys.stdout.flush()
send({"type": "hello", "name": "dupper", "version": "1"})
for description in ["one", "two"]:
    send({"type": "register_tool", "name": "dup", "description": description, "schema": {"type": "object", "properties": {}}})
    send({"type": "register_command", "name": "dupc", "description": description})
send({"type": "ready"})
for line in sys.stdin:
    if json.loads(line).get("type") == "shutdown":
        send({"type": "shutdown_ack"}); break
`;
    const dir = makeExt(join(tempDir("zot-src-"), "dupper"), { name: "dupper", exec: "./main.py", language: "python" }, { "main.py": dup });
    const run = await zot(["-p", "hi", "--provider", "scripted", "--ext", dir], { home });
    expect(run.code).toBe(0);
    const log = readFileSync(join(home, "logs", "ext-dupper.log"), "utf8");
    expect(log).toContain('register_tool "dup" again: it replaces the earlier registration of that name');
    expect(log).toContain('register_command "dupc" again: it replaces the earlier registration of that name');
  });
});

describe("a tool whose schema is no object's", () => {
  test("is skipped, and the run says so on stderr and in --json, once however often it is registered, not only in the log", async () => {
    const home = tempDir("zot-home-");
    const main = `#!/usr/bin/env python3
import json, sys
def send(f):
    sys.stdout.write(json.dumps(f) + "\\n"); sys.stdout.flush()
send({"type": "hello", "name": "shapes", "version": "1"})
for _ in range(3):
    send({"type": "register_tool", "name": "lookup", "description": "d", "schema": {"type": "string"}})
send({"type": "ready"})
for line in sys.stdin:
    if json.loads(line).get("type") == "shutdown":
        send({"type": "shutdown_ack"}); break
`;
    const dir = makeExt(join(tempDir("zot-src-"), "shapes"), { name: "shapes", exec: "./main.py" }, { "main.py": main });
    const said = 'tool "lookup" has a schema that is of type "string", skipped';
    const print = await zot(["-p", "hi", "--provider", "scripted", "--ext", dir], { home });
    expect(print.code).toBe(0);
    expect(print.stderr).toContain(`[shapes] warn: ${said}`);
    // Registered three times, said once.
    expect(print.stderr.split(said)).toHaveLength(2);
    const json = await zot(["--json", "hi", "--provider", "scripted", "--ext", dir], { home });
    const notes = json.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line)).filter((event) => event.type === "ext_notify");
    expect(notes).toEqual([expect.objectContaining({ extension: "shapes", level: "warn", message: expect.stringContaining(said) })]);
  });
});

describe("--ext", () => {
  test("an extension that cannot start (exec missing, exec misspelt, not executable) stops the run before the model is asked; installed, the same is a warning", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    const missing = makeExt(join(tempDir("zot-src-"), "hello"), { name: "hello", exec: "./nope.sh" });
    const misspelt = makeExt(join(tempDir("zot-src-"), "hello"), { name: "hello", exce: "./main.py" }, { "main.py": PY_OK });
    const plain = makeExt(join(tempDir("zot-src-"), "hello"), { name: "hello", exec: "./main.txt" }, { "main.txt": PY_OK });
    const cases: [string, string][] = [
      [missing, `"exec" is "./nope.sh", but ${join(missing, "nope.sh")} does not exist`],
      [misspelt, `${join(misspelt, "extension.json")}: "exec" is required (a string)`],
      [plain, `is not executable; run chmod +x ${join(plain, "main.txt")}`],
    ];
    for (const [dir, problem] of cases) {
      // The scripted provider would answer any prompt: an answer on stdout means the /command went to the model.
      const run = await zot(["--ext", dir, "-p", "/hello", "--provider", "scripted"], { home, cwd });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain(problem);
      expect(run.stderr).toContain(`zot: --ext ${dir}: `);
      expect(run.stderr).toContain("fix it, or run without this --ext");
    }
    cpSync(missing, join(home, "extensions", "hello"), { recursive: true });
    const installedRun = await zot(["-p", "hi", "--provider", "scripted"], { home, cwd });
    expect(installedRun.code).toBe(0);
    expect(installedRun.stderr).toContain(`"exec" is "./nope.sh", but ${join(home, "extensions", "hello", "nope.sh")} does not exist`);
    expect(installedRun.stdout).not.toBe("");
  });
});

describe("zot ext logs", () => {
  test("prints the log; a missing log says where it would be, or that no extension has that name", async () => {
    const home = tempDir("zot-home-");
    const typo = await zot(["ext", "logs", "quiet"], { home });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('no log for "quiet": no installed extension or hook has that name (zot ext list shows them');
    mkdirSync(join(home, "extensions", "quiet"), { recursive: true });
    writeFileSync(join(home, "extensions", "quiet", "extension.json"), JSON.stringify({ name: "quiet", exec: "python3", args: ["quiet.py"] }));
    const missing = await zot(["ext", "logs", "quiet"], { home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no log for "quiet" yet');
    expect(missing.stderr).toContain(join(home, "logs", "ext-quiet.log"));

    mkdirSync(join(home, "logs"));
    writeFileSync(join(home, "logs", "ext-quiet.log"), "[zot] starting quiet\nhello from stderr\n");
    const run = await zot(["ext", "logs", "quiet"], { home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("[zot] starting quiet\nhello from stderr\n");
  });

  test("-f prints what is appended until interrupted", async () => {
    const home = tempDir("zot-home-");
    mkdirSync(join(home, "logs"));
    const file = join(home, "logs", "ext-busy.log");
    writeFileSync(file, "first\n");
    const proc = Bun.spawn([ZOT, "ext", "logs", "busy", "-f"], { env: cleanEnv(home), stdout: "pipe", stderr: "pipe" });
    const reader = proc.stdout.getReader();
    let seen = "";
    const until = async (text: string) => {
      while (!seen.includes(text)) {
        const { done, value } = await reader.read();
        if (done) break;
        seen += new TextDecoder().decode(value);
      }
    };
    await until("first\n");
    writeFileSync(file, "first\nsecond\n");
    await until("second\n");
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
    expect(seen).toBe("first\nsecond\n");
  });
});

describe("zot ext new", () => {
  for (const [lang, entry] of [
    ["ts", "index.ts"],
    ["js", "index.mjs"],
    ["python", "main.py"],
  ] as const) {
    test(`--lang ${lang} scaffolds ${entry}, a manifest and a README`, async () => {
      const cwd = tempDir("zot-cwd-");
      const name = `demo-${lang}`;
      const run = await zot(["ext", "new", name, "--lang", lang], { cwd });
      expect(run.code).toBe(0);
      const dir = join(cwd, name);
      const manifest = JSON.parse(readFileSync(join(dir, "extension.json"), "utf8"));
      expect(manifest).toMatchObject({ name, exec: `./${entry}` });
      const source = readFileSync(join(dir, entry), "utf8");
      expect(source).toContain(`"${name}"`);
      expect(source).not.toContain("{{");
      if (lang === "ts") expect(source).toContain('from "@zot/sdk"');
      if (lang !== "ts") expect(source).not.toContain("@zot/sdk");
      if (lang === "python") expect(statSync(join(dir, entry)).mode & 0o111).not.toBe(0);
      expect(readFileSync(join(dir, "README.md"), "utf8")).toContain(`zot --ext ./${name} -p "/${name} hi"`);

      // It works as created: check passes and lists what it registers...
      const home = tempDir("zot-home-");
      const check = await zot(["ext", "check", `./${name}`], { home, cwd });
      expect(check.stdout).toContain("ok: no protocol errors");
      expect(check.code).toBe(0);
      // Not even the SDK runtime a TypeScript extension needs lands in the user's home.
      expect(tree(home)).toEqual([]);
      expect(check.stdout).toContain(`/${name}`);
      expect(check.stdout).toContain(`${name}_echo(text: string)`);

      // ...its command answers through --ext...
      const command = await zot(["--ext", `./${name}`, "-p", `/${name} hi`, "--provider", "scripted"], { home, cwd });
      expect(command.stdout).toBe(`${name} heard: hi\n`);
      expect(command.code).toBe(0);

      // ...and the model can call its tool.
      const script = join(cwd, "turns.jsonl");
      writeFileSync(
        script,
        [
          JSON.stringify({ tool_calls: [{ name: `${name}_echo`, args: { text: "ping-42" } }] }),
          JSON.stringify({ text: "tool said: {{last_tool_result}}" }),
        ].join("\n"),
      );
      const tool = await zot(["--ext", `./${name}`, "-p", "echo it", "--provider", "scripted", "--script", script], { home, cwd });
      expect(tool.stdout).toContain("tool said: ping-42");
      expect(tool.code).toBe(0);
    }, 20_000);
  }

  test("the default is TypeScript, --dir places it, an existing directory is refused", async () => {
    const cwd = tempDir("zot-cwd-");
    const run = await zot(["ext", "new", "tsdefault", "--dir", "sub/place"], { cwd });
    expect(run.code).toBe(0);
    expect(existsSync(join(cwd, "sub", "place", "index.ts"))).toBe(true);

    writeFileSync(join(cwd, "sub", "place", "index.ts"), "mine");
    const again = await zot(["ext", "new", "tsdefault", "--dir", "sub/place"], { cwd });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
    expect(readFileSync(join(cwd, "sub", "place", "index.ts"), "utf8")).toBe("mine");

    const bad = await zot(["ext", "new", "no/slash"], { cwd });
    expect(bad.code).toBe(2);
  });

  test("a built-in command's name (/help, any case) is refused, with another name to try; nothing is written", async () => {
    const cwd = tempDir("zot-cwd-");
    for (const name of ["help", "Model", "exit"]) {
      const run = await zot(["ext", "new", name], { cwd });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`"${name}" is the name of zot's built-in /${name.toLowerCase()}, so the extension's /${name} would never run; pick another name, e.g. zot ext new my-${name}`);
    }
    expect(readdirSync(cwd)).toEqual([]);
    expect((await zot(["ext", "new", "my-help"], { cwd })).code).toBe(0);
  });
});

describe("zot ext check", () => {
  test("an extension that never says hello: garbage lines and unknown frames are named, exit 1", async () => {
    const home = tempDir("zot-home-");
    // Its own start-up deadline (the default is 30 s, for a `go run .` that compiles first).
    const dir = makeExt(join(tempDir("zot-src-"), "mute"), { name: "mute", exec: "./main.py", timeouts: { hello: 1500 } }, {
      "main.py": `#!/usr/bin/env python3
import sys, time
print("this is not json", flush=True)
print('{"type":"bogus"}', flush=True)
time.sleep(30)
`,
    });
    const run = await zot(["ext", "check", dir], { home });
    expect(run.code).toBe(1);
    // The check keeps its log and data in a private home: the user's is left as it was.
    expect(tree(home)).toEqual([]);
    expect(run.stdout).toContain("not JSON: this is not json");
    expect(run.stdout).toContain('unknown frame type "bogus"');
    expect(run.stdout).toContain("no hello frame within 1.5 s");
    expect(run.stdout).not.toContain("ok: no protocol errors");
  }, 20_000);

  test("a misspelt event is a warning, and an interceptor that never runs (tool_result, observe-only) an error, exit 1", async () => {
    const home = tempDir("zot-home-");
    const dir = makeExt(join(tempDir("zot-src-"), "subs"), { name: "subs", exec: "./main.py" }, {
      "main.py": `#!/usr/bin/env python3
import json, sys
def send(f):
    sys.stdout.write(json.dumps(f) + "\\n"); sys.stdout.flush()
send({"type": "hello", "name": "subs"})
send({"type": "subscribe", "events": ["turn_ended"], "intercept": ["tool_result"]})
send({"type": "ready"})
for line in sys.stdin:
    if json.loads(line).get("type") == "shutdown":
        send({"type": "shutdown_ack"}); break
`,
    });
    const run = await zot(["ext", "check", dir], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/warning:\n {2}- subscribe: event "turn_ended" is not one zot sends/);
    expect(run.stdout).toMatch(/protocol error:\n {2}- subscribe: "tool_result" can only be observed, so this interceptor never runs/);
  });

  test("an extension that exits before hello is reported", async () => {
    const home = tempDir("zot-home-");
    const dir = makeExt(join(tempDir("zot-src-"), "quitter"), { name: "quitter", exec: "./main.py" }, {
      "main.py": "#!/usr/bin/env python3\nimport sys\nprint('bye', file=sys.stderr)\nsys.exit(3)\n",
    });
    const run = await zot(["ext", "check", dir], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("before sending hello");
    // Its stderr is shown too, since that is usually why.
    expect(run.stdout).toContain("bye");
    expect(tree(home)).toEqual([]);
  });

  test("protocol mistakes after hello: wrong name, invalid frames with their path, no ready, no exit on shutdown", async () => {
    const home = tempDir("zot-home-");
    const dir = makeExt(join(tempDir("zot-src-"), "sloppy"), { name: "sloppy", exec: "./main.py" }, {
      "main.py": `#!/usr/bin/env python3
import json, sys, time
def send(f): sys.stdout.write((f if isinstance(f, str) else json.dumps(f)) + "\\n"); sys.stdout.flush()
send({"type": "hello", "name": "other-name", "version": "1"})
send("garbage line")
send({"type": "register_tool", "name": "bad tool", "schema": {"type": "object"}})
send({"type": "register_command", "name": "fine", "description": "a fine command"})
send({"type": "frobnicate"})
send({"type": "subscribe", "events": ["turn_end"], "intercept": ["tool_call"]})
for line in sys.stdin:
    pass
time.sleep(30)
`,
    });
    const run = await zot(["ext", "check", dir], { home });
    expect(run.code).toBe(1);
    expect(tree(home)).toEqual([]);
    const out = run.stdout;
    expect(out).toContain('hello names the extension "other-name" but its manifest says "sloppy"');
    expect(out).toContain("not JSON: garbage line");
    expect(out).toContain("invalid register_tool frame (name:");
    expect(out).toContain('unknown frame type "frobnicate"');
    // No ready is a warning, not an error: the host closes registration itself, as the original did.
    expect(out).toMatch(/warning:\n  - no ready frame/);
    expect(out).not.toMatch(/protocol errors?:[\s\S]*no ready frame/);
    expect(out).toContain("sending SIGTERM");
    // What it did register is still listed.
    expect(out).toContain("/fine");
    expect(out).toMatch(/events:\s+turn_end/);
    expect(out).toMatch(/intercepts:\s+tool_call/);
  }, 20_000);

  test("each subscribed interception is asked once: one that answers passes, one that never answers is a problem", async () => {
    const main = (answer: boolean) => `#!/usr/bin/env python3
import json, sys
def send(f): sys.stdout.write(json.dumps(f) + "\\n"); sys.stdout.flush()
send({"type": "hello", "name": "gate"})
send({"type": "subscribe", "intercept": ["tool_call", "turn_start"]})
send({"type": "ready"})
for line in sys.stdin:
    f = json.loads(line)
    if f.get("type") == "shutdown":
        sys.exit(0)
    if f.get("type") == "event_intercept" and (${answer ? "True" : "False"} or f.get("event") == "turn_start"):
        send({"type": "event_intercept_response", "id": f["id"], "block": f.get("tool_name") == "bash"})
`;
    const [answers, silent] = await Promise.all(
      [true, false].map((answer) =>
        zot(["ext", "check", makeExt(join(tempDir("zot-src-"), "gate"), { name: "gate", exec: "./main.py", fail_closed: true }, { "main.py": main(answer) })], {
          home: tempDir("zot-home-"),
        }),
      ),
    );
    expect(answers.stdout).toContain("ok: no protocol errors");
    expect(answers.code).toBe(0);
    expect(silent.code).toBe(1);
    expect(silent.stdout).toContain(
      "it did not answer a tool_call intercept (a harmless read of README.md): timed out after 5 s; zot would refuse every tool call (fail_closed)",
    );
    expect(silent.stdout).not.toContain("turn_start intercept");
  }, 20_000);

  test("an extension that never sends ready passes with a warning (exit 0)", async () => {
    const home = tempDir("zot-home-");
    const dir = makeExt(join(tempDir("zot-src-"), "lazy"), { name: "lazy", exec: "./main.py" }, {
      "main.py": `#!/usr/bin/env python3
import json, sys
def send(f): sys.stdout.write(json.dumps(f) + "\\n"); sys.stdout.flush()
send({"type": "hello", "name": "lazy"})
sys.stdin.readline()
send({"type": "register_command", "name": "hi"})
for line in sys.stdin:
    if json.loads(line).get("type") == "shutdown":
        sys.exit(0)
`,
    });
    const run = await zot(["ext", "check", dir], { home });
    expect(run.stdout).toContain("/hi");
    expect(run.stdout).toContain("1 warning:\n  - no ready frame; registration closed after 250 ms of silence");
    expect(run.stdout).toContain("ok: no protocol errors");
    expect(run.code).toBe(0);
  });

  test("a command or tool named as one of zot's own is reported (zot would never use it), exit 1", async () => {
    const home = tempDir("zot-home-");
    const dir = makeExt(join(tempDir("zot-src-"), "shadow"), { name: "shadow", exec: "./main.py" }, {
      "main.py": `#!/usr/bin/env python3
import json, sys
def send(f): sys.stdout.write(json.dumps(f) + "\\n"); sys.stdout.flush()
send({"type": "hello", "name": "shadow"})
send({"type": "register_command", "name": "Help", "description": "my help"})
send({"type": "register_command", "name": "fine", "description": "a fine command"})
send({"type": "register_tool", "name": "read", "description": "my read", "schema": {"type": "object"}})
send({"type": "ready"})
for line in sys.stdin:
    if json.loads(line).get("type") == "shutdown":
        sys.exit(0)
`,
    });
    const run = await zot(["ext", "check", dir], { home });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("2 names zot already has:");
    expect(run.stdout).toContain("command /Help is zot's built-in /help, which always wins: the extension's never runs; rename it (e.g. /my-help)");
    expect(run.stdout).toContain('tool "read" is zot\'s built-in read tool, which always wins: the model never sees the extension\'s; rename it');
    expect(run.stdout).toContain("no protocol errors, but it cannot be used as it is");
    expect(run.stdout).not.toContain("ok: no protocol errors");
  });

  test("a clean extension passes, by path or by installed name", async () => {
    const home = tempDir("zot-home-");
    const dir = pyExt(join(home, "extensions", "tidy"), "tidy");
    // A log from an earlier run, with a mistake in it: not this check's business.
    mkdirSync(join(home, "logs"));
    const userLog = join(home, "logs", "ext-tidy.log");
    writeFileSync(userLog, "[zot] not JSON: from another zot\n");
    const before = tree(home);
    for (const target of [dir, "tidy"]) {
      const run = await zot(["ext", "check", target], { home });
      expect(run.stdout).toContain("ok: no protocol errors");
      expect(run.stdout).toMatch(/hello:\s+version 1, capabilities: none/);
      expect(run.code).toBe(0);
    }
    // Read from the user's extensions directory, written nowhere in the user's home.
    expect(tree(home)).toEqual(before);
    expect(readFileSync(userLog, "utf8")).toBe("[zot] not JSON: from another zot\n");
    const missing = await zot(["ext", "check", "./nowhere"], { home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("does not exist");
  });

  test("by name: an untrusted folder's extension is not started, and a folder's directory cannot stand in for an installed one", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    const marker = join(cwd, "RAN");
    const planted = (dir: string, name: string) => makeExt(dir, { name, exec: "/bin/sh", args: ["-c", `touch ${marker}; sleep 5`] });
    planted(join(cwd, ".zot", "extensions", "pwn"), "pwn");
    const project = await zot(["ext", "check", "pwn"], { home, cwd });
    expect(project.code).toBe(2);
    expect(project.stderr).toContain("the folder is not trusted, so zot ext check does not start it");
    expect(project.stderr).toContain("zot ext check .zot/extensions/pwn");
    expect(existsSync(marker)).toBe(false);
    // The installed "tidy" is checked, not the folder's own ./tidy.
    pyExt(join(home, "extensions", "tidy"), "tidy");
    planted(join(cwd, "tidy"), "tidy");
    const installed = await zot(["ext", "check", "tidy"], { home, cwd });
    expect(installed.stdout).toContain("ok: no protocol errors");
    expect(existsSync(marker)).toBe(false);
  });
});
