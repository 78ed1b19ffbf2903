// A settings hook's `if` read as a permission rule: which calls it matches, which it cannot tell
// (the hook runs, its allow void), which it does not; a rule it cannot read is said once.
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hookConditionReader } from "../../src/permission-rules/hook-condition.ts";
import { compileMatcher } from "../../src/settings-hooks/matcher.ts";
import type { SettingsHook } from "../../src/settings-hooks/settings-file.ts";
import { tempDir } from "../support/zot.ts";

const anchors = { cwd: "/work/project", userHome: "/home/ann" };
const matcher = compileMatcher("Bash");
if ("error" in matcher) throw new Error(matcher.error);
const hook: SettingsHook = {
  event: "PreToolUse",
  matcher,
  handler: { type: "command", command: "guard.sh" },
  timeoutMs: 60_000,
  timeoutNamed: false,
  source: { file: "/work/project/.claude/settings.json", label: ".claude/settings.json", scope: "project" },
  at: "hooks.PreToolUse[0].hooks[0]",
};
const bash = (command: string) => ({ name: "bash", args: { command }, builtin: true });

describe("a hook's if", () => {
  test("Bash(git push *) runs the hook wherever a deny rule would see git push; its allow counts only where an allow rule would hold for the whole line", () => {
    const read = hookConditionReader(anchors, () => {});
    for (const command of ["git push", "git push origin main", "timeout 9 git push"]) {
      expect([command, read("Bash(git push *)", hook, bash(command))]).toEqual([command, "matches"]);
    }
    // The hook runs (a guard has its say), but an approver's allow would cover more than git push.
    for (const command of ["ls && git push", "git push; touch x", "FOO=1 git push -f", "echo $(git push)"]) {
      expect([command, read("Bash(git push *)", hook, bash(command))]).toEqual([command, "unsure"]);
    }
    for (const command of ["echo git push", "git pull", "ls"]) expect([command, read("Bash(git push *)", hook, bash(command))]).toEqual([command, "other"]);
    // An extension's tool named bash is not zot's bash.
    expect(read("Bash(git push *)", hook, { ...bash("git push"), builtin: false })).toBe("other");
  });

  test("a command line the rule cannot read to its end is unsure; a rule without a command matches every bash call", () => {
    const read = hookConditionReader(anchors, () => {});
    expect(read("Bash(npm test*)", hook, bash("$(echo npm) test"))).toBe("unsure");
    expect(read("Bash(npm test*)", hook, bash("echo 'open"))).toBe("unsure");
    expect(read("Bash", hook, bash("$(echo npm) test"))).toBe("matches");
  });

  test("file rules match by path from the working directory; a tool zot lacks matches nothing", () => {
    const read = hookConditionReader(anchors, () => {});
    const edit = (path: string) => ({ name: "edit", args: { path }, builtin: true });
    expect(read("Edit(src/**)", hook, edit("/work/project/src/a.ts"))).toBe("matches");
    // A link in src to a file outside it: the hook runs, and its allow does not reach where the link leads.
    const dir = tempDir("zot-if-link-");
    mkdirSync(join(dir, "src"), { recursive: true });
    writeFileSync(join(dir, "secret"), "x");
    symlinkSync(join(dir, "secret"), join(dir, "src", "link"));
    const inDir = hookConditionReader({ cwd: dir, userHome: "/home/ann" }, () => {});
    expect(inDir("Read(src/**)", hook, { name: "read", args: { path: join(dir, "src", "link") }, builtin: true })).toBe("unsure");
    expect(inDir("Read(src/**)", hook, { name: "read", args: { path: join(dir, "secret") }, builtin: true })).toBe("other");
    expect(read("Edit(src/**)", hook, edit("/work/project/docs/a.md"))).toBe("other");
    expect(read("WebFetch(domain:example.com)", hook, bash("curl example.com"))).toBe("other");
    expect(read("mcp__github__create_issue", hook, { name: "mcp__github__create_issue", args: {}, builtin: false })).toBe("matches");
  });

  test("a rule it cannot read is unsure, and said once however often it is read", () => {
    const said: string[] = [];
    const read = hookConditionReader(anchors, (message) => said.push(message));
    expect(read("Bash(git push", hook, bash("ls"))).toBe("unsure");
    expect(read("Bash(git push", hook, bash("git push"))).toBe("unsure");
    expect(said).toEqual([
      '.claude/settings.json: hooks.PreToolUse[0].hooks[0].if "Bash(git push" has an opening ( without its closing ); the hook runs for every call its matcher matches, and an allow from it does not count',
    ]);
  });
});
