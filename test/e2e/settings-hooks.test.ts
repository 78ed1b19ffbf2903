// Claude Code's settings hooks through the compiled binary, with the mock LLM speaking the real
// Anthropic wire format: real hook scripts (bash and python3) in a project's .claude/settings.json,
// the user's ~/.claude/settings.json and $ZOT_HOME/settings.json.
// Rule: assert what reaches the model (the mock records every request), what the user sees
// (stdout, stderr, --json events), what the hooks received (their own record files) and what
// happened on disk; never how long anything took.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { rpcFixture } from "../support/rpc-process.ts";
import { trustDir } from "../support/trust.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";
import { ready } from "../support/zot-pty.ts";

const fixture = rpcFixture();

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];

/** A project folder with a .claude/settings.json and hook scripts in .claude/hooks, a ZOT_HOME and a home directory (~). */
function project(settings: unknown, scripts: Record<string, string> = {}, options: { trusted?: boolean } = {}) {
  const cwd = tempDir("zot-shooks-");
  const home = tempDir("zot-shooks-home-");
  const userHome = tempDir("zot-shooks-user-");
  if (options.trusted ?? true) trustDir(home, cwd);
  write(join(cwd, ".claude", "settings.json"), JSON.stringify(settings, null, 2));
  for (const [name, text] of Object.entries(scripts)) {
    write(join(cwd, ".claude", "hooks", name), text);
    chmodSync(join(cwd, ".claude", "hooks", name), 0o755);
  }
  const run = (args: string[], env: Record<string, string> = {}) => zot(args, { cwd, home, env: { HOME: userHome, ...env } });
  /** the JSON lines a hook appended to .claude/hooks/<name> */
  const records = (name: string): any[] => {
    const file = join(cwd, ".claude", "hooks", name);
    return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line)) : [];
  };
  return { cwd, home, userHome, run, records };
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** A settings `hooks` entry: one group with a matcher and one command hook. */
const on = (matcher: string | undefined, command: string, extra: Record<string, unknown> = {}) => [
  { ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command, ...extra }] },
];
const script = (name: string) => `"$CLAUDE_PROJECT_DIR"/.claude/hooks/${name}`;

/** The text of an Anthropic tool_result block (a string, or text blocks). */
function resultText(block: any): string {
  return typeof block.content === "string" ? block.content : block.content.map((c: any) => c.text).join("\n");
}
/** The tool results the model was sent in a request's last message. */
const lastResults = (m: MockLlm, request: number) => m.requests[request].body.messages.at(-1).content.filter((b: any) => b.type === "tool_result");
/** All the text of a request's last user message. */
const lastUserText = (m: MockLlm, request: number) => {
  const content = m.requests[request].body.messages.at(-1).content;
  return typeof content === "string" ? content : content.map((b: any) => b.text ?? "").join("\n");
};

/** A python3 hook: records its input (one JSON line in .claude/hooks/<record>), then runs `body` with `d` the input. */
const python = (record: string, body: string) => `#!/usr/bin/env python3
import json, os, sys
d = json.load(sys.stdin)
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], ".claude", "hooks", "${record}"), "a") as f:
    f.write(json.dumps(d) + "\\n")
${body}
`;

const BLOCK_RM = `#!/bin/bash
# Claude Code's classic: refuse rm -rf, with the reason on stderr and exit 2.
input=$(cat)
if printf '%s' "$input" | grep -q 'rm -rf'; then
  echo "rm -rf is not allowed in this project; move files to ./trash instead" >&2
  exit 2
fi
exit 0
`;

describe("PreToolUse", () => {
  test("a bash hook blocks rm -rf with exit 2: the file survives, the model reads stderr as the reason, --json shows the deny", async () => {
    const p = project({ hooks: { PreToolUse: on("Bash", script("block-rm.sh")) } }, { "block-rm.sh": BLOCK_RM });
    writeFileSync(join(p.cwd, "precious.txt"), "keep me");
    const mock = fixture.llm([{ tool_calls: [{ id: "t1", name: "bash", args: { command: "rm -rf precious.txt" } }] }, { text: "done" }]);
    const run = await p.run([...anthropic(mock), "--json", "clean up"]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(p.cwd, "precious.txt"), "utf8")).toBe("keep me");
    const [result] = lastResults(mock, 1);
    expect(result.is_error).toBe(true);
    expect(resultText(result)).toBe("rm -rf is not allowed in this project; move files to ./trash instead");
    const intercepts = ndjson(run.stdout).filter((e) => e.type === "intercept");
    expect(intercepts).toEqual([
      { type: "intercept", participant: "settings-hooks", stage: "tool_call", action: "deny", reason: "rm -rf is not allowed in this project; move files to ./trash instead" },
    ]);
  });

  test("the hooks are those of the start: the model's bash command can neither take the guard away nor add a hook; the change is said once", async () => {
    const p = project({ hooks: { PreToolUse: on("Bash", script("block-rm.sh")) } }, { "block-rm.sh": BLOCK_RM });
    mkdirSync(join(p.cwd, "build"));
    const planted = join(p.cwd, "PLANTED");
    const added = JSON.stringify({ hooks: { PreToolUse: on("Bash", `touch ${planted}`) } });
    const mock = fixture.llm([
      { tool_calls: [{ id: "t1", name: "bash", args: { command: "echo '{}' > .claude/settings.json" } }] },
      { tool_calls: [{ id: "t2", name: "bash", args: { command: `printf '%s' '${added}' > .claude/settings.local.json` } }] },
      { tool_calls: [{ id: "t3", name: "bash", args: { command: "rm -rf build" } }] },
      { text: "done" },
    ]);
    const run = await p.run([...anthropic(mock), "-p", "clean up"]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(p.cwd, ".claude", "settings.json"), "utf8")).toBe("{}\n");
    expect(existsSync(join(p.cwd, "build"))).toBe(true);
    expect(resultText(lastResults(mock, 3)[0])).toBe("rm -rf is not allowed in this project; move files to ./trash instead");
    expect(existsSync(planted)).toBe(false);
    const notices = run.stderr.split("\n").filter((line) => line.includes("changed since zot started"));
    expect(notices).toHaveLength(2);
    expect(notices[0]).toContain(".claude/settings.json changed since zot started; its hooks as they were then still hold");
    expect(notices[1]).toContain(".claude/settings.local.json changed since zot started");
  });

  test("with no settings file at the start, one the model's bash command writes adds no hook; it is said once", async () => {
    const cwd = tempDir("zot-shooks-none-");
    const home = tempDir("zot-shooks-home-");
    const userHome = tempDir("zot-shooks-user-");
    const planted = join(cwd, "PLANTED");
    const added = JSON.stringify({ hooks: { PreToolUse: on("Bash", `touch ${planted}`), UserPromptSubmit: on(undefined, `touch ${planted}`) } });
    const mock = fixture.llm([
      { tool_calls: [{ id: "t1", name: "bash", args: { command: `mkdir -p ~/.claude && printf '%s' '${added}' > ~/.claude/settings.json` } }] },
      { tool_calls: [{ id: "t2", name: "bash", args: { command: "echo second" } }] },
      { text: "done" },
    ]);
    const run = await zot([...anthropic(mock), "-p", "set it up"], { cwd, home, env: { HOME: userHome } });
    expect(run.code).toBe(0);
    expect(existsSync(join(userHome, ".claude", "settings.json"))).toBe(true);
    expect(resultText(lastResults(mock, 2)[0])).toStartWith("second\n");
    expect(existsSync(planted)).toBe(false);
    const notices = run.stderr.split("\n").filter((line) => line.includes("changed since zot started"));
    expect(notices).toEqual([expect.stringContaining("~/.claude/settings.json changed since zot started; its hooks as they were then still hold")]);
  });

  test("the hook gets Claude Code's input on stdin and CLAUDE_PROJECT_DIR, never zot's credentials; a call it lets through runs", async () => {
    const p = project(
      { hooks: { PreToolUse: on("Bash|Read", script("record.py")) } },
      { "record.py": python("pre.jsonl", `d["env"] = {k: os.environ.get(k) for k in ["CLAUDE_PROJECT_DIR", "ANTHROPIC_API_KEY"]}\nopen(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "env.json"), "w").write(json.dumps(d["env"]))`) },
    );
    writeFileSync(join(p.cwd, "notes.txt"), "notes\n");
    const mock = fixture.llm([
      { tool_calls: [{ id: "t1", name: "bash", args: { command: "echo hi", timeout: 5 } }, { id: "t2", name: "read", args: { path: "notes.txt" } }] },
      { text: "done" },
    ]);
    const run = await p.run([...anthropic(mock), "-p", "go"], { ANTHROPIC_API_KEY: "sk-secret" });
    expect(run.code).toBe(0);
    const [bash, read] = p.records("pre.jsonl");
    expect(bash).toMatchObject({
      hook_event_name: "PreToolUse",
      cwd: p.cwd,
      permission_mode: "bypassPermissions",
      tool_name: "Bash",
      tool_input: { command: "echo hi", timeout: 5000 },
      tool_use_id: "t1",
    });
    expect(typeof bash.session_id).toBe("string");
    expect(bash.transcript_path).toEndWith(".jsonl");
    // One prompt: both calls' hooks are told its prompt_id, a UUID
    expect(bash.prompt_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(read.prompt_id).toBe(bash.prompt_id);
    expect(read).toMatchObject({ tool_name: "Read", tool_input: { file_path: join(p.cwd, "notes.txt") }, tool_use_id: "t2" });
    expect(JSON.parse(readFileSync(join(p.cwd, "env.json"), "utf8"))).toEqual({ CLAUDE_PROJECT_DIR: p.cwd, ANTHROPIC_API_KEY: null });
    const results = lastResults(mock, 1).map(resultText);
    expect(results[0]).toContain("hi");
    expect(results[1]).toContain("notes");

    // Under --permission-mode, the hooks read its name, as Claude Code's do.
    for (const mode of ["acceptEdits", "dontAsk"]) {
      fixture.llm([{ tool_calls: [{ id: "t3", name: "read", args: { path: "notes.txt" } }] }, { text: "done" }]);
      expect((await p.run([...anthropic(fixture.mock), "-p", "go", "--permission-mode", mode, "--allowedTools", "Read"])).code).toBe(0);
      expect(p.records("pre.jsonl").at(-1)).toMatchObject({ tool_name: "Read", permission_mode: mode });
    }
  });

  test("updatedInput in Claude Code's shape (file_path) rewrites zot's write (path); the audit trail records it", async () => {
    const rewrite = python(
      "rewrite.jsonl",
      `i = d["tool_input"]
if i.get("file_path", "").endswith("draft.txt"):
    i["file_path"] = i["file_path"][: -len("draft.txt")] + "final.txt"
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": i}}))`,
    );
    const p = project({ hooks: { PreToolUse: on("Write|Edit", `python3 ${script("rewrite.py")}`) } }, { "rewrite.py": rewrite });
    const mock = fixture.llm([{ tool_calls: [{ name: "write", args: { path: "draft.txt", content: "hello\n" } }] }, { text: "written" }]);
    const run = await p.run([...anthropic(mock), "--json", "write it"]);
    expect(run.code).toBe(0);
    expect(existsSync(join(p.cwd, "draft.txt"))).toBe(false);
    expect(readFileSync(join(p.cwd, "final.txt"), "utf8")).toBe("hello\n");
    expect(p.records("rewrite.jsonl")[0]).toMatchObject({ tool_name: "Write", tool_input: { file_path: join(p.cwd, "draft.txt"), content: "hello\n" } });
    const modify = ndjson(run.stdout).find((e) => e.type === "intercept");
    expect(modify).toMatchObject({ participant: "settings-hooks", stage: "tool_call", action: "modify" });
    expect(modify.before).toBe('write {"path":"draft.txt","content":"hello\\n"}');
    expect(modify.after).toBe(`write {"path":"${join(p.cwd, "final.txt")}","content":"hello\\n"}`);
  });

  test("a guard matching Edit|Write, as hooks are written since Claude Code dropped MultiEdit, also guards an edit with several replacements", async () => {
    const guard = python("guard.jsonl", `if "/protected/" in d["tool_input"].get("file_path", ""):
    print("protected files are read-only", file=sys.stderr)
    sys.exit(2)`);
    const p = project({ hooks: { PreToolUse: on("Edit|Write", `python3 ${script("guard.py")}`) } }, { "guard.py": guard });
    write(join(p.cwd, "protected", "config.txt"), "alpha\nbeta\n");
    const edits = [
      { old_text: "alpha", new_text: "ALPHA" },
      { old_text: "beta", new_text: "BETA" },
    ];
    const mock = fixture.llm([{ tool_calls: [{ name: "edit", args: { path: "protected/config.txt", edits } }] }, { text: "done" }]);
    const run = await p.run([...anthropic(mock), "-p", "shout"]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(p.cwd, "protected", "config.txt"), "utf8")).toBe("alpha\nbeta\n");
    expect(resultText(lastResults(mock, 1)[0])).toBe("protected files are read-only");
    expect(p.records("guard.jsonl")[0]).toMatchObject({ tool_name: "MultiEdit", tool_input: { file_path: join(p.cwd, "protected", "config.txt") } });
  });

  test("an edit that gives a field under two spellings cannot show the guard one text and write the other", async () => {
    const guard = python("guard.jsonl", `if "PWNED" in json.dumps(d["tool_input"]):
    print("no PWNED here", file=sys.stderr)
    sys.exit(2)`);
    const p = project({ hooks: { PreToolUse: on("Edit|Write", `python3 ${script("guard.py")}`) } }, { "guard.py": guard });
    write(join(p.cwd, "f.txt"), "hello\n");
    // The guard is shown the spelling the tool takes (newText: PWNED) and refuses, in a list or at the top level.
    const listed = { path: "f.txt", edits: [{ oldText: "hello", old_string: "nothing", newText: "PWNED", new_string: "harmless" }] };
    const single = { path: "f.txt", oldText: "hello", old_string: "nothing", newText: "PWNED", new_string: "harmless" };
    // Two values the guard lets through: the tool refuses to guess between them.
    const differing = { path: "f.txt", edits: [{ oldText: "hello", old_string: "nothing", newText: "one", new_string: "two" }] };
    const same = { path: "f.txt", edits: [{ oldText: "hello", old_string: "hello", newText: "hi", new_string: "hi" }] };
    const calls = [listed, single, differing, same].map((args) => ({ tool_calls: [{ name: "edit", args }] }));
    const mock = fixture.llm([...calls, { text: "done" }]);
    const run = await p.run([...anthropic(mock), "-p", "go"]);
    expect(run.code).toBe(0);
    expect(resultText(lastResults(mock, 1)[0])).toBe("no PWNED here");
    expect(resultText(lastResults(mock, 2)[0])).toBe("no PWNED here");
    expect(resultText(lastResults(mock, 3)[0])).toBe("edit: in edits[0], oldText and old_string are the same field (old_text) with different values; give it once. Nothing was changed.");
    // The same value under two spellings is one value: the guard saw it, and it is written.
    expect(readFileSync(join(p.cwd, "f.txt"), "utf8")).toBe("hi\n");
    expect(p.records("guard.jsonl").map((r) => r.tool_input.new_string)).toEqual(["PWNED", "PWNED", "one", "hi"]);
  });

  test("two hooks rewriting different fields both count, in settings order (Claude Code's #15897); Edit maps to old_text/new_text", async () => {
    const p = project(
      {
        hooks: {
          PreToolUse: [
            { matcher: "Bash", hooks: [{ type: "command", command: `python3 ${script("first.py")}` }, { type: "command", command: `python3 ${script("second.py")}` }] },
            { matcher: "Edit", hooks: [{ type: "command", command: `python3 ${script("edit.py")}` }] },
          ],
        },
      },
      {
        "first.py": python("first.jsonl", `i = d["tool_input"]\ni["command"] = "echo rewritten-by-first"\nprint(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": i}}))`),
        "second.py": python("second.jsonl", `i = d["tool_input"]\ni["timeout"] = 7000\nprint(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": i}}))`),
        "edit.py": python("edit.jsonl", `i = d["tool_input"]\ni["new_string"] = i["new_string"].upper()\nprint(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": i}}))`),
      },
    );
    writeFileSync(join(p.cwd, "a.txt"), "hello world\n");
    const mock = fixture.llm([
      { tool_calls: [{ id: "t1", name: "bash", args: { command: "echo original" } }] },
      { tool_calls: [{ id: "t2", name: "read", args: { path: "a.txt" } }] },
      { tool_calls: [{ id: "t3", name: "edit", args: { path: "a.txt", edits: [{ old_text: "world", new_text: "there" }] } }] },
      { text: "done" },
    ]);
    const run = await p.run([...anthropic(mock), "--json", "go"]);
    expect(run.code).toBe(0);
    expect(resultText(lastResults(mock, 1)[0])).toContain("rewritten-by-first");
    const modifies = ndjson(run.stdout).filter((e) => e.type === "intercept" && e.action === "modify");
    expect(modifies[0].after).toBe('bash {"command":"echo rewritten-by-first","timeout":7}');
    expect(p.records("edit.jsonl")[0]).toMatchObject({ tool_name: "Edit", tool_input: { file_path: join(p.cwd, "a.txt"), old_string: "world", new_string: "there" } });
    expect(modifies[1].after).toBe('edit {"path":"a.txt","edits":[{"old_text":"world","new_text":"THERE"}]}');
    expect(readFileSync(join(p.cwd, "a.txt"), "utf8")).toBe("hello THERE\n");
  });

  test("ask without a terminal (-p) refuses the call, saying a hook asked for confirmation", async () => {
    const ask = python("ask.jsonl", `print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "deploys need a human"}}))`);
    const p = project({ hooks: { PreToolUse: on("Bash", `python3 ${script("ask.py")}`) } }, { "ask.py": ask });
    const mock = fixture.llm([{ tool_calls: [{ name: "bash", args: { command: "touch deployed" } }] }, { text: "{{last_tool_result}}" }]);
    const run = await p.run([...anthropic(mock), "-p", "deploy"]);
    expect(run.code).toBe(0);
    expect(existsSync(join(p.cwd, "deployed"))).toBe(false);
    expect(run.stdout).toBe(
      "tool call refused: a PreToolUse hook asked for the user's confirmation (deploys need a human) and this run has no terminal to ask in; tell the user what you wanted to run\n",
    );
  });
});

describe("a hook's if (a permission rule the call must match)", () => {
  const allowAll = python("allow.jsonl", `print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}))`);

  test("a guard scoped to Bash(git push *) runs for git push, after && too, and not for other commands; a PostToolUse if scopes the same way", async () => {
    const p = project(
      {
        hooks: {
          PreToolUse: on("Bash", script("block-rm.sh"), { if: "Bash(git push *)" }),
          PostToolUse: on("Bash", `python3 ${script("post.py")}`, { if: "Bash(echo *)" }),
        },
      },
      { "block-rm.sh": `#!/bin/bash\ncat >> "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.log"; echo >> "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.log"\necho "git push is blocked here" >&2\nexit 2\n`, "post.py": python("post.jsonl", "") },
    );
    const mock = fixture.llm([
      { tool_calls: [{ id: "t1", name: "bash", args: { command: "echo hello" } }] },
      { tool_calls: [{ id: "t2", name: "bash", args: { command: "true && git push origin main" } }] },
      { text: "done" },
    ]);
    const run = await p.run([...anthropic(mock), "-p", "go"]);
    expect(run.code).toBe(0);
    const [first] = lastResults(mock, 1);
    expect(first.is_error ?? false).toBe(false);
    expect(resultText(first)).toContain("hello");
    const [second] = lastResults(mock, 2);
    expect(second.is_error).toBe(true);
    expect(resultText(second)).toBe("git push is blocked here");
    const guarded = readFileSync(join(p.cwd, ".claude", "hooks", "guard.log"), "utf8").trim().split("\n").map((line) => JSON.parse(line).tool_input.command);
    expect(guarded).toEqual(["true && git push origin main"]);
    // The PostToolUse hook heard of the echo only (the push was refused before it ran).
    expect(p.records("post.jsonl").map((d) => d.tool_input.command)).toEqual(["echo hello"]);
  });

  test("an approver scoped to Bash(touch ok-*) approves that and nothing else under dontAsk: a line that only partly matches, or cannot be read, runs the hook but its allow does not count", async () => {
    const p = project({ hooks: { PreToolUse: on("Bash", `python3 ${script("allow.py")}`, { if: "Bash(touch ok-*)" }) } }, { "allow.py": allowAll });
    const outside = tempDir("zot-shooks-outside-");
    const mock = fixture.llm([
      { tool_calls: [{ id: "t1", name: "bash", args: { command: `touch ${outside}/pwned` } }] },
      { tool_calls: [{ id: "t2", name: "bash", args: { command: `touch ok-2; touch ${outside}/pwned2` } }] },
      { tool_calls: [{ id: "t3", name: "bash", args: { command: `$(echo touch) ok-3; touch ${outside}/pwned3` } }] },
      { tool_calls: [{ id: "t4", name: "bash", args: { command: "touch ok-4" } }] },
      { text: "done" },
    ]);
    const run = await p.run([...anthropic(mock), "--permission-mode", "dontAsk", "-p", "go"]);
    expect(run.code).toBe(0);
    for (const name of ["pwned", "pwned2", "pwned3"]) expect([name, existsSync(join(outside, name))]).toEqual([name, false]);
    for (const request of [1, 2, 3]) expect(resultText(lastResults(mock, request)[0])).toContain("runs only what a permission rule allows");
    expect(existsSync(join(p.cwd, "ok-4"))).toBe(true);
    // Asked about every line its rule touches (a guard would have had its say), not about the plain touch outside.
    expect(p.records("allow.jsonl").map((d) => d.tool_input.command)).toEqual([`touch ok-2; touch ${outside}/pwned2`, `$(echo touch) ok-3; touch ${outside}/pwned3`, "touch ok-4"]);
  });

  test("an approver scoped to Edit(./**) does not let through what an allow rule of that text would not: .mcp.json and the settings files", async () => {
    const p = project({ hooks: { PreToolUse: on("Write|Edit", `python3 ${script("allow.py")}`, { if: "Edit(./**)" }) } }, { "allow.py": allowAll });
    const mock = fixture.llm([
      { tool_calls: [{ id: "t1", name: "write", args: { path: "notes.txt", content: "fine" } }] },
      { tool_calls: [{ id: "t2", name: "write", args: { path: ".mcp.json", content: '{"mcpServers":{"x":{"command":"sh"}}}' } }] },
      { tool_calls: [{ id: "t3", name: "write", args: { path: ".claude/settings.local.json", content: "{}" } }] },
      { text: "done" },
    ]);
    const run = await p.run([...anthropic(mock), "--permission-mode", "dontAsk", "-p", "go"]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(p.cwd, "notes.txt"), "utf8")).toBe("fine");
    expect(existsSync(join(p.cwd, ".mcp.json"))).toBe(false);
    expect(existsSync(join(p.cwd, ".claude", "settings.local.json"))).toBe(false);
    for (const request of [2, 3]) expect(resultText(lastResults(mock, request)[0])).toContain("tool call refused");
  });

  test("one approver listed twice runs once, and its allow counts when either listing's if matches the call whole", async () => {
    const command = `python3 ${script("allow.py")}`;
    const p = project({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command, if: "Bash(touch ok-*)" }, { type: "command", command, if: "Bash(touch *)" }] }] } }, { "allow.py": allowAll });
    const mock = fixture.llm([{ tool_calls: [{ id: "t1", name: "bash", args: { command: "touch ok-1 && touch other" } }] }, { text: "done" }]);
    const run = await p.run([...anthropic(mock), "--permission-mode", "dontAsk", "-p", "go"]);
    expect(run.code).toBe(0);
    expect(existsSync(join(p.cwd, "other"))).toBe(true);
    expect(p.records("allow.jsonl")).toHaveLength(1);
  });

  test("an if that is not a rule is said once, naming the file and the hook; the hook runs for every call, and its allow does not count", async () => {
    const p = project({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `python3 ${script("allow.py")}`, if: "Bash(git push" }, { type: "command", command: "true", if: 5 }] }] } }, { "allow.py": allowAll });
    const mock = fixture.llm([
      { tool_calls: [{ id: "t1", name: "bash", args: { command: "touch one" } }] },
      { tool_calls: [{ id: "t2", name: "bash", args: { command: "touch two" } }] },
      { text: "done" },
    ]);
    const run = await p.run([...anthropic(mock), "--permission-mode", "dontAsk", "-p", "go"]);
    expect(run.code).toBe(0);
    expect(existsSync(join(p.cwd, "one"))).toBe(false);
    expect(p.records("allow.jsonl")).toHaveLength(2);
    const said = run.stderr.split("\n").filter((line) => line.includes(".if"));
    expect(said).toEqual([
      expect.stringContaining('.claude/settings.json: hooks.PreToolUse[0].hooks[1].if must be a permission rule as text ("Bash(git push *)")'),
      expect.stringContaining('.claude/settings.json: hooks.PreToolUse[0].hooks[0].if "Bash(git push" has an opening ( without its closing )'),
    ]);
  });
});

describe("PostToolUse", () => {
  test("additionalContext and a block's reason reach the model with the result; the hook gets tool_response", async () => {
    const post = python(
      "post.jsonl",
      `print(json.dumps({"decision": "block", "reason": "lint failed: missing semicolon", "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "remember to run the formatter"}}))`,
    );
    const p = project({ hooks: { PostToolUse: on("Write", `python3 ${script("post.py")}`) } }, { "post.py": post });
    const mock = fixture.llm([{ tool_calls: [{ name: "write", args: { path: "x.js", content: "let a = 1\n" } }] }, { text: "ok" }]);
    const run = await p.run([...anthropic(mock), "-p", "write"]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(p.cwd, "x.js"), "utf8")).toBe("let a = 1\n");
    const text = resultText(lastResults(mock, 1)[0]);
    expect(text).toContain("[PostToolUse hook] lint failed: missing semicolon\n[PostToolUse hook] remember to run the formatter");
    expect(p.records("post.jsonl")[0]).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(p.cwd, "x.js"), content: "let a = 1\n" },
      tool_response: { filePath: join(p.cwd, "x.js"), success: true },
      duration_ms: expect.any(Number),
    });
  });
});

describe("UserPromptSubmit", () => {
  test("exit 2 blocks the prompt: the model is never called, the user reads why", async () => {
    const guard = `#!/bin/bash\nif grep -q password; then echo "prompts must not contain secrets" >&2; exit 2; fi\n`;
    const p = project({ hooks: { UserPromptSubmit: on(undefined, script("guard.sh")) } }, { "guard.sh": guard });
    const mock = fixture.llm([{ text: "should not be asked" }]);
    const run = await p.run([...anthropic(mock), "-p", "my password is hunter2"]);
    expect(run.code).toBe(1);
    expect(mock.requests).toHaveLength(0);
    expect(run.stderr).toContain("zot: prompt blocked by a UserPromptSubmit hook: prompts must not contain secrets\n");
  });

  test("plain stdout is context the model reads beside the prompt", async () => {
    const p = project({ hooks: { UserPromptSubmit: on(undefined, "echo 'the release is on Friday'") } });
    const mock = fixture.llm([{ text: "noted" }]);
    const run = await p.run([...anthropic(mock), "-p", "when is the release?"]);
    expect(run.code).toBe(0);
    expect(lastUserText(mock, 0)).toBe("when is the release?\n[UserPromptSubmit hook] the release is on Friday");
  });
});

describe("UserPromptExpansion", () => {
  test("a hook matching a command's name refuses it before its ! lines run; its stdout is context; other commands run as they are", async () => {
    const record = `#!/bin/bash\ncat >> "$CLAUDE_PROJECT_DIR"/.claude/hooks/expansions.jsonl; echo >> "$CLAUDE_PROJECT_DIR"/.claude/hooks/expansions.jsonl\n`;
    const guard = `#!/bin/bash\nif [ ! -f "$CLAUDE_PROJECT_DIR/approved" ]; then echo "deploys need an approval file" >&2; exit 2; fi\n`;
    const p = project(
      {
        hooks: {
          UserPromptExpansion: [
            { matcher: "deploy", hooks: [{ type: "command", command: script("guard.sh") }] },
            { hooks: [{ type: "command", command: script("record.sh") }] },
            { matcher: "review", hooks: [{ type: "command", command: "echo 'use the team checklist'" }] },
          ],
        },
      },
      { "guard.sh": guard, "record.sh": record },
    );
    write(join(p.cwd, ".claude", "commands", "deploy.md"), "Deploy $ARGUMENTS now.\n!`touch deployed`\n");
    write(join(p.cwd, ".claude", "commands", "review.md"), "Review $ARGUMENTS.\n");
    const mock = fixture.llm([{ text: "reviewed" }]);
    const blocked = await p.run([...anthropic(mock), "-p", "/deploy staging"]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain("/deploy blocked by a UserPromptExpansion hook: deploys need an approval file");
    expect(existsSync(join(p.cwd, "deployed"))).toBe(false);
    expect(mock.requests).toHaveLength(0);
    const review = await p.run([...anthropic(mock), "-p", "/review the diff"]);
    expect(review.code).toBe(0);
    expect(lastUserText(mock, 0)).toContain("Review the diff.");
    expect(lastUserText(mock, 0)).toContain("[UserPromptExpansion hook] use the team checklist");
    expect(p.records("expansions.jsonl").map((input) => [input.hook_event_name, input.expansion_type, input.command_name, input.command_args, input.prompt])).toEqual([
      ["UserPromptExpansion", "slash_command", "deploy", "staging", "/deploy staging"],
      ["UserPromptExpansion", "slash_command", "review", "the diff", "/review the diff"],
    ]);
  });
});

describe("Stop", () => {
  test("a block sends the agent back once with the reason as a user message; the second Stop sees stop_hook_active", async () => {
    const stop = python(
      "stop.jsonl",
      `if not d["stop_hook_active"]:
    print(json.dumps({"decision": "block", "reason": "run the tests before you stop"}))`,
    );
    const p = project({ hooks: { Stop: on(undefined, `python3 ${script("stop.py")}`) } }, { "stop.py": stop });
    const mock = fixture.llm([{ text: "all done" }, { text: "tests pass" }]);
    const run = await p.run([...anthropic(mock), "-p", "fix it"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("tests pass\n");
    expect(mock.requests).toHaveLength(2);
    expect(lastUserText(mock, 1)).toBe("Stop hook feedback:\nrun the tests before you stop");
    expect(p.records("stop.jsonl").map((d) => [d.hook_event_name, d.stop_hook_active, d.last_assistant_message])).toEqual([
      ["Stop", false, "all done"],
      ["Stop", true, "tests pass"],
    ]);
  });

  test("additionalContext sends the agent back too, as feedback (Claude Code's \"run the test suite before finishing\")", async () => {
    const stop = python(
      "stop.jsonl",
      `if not d["stop_hook_active"]:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": "run the test suite before finishing"}}))`,
    );
    const p = project({ hooks: { Stop: on(undefined, `python3 ${script("stop.py")}`) } }, { "stop.py": stop });
    const mock = fixture.llm([{ text: "all done" }, { text: "suite green" }]);
    const run = await p.run([...anthropic(mock), "-p", "fix it"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("suite green\n");
    expect(lastUserText(mock, 1)).toBe("Stop hook feedback:\nrun the test suite before finishing");
  });
});

describe("failing hooks", () => {
  test("a hook that times out is stopped (its process too) and counts for nothing: the call runs, the user is told", async () => {
    const slow = `#!/bin/bash\necho $$ > "$CLAUDE_PROJECT_DIR/slow.pid"\nsleep 60\necho "never" >&2\nexit 2\n`;
    const p = project({ hooks: { PreToolUse: on("Bash", script("slow.sh"), { timeout: 1 }) } }, { "slow.sh": slow });
    const mock = fixture.llm([{ tool_calls: [{ name: "bash", args: { command: "echo ran > ran.txt" } }] }, { text: "done" }]);
    const run = await p.run([...anthropic(mock), "-p", "go"]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(p.cwd, "ran.txt"), "utf8")).toBe("ran\n");
    expect(run.stderr).toContain(`PreToolUse hook "${script("slow.sh")}" (.claude/settings.json) did not finish within 1 s and was stopped (a non-blocking error`);
    const pid = Number(readFileSync(join(p.cwd, "slow.pid"), "utf8"));
    expect(existsSync(`/proc/${pid}`)).toBe(false);
  });

  test("a hook that exits 1 is a non-blocking error: logged with its stderr, the call runs", async () => {
    const p = project({ hooks: { PreToolUse: on("Bash", "echo 'linter crashed' >&2; exit 1") } });
    const mock = fixture.llm([{ tool_calls: [{ name: "bash", args: { command: "echo ran > ran.txt" } }] }, { text: "done" }]);
    const run = await p.run([...anthropic(mock), "-p", "go"]);
    expect(run.code).toBe(0);
    expect(existsSync(join(p.cwd, "ran.txt"))).toBe(true);
    expect(run.stderr).toContain(`zot: PreToolUse hook "echo 'linter crashed' >&2; exit 1" (.claude/settings.json) exited 1: linter crashed (a non-blocking error`);
  });

  test("exec form (args): the program runs with its arguments and no shell, ${CLAUDE_PROJECT_DIR} filled in (a path with a space and a $ in it is one argument); a program not found is said", async () => {
    const p = project({});
    const folder = join(p.cwd, "my hooks $HOME");
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, "guard.py"),
      [
        "import json, sys",
        "event = json.load(sys.stdin)",
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'permissionDecision': 'deny', 'permissionDecisionReason': 'exec form guard saw ' + event['tool_name'] + ' with ' + sys.argv[1]}}))",
      ].join("\n"),
    );
    write(
      join(p.cwd, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: "Bash", hooks: [{ type: "command", command: "python3", args: ["${CLAUDE_PROJECT_DIR}/my hooks $HOME/guard.py", "it's $1 `literal`"] }] },
            { matcher: "Bash", hooks: [{ type: "command", command: "no-such-hook-program", args: [] }] },
          ],
        },
      }),
    );
    const mock = fixture.llm([{ tool_calls: [{ name: "bash", args: { command: "echo ran > ran.txt" } }] }, { text: "done" }]);
    const run = await p.run([...anthropic(mock), "-p", "go"]);
    expect(run.code).toBe(0);
    expect(existsSync(join(p.cwd, "ran.txt"))).toBe(false);
    expect(JSON.stringify(mock.requests[1].body.messages)).toContain("exec form guard saw Bash with it's $1 `literal`");
    expect(run.stderr).toContain('no-such-hook-program was not found on PATH (with "args", "command" is the program itself');
  });

  test("PostToolUse updatedToolOutput replaces what the model reads of the result (a redaction hook); one not in the tool's shape is said and the result stands", async () => {
    const redact = JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: { stdout: "[redacted]", stderr: "", interrupted: false, isImage: false } } });
    const misshapen = JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "just text" } });
    const p = project({ hooks: { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `grep -q 'cat .env' && echo '${redact}' || echo '${misshapen}'` }] }] } });
    writeFileSync(join(p.cwd, ".env"), "API_KEY=sk-very-secret\n");
    const mock = fixture.llm([
      { tool_calls: [{ name: "bash", args: { command: "cat .env" } }] },
      { tool_calls: [{ name: "bash", args: { command: "echo visible" } }] },
      { text: "done" },
    ]);
    const run = await p.run([...anthropic(mock), "-p", "go"]);
    expect(run.code).toBe(0);
    const first = resultText(mock.requests[1].body.messages.at(-1).content[0]);
    expect(first).toContain("[redacted]");
    expect(JSON.stringify(mock.requests.map((r) => r.body))).not.toContain("sk-very-secret");
    expect(resultText(mock.requests[2].body.messages.at(-1).content[0])).toContain("visible");
    expect(run.stderr).toContain("its updatedToolOutput is not in Bash's output shape, so the model reads the tool's own result");
  });

  test("a hook that prints its deny as JSON and exits 1 still denies, as Claude Code reads it (the JSON decides on any exit but 2)", async () => {
    const deny = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "not in this repo" } });
    const p = project({ hooks: { PreToolUse: on("Bash", `echo '${deny}'; exit 1`) } });
    const mock = fixture.llm([{ tool_calls: [{ name: "bash", args: { command: "echo ran > ran.txt" } }] }, { text: "done" }]);
    const run = await p.run([...anthropic(mock), "-p", "go"]);
    expect(run.code).toBe(0);
    expect(existsSync(join(p.cwd, "ran.txt"))).toBe(false);
    expect(JSON.stringify(mock.requests[1].body.messages)).toContain("not in this repo");
    expect(run.stderr).not.toContain("non-blocking error");
  });
});

describe("where hooks come from", () => {
  test("an untrusted folder's hooks do not run, with a note saying how to trust it", async () => {
    const p = project({ hooks: { PreToolUse: on("Bash", script("block-rm.sh")) } }, { "block-rm.sh": BLOCK_RM }, { trusted: false });
    writeFileSync(join(p.cwd, "victim.txt"), "x");
    const mock = fixture.llm([{ tool_calls: [{ name: "bash", args: { command: "rm -rf victim.txt" } }] }, { text: "done" }]);
    const run = await p.run([...anthropic(mock), "-p", "go"]);
    expect(run.code).toBe(0);
    expect(existsSync(join(p.cwd, "victim.txt"))).toBe(false);
    expect(run.stderr).toContain(`zot: this folder (${p.cwd}) is not trusted, so its .claude/settings.json did not run; to run them, trust it: zot trust ${p.cwd}`);
  });

  test("the user's ~/.claude/settings.json and $ZOT_HOME/settings.json run without trust, in that order, and SessionStart/SessionEnd run around the session", async () => {
    const p = project({}, {}, { trusted: false });
    const log = join(p.cwd, "order.log");
    write(join(p.userHome, ".claude", "settings.json"), JSON.stringify({ hooks: { PreToolUse: on("*", `echo claude >> ${log}`), SessionEnd: on(undefined, `cat >> ${join(p.cwd, "end.jsonl")}`) } }));
    write(join(p.home, "settings.json"), JSON.stringify({ hooks: { PreToolUse: on("bash", `echo zot >> ${log}`), SessionStart: on("startup", "echo 'the build command is make ci'") } }));
    const mock = fixture.llm([{ tool_calls: [{ name: "bash", args: { command: "true" } }] }, { text: "done" }]);
    const run = await p.run([...anthropic(mock), "-p", "go"]);
    expect(run.code).toBe(0);
    expect(readFileSync(log, "utf8").split("\n").filter(Boolean).sort()).toEqual(["claude", "zot"]);
    expect(mock.requests[0].body.system.map((b: any) => b.text).join("")).toContain("# Context from SessionStart hooks\n\nthe build command is make ci");
    expect(JSON.parse(readFileSync(join(p.cwd, "end.jsonl"), "utf8"))).toMatchObject({ hook_event_name: "SessionEnd", reason: "other" });
  });

  test("SessionEnd hooks have 1.5 s in all, as in Claude Code, unless one names a longer timeout or CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS sets it", async () => {
    const p = project({});
    const ended = (name: string) => `sleep 2; echo ${name} >> ${join(p.cwd, "ended.log")}`;
    const written = () => (existsSync(join(p.cwd, "ended.log")) ? readFileSync(join(p.cwd, "ended.log"), "utf8").split("\n").filter(Boolean).sort() : []);
    const settings = (hooks: unknown[], env: Record<string, string> = {}) => write(join(p.cwd, ".claude", "settings.json"), JSON.stringify({ env, hooks: { SessionEnd: [{ hooks }] } }));
    const answer = () => p.run([...anthropic(fixture.llm([{ text: "done" }])), "-p", "go"]);

    // None names a timeout: the exit waits 1.5 s, not a hook's own 600 s, and says why it stopped it.
    settings([{ type: "command", command: ended("unnamed") }]);
    const cut = await answer();
    expect(cut.code).toBe(0);
    expect(cut.stdout).toContain("done");
    expect(cut.stderr).toContain("did not finish within 1.5 s (SessionEnd hooks' time in all, as in Claude Code");
    expect(cut.stderr).toContain("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS sets it) and was stopped");
    expect(written()).toEqual([]);

    // One names 5 s: both have that long.
    settings([{ type: "command", command: ended("unnamed") }, { type: "command", command: ended("named"), timeout: 5 }]);
    const named = await answer();
    expect(named.stderr).not.toContain("did not finish");
    expect(written()).toEqual(["named", "unnamed"]);

    // The variable sets it, from the shell or from a settings file's env (where Claude Code users put it).
    rmSync(join(p.cwd, "ended.log"));
    settings([{ type: "command", command: ended("shell") }]);
    const set = await p.run([...anthropic(fixture.llm([{ text: "done" }])), "-p", "go"], { CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: "5000" });
    expect(set.stderr).not.toContain("did not finish");
    settings([{ type: "command", command: ended("settings") }], { CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: "5000" });
    const fromSettings = await answer();
    expect(fromSettings.stderr).not.toContain("did not finish");
    expect(written()).toEqual(["settings", "shell"]);
  });

  test("a malformed settings file: each bad part is a warning naming the file and the field, and the rest still runs", async () => {
    const p = project({
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: "exit 2", timeout: "soon" }] },
          { matcher: "(", hooks: [{ type: "command", command: "true" }] },
          { matcher: "Bash", hooks: [{ type: "prompt", prompt: "is this safe?" }, { type: "command" }] },
        ],
        SubagentStop: [],
      },
    });
    write(join(p.cwd, ".claude", "settings.local.json"), "{ not json");
    const mock = fixture.llm([{ tool_calls: [{ name: "bash", args: { command: "echo ran > ran.txt" } }] }, { text: "{{last_tool_result}}" }]);
    const run = await p.run([...anthropic(mock), "-p", "go"]);
    expect(run.code).toBe(0);
    const warnings = run.stderr.split("\n").filter((line) => line.includes("settings"));
    expect(warnings).toEqual([
      "zot: .claude/settings.json: hooks.PreToolUse[0].hooks[0].timeout must be a number of seconds; the default 600 s applies",
      expect.stringMatching(/^zot: \.claude\/settings\.json: hooks\.PreToolUse\[1\]\.matcher "\(" is not a valid regular expression \(.+\); this group's hooks do not run$/),
      'zot: .claude/settings.json: hooks.PreToolUse[2].hooks[0].type is "prompt"; zot runs "command" and "http" hooks, so this one is skipped',
      'zot: .claude/settings.json: hooks.PreToolUse[2].hooks[1].command: this field is required (zot runs {"type": "command", "command": "…"} and {"type": "http", "url": "…"} hooks); it is skipped',
      "zot: .claude/settings.json: hooks.SubagentStop: zot has no such hook event, so its hooks do not run (zot runs PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, UserPromptExpansion, Stop, SessionStart, SessionEnd, PreCompact, Notification)",
      expect.stringMatching(/^zot: \.claude\/settings\.local\.json: is not valid JSON \(.*\); none of its hooks run, nor its env and model count, until it is fixed$/),
      // The same file holds the folder's permission rules (src/permission-rules), which say so too.
      expect.stringMatching(/^zot: \.claude\/settings\.local\.json: is not valid JSON \(.*\); none of its permission rules hold until it is fixed$/),
    ]);
    // The one hook that was read still ran: exit 2 blocked the call.
    expect(existsSync(join(p.cwd, "ran.txt"))).toBe(false);
    expect(run.stdout).toContain("exited 2 (blocking) without a reason on stderr");
  });
});

describe("SessionStart and SessionEnd around a session switch (rpc)", () => {
  test("a fork switched to: SessionEnd resume, SessionStart fork; resume_session: SessionEnd resume, SessionStart resume", async () => {
    const record = python("sessions.jsonl", "pass");
    const p = project({ hooks: { SessionStart: on(undefined, `python3 ${script("record.py")}`), SessionEnd: on(undefined, `python3 ${script("record.py")}`) } }, { "record.py": record });
    const rpc = fixture.spawn([...anthropic(fixture.llm([{ text: "first" }, { text: "second" }])), "--session", "new"], { cwd: p.cwd, home: p.home, env: { HOME: p.userHome } });
    await rpc.prompt("one");
    const parent = (await rpc.call({ type: "get_state" })).data.session.id;
    expect((await rpc.call({ type: "fork_session", at: 1 })).data).toMatchObject({ switched: true });
    expect((await rpc.call({ type: "resume_session", session: parent })).success).toBe(true);
    expect(await rpc.close()).toBe(0);
    expect(p.records("sessions.jsonl").map((d) => [d.hook_event_name, d.source ?? d.reason])).toEqual([
      ["SessionStart", "startup"],
      ["SessionEnd", "resume"],
      ["SessionStart", "fork"],
      ["SessionEnd", "resume"],
      ["SessionStart", "resume"],
      ["SessionEnd", "other"],
    ]);
  });
});

describe("http hooks", () => {
  test("the event is POSTed as JSON; a 2xx answer reads as a command's stdout (a deny, context); headers fill only allowedEnvVars; a failure is non-blocking", async () => {
    const seen: { path: string; auth: string | null; team: string | null; key: string | null; body: any }[] = [];
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        const body = (await req.json()) as any;
        const path = new URL(req.url).pathname;
        seen.push({ path, auth: req.headers.get("authorization"), team: req.headers.get("x-team"), key: req.headers.get("x-key"), body });
        if (path === "/prompt") return Response.json({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "the deploy window is closed on Fridays" } });
        if (path === "/text") return new Response("plain words are no answer");
        if (path === "/broken") return new Response("boom", { status: 500 });
        if (path === "/guard" && String(body.tool_input?.command).startsWith("rm ")) {
          return Response.json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "the policy server forbids rm" } });
        }
        return new Response("");
      },
    });
    try {
      const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;
      const p = project({
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: "http", url: url("/prompt") }, { type: "http", url: url("/text") }] }],
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url: url("/guard"), headers: { Authorization: "Bearer $HOOK_TOKEN", "X-Team": "${HOOK_SECRET}", "X-Key": "$ANTHROPIC_API_KEY" }, allowedEnvVars: ["HOOK_TOKEN", "ANTHROPIC_API_KEY"] }] }],
          PostToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url: url("/broken"), timeout: 5 }] }],
        },
      });
      writeFileSync(join(p.cwd, "keep.txt"), "keep");
      const mock = fixture.llm([
        { tool_calls: [{ name: "bash", args: { command: "rm keep.txt" } }, { name: "bash", args: { command: "echo ran > ran.txt" } }] },
        { text: "done" },
      ]);
      const run = await zot([...anthropic(mock), "-p", "clean up"], { cwd: p.cwd, home: p.home, env: { HOME: p.userHome, HOOK_TOKEN: "t0k3n", HOOK_SECRET: "not-for-hooks", ANTHROPIC_API_KEY: "sk-ant-not-for-hooks" } });
      expect(run.code).toBe(0);
      // The deny held, and the model read its reason; the other call ran.
      expect(readFileSync(join(p.cwd, "keep.txt"), "utf8")).toBe("keep");
      expect(readFileSync(join(p.cwd, "ran.txt"), "utf8")).toBe("ran\n");
      const results = mock.requests[1].body.messages.at(-1).content.filter((b: any) => b.type === "tool_result");
      expect(JSON.stringify(results[0].content)).toContain("the policy server forbids rm");
      // The JSON answer to UserPromptSubmit reached the model as context; a plain-text one did not, and is said.
      expect(JSON.stringify(mock.requests[0].body.messages)).toContain("the deploy window is closed on Fridays");
      expect(JSON.stringify(mock.requests.map((r) => r.body))).not.toContain("plain words are no answer");
      expect(run.stderr).toContain("answered 200 with text, not a JSON object (plain words are no answer)");
      // The event as Claude Code sends it; only the allowed variable filled in.
      const guard = seen.filter((s) => s.path === "/guard");
      expect(guard.map((s) => s.body.tool_input.command)).toEqual(["rm keep.txt", "echo ran > ran.txt"]);
      // zot's own credentials are not the hook's to ask for (ZOT_PASS_ENV passes one on purpose).
      expect(guard[0]).toMatchObject({ auth: "Bearer t0k3n", team: "", key: "", body: { hook_event_name: "PreToolUse", tool_name: "Bash", cwd: p.cwd } });
      // A 500 is a non-blocking error, said on stderr.
      expect(run.stderr).toContain(`zot: PostToolUse hook POST ${url("/broken")} (.claude/settings.json) failed: ${url("/broken")} answered 500: boom (a non-blocking error: zot goes on as if it had not run)`);
    } finally {
      server.stop(true);
    }
  });

  test("an http hook in a folder that is not trusted does not run", async () => {
    let posted = 0;
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (posted++, new Response("")) });
    try {
      const p = project({ hooks: { PreToolUse: [{ hooks: [{ type: "http", url: `http://127.0.0.1:${server.port}/h` }] }] } }, {}, { trusted: false });
      const mock = fixture.llm([{ tool_calls: [{ name: "bash", args: { command: "true" } }] }, { text: "done" }]);
      expect((await p.run([...anthropic(mock), "-p", "go"])).code).toBe(0);
      expect(posted).toBe(0);
    } finally {
      server.stop(true);
    }
  });
});

describe("in the TUI", () => {
  const runs = ptyRuns();

  test("ask forces the question although confirmations are off, showing the hook's reason; Notification hooks hear about it", async () => {
    const ask = python("ask.jsonl", `print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "deploys need a human"}}))`);
    const p = project(
      { hooks: { PreToolUse: on("Bash", `python3 ${script("ask.py")}`), Notification: on("permission_prompt", `cat >> ${script("notes.jsonl")}`) } },
      { "ask.py": ask },
    );
    const { session, mock } = runs.start(startMockLlm(), { cwd: p.cwd, home: p.home, env: { HOME: p.userHome }, rows: 40 });
    mock.push({ tool_calls: [{ name: "bash", args: { command: "touch deployed" } }] }, { text: "deploy over" });
    await ready(session);
    expect(session.screen.text()).not.toContain("confirmations on");
    session.type("deploy\r");
    await session.waitForText("Allow bash?");
    expect(session.screen.text()).toContain("a hook asks: deploys need a human");
    expect(existsSync(join(p.cwd, "deployed"))).toBe(false);
    await session.waitFor(() => p.records("notes.jsonl").length > 0, "the Notification hook");
    expect(p.records("notes.jsonl")[0]).toMatchObject({ hook_event_name: "Notification", notification_type: "permission_prompt", message: "zot needs your permission to use bash" });
    session.type("1");
    await session.waitForText("deploy over");
    expect(existsSync(join(p.cwd, "deployed"))).toBe(true);
  });
});

describe("over zot rpc", () => {
  test("PreCompact gets the trigger and the instructions, and exit 2 refuses the compaction: an error event, the transcript as it was", async () => {
    const refuse = python("precompact.jsonl", `sys.stderr.write("not now: the migration is half done")\nsys.exit(2)`);
    const p = project({ hooks: { PreCompact: on("manual", `python3 ${script("refuse.py")}`) } }, { "refuse.py": refuse });
    // A small window, so two prompts are enough to compact.
    write(join(p.home, "models.json"), JSON.stringify({ providers: { anthropic: { models: [{ id: "small", contextWindow: 40_000 }] } } }));
    const mock = fixture.llm([{ text: "First answer." }, { text: "Second answer." }]);
    const rpc = fixture.spawn([...anthropic(mock), "--model", "small", "--auto-compact", "off"], { cwd: p.cwd, home: p.home, env: { HOME: p.userHome } });
    for (const message of [`Here is the whole log: ${"line of output ".repeat(3200)}`, "now the short question"]) await rpc.prompt(message);
    const { events } = await rpc.compact({ instructions: "keep the build commands" });
    expect(events.map((e) => e.type)).toEqual(["error", "done"]);
    expect(events[0]).toEqual({ type: "error", code: "compaction", message: "a PreCompact hook refused it: not now: the migration is half done" });
    expect(p.records("precompact.jsonl")).toEqual([expect.objectContaining({ hook_event_name: "PreCompact", trigger: "manual", custom_instructions: "keep the build commands" })]);
    expect((await rpc.call({ type: "get_messages" })).data.messages).toHaveLength(4);
    expect(mock.requests).toHaveLength(2);
  });
});

describe("Codex's hooks files", () => {
  test("~/.codex/hooks.json ($CODEX_HOME) is Claude Code's format and its hooks run: a PreToolUse guard refuses; a folder's .codex/hooks.json only once trusted; --setting-sources leaves them out", async () => {
    const cwd = tempDir("zot-codex-hooks-");
    const home = tempDir("zot-codex-hooks-home-");
    const userHome = tempDir("zot-codex-hooks-user-");
    const guard = (word: string) => ({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo "refused by the ${word} guard" >&2; exit 2` }] }] } });
    mkdirSync(join(userHome, ".codex"), { recursive: true });
    writeFileSync(join(userHome, ".codex", "hooks.json"), JSON.stringify(guard("codex")));
    const mock = startMockLlm(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? { tool_calls: [{ name: "bash", args: { command: "echo THE-COMMAND-RAN" } }] } : { text: "tool said: {{last_tool_result}}" })));
    try {
      const run = (args: string[], env: Record<string, string> = {}) => zot(["-p", "run it", ...anthropic(mock), ...args], { cwd, home, env: { HOME: userHome, ...env } });
      expect((await run([])).stdout).toContain("refused by the codex guard");
      expect((await run(["--setting-sources", "user"])).stdout).toContain("THE-COMMAND-RAN");
      const elsewhere = tempDir("zot-codex-home-");
      writeFileSync(join(elsewhere, "hooks.json"), JSON.stringify(guard("elsewhere")));
      rmSync(join(userHome, ".codex", "hooks.json"));
      mkdirSync(join(cwd, ".codex"), { recursive: true });
      writeFileSync(join(cwd, ".codex", "hooks.json"), JSON.stringify(guard("folder's")));
      const untrusted = await run([], { CODEX_HOME: elsewhere });
      expect(untrusted.stdout).toContain("refused by the elsewhere guard");
      expect(untrusted.stdout).not.toContain("folder's guard");
      trustDir(home, cwd);
      rmSync(join(elsewhere, "hooks.json"));
      expect((await run([], { CODEX_HOME: elsewhere })).stdout).toContain("refused by the folder's guard");
    } finally {
      mock.stop();
    }
  });
});
