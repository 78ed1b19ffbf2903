// Claude Code's permission flags (--allowedTools, --disallowedTools, --permission-mode,
// --dangerously-skip-permissions) through the compiled binary, with the mock LLM speaking the real
// Anthropic wire format: which tools the model is offered, what its calls come to, what it reads,
// and what happened on disk, in -p, --json, rpc and the TUI.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { rpcFixture } from "../support/rpc-process.ts";
import { trustDir } from "../support/trust.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";
import { ready } from "../support/zot-pty.ts";

const fixture = rpcFixture();
const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];
const offered = (m: MockLlm, request = 0): string[] => m.requests[request].body.tools.map((t: { name: string }) => t.name);
const systemText = (m: MockLlm, request = 0): string => m.requests[request].body.system.map((b: { text: string }) => b.text).join("\n");

/** [is_error, text] of the tool results the model was sent in a request's last message. */
function results(m: MockLlm, request: number): [boolean, string][] {
  return m.requests[request].body.messages
    .at(-1)
    .content.filter((b: any) => b.type === "tool_result")
    .map((b: any) => [b.is_error === true, typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text).join("\n")]);
}

function folder() {
  const cwd = tempDir("zot-permflag-");
  const home = tempDir("zot-permflag-home-");
  const userHome = tempDir("zot-permflag-user-");
  return { cwd, home, userHome, run: (args: string[]) => zot(args, { cwd, home, env: { HOME: userHome } }) };
}

describe("--allowedTools", () => {
  test("what it names runs unasked; with no terminal every other call is refused, saying why; the list ends at the prompt", async () => {
    const f = folder();
    const mock = fixture.llm([
      {
        tool_calls: [
          { id: "t1", name: "bash", args: { command: "git init -q && git status --short > status.txt" } },
          { id: "t2", name: "bash", args: { command: "echo yes > listed.txt" } },
          { id: "t3", name: "bash", args: { command: "touch unlisted.txt" } },
          { id: "t4", name: "write", args: { path: "new.txt", content: "x" } },
        ],
      },
      { text: "done" },
    ]);
    // As Claude Code's docs write it: several rules after the flag, then the prompt.
    const run = await f.run([...anthropic(mock), "-p", "--allowedTools", "Bash(git init *)", "Bash(echo *)", "make the files"]);
    expect(run.code).toBe(0);
    expect(mock.requests[0].body.messages[0].content.at(-1).text).toBe("make the files");
    // An allowed line of several commands runs only when each is allowed: git status is not.
    expect(existsSync(join(f.cwd, "status.txt"))).toBe(false);
    expect(readFileSync(join(f.cwd, "listed.txt"), "utf8")).toBe("yes\n");
    expect(existsSync(join(f.cwd, "unlisted.txt"))).toBe(false);
    expect(existsSync(join(f.cwd, "new.txt"))).toBe(false);
    const refused = "tool call refused: this run (--allowedTools) asks before a call no permission rule allows, and has no terminal to ask in; go on without it, or tell the user what you would run";
    const sent = results(mock, 1);
    expect(sent.map(([error]) => error)).toEqual([true, false, true, true]);
    expect([sent[0]![1], sent[2]![1], sent[3]![1]]).toEqual([refused, refused, refused]);
    // No warning about --no-yolo: the user asked for exactly this.
    expect(run.stderr).toBe("");
  });

  test("in the TUI an unlisted call is asked about; a listed one runs unasked", async () => {
    const f = folder();
    const { session, mock } = runs.start(startMockLlm(), { cwd: f.cwd, home: f.home, env: { HOME: f.userHome }, rows: 40, args: ["--allowedTools", "Bash(echo *)"] });
    mock.push({ tool_calls: [{ name: "bash", args: { command: "echo a > listed.txt" } }, { name: "bash", args: { command: "touch asked.txt" } }] }, { text: "both handled" });
    await ready(session);
    session.type("go\r");
    await session.waitForText("Allow bash?");
    expect(readFileSync(join(f.cwd, "listed.txt"), "utf8")).toBe("a\n");
    expect(session.screen.text()).toContain("touch asked.txt");
    session.type("1");
    await session.waitForText("both handled");
    expect(existsSync(join(f.cwd, "asked.txt"))).toBe(true);
  });
});

const runs = ptyRuns();

describe("--disallowedTools", () => {
  test("a tool named alone is not offered nor named in the system prompt, and a call of it by name is denied naming the flag", async () => {
    const f = folder();
    const mock = fixture.llm([{ tool_calls: [{ id: "t1", name: "bash", args: { command: "touch ran.txt" } }] }, { text: "done" }]);
    const run = await f.run([...anthropic(mock), "--json", "go", "--disallowedTools", "Bash"]);
    expect(run.code).toBe(0);
    expect(offered(mock)).toEqual(["edit", "read", "skill", "write"]);
    expect(systemText(mock)).not.toContain("`bash`");
    expect(existsSync(join(f.cwd, "ran.txt"))).toBe(false);
    expect(results(mock, 1)).toEqual([[true, 'tool call denied by the permission rule "Bash" (--disallowedTools)']]);
    expect(ndjson(run.stdout).filter((e) => e.type === "intercept").map((e) => e.participant)).toEqual(["permission-rules"]);
  });

  test("a denied Skill takes the list of skills out of the system prompt with the tool", async () => {
    const f = folder();
    const mock = fixture.llm([{ text: "done" }, { text: "done" }]);
    expect((await f.run([...anthropic(mock), "-p", "go"])).code).toBe(0);
    expect(systemText(mock, 0)).toContain("call the `skill` tool");
    expect((await f.run([...anthropic(mock), "-p", "go", "--disallowedTools", "Skill"])).code).toBe(0);
    expect(offered(mock, 1)).not.toContain("skill");
    expect(systemText(mock, 1)).not.toContain("skill");
  });

  test("a rule that can match nothing is said at the start: a Claude Code tool zot lacks, a name no tool has", async () => {
    const f = folder();
    const mock = fixture.llm([{ text: "done" }]);
    const run = await f.run([...anthropic(mock), "-p", "go", "--allowedTools", "Read,Grep,WebFetch", "--disallowedTools", "Bsh"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      [
        'zot: --allowedTools "Grep": zot has no Grep tool, so it allows nothing; zot lists and searches files with bash: allow "Bash(ls *)", "Bash(grep *)" or "Bash(rg *)" for that',
        'zot: --allowedTools "WebFetch": zot has no WebFetch tool, so it allows nothing',
        'zot: --disallowedTools "Bsh" names no tool this run has (zot\'s are bash, read, edit, write, skill; Claude Code\'s names work too), so it matches nothing',
        "",
      ].join("\n"),
    );
  });

  test("a rule with a pattern keeps the tool and denies only what it matches; settings files' deny rules count beside it", async () => {
    const f = folder();
    mkdirSync(join(f.userHome, ".claude"), { recursive: true });
    writeFileSync(join(f.userHome, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Write"] } }));
    writeFileSync(join(f.cwd, "keep.txt"), "keep");
    const mock = fixture.llm([
      { tool_calls: [{ id: "t1", name: "bash", args: { command: "rm keep.txt" } }, { id: "t2", name: "bash", args: { command: "echo ok > ok.txt" } }] },
      { text: "done" },
    ]);
    const run = await f.run([...anthropic(mock), "-p", "go", "--disallowed-tools", "Bash(rm *)"]);
    expect(run.code).toBe(0);
    // Write (and edit, which Claude Code's Write and Edit rules cover together) is withheld by the user's settings.
    expect(offered(mock)).toEqual(["bash", "read", "skill"]);
    expect(readFileSync(join(f.cwd, "keep.txt"), "utf8")).toBe("keep");
    expect(readFileSync(join(f.cwd, "ok.txt"), "utf8")).toBe("ok\n");
    expect(results(mock, 1)[0]).toEqual([true, 'tool call denied by the permission rule "Bash(rm *)" (--disallowedTools)']);
  });

  test("over rpc too", async () => {
    const rpc = fixture.start([{ tool_calls: [{ id: "t1", name: "read", args: { path: "x" } }] }, { text: "done" }], ["--disallowedTools", "Read"]);
    await rpc.prompt("read it");
    expect(offered(fixture.mock)).not.toContain("read");
    expect(results(fixture.mock, 1)).toEqual([[true, 'tool call denied by the permission rule "Read" (--disallowedTools)']]);
  });
});

describe("--permission-mode", () => {
  test("acceptEdits: a change inside the working directory runs unasked; one outside it and a command are refused", async () => {
    const f = folder();
    const outside = join(tempDir("zot-permflag-out-"), "out.txt");
    const mock = fixture.llm([
      {
        tool_calls: [
          { id: "t1", name: "write", args: { path: "in.txt", content: "in" } },
          { id: "t2", name: "write", args: { path: outside, content: "out" } },
          { id: "t3", name: "bash", args: { command: "touch cmd.txt" } },
          // Executable configuration is no edit acceptEdits lets through: a later run would start it.
          { id: "t4", name: "write", args: { path: ".mcp.json", content: '{"mcpServers":{"planted":{"command":"touch","args":["PLANTED"]}}}' } },
          { id: "t5", name: "write", args: { path: ".zot/hooks.json", content: "{}" } },
          { id: "t6", name: "write", args: { path: ".claude/commands/commit.md", content: "---\nallowed-tools: Bash(*)\n---\n!`id`" } },
        ],
      },
      { text: "done" },
    ]);
    expect((await f.run([...anthropic(mock), "-p", "go", "--permission-mode", "acceptEdits"])).code).toBe(0);
    expect(readFileSync(join(f.cwd, "in.txt"), "utf8")).toBe("in");
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(f.cwd, "cmd.txt"))).toBe(false);
    expect(existsSync(join(f.cwd, ".mcp.json"))).toBe(false);
    expect(existsSync(join(f.cwd, ".zot", "hooks.json"))).toBe(false);
    expect(existsSync(join(f.cwd, ".claude", "commands", "commit.md"))).toBe(false);
    expect(results(mock, 1).map(([error]) => error)).toEqual([false, true, true, true, true, true]);
    expect(results(mock, 1)[3]![1]).toContain("this folder's MCP servers (.mcp.json), which a later run would start");
  });

  test("acceptEdits: a change inside a git directory (a submodule's .git/modules/<name>/config, a nested repository's config) is refused, not let through", async () => {
    const f = folder();
    const git = (cwd: string, ...args: string[]) =>
      expect(Bun.spawnSync(["git", "-c", "protocol.file.allow=always", "-c", "user.name=a", "-c", "user.email=a@b", ...args], { cwd, env: { ...process.env, HOME: f.userHome } }).exitCode).toBe(0);
    const sub = tempDir("zot-permflag-sub-");
    git(sub, "init", "-q");
    git(sub, "commit", "-q", "--allow-empty", "-m", "s");
    git(f.cwd, "init", "-q");
    git(f.cwd, "submodule", "add", "-q", sub, "sub");
    mkdirSync(join(f.cwd, "nested"));
    git(join(f.cwd, "nested"), "init", "-q");
    const fsmonitor = [{ old_text: "[core]", new_text: "[core]\n\tfsmonitor = touch PLANTED" }];
    const mock = fixture.llm([
      {
        tool_calls: [
          { id: "t1", name: "edit", args: { path: ".git/modules/sub/config", edits: fsmonitor } },
          { id: "t2", name: "edit", args: { path: "nested/.git/config", edits: fsmonitor } },
          { id: "t3", name: "write", args: { path: ".git/commondir", content: "../elsewhere\n" } },
        ],
      },
      { text: "done" },
    ]);
    expect((await f.run([...anthropic(mock), "-p", "go", "--permission-mode", "acceptEdits"])).code).toBe(0);
    expect(results(mock, 1).map(([error]) => error)).toEqual([true, true, true]);
    expect(results(mock, 1)[0]![1]).toContain(".git/modules/sub/config");
    expect(results(mock, 1)[1]![1]).toContain("part of a git repository's own directory (.git), where its configuration and hooks are, which git runs at the next git command");
    expect(readFileSync(join(f.cwd, ".git", "modules", "sub", "config"), "utf8")).not.toContain("fsmonitor");
    expect(readFileSync(join(f.cwd, "nested", ".git", "config"), "utf8")).not.toContain("fsmonitor");
    expect(existsSync(join(f.cwd, ".git", "commondir"))).toBe(false);
  });

  test("dontAsk: the TUI asks nothing and refuses what no rule allows; an allowed call runs", async () => {
    const f = folder();
    const { session, mock } = runs.start(startMockLlm(), {
      cwd: f.cwd,
      home: f.home,
      env: { HOME: f.userHome },
      rows: 40,
      args: ["--permission-mode", "dontAsk", "--allowedTools", "Bash(echo *)"],
    });
    mock.push({ tool_calls: [{ name: "bash", args: { command: "touch refused.txt" } }, { name: "bash", args: { command: "echo b > allowed.txt" } }] }, { text: "all handled" });
    await ready(session);
    session.type("go\r");
    await session.waitForText("all handled");
    expect(session.screen.text()).not.toContain("Allow bash?");
    expect(existsSync(join(f.cwd, "refused.txt"))).toBe(false);
    expect(readFileSync(join(f.cwd, "allowed.txt"), "utf8")).toBe("b\n");
    expect(results(mock, 1)[0]![1]).toContain("--permission-mode dontAsk");
    expect(session.screen.text()).toContain("dontAsk");
    // /yolo lets everything run; again, it says what dontAsk does: it refuses, it never asks.
    session.type("/yolo\r");
    await session.waitForText("yolo: tool calls run without asking");
    session.type("/yolo\r");
    await session.waitForText("nobody is asked");
    expect(session.screen.text().replace(/\s+/g, " ")).toContain("confirmations on: a tool call no permission rule allows is refused, nobody is asked (--permission-mode dontAsk)");
  });

  test.each([[["--permission-mode", "bypassPermissions"]], [["--dangerously-skip-permissions"]]])(
    "%p runs everything, as zot does by default; deny rules still hold",
    async (flags) => {
      const f = folder();
      const mock = fixture.llm([{ tool_calls: [{ id: "t1", name: "bash", args: { command: "touch ran.txt" } }, { id: "t2", name: "bash", args: { command: "rm -f x" } }] }, { text: "done" }]);
      expect((await f.run([...anthropic(mock), "-p", "go", ...flags, "--disallowedTools", "Bash(rm *)"])).code).toBe(0);
      expect(existsSync(join(f.cwd, "ran.txt"))).toBe(true);
      expect(results(mock, 1)[1]).toEqual([true, 'tool call denied by the permission rule "Bash(rm *)" (--disallowedTools)']);
    },
  );
});

test("a rule zot cannot read, a mode it does not have and flags that contradict each other stop the run (exit 2) before anything starts", async () => {
  const f = folder();
  const cases: [string[], string][] = [
    [["--disallowedTools", "Bash(rm -rf"], 'zot: --disallowedTools "Bash(rm -rf" has an opening ( without its closing )\n'],
    [["--allowedTools", "WebFetch(domain:example.com)"], ""],
    [["--permission-mode", "plan"], "zot: --permission-mode plan: zot has no plan mode; --tools read gives the model only the read tool, and --no-yolo asks before every other call\n"],
    [["--no-yolo", "--permission-mode", "bypassPermissions"], "zot: --no-yolo and --permission-mode bypassPermissions cannot be used together: one asks before tool calls, the other never does\n"],
  ];
  for (const [flags, stderr] of cases) {
    const run = await f.run(["-p", "go", "--provider", "anthropic", "--api-key", "k", "--base-url", "http://127.0.0.1:9", ...flags]);
    if (stderr === "") {
      // Claude Code's tools zot does not have: their rules match nothing, and the run goes on (here to a closed port).
      expect(run.code).toBe(1);
      continue;
    }
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(stderr);
  }
});

describe("a Markdown command's allowed-tools", () => {
  function commandFolder(trusted: boolean) {
    const f = folder();
    if (trusted) trustDir(f.home, f.cwd);
    mkdirSync(join(f.cwd, ".claude", "commands"), { recursive: true });
    writeFileSync(join(f.cwd, ".claude", "commands", "note.md"), "---\ndescription: write a note\nallowed-tools: Grep, Bash(echo *), Bash(nope\n---\nWrite a note about $ARGUMENTS\n");
    return f;
  }
  const turns = () => [{ tool_calls: [{ id: "t1", name: "bash", args: { command: "echo hi > note.txt" } }, { id: "t2", name: "bash", args: { command: "touch other.txt" } }] }, { text: "done" }];

  test("lets its prompt's calls past the question (--no-yolo), for that prompt only; a rule it cannot read is said and skipped", async () => {
    const f = commandFolder(true);
    const mock = fixture.llm(turns());
    const run = await f.run([...anthropic(mock), "--no-yolo", "-p", "/note the weather"]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(f.cwd, "note.txt"), "utf8")).toBe("hi\n");
    expect(existsSync(join(f.cwd, "other.txt"))).toBe(false);
    expect(run.stderr).toContain('/note (allowed-tools) "Bash(nope" has an opening ( without its closing ); it is skipped');
    expect(run.stderr).toContain('/note (allowed-tools) "Grep": zot has no Grep tool, so it allows nothing');
  });

  test("a skill's allowed-tools lets the calls of its /<skill> prompt past the question, as Claude Code's skills do", async () => {
    const f = folder();
    trustDir(f.home, f.cwd);
    mkdirSync(join(f.cwd, ".claude", "skills", "jot"), { recursive: true });
    writeFileSync(join(f.cwd, ".claude", "skills", "jot", "SKILL.md"), "---\nname: jot\ndescription: Jot a note\nallowed-tools: Bash(echo *)\n---\nJot a note about $ARGUMENTS\n");
    const mock = fixture.llm(turns());
    const run = await f.run([...anthropic(mock), "--no-yolo", "-p", "/jot the weather"]);
    expect(run.code).toBe(0);
    expect(readFileSync(join(f.cwd, "note.txt"), "utf8")).toBe("hi\n");
    expect(existsSync(join(f.cwd, "other.txt"))).toBe(false);
  });

  test("over rpc, the next prompt in the same process is asked about again: the rules went with the command's prompt", async () => {
    const f = commandFolder(true);
    const rpc = fixture.start(
      [...turns(), { tool_calls: [{ id: "t3", name: "bash", args: { command: "echo again > again.txt" } }] }, { text: "done" }],
      ["--no-yolo"],
      { cwd: f.cwd, home: f.home, env: { HOME: f.userHome } },
    );
    const from = rpc.lines.length;
    await rpc.call({ type: "run_command", name: "note", args: "the weather" });
    await rpc.eventsUntilDone(from);
    expect(readFileSync(join(f.cwd, "note.txt"), "utf8")).toBe("hi\n");
    const after = await rpc.prompt("write again");
    expect(after.find((e) => e.type === "tool_result")).toMatchObject({ id: "t3", is_error: true });
    expect(existsSync(join(f.cwd, "again.txt"))).toBe(false);
  });

  test("in the TUI too: the command's calls run unasked, the others are asked", async () => {
    const f = commandFolder(true);
    const { session, mock } = runs.start(startMockLlm(), { cwd: f.cwd, home: f.home, env: { HOME: f.userHome }, rows: 40, args: ["--no-yolo"] });
    mock.push(...turns());
    await ready(session);
    session.type("/note the weather\r");
    await session.waitForText("Allow bash?");
    expect(session.screen.text()).toContain("touch other.txt");
    expect(readFileSync(join(f.cwd, "note.txt"), "utf8")).toBe("hi\n");
    session.type("4");
    await session.waitForText("what should the model do instead?");
    session.type("\r");
    await session.waitForText("done");
    expect(existsSync(join(f.cwd, "other.txt"))).toBe(false);
  });

  test("a folder's command allows nothing until the folder is trusted", async () => {
    const f = commandFolder(false);
    const mock = fixture.llm(turns());
    expect((await f.run([...anthropic(mock), "--no-yolo", "-p", "/note the weather"])).code).toBe(0);
    expect(mock.requests[0].body.messages[0].content.at(-1).text).toContain("Write a note about the weather");
    expect(existsSync(join(f.cwd, "note.txt"))).toBe(false);
  });
});
