// Claude Code's settings files beyond hooks and permission rules, through the compiled binary:
// `env` (a proxy's ANTHROPIC_BASE_URL and token, API_TIMEOUT_MS, a variable the commands read) and
// `model` (with ANTHROPIC_MODEL and ANTHROPIC_DEFAULT_*_MODEL, as a proxy setup for GLM or Kimi
// writes them), from ~/.claude/settings.json always and a folder's .claude/settings.json once it is
// trusted; the shell, the flags and a resumed session win over them; --setting-sources picks the files.
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
      env: { ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_AUTH_TOKEN: "tok-123", ANTHROPIC_MODEL: "glm-4.6", API_TIMEOUT_MS: "3000000", FROM_SETTINGS: "yes" },
    });
    const run = await zot(["-p", "go"], { env: { HOME: userHome } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("done\n");
    expect(llm.requests[0]?.body.model).toBe("glm-4.6");
    expect(llm.requests[0]?.headers.authorization).toBe("Bearer tok-123");
    expect(toolResult(llm)).toContain("var=yes token=none");
    expect(run.stderr).toContain("the model is glm-4.6, as ~/.claude/settings.json's env.ANTHROPIC_MODEL says");
  });

  test("model picks the conversation's model, with a note naming the file; the shell's variables and --model win over the file", async () => {
    const llm = mock([{ text: "a" }, echoVar, { text: "b" }]);
    const userHome = tempDir("zot-cs-user-");
    settings(userHome, { model: "opus", env: { ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_API_KEY: "k", FROM_SETTINGS: "file" } });
    const first = await zot(["-p", "go"], { env: { HOME: userHome } });
    expect(llm.requests[0]?.body.model).toBe("claude-opus-5-5");
    expect(first.stderr).toContain("the model is opus, as ~/.claude/settings.json says (--model picks another)");
    const second = await zot(["-p", "go", "--model", "haiku"], { env: { HOME: userHome, FROM_SETTINGS: "shell" } });
    expect(llm.requests[1]?.body.model).toBe("claude-haiku-5-5");
    expect(JSON.stringify(llm.requests[2]?.body.messages.at(-1).content)).toContain("var=shell");
    expect(second.stderr).not.toContain("the model is");
  });

  test("Claude Code's model names: sonnet[1m] is sonnet, opusplan is opus, default is no choice; an alias goes where ANTHROPIC_DEFAULT_*_MODEL points; a bad field is a note", async () => {
    const llm = mock([{ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" }, { text: "e" }]);
    const models: string[] = [];
    const cases: [unknown, Record<string, string>][] = [["sonnet[1m]", {}], ["opusplan", {}], ["default", {}], [42, {}], ["opus", { ANTHROPIC_DEFAULT_OPUS_MODEL: "kimi-k2" }]];
    for (const [model, more] of cases) {
      const userHome = tempDir("zot-cs-user-");
      settings(userHome, { model, env: { ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_API_KEY: "k", ...more } });
      const run = await zot(["-p", "go"], { env: { HOME: userHome } });
      expect(run.code).toBe(0);
      models.push(llm.requests.at(-1)?.body.model);
      if (model === 42) expect(run.stderr).toContain('~/.claude/settings.json: "model" must be a model\'s id or alias');
    }
    expect(models).toEqual(["claude-sonnet-5-5", "claude-opus-5-5", "claude-sonnet-5-5", "claude-sonnet-5-5", "kimi-k2"]);
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

  test("a source it does not know is a usage error naming the three", async () => {
    const run = await zot(["--setting-sources", "user,policy", "-p", "go"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--setting-sources takes user, project, local (comma-separated, or "" for none); "policy" is not one');
  });
});
