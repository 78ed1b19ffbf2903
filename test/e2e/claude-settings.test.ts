// Claude Code's settings files beyond hooks and permissions, through the compiled binary: `env`
// (a proxy's ANTHROPIC_BASE_URL and key, a variable the commands see) and `model` (the model a new
// conversation starts on), from ~/.claude/settings.json always and from a folder's
// .claude/settings.json only once the folder is trusted; the shell and the flags win over them.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
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

function settings(dir: string, value: Record<string, unknown>): void {
  mkdirSync(join(dir, ".claude"), { recursive: true });
  writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify(value));
}

/** The text of the tool result the model got back, in the second request. */
const toolResult = (m: MockLlm): string => JSON.stringify(m.requests[1]?.body.messages.at(-1).content);

const echoVar = { tool_calls: [{ name: "bash", args: { command: "echo \"var=$FROM_SETTINGS\"" } }] };

describe("~/.claude/settings.json", () => {
  test("env points zot at a proxy with its key and reaches the commands; model is the conversation's model; no flag needed", async () => {
    const llm = mock([echoVar, { text: "done" }]);
    const userHome = tempDir("zot-cs-user-");
    settings(userHome, { model: "opus", env: { ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_API_KEY: "sk-from-settings", FROM_SETTINGS: "yes" } });
    const run = await zot(["-p", "go"], { env: { HOME: userHome } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("done\n");
    expect(llm.requests[0]?.body.model).toBe("claude-opus-5-5");
    expect(llm.requests[0]?.headers.authorization).toBe("Bearer sk-from-settings");
    expect(toolResult(llm)).toContain("var=yes");
  });

  test("the shell's variables and --model win over the file", async () => {
    const llm = mock([echoVar, { text: "done" }]);
    const userHome = tempDir("zot-cs-user-");
    settings(userHome, { model: "opus", env: { ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_API_KEY: "k", FROM_SETTINGS: "file" } });
    await zot(["-p", "go", "--model", "haiku"], { env: { HOME: userHome, FROM_SETTINGS: "shell" } });
    expect(llm.requests[0]?.body.model).toBe("claude-haiku-5-5");
    expect(toolResult(llm)).toContain("var=shell");
  });

  test("Claude Code's own model names: sonnet[1m] is sonnet, opusplan is opus, default is no choice; a bad field is a note", async () => {
    const llm = mock([{ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" }]);
    const models: string[] = [];
    for (const model of ["sonnet[1m]", "opusplan", "default", 42]) {
      const userHome = tempDir("zot-cs-user-");
      settings(userHome, { model, env: { ANTHROPIC_BASE_URL: llm.url, ANTHROPIC_API_KEY: "k" } });
      const run = await zot(["-p", "go"], { env: { HOME: userHome } });
      models.push(llm.requests.at(-1)?.body.model);
      if (model === 42) expect(run.stderr).toContain('~/.claude/settings.json: "model" must be a model\'s id or alias');
    }
    expect(models).toEqual(["claude-sonnet-5-5", "claude-opus-5-5", "claude-sonnet-5-5", "claude-sonnet-5-5"]);
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
