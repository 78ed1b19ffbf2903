// Claude Code's permission rules (`permissions.allow/ask/deny` of the settings files) through the
// compiled binary, with the mock LLM speaking the real Anthropic wire format: what the model's tool
// calls come to, what it is told, what the user sees, and what happened on disk.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { rpcFixture } from "../support/rpc-process.ts";
import { trustDir } from "../support/trust.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";
import { ready } from "../support/zot-pty.ts";

const fixture = rpcFixture();
const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];

/** A project folder whose .claude/settings.json holds `settings`, with its own ZOT_HOME and ~. */
function project(settings: unknown, options: { trusted?: boolean; user?: unknown } = {}) {
  const cwd = tempDir("zot-perm-");
  const home = tempDir("zot-perm-home-");
  const userHome = tempDir("zot-perm-user-");
  if (options.trusted ?? true) trustDir(home, cwd);
  write(join(cwd, ".claude", "settings.json"), typeof settings === "string" ? settings : JSON.stringify(settings));
  if (options.user) write(join(userHome, ".claude", "settings.json"), JSON.stringify(options.user));
  const run = (args: string[]) => zot(args, { cwd, home, env: { HOME: userHome } });
  return { cwd, home, userHome, run };
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** [is_error, text] of the tool results the model was sent in a request's last message. */
function results(m: MockLlm, request: number): [boolean, string][] {
  return m.requests[request].body.messages
    .at(-1)
    .content.filter((b: any) => b.type === "tool_result")
    .map((b: any) => [b.is_error === true, typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text).join("\n")]);
}

describe("deny", () => {
  test("Bash(rm *) denies rm in any command of the line: the file survives, the model reads which rule, --json shows the deny", async () => {
    const p = project({ permissions: { deny: ["Bash(rm *)"] } });
    writeFileSync(join(p.cwd, "precious.txt"), "keep me");
    const mock = fixture.llm([
      { tool_calls: [{ id: "t1", name: "bash", args: { command: "echo cleaning && rm -rf precious.txt" } }] },
      { tool_calls: [{ id: "t2", name: "bash", args: { command: "echo fine > ok.txt" } }] },
      { text: "done" },
    ]);
    const run = await p.run([...anthropic(mock), "--json", "clean up"]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(p.cwd, "precious.txt"), "utf8")).toBe("keep me");
    expect(results(mock, 1)).toEqual([[true, 'tool call denied by the permission rule "Bash(rm *)" (.claude/settings.json)']]);
    // A command no rule names runs as before.
    expect(readFileSync(join(p.cwd, "ok.txt"), "utf8")).toBe("fine\n");
    expect(ndjson(run.stdout).filter((e) => e.type === "intercept")).toEqual([
      {
        type: "intercept",
        participant: "permission-rules",
        stage: "approve_tool",
        action: "deny",
        reason: 'tool call denied by the permission rule "Bash(rm *)" (.claude/settings.json)',
      },
    ]);
  });

  test("Read(./.env) keeps the file out, through a link to it as well; an untrusted folder's deny rules hold too", async () => {
    const p = project({ permissions: { deny: ["Read(./.env)"] } }, { trusted: false });
    writeFileSync(join(p.cwd, ".env"), "API_KEY=secret");
    symlinkSync(join(p.cwd, ".env"), join(p.cwd, "notes.txt"));
    const mock = fixture.llm([
      { tool_calls: [{ id: "t1", name: "read", args: { path: ".env" } }, { id: "t2", name: "read", args: { path: "notes.txt" } }] },
      { text: "done" },
    ]);
    const run = await p.run([...anthropic(mock), "-p", "show me the config"]);
    expect(run.code).toBe(0);
    const denied = 'tool call denied by the permission rule "Read(./.env)" (.claude/settings.json)';
    expect(results(mock, 1)).toEqual([
      [true, denied],
      [true, denied],
    ]);
    expect(JSON.stringify(mock.requests.map((r) => r.body))).not.toContain("API_KEY=secret");
  });

  test("the user's ~/.claude/settings.json holds in every folder; Edit rules hold for write and edit", async () => {
    const p = project({}, { user: { permissions: { deny: ["Edit(/config/**)"] } } });
    write(join(p.cwd, "config", "app.json"), '{"debug": false}');
    const mock = fixture.llm([
      {
        tool_calls: [
          { id: "t1", name: "write", args: { path: "config/app.json", content: "{}" } },
          { id: "t2", name: "edit", args: { path: "config/app.json", old_text: "false", new_text: "true" } },
          { id: "t3", name: "write", args: { path: "src/app.json", content: "{}" } },
        ],
      },
      { text: "done" },
    ]);
    expect((await p.run([...anthropic(mock), "-p", "turn debug on"])).code).toBe(0);
    const denied = 'tool call denied by the permission rule "Edit(/config/**)" (~/.claude/settings.json)';
    expect(results(mock, 1).map(([error, text]) => [error, text.split("\n")[0]])).toEqual([
      [true, denied],
      [true, denied],
      [false, expect.stringContaining("src/app.json")],
    ]);
    expect(readFileSync(join(p.cwd, "config", "app.json"), "utf8")).toBe('{"debug": false}');
    expect(existsSync(join(p.cwd, "src", "app.json"))).toBe(true);
  });
  test("a trailing comma in a file of deny rules does not lift them: every tool call is asked about (refused in -p) until it is fixed", async () => {
    const p = project('{"permissions": {"deny": ["Bash(rm *)"],}}');
    writeFileSync(join(p.cwd, "precious.txt"), "keep me");
    const mock = fixture.llm([{ tool_calls: [{ id: "t1", name: "bash", args: { command: "rm -f precious.txt" } }] }, { text: "done" }]);
    const run = await p.run([...anthropic(mock), "-p", "clean up"]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(p.cwd, "precious.txt"), "utf8")).toBe("keep me");
    expect(results(mock, 1)[0]?.[1]).toContain(".claude/settings.json, whose deny and ask rules cannot be read (is not valid JSON");
    expect(run.stderr).toContain("its deny and ask rules cannot be read, so every tool call is asked about until it is fixed and zot starts again");
  });

  test("a bash command that empties the settings file does not lift its deny rules for the rest of the run", async () => {
    const p = project({ permissions: { deny: ["Bash(rm *)"] } });
    writeFileSync(join(p.cwd, "victim.txt"), "keep me");
    const mock = fixture.llm([
      { tool_calls: [{ id: "t1", name: "bash", args: { command: "echo '{}' > .claude/settings.json" } }] },
      { tool_calls: [{ id: "t2", name: "bash", args: { command: "rm victim.txt" } }] },
      { text: "done" },
    ]);
    expect((await p.run([...anthropic(mock), "-p", "tidy"])).code).toBe(0);
    expect(readFileSync(join(p.cwd, ".claude", "settings.json"), "utf8")).toBe("{}\n");
    expect(readFileSync(join(p.cwd, "victim.txt"), "utf8")).toBe("keep me");
    expect(results(mock, 2)).toEqual([[true, 'tool call denied by the permission rule "Bash(rm *)" (.claude/settings.json)']]);
  });
});

describe("ask", () => {
  test("while a settings file holds rules, the model's change to it is asked about: refused with no terminal", async () => {
    const p = project({ permissions: { deny: ["Bash(rm *)"] } });
    const before = readFileSync(join(p.cwd, ".claude", "settings.json"), "utf8");
    const mock = fixture.llm([
      { tool_calls: [{ id: "t1", name: "write", args: { path: ".claude/settings.json", content: "{}" } }] },
      { text: "I left it." },
    ]);
    expect((await p.run([...anthropic(mock), "-p", "loosen the rules"])).code).toBe(0);
    expect(readFileSync(join(p.cwd, ".claude", "settings.json"), "utf8")).toBe(before);
    expect(results(mock, 1)).toEqual([
      [
        true,
        `tool call refused: a change to ${join(p.cwd, ".claude", "settings.json")}, a file that holds permission rules, asks for the user's confirmation and this run has no terminal to ask in; tell the user what you wanted to run`,
      ],
    ]);
  });

  test("with no terminal to ask in (-p), the call is refused and the model told which rule asked", async () => {
    const p = project({ permissions: { ask: ["Bash(git push *)"] } });
    const mock = fixture.llm([{ tool_calls: [{ id: "t1", name: "bash", args: { command: "git push origin main" } }] }, { text: "I did not push." }]);
    const run = await p.run([...anthropic(mock), "-p", "ship it"]);
    expect(run.code).toBe(0);
    expect(results(mock, 1)).toEqual([
      [
        true,
        'tool call refused: the permission rule "Bash(git push *)" (.claude/settings.json) asks for the user\'s confirmation and this run has no terminal to ask in; tell the user what you wanted to run',
      ],
    ]);
  });
});

describe("allow", () => {
  const settings = { permissions: { allow: ["Bash(echo *)"] } };
  const turns = () => [
    { tool_calls: [{ id: "t1", name: "bash", args: { command: "echo allowed > a.txt" } }, { id: "t2", name: "bash", args: { command: "touch b.txt" } }] },
    { text: "done" },
  ];

  test("with --no-yolo and no terminal, an allowed command runs and every other is refused", async () => {
    const p = project(settings);
    const mock = fixture.llm(turns());
    expect((await p.run([...anthropic(mock), "--no-yolo", "-p", "go"])).code).toBe(0);
    expect(readFileSync(join(p.cwd, "a.txt"), "utf8")).toBe("allowed\n");
    expect(existsSync(join(p.cwd, "b.txt"))).toBe(false);
    expect(results(mock, 1).map(([error]) => error)).toEqual([false, true]);
  });

  test("an untrusted folder's allow rules do not count, and --no-yolo says so at the start", async () => {
    const p = project(settings, { trusted: false });
    const mock = fixture.llm(turns());
    const run = await p.run([...anthropic(mock), "--no-yolo", "-p", "go"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("zot: .claude/settings.json: its allow rule does not hold until you trust this folder (zot trust), so calls it allows are asked about\n");
    expect(existsSync(join(p.cwd, "a.txt"))).toBe(false);
    expect(results(mock, 1).map(([error]) => error)).toEqual([true, true]);
  });
});

test("a deny rule zot cannot read is named on stderr at the start; the file's other rules still hold, and every other call is asked about (refused in -p) until it is fixed", async () => {
  const p = project({ permissions: { deny: ["Bash(rm -rf *", "Bash(curl *)"] } });
  writeFileSync(join(p.cwd, "precious.txt"), "keep me");
  const mock = fixture.llm([
    { tool_calls: [{ id: "t1", name: "bash", args: { command: "curl example.com" } }, { id: "t2", name: "bash", args: { command: "rm -rf precious.txt" } }] },
    { text: "done" },
  ]);
  const run = await p.run([...anthropic(mock), "-p", "fetch it"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain('zot: .claude/settings.json: permissions.deny[0] "Bash(rm -rf *" has an opening ( without its closing ); until it is fixed and zot starts again, every tool call is asked about\n');
  expect(results(mock, 1)[0]).toEqual([true, 'tool call denied by the permission rule "Bash(curl *)" (.claude/settings.json)']);
  expect(results(mock, 1)[1]?.[1]).toContain(`.claude/settings.json's deny rule "Bash(rm -rf *", which zot cannot read,`);
  expect(readFileSync(join(p.cwd, "precious.txt"), "utf8")).toBe("keep me");
});

describe("in the TUI", () => {
  const runs = ptyRuns();

  test("an ask rule asks although confirmations are off, naming the rule; a yes runs the call", async () => {
    const p = project({ permissions: { ask: ["Bash(touch *)"] } });
    const { session, mock } = runs.start(startMockLlm(), { cwd: p.cwd, home: p.home, env: { HOME: p.userHome }, rows: 40 });
    mock.push({ tool_calls: [{ name: "bash", args: { command: "touch deployed" } }] }, { text: "deploy over" });
    await ready(session);
    session.type("deploy\r");
    await session.waitForText("Allow bash?");
    expect(session.screen.text()).toContain('the permission rule "Bash(touch *)" (.claude/settings.json) asks');
    expect(existsSync(join(p.cwd, "deployed"))).toBe(false);
    session.type("1");
    await session.waitForText("deploy over");
    expect(existsSync(join(p.cwd, "deployed"))).toBe(true);
  });
});
