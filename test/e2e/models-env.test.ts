// Model ids beyond the catalog (dated snapshots, aliases, new and proxy ids), the environment
// variables users of the official CLIs already set, and a mis-keyed auth.json: through dist/zot
// against the mock LLM.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync } from "node:fs";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { tempDir, zot } from "../support/zot.ts";

let mock: MockLlm;
afterEach(() => mock?.stop());

describe("any model id", () => {
  test("a dated snapshot is sent as given, priced as its family, with no note", async () => {
    mock = startMockLlm([{ text: "ok", usage: { input: 1_000_000, output: 0 } }]);
    const run = await zot(["--json", "hi", "--model", "claude-sonnet-4-5-20250929", "--base-url", mock.url], {
      env: { ANTHROPIC_API_KEY: "k" },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(mock.requests[0].body.model).toBe("claude-sonnet-4-5-20250929");
    expect(run.stdout).toContain('"cost_usd":3');
  });

  test("an alias (sonnet, haiku) resolves to its model and picks the provider", async () => {
    mock = startMockLlm([{ text: "ok" }, { text: "ok" }]);
    const env = { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "o" };
    const run = await zot(["-p", "hi", "--model", "sonnet", "--base-url", mock.url], { env });
    expect(run.code).toBe(0);
    expect(mock.requests[0].path).toBe("/v1/messages");
    expect(mock.requests[0].body.model).toBe("claude-sonnet-5-5");
    // sonnet is now the default model too: haiku shows the alias, not the default, chose the model.
    const haiku = await zot(["-p", "hi", "--model", "haiku", "--base-url", mock.url], { env });
    expect(haiku.code).toBe(0);
    expect(mock.requests[1].path).toBe("/v1/messages");
    expect(mock.requests[1].body.model).toBe("claude-haiku-5-5");
  });

  test("an OpenAI snapshot, o3-pro, and a proxy id: the shape picks the provider and wire API; unknown ones get a note", async () => {
    mock = startMockLlm([{ text: "chat" }, { text: "responses" }, { text: "routed" }]);
    const env = { ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o" };
    const snapshot = await zot(["-p", "hi", "--model", "gpt-4.1-2025-04-14", "--base-url", `${mock.url}/v1`], { env });
    expect(snapshot.code).toBe(0);
    expect(snapshot.stderr).toBe("");
    expect(mock.requests[0].path).toBe("/v1/chat/completions");
    expect(mock.requests[0].body.model).toBe("gpt-4.1-2025-04-14");

    const pro = await zot(["-p", "hi", "--model", "o3-pro", "--base-url", `${mock.url}/v1`], { env });
    expect(pro.code).toBe(0);
    expect(mock.requests[1].path).toBe("/v1/responses");
    expect(pro.stderr).toContain('model "o3-pro" is not in zot\'s catalog');
    expect(pro.stderr).toContain("models.json");

    const proxy = await zot(["-p", "hi", "--provider", "openai", "--model", "deepseek/deepseek-chat", "--base-url", `${mock.url}/v1`], { env });
    expect(proxy.code).toBe(0);
    expect(proxy.stdout).toBe("routed\n");
    expect(mock.requests[2].body.model).toBe("deepseek/deepseek-chat");
  });

  test("an id whose shape names no provider goes to the provider with a key; with no key at all, a clear error", async () => {
    mock = startMockLlm([{ text: "ok" }]);
    const keyed = await zot(["-p", "hi", "--model", "my-gateway-model", "--base-url", `${mock.url}/v1`], { env: { OPENAI_API_KEY: "o" } });
    expect(keyed.code).toBe(0);
    expect(mock.requests[0].body.model).toBe("my-gateway-model");
    const none = await zot(["-p", "hi", "--model", "my-gateway-model"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('cannot tell which provider serves "my-gateway-model"');
    expect(none.stderr).toContain("--provider");
  });

  test("a run that stops because it cannot tell the provider says what is wrong with models.json too, which may be why", async () => {
    const home = tempDir("zot-home-");
    const file = `${home}/models.json`;
    await Bun.write(file, JSON.stringify({ providers: { together: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "TOGETHER_API_KEY", models: [{ id: "meta-llama/Llama-3-70b" }] } } }));
    const run = await zot(["-p", "hi", "--model", "meta-llama/Llama-3-70b"], { home, env: { TOGETHER_API_KEY: "tk" } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cannot tell which provider serves "meta-llama/Llama-3-70b"');
    expect(run.stderr).toContain(`models.json may be why: ${file}: provider "together" is not one zot speaks`);
    // --json says it in its error event, as every run that cannot start does.
    const json = await zot(["--json", "hi", "--model", "meta-llama/Llama-3-70b"], { home });
    expect(JSON.parse(json.stdout.split("\n")[0]!)).toMatchObject({ type: "error", code: "not_started", message: expect.stringContaining(`${file}: provider "together"`) });
  });
});

describe("environment variables", () => {
  test("ANTHROPIC_BASE_URL and OPENAI_BASE_URL point zot at another endpoint; --base-url beats them", async () => {
    mock = startMockLlm([{ text: "anthropic via env" }, { text: "openai via env" }, { text: "flag wins" }]);
    const a = await zot(["-p", "hi"], { env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: mock.url } });
    expect(a.stdout).toBe("anthropic via env\n");
    const o = await zot(["-p", "hi", "--provider", "openai", "--model", "gpt-4.1"], {
      env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: `${mock.url}/v1` },
    });
    expect(o.stdout).toBe("openai via env\n");
    expect(mock.requests[1].path).toBe("/v1/chat/completions");
    const flag = await zot(["-p", "hi", "--base-url", mock.url], { env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" } });
    expect(flag.stdout).toBe("flag wins\n");
  });

  test("ANTHROPIC_AUTH_TOKEN alone is a credential (a gateway's bearer token)", async () => {
    mock = startMockLlm([{ text: "through the gateway" }]);
    const run = await zot(["-p", "hi"], { env: { ANTHROPIC_AUTH_TOKEN: "gw-token", ANTHROPIC_BASE_URL: mock.url } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("through the gateway\n");
    expect(mock.requests[0].headers.authorization).toBe("Bearer gw-token");
  });

  test("OLLAMA_HOST (host:port, as the ollama CLI takes it) is where --provider ollama goes", async () => {
    mock = startMockLlm([{ text: "local" }, { text: "local again" }]);
    const run = await zot(["-p", "hi", "--provider", "ollama", "--model", "llama3.2"], { env: { OLLAMA_HOST: mock.url.replace("http://", "") } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("local\n");
    expect(mock.requests[0].path).toBe("/v1/chat/completions");
    // `:port` is 127.0.0.1 at that port, as the ollama CLI reads it (it was "Invalid URL").
    const port = new URL(mock.url).port;
    const short = await zot(["-p", "hi", "--provider", "ollama", "--model", "llama3.2"], { env: { OLLAMA_HOST: `:${port}` } });
    expect([short.code, short.stdout]).toEqual([0, "local again\n"]);
    expect(mock.requests).toHaveLength(2);
  });

  test("a connection error names the URL tried", async () => {
    const run = await zot(["-p", "hi"], { env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("http://127.0.0.1:9");
    const openai = await zot(["-p", "hi", "--provider", "openai", "--api-key", "k", "--base-url", "http://127.0.0.1:9/v1"]);
    expect(openai.code).toBe(1);
    expect(openai.stderr).toContain("http://127.0.0.1:9/v1");
  });
});

describe("auth.json", () => {
  test('a mis-keyed entry ({"anthropic":{"key":…}}) names the file and the field instead of playing the demo', async () => {
    const home = tempDir("zot-home-");
    await Bun.write(`${home}/auth.json`, JSON.stringify({ anthropic: { key: "sk-ant-x" } }));
    chmodSync(`${home}/auth.json`, 0o600);
    const run = await zot(["-p", "hi"], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${home}/auth.json`);
    expect(run.stderr).toContain('"anthropic" has no "api_key" field (it has "key")');
    expect(run.stderr).not.toContain("demo");
    expect(run.stdout).toBe("");
  });

  test("--base-url with no key and no provider is an error, not the demo", async () => {
    const run = await zot(["-p", "hi", "--base-url", "http://127.0.0.1:9"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--base-url needs a provider");
    expect(run.stdout).toBe("");
  });
});
