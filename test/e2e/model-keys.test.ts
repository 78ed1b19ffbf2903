// A models.json model that names its key gets that key or none: never the provider's. Through
// dist/zot against the mock LLM, which records each request's Authorization header: an unset
// "$VAR" at the start, a model added to models.json after the start and switched to over rpc, and
// the named variable kept from the bash tool's commands.
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { rpcFixture } from "../support/rpc-process.ts";
import { tempDir, zot } from "../support/zot.ts";

let mock: MockLlm | undefined;
afterEach(() => mock?.stop());
const fixture = rpcFixture();

const models = (home: string, data: unknown) => writeFileSync(join(home, "models.json"), JSON.stringify(data));

test('an unset "$VAR" key stops the run with a sentence naming the variable and the entry; the provider\'s key goes nowhere', async () => {
  mock = startMockLlm([{ text: "should not be asked" }]);
  const home = tempDir("zot-keys-home-");
  models(home, { providers: { openai: { baseUrl: `${mock.url}/v1`, apiKey: "$TOGETHER_KEY", models: [{ id: "tog" }] } } });
  const run = await zot(["-p", "hi", "--provider", "openai", "--model", "tog"], { home, env: { OPENAI_API_KEY: "sk-openai-SECRET" } });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("TOGETHER_KEY, which is not set");
  expect(run.stderr).toContain('"providers.openai.apiKey"');
  expect(run.stderr).toContain('model "tog"');
  expect(mock.requests).toHaveLength(0);
});

test("a model added to models.json after the start gets its own key on set_model, never the provider's; one naming an unset variable is refused", async () => {
  const r = fixture.start([{ text: "from tog" }], ["--provider", "openai", "--model", "gpt-4.1"], {
    provider: () => [],
    env: { OPENAI_API_KEY: "sk-openai-SECRET", TOGETHER_KEY: "tk-own" },
  });
  const base = `${fixture.mock.url}/v1`;
  expect((await r.call({ type: "get_state" })).success).toBe(true);
  models(r.home, { providers: { openai: { models: [{ id: "newtog", baseUrl: base, apiKey: "$TOGETHER_KEY" }, { id: "unset", baseUrl: base, apiKey: "$NOT_SET_KEY" }] } } });
  expect(await r.call({ type: "set_model", model: "newtog" })).toMatchObject({ success: true });
  await r.prompt("hi");
  expect(fixture.mock.requests.map((q) => q.headers.authorization)).toEqual(["Bearer tk-own"]);
  const refused = await r.call({ type: "set_model", model: "unset" });
  expect(refused.success).toBe(false);
  expect(refused.error).toContain("NOT_SET_KEY, which is not set");
  expect(refused.error).toContain("providers.openai.models[1].apiKey");
  expect((await r.call({ type: "get_state" })).data.model).toBe("newtog");
});

test("OPENAI_CUSTOM_HEADERS (a gateway's key, often) go where the provider's key goes, never to a models.json model with a key of its own", async () => {
  mock = startMockLlm([{ text: "from the gateway" }, { text: "from tog" }, { text: "from the gateway again" }]);
  const home = tempDir("zot-keys-home-");
  models(home, { providers: { openai: { models: [{ id: "tog", baseUrl: `${mock.url}/v1`, apiKey: "$TOGETHER_KEY" }] } } });
  const env = { OPENAI_API_KEY: "sk-openai", TOGETHER_KEY: "tk-own", OPENAI_CUSTOM_HEADERS: "x-portkey-api-key: pk-corp-secret" };
  const own = await zot(["-p", "hi", "--provider", "openai", "--model", "gpt-4.1", "--base-url", mock.url], { home, env });
  expect(own.code).toBe(0);
  expect(mock.requests[0]!.headers["x-portkey-api-key"]).toBe("pk-corp-secret");
  const other = await zot(["-p", "hi", "--provider", "openai", "--model", "tog"], { home, env });
  expect(other.code).toBe(0);
  expect(mock.requests[1]!.headers.authorization).toBe("Bearer tk-own");
  expect(mock.requests[1]!.headers["x-portkey-api-key"]).toBeUndefined();
  // a key of its own on the provider's server (OPENAI_BASE_URL, a gateway): the gateway's header goes too
  models(home, { providers: { openai: { models: [{ id: "gw-model", apiKey: "$TOGETHER_KEY" }] } } });
  const gateway = await zot(["-p", "hi", "--provider", "openai", "--model", "gw-model"], { home, env: { ...env, OPENAI_BASE_URL: mock.url } });
  expect(gateway.code).toBe(0);
  expect(mock.requests[2]!.headers.authorization).toBe("Bearer tk-own");
  expect(mock.requests[2]!.headers["x-portkey-api-key"]).toBe("pk-corp-secret");
});

test("a models.json model with a built-in model's id (a proxy's claude-sonnet-4-5 under openai) is the one --model picks, not the built-in on the user's own key", async () => {
  mock = startMockLlm([{ text: "from the proxy" }, { text: "from the proxy, dated" }]);
  const home = tempDir("zot-keys-home-");
  models(home, { providers: { openai: { baseUrl: `${mock.url}/v1`, apiKey: "$LITELLM_KEY", models: [{ id: "claude-sonnet-4-5" }] } } });
  const run = await zot(["-p", "hi", "--model", "claude-sonnet-4-5"], { home, env: { LITELLM_KEY: "lk-proxy", ANTHROPIC_API_KEY: "sk-ant-personal" } });
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("from the proxy\n");
  expect(mock.requests[0]!.path).toBe("/v1/chat/completions");
  expect(mock.requests[0]!.headers.authorization).toBe("Bearer lk-proxy");
  // its dated snapshot too
  const dated = await zot(["-p", "hi", "--model", "claude-sonnet-4-5-20250929"], { home, env: { LITELLM_KEY: "lk-proxy", ANTHROPIC_API_KEY: "sk-ant-personal" } });
  expect(dated.code).toBe(0);
  expect(mock.requests[1]!.headers.authorization).toBe("Bearer lk-proxy");
  expect(mock.requests[1]!.body.model).toBe("claude-sonnet-4-5-20250929");
  models(home, { providers: { openai: { models: [{ id: "twin" }] }, ollama: { models: [{ id: "twin" }] } } });
  const twice = await zot(["-p", "hi", "--model", "twin"], { home });
  expect(twice.code).toBe(2);
  expect(twice.stderr).toContain('models.json describes "twin" under openai and ollama; pass --provider openai or ollama');
});

test("models.json headers (pi's field, on the provider and the model) go to the model's server; a value that is only $VAR is that variable, unset an error naming the field", async () => {
  mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: "env" } }] }, { text: "done" }]);
  const home = tempDir("zot-keys-home-");
  models(home, {
    providers: {
      openai: {
        baseUrl: `${mock.url}/v1`,
        apiKey: "k-router",
        headers: { "HTTP-Referer": "https://example.org/zot", "X-Title": "zot" },
        models: [{ id: "routed", headers: { "X-Title": "zot, routed", "x-portkey-api-key": "$PK_KEY", "x-pi-form": "PI_FORM_KEY" } }],
      },
    },
  });
  const run = await zot(["-p", "hi", "--provider", "openai", "--model", "routed"], { home, env: { PK_KEY: "pk-secret", PI_FORM_KEY: "pi-secret" } });
  expect(run.code).toBe(0);
  const headers = mock.requests[0]!.headers;
  expect([headers["http-referer"], headers["x-title"], headers["x-portkey-api-key"], headers["x-pi-form"]]).toEqual(["https://example.org/zot", "zot, routed", "pk-secret", "pi-secret"]);
  expect(JSON.stringify(mock.requests[1]!.body.messages.at(-1))).not.toContain("pk-secret"); // the bash tool's env
  const unset = await zot(["-p", "hi", "--provider", "openai", "--model", "routed"], { home });
  expect(unset.code).toBe(2);
  expect(unset.stderr).toContain('field "providers.openai.models[0].headers.x-portkey-api-key"');
  expect(unset.stderr).toContain("PK_KEY, which is not set");
});

test("with no key but models.json's, the demo's note names a model models.json gives one to", async () => {
  const home = tempDir("zot-keys-home-");
  models(home, { providers: { openai: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "$LITELLM_KEY", models: [{ id: "proxy-model" }] } } });
  const run = await zot(["-p", "hi"], { home, env: { LITELLM_KEY: "lk" } });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain("no API key found (models.json's keys are for the models it lists: name one, as --model proxy-model), so this is the built-in demo");
});

test("the variable a models.json key names is not inherited by the bash tool's commands", async () => {
  mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: "env" } }] }, { text: "done" }]);
  const home = tempDir("zot-keys-home-");
  models(home, { providers: { openai: { models: [{ id: "tog", baseUrl: `${mock.url}/v1`, apiKey: "$TOGETHER_KEY" }] } } });
  const run = await zot(["-p", "show the environment", "--provider", "openai", "--model", "tog"], {
    home,
    env: { TOGETHER_KEY: "tk-REAL-secret", MY_OWN_VARIABLE: "kept" },
  });
  expect(run.code).toBe(0);
  expect(mock.requests[0]!.headers.authorization).toBe("Bearer tk-REAL-secret");
  const toModel = JSON.stringify(mock.requests[1]!.body.messages.at(-1));
  expect(toModel).toContain("MY_OWN_VARIABLE=kept");
  expect(toModel).not.toContain("tk-REAL-secret");
});
