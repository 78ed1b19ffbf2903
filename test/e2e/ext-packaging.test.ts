// Packaging through the compiled binary: skills an extension ships (a skill-only bundle, named
// <extension>:<skill>, served by the skill tool), zot ext remove/enable/disable by the manifest's
// name or the directory's, and zot ext doctor over every state an installed extension can be in.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { trustDir } from "../support/trust.ts";
import { tempDir, zot } from "../support/zot.ts";

const PY_OK = [
  "import json, sys",
  "def send(f):",
  '    sys.stdout.write(json.dumps(f) + "\\n"); sys.stdout.flush()',
  'send({"type": "hello", "name": sys.argv[1], "version": "1"})',
  'send({"type": "register_tool", "name": sys.argv[1] + "_tool", "exposure": sys.argv[2] if len(sys.argv) > 2 else "direct"})',
  'if len(sys.argv) > 3: send({"type": "ready"})',
  "for line in sys.stdin:",
  '    if json.loads(line).get("type") == "shutdown":',
  '        send({"type": "shutdown_ack"}); break',
].join("\n");

function ext(dir: string, manifest: Record<string, unknown>, files: Record<string, string> = {}): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify(manifest));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const skillFile = (name: string) => `---\nname: ${name}\ndescription: how to write ${name}\n---\n\nWrite ${name} in the imperative.\n`;

describe("skills in an extension", () => {
  test("a skill-only bundle (no exec) is never started; its skills are offered as <extension>:<skill> and served by the skill tool", async () => {
    const home = tempDir("zot-home-");
    const bundle = ext(join(home, "extensions", "git-tools"), { name: "Git_Tools", version: "1.0.0", skills: ["skills"] }, { "skills/commits/SKILL.md": skillFile("commits") });
    const script = join(tempDir("zot-script-"), "turns.jsonl");
    writeFileSync(script, `${JSON.stringify({ tool_calls: [{ name: "skill", args: { name: "git-tools:commits" } }] })}\n${JSON.stringify({ text: "{{last_tool_result}}" })}\n`);
    const run = await zot(["--provider", "scripted", "--script", script, "-p", "write a commit message"], { home });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("# Skill: git-tools:commits");
    expect(run.stdout).toContain("Write commits in the imperative.");
    expect(existsSync(join(home, "logs", "ext-Git_Tools.log"))).toBe(false);
    const listed = JSON.parse((await zot(["ext", "list", "--json"], { home })).stdout);
    expect(listed).toEqual([expect.objectContaining({ name: "Git_Tools", state: "ok", dir: bundle })]);
    const doctor = await zot(["ext", "doctor"], { home });
    expect(doctor.code).toBe(0);
    expect(doctor.stdout).toContain("state:      skills only: nothing to start");
    expect(doctor.stdout).toContain("skills:     git-tools:commits");
  });
});

describe("remove, enable, disable by name", () => {
  test("the directory's name works as well as the manifest's; a name that is one's directory and another's manifest changes nothing", async () => {
    const home = tempDir("zot-home-");
    const folder = ext(join(home, "extensions", "folder-name"), { name: "manifest-name", exec: "python3", args: ["main.py", "manifest-name"] }, { "main.py": PY_OK });
    const off = await zot(["ext", "disable", "folder-name"], { home });
    expect(off.code).toBe(0);
    expect(off.stdout).toContain(`disabled manifest-name (${join(folder, "extension.json")})`);
    expect(JSON.parse(readFileSync(join(folder, "extension.json"), "utf8")).enabled).toBe(false);
    expect((await zot(["ext", "enable", "manifest-name"], { home })).code).toBe(0);

    // "other" is this one's directory and that one's manifest name: both match, so neither is touched.
    const a = ext(join(home, "extensions", "other"), { name: "first", exec: "python3", args: ["main.py", "first"] }, { "main.py": PY_OK });
    const b = ext(join(home, "extensions", "zz"), { name: "other", exec: "python3", args: ["main.py", "other"] }, { "main.py": PY_OK });
    const ambiguous = await zot(["ext", "remove", "other", "--yes"], { home });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(a);
    expect(ambiguous.stderr).toContain(b);
    expect(existsSync(a) && existsSync(b)).toBe(true);

    const removed = await zot(["ext", "remove", "folder-name", "--yes"], { home });
    expect(removed.code).toBe(0);
    expect(existsSync(folder)).toBe(false);
  });

  test("remove refuses a directory without extension.json", async () => {
    const home = tempDir("zot-home-");
    const stray = join(home, "extensions", "stray");
    mkdirSync(stray, { recursive: true });
    writeFileSync(join(stray, "keep.txt"), "mine");
    const run = await zot(["ext", "remove", "stray", "--yes"], { home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${stray} has no extension.json, so it is not an extension zot ext manages`);
    expect(existsSync(join(stray, "keep.txt"))).toBe(true);
  });
});

describe("zot ext doctor", () => {
  test("every state at once: ready, auto-ready, failed, broken, disabled, shadowed, untrusted; --json; exit 1", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    ext(join(home, "extensions", "good"), { name: "good", exec: "python3", args: ["main.py", "good", "deferred", "ready"] }, { "main.py": PY_OK });
    ext(join(home, "extensions", "quiet"), { name: "quiet", exec: "python3", args: ["main.py", "quiet"] }, { "main.py": PY_OK });
    ext(join(home, "extensions", "gone"), { name: "gone", exec: "./nope.sh" });
    ext(join(home, "extensions", "bad"), { name: "bad" });
    ext(join(home, "extensions", "off"), { name: "off", exec: "python3", args: ["main.py", "off"], enabled: false }, { "main.py": PY_OK });
    ext(join(cwd, ".zot", "extensions", "good"), { name: "good", exec: "python3", args: ["main.py", "good"] }, { "main.py": PY_OK });
    const untrusted = await zot(["ext", "doctor", "--json"], { home, cwd });
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain("this folder is not trusted");
    const before = JSON.parse(untrusted.stdout);
    expect(before.extensions.map((e: any) => [e.name, e.source, e.state, e.started ?? null])).toEqual([
      ["good", "project", "untrusted", null],
      ["bad", "global", "broken", null],
      ["gone", "global", "ok", "failed"],
      ["good", "global", "ok", "ready"],
      ["off", "global", "disabled", null],
      ["quiet", "global", "ok", "ready"],
    ]);
    const good = before.extensions[3];
    expect(good.tools).toEqual([{ name: "good_tool", exposure: "deferred", interactive: false, shadowed: false }]);
    expect(good.log).toBe(join(home, "logs", "ext-good.log"));
    expect(before.extensions[5].auto_ready).toBe(true);
    expect(before.extensions[5].problems).toEqual([]);
    expect(before.extensions[2].problems.join("\n")).toContain("nope.sh does not exist");
    expect(before.extensions[1].problems.join("\n")).toContain('"exec" is required');

    trustDir(home, cwd);
    const trusted = await zot(["ext", "doctor"], { home, cwd });
    expect(trusted.stdout).toContain(`good (global, ${join(home, "extensions", "good")})\n  state:      shadowed by ${join(cwd, ".zot", "extensions", "good")}: not started`);
    expect(trusted.stdout).toContain("ready (it sent no ready frame; zot closed registration itself)");
    expect(trusted.stdout).toMatch(/\d+ problems? in 6 extensions/);
  });
});

describe("zot ext check", () => {
  test("marks deferred tools", async () => {
    const run = await zot(["ext", "check", join(import.meta.dir, "..", "..", "extensions-examples", "toolbox")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("convert_length(value: number, from: string, to: string) [deferred]");
    expect(run.stdout).toContain("ok: no protocol errors");
  });
});
