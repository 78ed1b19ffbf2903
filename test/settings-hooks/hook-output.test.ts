// How a hook's run is read, as Claude Code's hooks reference reads it: stdout on every exit code
// (JSON when it starts with "{" and parses, else plain text), exit 2 a block whatever the JSON says,
// another exit with a valid JSON answer decided by the JSON alone.
import { describe, expect, test } from "bun:test";
import type { HookEventName } from "../../src/settings-hooks/events.ts";
import { readAnswer } from "../../src/settings-hooks/hook-output.ts";
import { compileMatcher, type Matcher } from "../../src/settings-hooks/matcher.ts";
import type { SettingsHook } from "../../src/settings-hooks/settings-file.ts";

const hook = (event: HookEventName = "PreToolUse"): SettingsHook => ({
  event,
  matcher: compileMatcher(undefined) as Matcher,
  handler: { type: "command", command: "guard.sh" },
  timeoutMs: 600_000,
  timeoutNamed: false,
  source: { file: "/p/.claude/settings.json", label: ".claude/settings.json", scope: "project" },
  at: "hooks.PreToolUse[0].hooks[0]",
});
const exited = (code: number, stdout: string, stderr = "") => ({ status: "exited" as const, code, stdout, stderr, durationMs: 1 });
const deny = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm here" } });
const allow = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } });

describe("a hook's exit code and its JSON", () => {
  test("exit 1 with a valid JSON answer: the JSON decides (a guard that prints its deny and exits 1 still denies), no error", () => {
    const answer = readAnswer(hook(), exited(1, deny, "some noise"));
    expect(answer.block).toBe("no rm here");
    expect(answer.failure).toBeUndefined();
  });

  test("exit 1 with plain text or nothing: a non-blocking error with stderr; with JSON zot cannot use: an error naming it", () => {
    expect(readAnswer(hook(), exited(1, "", "linter crashed"))).toMatchObject({ failure: 'PreToolUse hook "guard.sh" (.claude/settings.json) exited 1: linter crashed' });
    expect(readAnswer(hook(), exited(1, "not json")).block).toBeUndefined();
    const invalid = readAnswer(hook(), exited(3, JSON.stringify({ decision: 42 })));
    expect(invalid.failure).toContain("exited 3 and answered with JSON zot cannot use");
    expect(invalid.block).toBeUndefined();
  });

  test("exit 2 blocks whatever the JSON says: its allow does not count, its blocking reason is the message, its context stays", () => {
    const blocked = readAnswer(hook(), exited(2, allow, "stderr reason"));
    expect(blocked.block).toBe("stderr reason");
    expect(blocked.permission).toBeUndefined();
    const reasoned = readAnswer(hook("PostToolUse"), exited(2, JSON.stringify({ decision: "block", reason: "the JSON's reason", hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "the tests failed" } }), "stderr"));
    expect(reasoned.block).toBe("the JSON's reason");
    expect(reasoned.context).toBe("the tests failed");
    // JSON zot cannot use: still a block, with stderr
    expect(readAnswer(hook(), exited(2, JSON.stringify({ decision: 42 }), "from stderr")).block).toBe("from stderr");
  });

  test("stdout that starts with { and does not parse is plain text: context where plain stdout is, not an error", () => {
    expect(readAnswer(hook("UserPromptSubmit"), exited(0, "{build} is the target"))).toMatchObject({ context: "{build} is the target" });
    expect(readAnswer(hook(), exited(0, "{oops")).failure).toBeUndefined();
  });
});

describe("a hook's texts, capped as Claude Code caps them", () => {
  test("context over 10,000 characters: a preview and the file that holds it whole; under it, as it is", async () => {
    const long = `${"context line\n".repeat(1000)}the end`;
    const answer = readAnswer(hook("UserPromptSubmit"), exited(0, JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: long } })));
    expect(answer.context!.length).toBeLessThan(2_300);
    expect(answer.context).toStartWith("context line\ncontext line\n");
    const file = /the whole of it is in (\S+)\]$/.exec(answer.context!)?.[1];
    expect(await Bun.file(file!).text()).toBe(long);
    expect(readAnswer(hook("UserPromptSubmit"), exited(0, "short context")).context).toBe("short context");
  });
});
