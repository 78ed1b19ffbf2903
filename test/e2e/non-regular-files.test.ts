// Configuration and context files that are no regular file, through the compiled binary: a named
// pipe where AGENTS.md or models.json should be, a link to /dev/zero as .mcp.json (a cloned
// repository can ship either). zot passes over each, saying so, and answers; before, a pipe made it
// wait forever and /dev/zero made it read until memory ran out. Also: names from a configuration
// file that no file can have (a command longer than a path may be).
import { afterEach, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { cleanEnv, tempDir, ZOT, zot } from "../support/zot.ts";

const mocks: MockLlm[] = [];
afterEach(async () => {
  for (const mock of mocks.splice(0)) await mock.stop();
});

test("a named pipe or a device as AGENTS.md, CLAUDE.md, .mcp.json, .zot/hooks.json, models.json or trust.json: passed over with a warning, and the run answers", async () => {
  const mock = startMockLlm([{ text: "answered" }]);
  mocks.push(mock);
  const home = tempDir("zot-home-");
  const cwd = tempDir("zot-cwd-");
  mkdirSync(join(cwd, ".zot"));
  execFileSync("mkfifo", [join(cwd, "AGENTS.md"), join(cwd, ".zot", "hooks.json"), join(home, "models.json"), join(home, "trust.json")]);
  symlinkSync("/dev/zero", join(cwd, ".mcp.json"));
  symlinkSync("/dev/zero", join(cwd, "CLAUDE.md"));
  const run = await zot(["-p", "hi", "--provider", "anthropic", "--api-key", "k", "--base-url", mock.url], { home, cwd });
  expect(run.stdout).toContain("answered");
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(`${join(cwd, "AGENTS.md")} cannot be read (it is a named pipe, not a regular file)`);
  expect(run.stderr).toContain(`${join(cwd, "CLAUDE.md")} cannot be read (it is a device, not a regular file)`);
  expect(run.stderr).toContain(`cannot read ${join(home, "models.json")} (it is a named pipe, not a regular file)`);
  expect(run.stderr).toContain(`cannot read ${join(home, "trust.json")} (it is a named pipe, not a regular file)`);
  expect(mock.requests).toHaveLength(1);
}, 20_000);

test("zot mcp list, zot trust --list and zot ext list with pipes in their files' places say so instead of waiting", async () => {
  const home = tempDir("zot-home-");
  const cwd = tempDir("zot-cwd-");
  mkdirSync(join(home, "extensions", "e"), { recursive: true });
  execFileSync("mkfifo", [join(home, "mcp.json"), join(home, "trust.json"), join(home, "extensions", "e", "extension.json")]);
  const mcp = await zot(["mcp", "list"], { home, cwd });
  expect(mcp.stderr + mcp.stdout).toContain(`cannot read ${join(home, "mcp.json")} (it is a named pipe, not a regular file)`);
  const trust = await zot(["trust", "--list"], { home, cwd });
  expect(trust.stderr).toContain(`cannot read ${join(home, "trust.json")} (it is a named pipe, not a regular file)`);
  const ext = await zot(["ext", "list"], { home, cwd });
  expect(ext.stdout + ext.stderr).toContain("it is a named pipe, not a regular file");
}, 20_000);

test("a named pipe as an extension's extension.json: the run answers (the check for a guard no longer reads it)", async () => {
  const home = tempDir("zot-home-");
  mkdirSync(join(home, "extensions", "e"), { recursive: true });
  execFileSync("mkfifo", [join(home, "extensions", "e", "extension.json")]);
  const script = join(tempDir("zot-script-"), "turns.json");
  await Bun.write(script, JSON.stringify([{ text: "answered" }]));
  const run = await zot(["-p", "hi", "--provider", "scripted", "--script", script], { home });
  expect(run.stdout).toContain("answered");
  expect(run.stderr).toContain("it is a named pipe, not a regular file");
}, 20_000);

test("a link to /dev/null reads as an empty file, as before: trust.json, .mcp.json and CLAUDE.md blanked that way are no error", async () => {
  const home = tempDir("zot-home-");
  const cwd = tempDir("zot-cwd-");
  symlinkSync("/dev/null", join(home, "trust.json"));
  symlinkSync("/dev/null", join(cwd, ".mcp.json"));
  symlinkSync("/dev/null", join(cwd, "CLAUDE.md"));
  const script = join(tempDir("zot-script-"), "turns.json");
  await Bun.write(script, JSON.stringify([{ text: "answered" }]));
  const run = await zot(["-p", "hi", "--provider", "scripted", "--script", script], { home, cwd });
  expect(run.stdout).toContain("answered");
  expect(run.stderr).not.toContain("CLAUDE.md");
  const list = await zot(["trust", "--list"], { home, cwd });
  expect(list.code).toBe(0);
  expect(list.stderr).toContain("no folder trusted or refused yet");
  expect(list.stderr).not.toContain("cannot read");
  const mcp = await zot(["mcp", "list"], { home, cwd });
  expect(mcp.stderr).not.toContain("not a regular file");
});

test("a pipe the user names on the command line is read: --script <(…) and --mcp-config <(…)", async () => {
  const home = tempDir("zot-home-");
  const line = `${ZOT} -p hi --provider scripted --script <(echo '[{"text": "from a pipe"}]') --mcp-config <(echo '{"mcpServers": {}}')`;
  const proc = Bun.spawn(["bash", "-c", line], { env: cleanEnv(home), cwd: tempDir("zot-cwd-"), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect(stderr).toBe("");
  expect(stdout).toContain("from a pipe");
  expect(code).toBe(0);
});

test("an MCP server whose command is longer than a path may be is one not found on PATH, not Bun's raw error", async () => {
  const home = tempDir("zot-home-");
  await Bun.write(join(home, "mcp.json"), JSON.stringify({ mcpServers: { a: { command: "x".repeat(10_000) } } }));
  const script = join(tempDir("zot-script-"), "turns.json");
  await Bun.write(script, JSON.stringify([{ text: "answered" }]));
  const run = await zot(["-p", "hi", "--provider", "scripted", "--script", script], { home });
  expect(run.stdout).toContain("answered");
  expect(run.stderr).toContain("not found on PATH");
  expect(run.stderr).not.toContain("bin path is too long");
});

test("a git repository's .gitmodules, config or commondir as a named pipe or a link to /dev/zero (an archive with its .git): the run answers", async () => {
  const script = join(tempDir("zot-script-"), "script.json");
  writeFileSync(script, JSON.stringify([{ text: "answered" }]));
  const home = tempDir("zot-home-");
  const pipe = tempDir("zot-cwd-");
  execFileSync("git", ["init", "-q", pipe]);
  execFileSync("mkfifo", [join(pipe, ".gitmodules"), join(pipe, ".git", "commondir")]);
  const zero = tempDir("zot-cwd-");
  execFileSync("git", ["init", "-q", zero]);
  symlinkSync("/dev/zero", join(zero, ".gitmodules"));
  rmSync(join(zero, ".git", "config"));
  symlinkSync("/dev/zero", join(zero, ".git", "config"));
  for (const cwd of [pipe, zero]) {
    const run = await zot(["-p", "hi", "--script", script], { home, cwd, timeoutMs: 15_000 });
    expect(run.stdout).toBe("answered\n");
    expect(run.code).toBe(0);
  }
}, 40_000);
