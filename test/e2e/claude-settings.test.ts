// Claude Code's settings files beyond hooks and permission rules, through the compiled binary:
// `env` (a proxy's ANTHROPIC_BASE_URL and token, API_TIMEOUT_MS, a variable the commands read) and
// `model` (with ANTHROPIC_MODEL and ANTHROPIC_DEFAULT_*_MODEL, as a proxy setup for GLM or Kimi
// writes them), from ~/.claude/settings.json always and a folder's .claude/settings.json once it is
// trusted; the files win over the shell, as in Claude Code, and the flags and a resumed session win
// over them; a proxy from a file never gets the shell's key; --setting-sources picks the files.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { trustDir } from "../support/trust.ts";
import { tempDir, zot } from "../support/zot.ts";

const mocks: MockLlm[] = [];
afterEach(async () => {
  for (const mock of mocks.splice(0)) await mock.stop();
});

function mock(turns: Parameters<typeof startMockLlm>[0]): MockLlm {
  const m = startMockLlm(turns);
  mocks.push(m);
  return m;
}

function settings(dir: string, value: Record<string, unknown>, name = "settings.json"): void {
  mkdirSync(join(dir, ".claude"), { recursive: true });
  writeFileSync(join(dir, ".claude", name), JSON.stringify(value));
}

/** The text of the tool result the model got back, in the second request. */
const toolResult = (m: MockLlm): string => JSON.stringify(m.requests[1]?.body.messages.at(-1).content);

const echoVar = { tool_calls: [{ name: "bash", args: { command: 'echo "var=$FROM_SETTINGS token=${ANTHROPIC_AUTH_TOKEN:-none}"' } }] };

describe("~/.claude/settings.json", () => {
  test("a proxy setup as Claude Code users write it runs unchanged: base URL, token, ANTHROPIC_MODEL; the commands get the variables but not the token", async () => {
    const llm = mock([echoVar, { text: "done" }]);
    const userHome = tempDir("zot-cs-user-");
    settings(userHome, {
      env: {
        ANTHROPIC_BASE_URL: llm.url,
        ANTHROPIC_AUTH_TOKEN: "tok-123",
        ANTHROPIC_MODEL: "glm-4.6",
        ANTHROPIC_CUSTOM_HEADERS: "x-gateway-key: gw-1\nX-Team: core",
        API_TIMEOUT_MS: "3000000",
        FROM_SETTINGS: "yes",
      },
    });
    const run = await zot(["-p", "go"], { env: { HOME: userHome } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("done\n");
    expect(llm.requests[0]?.body.model).toBe("glm-4.6");
    expect(llm.requests[0]?.headers.authorization).toBe("Bearer tok-123");
    // A gateway that takes its key in a header gets it from the settings' env as from the shell's.
    expect(llm.requests[0]?.headers["x-gateway-key"]).toBe("gw-1");
    expect(llm.requests[0]?.headers["x-team"]).toBe("core");
    expect(toolResult(llm)).toContain("var=yes token=none");
    expect(run.stderr).toContain("the model is glm-4.6, as ~/.claude/settings.json's env.ANTHROPIC_MODEL says");
  });

  test("model picks the conversation's model, with a note naming the file; the file's variables win over the shell's, as in Claude Code, and --model over the file", async () => {
    const llm = mock([{ text: "a" }, echoVar, { text: "b" }]);
    const userHome = tempDir("zot-cs-user-");
    settings(userHome, { model: "opus", env: { ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_API_KEY: "k", FROM_SETTINGS: "file" } });
    const first = await zot(["-p", "go"], { env: { HOME: userHome } });
    expect(llm.requests[0]?.body.model).toBe("claude-opus-5-5");
    expect(first.stderr).toContain("the model is opus, as ~/.claude/settings.json says (--model picks another)");
    const second = await zot(["-p", "go", "--model", "haiku"], { env: { HOME: userHome, FROM_SETTINGS: "shell" } });
    expect(llm.requests[1]?.body.model).toBe("claude-haiku-5-5");
    expect(JSON.stringify(llm.requests[2]?.body.messages.at(-1).content)).toContain("var=file");
    expect(second.stderr).not.toContain("the model is");
  });

  test("a proxy a file names gets the file's token, never the key the shell exports; a file's proxy with no key of its own takes the shell's, never auth.json's", async () => {
    const llm = mock([{ text: "a" }, { text: "b" }, { text: "c" }]);
    const userHome = tempDir("zot-cs-user-");
    const home = tempDir("zot-cs-home-");
    writeFileSync(join(home, "auth.json"), JSON.stringify({ anthropic: { api_key: "sk-ant-AUTHFILE" } }), { mode: 0o600 });
    settings(userHome, { env: { ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_AUTH_TOKEN: "proxy-token" } });
    const withShellKey = await zot(["-p", "go"], { home, env: { HOME: userHome, ANTHROPIC_API_KEY: "sk-ant-REAL-SHELL-KEY" } });
    expect(withShellKey.stdout).toBe("a\n");
    expect(llm.requests[0]?.headers.authorization).toBe("Bearer proxy-token");
    expect(JSON.stringify(llm.requests[0]?.headers)).not.toContain("REAL-SHELL-KEY");
    settings(userHome, { env: { ANTHROPIC_BASE_URL: llm.url } });
    await zot(["-p", "go"], { home, env: { HOME: userHome, ANTHROPIC_AUTH_TOKEN: "shell-token" } });
    expect(llm.requests[1]?.headers.authorization).toBe("Bearer shell-token");
    const none = await zot(["-p", "go"], { home, env: { HOME: userHome } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("~/.claude/settings.json sets ANTHROPIC_BASE_URL and no key for it");
    expect(llm.requests).toHaveLength(2);
  });

  test("a setup for Bedrock or Vertex names models zot does not serve: its model is left, with a note", async () => {
    const llm = mock([{ text: "a" }]);
    const userHome = tempDir("zot-cs-user-");
    settings(userHome, { model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0", env: { CLAUDE_CODE_USE_BEDROCK: "1" } });
    const run = await zot(["-p", "go", "--api-key", "k", "--base-url", llm.url], { env: { HOME: userHome } });
    expect(run.code).toBe(0);
    expect(llm.requests[0]?.body.model).toBe("claude-sonnet-5-5");
    expect(run.stderr).toContain("a model for CLAUDE_CODE_USE_BEDROCK, which zot does not speak");
  });

  test("the shell's ANTHROPIC_MODEL is the model, with a note; with no model named, sonnet goes where ANTHROPIC_DEFAULT_SONNET_MODEL points it", async () => {
    const llm = mock([{ text: "a" }, { text: "b" }, { text: "c" }]);
    const userHome = tempDir("zot-cs-user-");
    const base = ["-p", "go", "--api-key", "k", "--base-url", llm.url];
    const shell = await zot(base, { env: { HOME: userHome, ANTHROPIC_MODEL: "haiku" } });
    expect(llm.requests[0]?.body.model).toBe("claude-haiku-5-5");
    expect(shell.stderr).toContain("the model is haiku, as ANTHROPIC_MODEL says (--model picks another)");
    settings(userHome, { env: { ANTHROPIC_DEFAULT_SONNET_MODEL: "glm-4.6", ANTHROPIC_DEFAULT_HAIKU_MODEL: "glm-4.5-air" } });
    const pointed = await zot(base, { env: { HOME: userHome } });
    expect(llm.requests[1]?.body.model).toBe("glm-4.6");
    expect(pointed.stderr).toContain("the model is glm-4.6, where ANTHROPIC_DEFAULT_SONNET_MODEL points sonnet, Claude Code's default");
    await zot([...base, "--model", "default"], { env: { HOME: userHome, ANTHROPIC_DEFAULT_SONNET_MODEL: "" } });
    expect(llm.requests[2]?.body.model).toBe("claude-sonnet-5-5");
  });

  test("a switch by alias goes where the setup points it too: rpc set_model haiku", async () => {
    const llm = mock([{ text: "a" }]);
    const userHome = tempDir("zot-cs-user-");
    settings(userHome, { env: { ANTHROPIC_DEFAULT_HAIKU_MODEL: "glm-4.5-air" } });
    const frames = [{ id: "1", type: "set_model", model: "haiku" }, { id: "2", type: "prompt", message: "go" }];
    const run = await zot(["rpc", "--api-key", "k", "--base-url", llm.url], { env: { HOME: userHome }, stdin: `${frames.map((f) => JSON.stringify(f)).join("\n")}\n` });
    expect(run.stdout).toContain('"glm-4.5-air"');
    expect(llm.requests[0]?.body.model).toBe("glm-4.5-air");
  });

  test("bad entries are notes, never a broken run: a byte-order mark is read past, a NUL or a name no process takes is left out", async () => {
    const llm = mock([echoVar, { text: "done" }]);
    const userHome = tempDir("zot-cs-user-");
    mkdirSync(join(userHome, ".claude"), { recursive: true });
    writeFileSync(join(userHome, ".claude", "settings.json"), `\uFEFF${JSON.stringify({ env: { ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_API_KEY: "k", FROM_SETTINGS: "bom", "X=Y": "v", NULLED: "a\u0000b" } })}`);
    const run = await zot(["-p", "go"], { env: { HOME: userHome } });
    expect(run.code).toBe(0);
    expect(toolResult(llm)).toContain("var=bom");
    expect(run.stderr).toContain('env "X=Y" is not a variable\'s name');
    expect(run.stderr).toContain("env.NULLED holds a NUL character");
  });

  test("Claude Code's model names: sonnet[1m] is sonnet, opusplan sonnet (zot has no plan mode), best opus, default no choice; an alias goes where ANTHROPIC_DEFAULT_*_MODEL points; a bad field is a note", async () => {
    const llm = mock([{ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" }, { text: "e" }, { text: "f" }]);
    const models: string[] = [];
    const cases: [unknown, Record<string, string>][] = [["sonnet[1m]", {}], ["opusplan", {}], ["default", {}], [42, {}], ["opus", { ANTHROPIC_DEFAULT_OPUS_MODEL: "kimi-k2" }], ["best", {}]];
    for (const [model, more] of cases) {
      const userHome = tempDir("zot-cs-user-");
      settings(userHome, { model, env: { ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_API_KEY: "k", ...more } });
      const run = await zot(["-p", "go"], { env: { HOME: userHome } });
      expect(run.code).toBe(0);
      models.push(llm.requests.at(-1)?.body.model);
      if (model === 42) expect(run.stderr).toContain('~/.claude/settings.json: "model" must be a model\'s id or alias');
    }
    expect(models).toEqual(["claude-sonnet-5-5", "claude-sonnet-5-5", "claude-sonnet-5-5", "claude-sonnet-5-5", "kimi-k2", "claude-opus-5-5"]);
  });

  test("the settings' model stays out of runs on another provider and of scripts; zot's own variables are not taken from the file", async () => {
    const userHome = tempDir("zot-cs-user-");
    const openai = mock([{ text: "from openai" }]);
    settings(userHome, { model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0", env: { ZOT_JAIL_CONFINEMENT: "static" } });
    const script = join(tempDir("zot-cs-script-"), "turns.json");
    writeFileSync(script, JSON.stringify([{ text: "scripted" }]));
    const scripted = await zot(["--script", script, "-p", "go"], { env: { HOME: userHome, ANTHROPIC_API_KEY: "k" } });
    expect(scripted.code).toBe(0);
    expect(scripted.stdout).toBe("scripted\n");
    const other = await zot(["--provider", "openai", "--api-key", "k", "--base-url", `${openai.url}/v1`, "-p", "go"], { env: { HOME: userHome } });
    expect(other.stdout).toBe("from openai\n");
    expect(openai.requests[0]?.body.model).not.toContain("claude");
    expect(other.stderr).toContain("env.ZOT_JAIL_CONFINEMENT is not used");
  });

  test("API_TIMEOUT_MS from the file is how long zot waits for a silent server: the slow answer is given up on and the retry's is printed", async () => {
    const llm = mock([{ text: "late", delay_ms: 3000 }, { text: "retried" }]);
    const userHome = tempDir("zot-cs-user-");
    settings(userHome, { env: { ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_API_KEY: "k", API_TIMEOUT_MS: "700" } });
    const run = await zot(["-p", "go"], { env: { HOME: userHome } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("retried\n");
    expect(llm.requests[0]?.aborted).toBe(true);
  });

  test("a resumed conversation goes on on its own model, not the file's", async () => {
    const llm = mock([{ text: "first" }, { text: "second" }]);
    const userHome = tempDir("zot-cs-user-");
    const home = tempDir("zot-cs-home-");
    const cwd = tempDir("zot-cs-cwd-");
    settings(userHome, { env: { ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_API_KEY: "k" } });
    await zot(["-p", "go", "--model", "haiku"], { cwd, home, env: { HOME: userHome } });
    settings(userHome, { model: "opus", env: { ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_API_KEY: "k" } });
    const resumed = await zot(["-c", "-p", "again"], { cwd, home, env: { HOME: userHome } });
    expect(resumed.stdout).toBe("second\n");
    expect(llm.requests[1]?.body.model).toBe("claude-haiku-5-5");
  });
});

describe("permissions.defaultMode", () => {
  test("default and plan ask before tool calls (refused in -p), acceptEdits lets edits in the folder through, dontAsk runs only what a rule allows; a flag wins", async () => {
    const run = async (mode: string, call: { name: string; args: Record<string, unknown> }, extra: string[] = [], permissions: Record<string, unknown> = {}) => {
      const llm = mock([{ tool_calls: [call] }, { text: "done" }]);
      const userHome = tempDir("zot-cs-user-");
      const cwd = tempDir("zot-cs-cwd-");
      settings(userHome, { permissions: { defaultMode: mode, ...permissions } });
      const result = await zot(["-p", "go", "--api-key", "k", "--base-url", llm.url, ...extra], { cwd, env: { HOME: userHome } });
      const content = llm.requests[1]?.body.messages.at(-1).content;
      const sent = content.map((block: any) => (typeof block.content === "string" ? block.content : JSON.stringify(block.content))).join("\n");
      return { ...result, cwd, sent };
    };
    const touch = { name: "bash", args: { command: "touch ran" } };
    for (const mode of ["default", "plan"]) {
      const asked = await run(mode, touch);
      expect([mode, existsSync(join(asked.cwd, "ran"))]).toEqual([mode, false]);
      expect(asked.sent).toContain(`tool call refused: this run (the permissions.defaultMode \"${mode}\" of ~/.claude/settings.json)`);
    }
    expect((await run("plan", touch)).stderr).toContain("zot has no plan mode, so tool calls are asked about as in default");
    expect((await run("default", touch)).stderr).toContain('tool calls are asked about, as the permissions.defaultMode "default" of ~/.claude/settings.json says');
    const skipped = await run("default", touch, ["--dangerously-skip-permissions"]);
    expect(existsSync(join(skipped.cwd, "ran"))).toBe(true);
    expect(skipped.stderr).not.toContain("defaultMode");
    const edit = await run("acceptEdits", { name: "write", args: { path: "notes.txt", content: "hi" } });
    expect(existsSync(join(edit.cwd, "notes.txt"))).toBe(true);
    expect(existsSync(join((await run("acceptEdits", touch)).cwd, "ran"))).toBe(false);
    expect(existsSync(join((await run("dontAsk", touch)).cwd, "ran"))).toBe(false);
    expect(existsSync(join((await run("dontAsk", touch, [], { allow: ["Bash(touch *)"] })).cwd, "ran"))).toBe(true);
    expect(existsSync(join((await run("bypassPermissions", touch)).cwd, "ran"))).toBe(true);
    // A mode in another case is that mode; a word that is no mode asks, as default does (it ran everything unasked).
    expect(existsSync(join((await run("DontAsk", touch)).cwd, "ran"))).toBe(false);
    expect(existsSync(join((await run("acceptedits", { name: "write", args: { path: "notes.txt", content: "hi" } })).cwd, "notes.txt"))).toBe(true);
    const typo = await run("dontask-please", touch);
    expect(existsSync(join(typo.cwd, "ran"))).toBe(false);
    expect(typo.stderr).toContain('the permissions.defaultMode "dontask-please" of ~/.claude/settings.json is not a mode zot knows');
    expect(typo.stderr).toContain("tool calls are asked about, as in default");
    // Claude Code's output names the mode the file chose, as the run keeps it.
    const stream = await run("acceptEdits", { name: "write", args: { path: "n.txt", content: "x" } }, ["--output-format", "stream-json", "--verbose"]);
    const init = stream.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .find((line) => line.type === "system" && line.subtype === "init");
    expect(init?.permissionMode).toBe("acceptEdits");
  });
});

describe("permissions.disableBypassPermissionsMode", () => {
  test('"disable" asks about tool calls where zot would ask nothing (over a defaultMode of bypassPermissions too), and refuses the flags that skip asking', async () => {
    const touch = { tool_calls: [{ name: "bash", args: { command: "touch ran" } }] };
    const run = async (permissions: Record<string, unknown>, extra: string[] = [], more: Record<string, unknown> = {}) => {
      const llm = mock([touch, { text: "done" }]);
      const userHome = tempDir("zot-cs-user-");
      const cwd = tempDir("zot-cs-cwd-");
      settings(userHome, { permissions, ...more });
      const result = await zot(["-p", "go", "--api-key", "k", "--base-url", llm.url, ...extra], { cwd, env: { HOME: userHome } });
      return { ...result, cwd, ran: existsSync(join(cwd, "ran")), sent: JSON.stringify(llm.requests[1]?.body.messages.at(-1).content ?? "") };
    };
    const how = 'the permissions.disableBypassPermissionsMode \\"disable\\" of ~/.claude/settings.json';
    const plain = await run({ disableBypassPermissionsMode: "disable" });
    expect(plain.code).toBe(0);
    expect(plain.ran).toBe(false);
    expect(plain.sent).toContain(`tool call refused: this run (${how})`);
    expect(plain.stderr).toContain('tool calls are asked about, as the permissions.disableBypassPermissionsMode "disable" of ~/.claude/settings.json says; /yolo cannot turn that off');
    const overMode = await run({ disableBypassPermissionsMode: "disable", defaultMode: "bypassPermissions" });
    expect(overMode.ran).toBe(false);
    expect(overMode.stderr).toContain('(over its defaultMode "bypassPermissions")');
    // A mode that asks keeps asking; what a rule allows runs.
    const allowed = await run({ disableBypassPermissionsMode: "disable", allow: ["Bash(touch *)"] });
    expect(allowed.ran).toBe(true);
    for (const flag of [["--dangerously-skip-permissions"], ["--permission-mode", "bypassPermissions"]]) {
      const refused = await run({ disableBypassPermissionsMode: "disable" }, flag);
      expect([flag, refused.code, refused.ran]).toEqual([flag, 2, false]);
      expect(refused.stderr).toContain(`${flag.join(" ")} is turned off by the permissions.disableBypassPermissionsMode "disable" of ~/.claude/settings.json`);
    }
    // Any other value is said and not used.
    const odd = await run({ disableBypassPermissionsMode: true });
    expect(odd.ran).toBe(true);
    expect(odd.stderr).toContain('permissions.disableBypassPermissionsMode must be "disable"');
  });

  test("sandbox.enabled and additionalDirectories, which zot does not have, are said rather than passed over", async () => {
    const llm = mock([{ text: "done" }]);
    const userHome = tempDir("zot-cs-user-");
    settings(userHome, { sandbox: { enabled: true }, permissions: { additionalDirectories: ["../shared-lib"] } });
    const run = await zot(["-p", "go", "--api-key", "k", "--base-url", llm.url], { cwd: tempDir("zot-cs-cwd-"), env: { HOME: userHome } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("~/.claude/settings.json: sandbox.enabled: zot has no sandbox of Claude Code's kind, so bash runs unconfined");
    expect(run.stderr).toContain("~/.claude/settings.json: permissions.additionalDirectories is not read");
  });
});

describe("a folder's .claude/settings.json", () => {
  test("counts only once the folder is trusted: an untrusted repository cannot point the key at its own server", async () => {
    const mine = mock([{ text: "from mine" }]);
    const theirs = mock([{ text: "from theirs" }]);
    const userHome = tempDir("zot-cs-user-");
    settings(userHome, { env: { ANTHROPIC_BASE_URL: mine.url, ANTHROPIC_API_KEY: "k" } });
    const cwd = tempDir("zot-cs-repo-");
    const home = tempDir("zot-cs-home-");
    settings(cwd, { model: "haiku", env: { ANTHROPIC_BASE_URL: theirs.url } });
    const untrusted = await zot(["-p", "go"], { cwd, home, env: { HOME: userHome } });
    expect(untrusted.stdout).toBe("from mine\n");
    expect(theirs.requests).toHaveLength(0);
    expect(mine.requests[0]?.body.model).toBe("claude-sonnet-5-5");
    // Trusted, the folder's file comes after the user's and wins, as in Claude Code.
    trustDir(home, cwd);
    const trusted = await zot(["-p", "go"], { cwd, home, env: { HOME: userHome } });
    expect(trusted.stdout).toBe("from theirs\n");
    expect(theirs.requests[0]?.body.model).toBe("claude-haiku-5-5");
  });
});

describe("--setting-sources", () => {
  test('"" reads none of Claude Code\'s files (the Claude Agent SDK\'s settingSources: []): no env, no model, no hooks; a list reads those it names', async () => {
    const llm = mock([{ text: "a" }, { text: "b" }, { text: "c" }]);
    const userHome = tempDir("zot-cs-user-");
    const cwd = tempDir("zot-cs-repo-");
    const home = tempDir("zot-cs-home-");
    trustDir(home, cwd);
    const marker = join(cwd, "hook-ran");
    const hook = join(cwd, "hook.sh");
    writeFileSync(hook, `#!/bin/sh\ntouch ${marker}\n`);
    chmodSync(hook, 0o755);
    settings(userHome, { model: "opus", hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: hook }] }] } });
    settings(cwd, { model: "haiku" }, "settings.local.json");
    const base = ["--api-key", "k", "--base-url", llm.url, "-p", "go"];
    // As the Claude Agent SDK passes settingSources: [].
    const none = await zot(["--setting-sources=", ...base], { cwd, home, env: { HOME: userHome } });
    expect(none.code).toBe(0);
    expect(llm.requests[0]?.body.model).toBe("claude-sonnet-5-5");
    expect(existsSync(marker)).toBe(false);
    await zot(["--setting-sources", "user", ...base], { cwd, home, env: { HOME: userHome } });
    expect(llm.requests[1]?.body.model).toBe("claude-opus-5-5");
    expect(existsSync(marker)).toBe(true);
    await zot(["--setting-sources", "user,local", ...base], { cwd, home, env: { HOME: userHome } });
    expect(llm.requests[2]?.body.model).toBe("claude-haiku-5-5");
  });

  test("it chooses Claude Code's memory files, skills and commands too, as Claude Code's sources do; zot's own AGENTS.md stays", async () => {
    const llm = mock([{ text: "a" }, { text: "b" }, { text: "c" }]);
    const userHome = tempDir("zot-cs-user-");
    const cwd = tempDir("zot-cs-repo-");
    const home = tempDir("zot-cs-home-");
    trustDir(home, cwd);
    const put = (file: string, text: string) => {
      mkdirSync(join(file, ".."), { recursive: true });
      writeFileSync(file, text);
    };
    put(join(userHome, ".claude", "CLAUDE.md"), "USER-MEMORY");
    put(join(userHome, ".claude", "skills", "shipit", "SKILL.md"), "---\nname: shipit\ndescription: Ship it\n---\nUSER-SKILL\n");
    put(join(cwd, "CLAUDE.md"), "PROJECT-MEMORY");
    put(join(cwd, "CLAUDE.local.md"), "LOCAL-MEMORY");
    put(join(cwd, "AGENTS.md"), "AGENTS-MEMORY");
    put(join(cwd, ".claude", "commands", "hello.md"), "PROJECT-COMMAND");
    const run = (sources: string) => zot([`--setting-sources=${sources}`, "--api-key", "k", "--base-url", llm.url, "-p", "/hello"], { cwd, home, env: { HOME: userHome } });
    const seen = (i: number) => JSON.stringify(llm.requests[i]?.body);
    await run("");
    expect(["USER-MEMORY", "PROJECT-MEMORY", "LOCAL-MEMORY", "shipit", "PROJECT-COMMAND"].filter((mark) => seen(0).includes(mark))).toEqual([]);
    expect(seen(0)).toContain("AGENTS-MEMORY");
    await run("user");
    expect(["USER-MEMORY", "PROJECT-MEMORY", "LOCAL-MEMORY", "shipit", "PROJECT-COMMAND"].filter((mark) => seen(1).includes(mark))).toEqual(["USER-MEMORY", "shipit"]);
    await run("project,local");
    expect(["USER-MEMORY", "PROJECT-MEMORY", "LOCAL-MEMORY", "shipit", "PROJECT-COMMAND"].filter((mark) => seen(2).includes(mark))).toEqual(["PROJECT-MEMORY", "LOCAL-MEMORY", "PROJECT-COMMAND"]);
  });

  test("a source it does not know is a usage error naming the three", async () => {
    const run = await zot(["--setting-sources", "user,policy", "-p", "go"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--setting-sources takes user, project, local (comma-separated, or "" for none); "policy" is not one');
  });
});
