// Claude Code's `apiKeyHelper`, through the compiled binary: the command in ~/.claude/settings.json
// (or a trusted folder's) gives the Anthropic key, sent as X-Api-Key and Bearer as Claude Code sends
// it; the variables and --api-key go before it and auth.json after; a 401 asks it again at once and
// the call is made once more; an untrusted folder's helper never runs; a failing helper stops the
// start with its own words.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
// mock-llm.ts first: it loads its wire formats, which refer back to it.
import { type MockLlm, type RecordedRequest, startMockLlm } from "../support/mock-llm.ts";
import { anthropicResponse } from "../support/mock-llm/anthropic.ts";
import { trustDir } from "../support/trust.ts";
import { tempDir, zot } from "../support/zot.ts";

const mocks: MockLlm[] = [];
const servers: { stop(force?: boolean): unknown }[] = [];
afterEach(async () => {
  for (const mock of mocks.splice(0)) await mock.stop();
  for (const server of servers.splice(0)) await server.stop(true);
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

/** A helper script that prints `key-<n>`, n counting its runs (in `dir`/count), and logs each run. */
function countingHelper(dir: string): string {
  const script = join(dir, "key-helper.sh");
  writeFileSync(
    script,
    `#!/bin/sh\nn=$(( $(cat "${dir}/count" 2>/dev/null || echo 0) + 1 ))\necho "$n" > "${dir}/count"\necho "ran in $PWD key=\${OPENAI_API_KEY:-unset}" >> "${dir}/log"\necho "key-$n"\n`,
    { mode: 0o755 },
  );
  return script;
}

describe("apiKeyHelper", () => {
  test("the helper's key goes as X-Api-Key and Bearer, with nothing else set; the run names no demo", async () => {
    const llm = mock([{ text: "hello" }]);
    const userHome = tempDir("zot-akh-user-");
    settings(userHome, { apiKeyHelper: countingHelper(userHome) });
    const run = await zot(["-p", "go", "--base-url", llm.url], { env: { HOME: userHome } });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("hello\n");
    expect(llm.requests[0]?.headers["x-api-key"]).toBe("key-1");
    expect(llm.requests[0]?.headers.authorization).toBe("Bearer key-1");
    expect(readFileSync(join(userHome, "count"), "utf8").trim()).toBe("1");
  });

  test("ANTHROPIC_API_KEY and --api-key go before the helper, which then never runs; auth.json comes after it", async () => {
    const llm = mock([{ text: "a" }, { text: "b" }, { text: "c" }]);
    const userHome = tempDir("zot-akh-user-");
    const home = tempDir("zot-akh-home-");
    writeFileSync(join(home, "auth.json"), JSON.stringify({ anthropic: { api_key: "sk-ant-AUTHFILE" } }), { mode: 0o600 });
    settings(userHome, { apiKeyHelper: countingHelper(userHome) });
    await zot(["-p", "go", "--base-url", llm.url], { home, env: { HOME: userHome, ANTHROPIC_API_KEY: "sk-ant-SHELL" } });
    await zot(["-p", "go", "--base-url", llm.url, "--api-key", "sk-ant-FLAG"], { home, env: { HOME: userHome } });
    expect(existsSync(join(userHome, "count"))).toBe(false);
    await zot(["-p", "go", "--base-url", llm.url], { home, env: { HOME: userHome } });
    expect(llm.requests.map((r: RecordedRequest) => r.headers.authorization)).toEqual(["Bearer sk-ant-SHELL", "Bearer sk-ant-FLAG", "Bearer key-1"]);
  });

  test("a 401 asks the helper again and the call is made once more with the new key, as Claude Code does", async () => {
    const userHome = tempDir("zot-akh-user-");
    settings(userHome, { apiKeyHelper: countingHelper(userHome) });
    const seen: string[] = [];
    // A server that takes only the second key the helper gives: the first has expired.
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        if (req.method === "HEAD") return new Response(null, { status: 404 });
        const key = req.headers.get("x-api-key") ?? "";
        seen.push(key);
        if (key !== "key-2") return Response.json({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }, { status: 401 });
        const body = await req.json();
        return anthropicResponse({ text: "fresh" }, { method: "POST", path: "/v1/messages", headers: Object.fromEntries(req.headers), body });
      },
    });
    servers.push(server);
    const run = await zot(["-p", "go", "--base-url", `http://127.0.0.1:${server.port}`], { env: { HOME: userHome } });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("fresh\n");
    expect(run.code).toBe(0);
    expect(seen).toEqual(["key-1", "key-2"]);
  });

  test("a key the server refuses again after the helper was asked again is reported as the helper's, once", async () => {
    const userHome = tempDir("zot-akh-user-");
    settings(userHome, { apiKeyHelper: countingHelper(userHome) });
    let calls = 0;
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        if (req.method === "HEAD") return new Response(null, { status: 404 });
        calls++;
        return Response.json({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }, { status: 401 });
      },
    });
    servers.push(server);
    const run = await zot(["-p", "go", "--base-url", `http://127.0.0.1:${server.port}`], { env: { HOME: userHome } });
    expect(run.code).toBe(1);
    expect(calls).toBe(2);
    expect(run.stderr).toContain(`rejected the API key from the apiKeyHelper of ~/.claude/settings.json`);
  });

  test("a failing helper stops the start with its own words; a helper that prints nothing is said as such", async () => {
    const userHome = tempDir("zot-akh-user-");
    settings(userHome, { apiKeyHelper: "echo 'vault: login required' >&2; exit 3" });
    const failed = await zot(["-p", "go", "--base-url", "http://127.0.0.1:9"], { env: { HOME: userHome } });
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain("apiKeyHelper (~/.claude/settings.json: echo 'vault: login required' >&2; exit 3) failed (exit 3): vault: login required");
    settings(userHome, { apiKeyHelper: "true" });
    const empty = await zot(["-p", "go", "--base-url", "http://127.0.0.1:9"], { env: { HOME: userHome } });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("printed no key");
  });

  test("an untrusted folder's helper never runs; trusted, it runs in the folder, without zot's credentials", async () => {
    const llm = mock([{ text: "a" }, { text: "b" }]);
    const userHome = tempDir("zot-akh-user-");
    const home = tempDir("zot-akh-home-");
    const project = tempDir("zot-akh-project-");
    writeFileSync(join(home, "auth.json"), JSON.stringify({ anthropic: { api_key: "sk-ant-AUTHFILE" } }), { mode: 0o600 });
    settings(project, { apiKeyHelper: countingHelper(project) });
    const untrusted = await zot(["-p", "go", "--base-url", llm.url], { home, cwd: project, env: { HOME: userHome } });
    expect(untrusted.code).toBe(0);
    expect(existsSync(join(project, "count"))).toBe(false);
    expect(llm.requests[0]?.headers.authorization).toBe("Bearer sk-ant-AUTHFILE");
    trustDir(home, project);
    // zot holds an OpenAI key too: the helper's environment has none of zot's keys.
    const trusted = await zot(["-p", "go", "--base-url", llm.url, "--provider", "anthropic"], { home, cwd: project, env: { HOME: userHome, OPENAI_API_KEY: "sk-openai-HELD" } });
    expect(trusted.code).toBe(0);
    expect(llm.requests[1]?.headers["x-api-key"]).toBe("key-1");
    expect(readFileSync(join(project, "log"), "utf8")).toBe(`ran in ${project} key=unset\n`);
  });

  test("a helper that is not a command is a warning naming the file, and the run goes on", async () => {
    const llm = mock([{ text: "a" }]);
    const userHome = tempDir("zot-akh-user-");
    settings(userHome, { apiKeyHelper: ["get-key"] });
    const run = await zot(["-p", "go", "--base-url", llm.url], { env: { HOME: userHome, ANTHROPIC_API_KEY: "sk-ant-SHELL" } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('~/.claude/settings.json: "apiKeyHelper" must be a command (run by /bin/sh) that prints the key; it is not used');
  });

  test("a key asked for on a 401 is taken out of what the failure says, as the first one is", async () => {
    const userHome = tempDir("zot-akh-user-");
    const dir = tempDir("zot-akh-keys-");
    writeFileSync(join(dir, "helper.sh"), `n=$(( $(cat "${dir}/count" 2>/dev/null || echo 0) + 1 )); echo $n > "${dir}/count"; echo sk-ant-SECRET-number-$n\n`, { mode: 0o755 });
    settings(userHome, { apiKeyHelper: `sh ${join(dir, "helper.sh")}` });
    // A gateway that echoes the key it got, as LiteLLM's does.
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        if (req.method === "HEAD") return new Response(null, { status: 404 });
        return Response.json({ type: "error", error: { type: "authentication_error", message: `Invalid proxy server token passed. Received API Key = ${req.headers.get("x-api-key")}` } }, { status: 401 });
      },
    });
    servers.push(server);
    const run = await zot(["-p", "go", "--base-url", `http://127.0.0.1:${server.port}`], { env: { HOME: userHome } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Received API Key = sk-…er-2");
    expect(run.stderr).not.toContain("SECRET-number");
  });

  test("a model with a key of its own in models.json does not run the helper; Codex's hooks.json has no apiKeyHelper", async () => {
    const llm = mock([{ text: "own" }, { text: "users" }]);
    const userHome = tempDir("zot-akh-user-");
    const home = tempDir("zot-akh-home-");
    // A helper that fails: the run with the model's own key never asks it.
    settings(userHome, { apiKeyHelper: "exit 1" });
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { anthropic: { models: [{ id: "claude-own", apiKey: "sk-ant-OWN-KEY" }] } } }));
    const own = await zot(["-p", "go", "--base-url", llm.url, "--model", "claude-own"], { home, env: { HOME: userHome, ANTHROPIC_BASE_URL: llm.url } });
    expect(own.code).toBe(0);
    expect(llm.requests[0]?.headers.authorization).toBe("Bearer sk-ant-OWN-KEY");
    settings(userHome, { apiKeyHelper: "echo users-own-key" });
    mkdirSync(join(userHome, ".codex"), { recursive: true });
    writeFileSync(join(userHome, ".codex", "hooks.json"), JSON.stringify({ apiKeyHelper: "echo codex-key" }));
    const users = await zot(["-p", "go", "--base-url", llm.url], { home, env: { HOME: userHome } });
    expect(users.code).toBe(0);
    expect(llm.requests[1]?.headers["x-api-key"]).toBe("users-own-key");
  });

  test("an OpenAI run never runs the helper; a settings file's proxy (ANTHROPIC_BASE_URL) with the helper beside it gets the helper's key", async () => {
    const openai = mock([{ text: "from openai" }]);
    const userHome = tempDir("zot-akh-user-");
    settings(userHome, { apiKeyHelper: countingHelper(userHome) });
    const run = await zot(["-p", "go", "--provider", "openai", "--api-key", "sk-openai", "--base-url", `${openai.url}/v1`], { env: { HOME: userHome } });
    expect(run.stdout).toBe("from openai\n");
    expect(existsSync(join(userHome, "count"))).toBe(false);
    // The proxy setup as Claude Code users write it: the base URL in env, the key from the helper.
    const proxy = mock([{ text: "via proxy" }]);
    const proxied = tempDir("zot-akh-user-");
    settings(proxied, { env: { ANTHROPIC_BASE_URL: proxy.url }, apiKeyHelper: countingHelper(proxied) });
    const viaProxy = await zot(["-p", "go"], { env: { HOME: proxied } });
    expect(viaProxy.stdout).toBe("via proxy\n");
    expect(proxy.requests[0]?.headers["x-api-key"]).toBe("key-1");
  });
});
