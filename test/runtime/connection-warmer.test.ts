// The runtime's warm-up (runtime/connection-warmer.ts, providers/warm-connection.ts) in-process,
// where each warm-up is a HEAD the mock records (MockLlm.warmups): a run that waits opens the connection
// after a moment, one whose first prompt comes at once opens none (even when its model call comes
// later), dispose ends a HEAD still waiting, and a model switch warms only a server the run was
// not already talking to.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Conversation, openConversation } from "../../src/conversation/conversation.ts";
import { createRuntime, type Runtime, type RuntimeOptions } from "../../src/runtime/runtime.ts";
import { eventually } from "../fixtures/extensions/make.ts";
import { countConnections } from "../support/counted-connections.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { tempDir } from "../support/zot.ts";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

function mock(turns: Parameters<typeof startMockLlm>[0] = []): MockLlm {
  const started = startMockLlm(turns);
  stops.push(() => started.stop());
  return started;
}

/** A run against the mock: no tools, no extensions, a key; `options` over that. */
function runOptions(options: RuntimeOptions): RuntimeOptions {
  return {
    provider: "anthropic",
    apiKey: "k",
    home: tempDir("zot-warm-home-"),
    cwd: tempDir("zot-warm-cwd-"),
    tools: "none",
    extensions: { explicit: [], noDiscovery: true },
    env: {},
    ...options,
  };
}

async function runtime(options: RuntimeOptions): Promise<Runtime> {
  const made = await createRuntime(runOptions(options));
  stops.push(() => made.dispose());
  return made;
}

/** The conversation every front end and the SDK drive, which tells the runtime when work arrives. */
async function conversation(options: RuntimeOptions): Promise<Conversation> {
  const made = await openConversation(runOptions(options), { busy: "queue" });
  stops.push(() => made.dispose());
  return made;
}


const signal = () => new AbortController().signal;

describe("the runtime's warm-up", () => {
  test("a run that waits opens the connection; the first prompt's request takes it", async () => {
    const llm = mock([{ text: "hi" }]);
    const front = await countConnections({ port: Number(new URL(llm.url).port) });
    stops.push(() => front.stop());
    const rt = await runtime({ baseUrl: front.url, warmConnection: true });
    await eventually(() => llm.warmups.length === 1, "the warm-up");
    expect(llm.warmups[0]?.path).toBe("/");
    // Its answer puts the connection back in the pool a moment after the mock has the HEAD.
    await Bun.sleep(50);
    await rt.agent.prompt({ text: "hello" }, signal());
    expect(llm.requests.map((r) => r.path)).toEqual(["/v1/messages"]);
    expect(llm.warmups).toHaveLength(1);
    expect(front.accepted).toBe(1);
  });

  test("without warmConnection (-p, --json, the SDK's default) nothing is opened", async () => {
    const llm = mock();
    await runtime({ baseUrl: llm.url });
    await Bun.sleep(300);
    expect(llm.warmups).toHaveLength(0);
  });

  test("a first prompt sent at once opens its own connection and no other", async () => {
    const llm = mock([{ text: "at once" }]);
    const talk = await conversation({ baseUrl: llm.url, warmConnection: true });
    expect((await talk.submit({ text: "hello" })).status).toBe("ok");
    await Bun.sleep(300);
    expect(llm.warmups).toHaveLength(0);
    expect(llm.requests).toHaveLength(1);
  });

  test("a prompt submitted at once whose model call comes later (a slow hook, @mentions, before_agent_start) still opens no other connection", async () => {
    const llm = mock([{ text: "slow" }]);
    const talk = await conversation({ baseUrl: llm.url, warmConnection: true });
    const outcome = await talk.submit({ text: "hello" }, { prepare: async (input) => (await Bun.sleep(300), input) });
    expect(outcome.status).toBe("ok");
    await Bun.sleep(200);
    expect(llm.warmups).toHaveLength(0);
    expect(llm.requests).toHaveLength(1);
  });

  test("an extension's command sent at once (rpc's run_command) is work too: no warm-up", async () => {
    const llm = mock();
    const talk = await conversation({ baseUrl: llm.url, warmConnection: true });
    const outcome = talk.commandTurn(Promise.resolve(undefined), { onTurn: () => {}, onDropped: () => {} });
    await Bun.sleep(300);
    expect(llm.warmups).toHaveLength(0);
    await outcome;
  });

  test("dispose ends a HEAD the server never answers, and one not yet begun", async () => {
    const silent = await countConnections({ silent: true });
    stops.push(() => silent.stop());
    const rt = await runtime({ baseUrl: silent.url, warmConnection: true });
    await eventually(() => silent.accepted === 1, "the warm-up's connection");
    await rt.dispose();
    await eventually(() => silent.closed === 1, "the warm-up's connection closed");
    const early = await runtime({ baseUrl: silent.url, warmConnection: true });
    await early.dispose();
    await Bun.sleep(300);
    expect(silent.accepted).toBe(1);
  });

  test("a switch to a model on another server opens that one; to one on the same server (a client of its own for another key), nothing", async () => {
    const first = mock();
    const second = mock();
    const home = tempDir("zot-warm-home-");
    const model = (id: string, server: MockLlm, more: Record<string, string> = {}) => ({ id, baseUrl: server.url, contextWindow: 100000, maxTokens: 4096, ...more });
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, "models.json"),
      JSON.stringify({ providers: { anthropic: { models: [model("m-one", first), model("m-same", first, { apiKey: "another-key" }), model("m-other", second)] } } }),
    );
    // The key of the variable for m-one and m-other, models.json's own for m-same.
    const rt = await runtime({ home, model: "m-one", warmConnection: true, apiKey: undefined, env: { ANTHROPIC_API_KEY: "k" } });
    await eventually(() => first.warmups.length === 1, "the start's warm-up");
    const find = (id: string) => rt.readModels().find((m) => m.id === id)!;
    await rt.setModel(find("m-same"));
    await Bun.sleep(300);
    expect(first.warmups).toHaveLength(1);
    await rt.setModel(find("m-other"));
    await eventually(() => second.warmups.length === 1, "the other server's warm-up");
    expect(first.warmups).toHaveLength(1);
  });

  test("work that arrives while a switch to another server makes its client (rpc's set_model, then a prompt at once): that server gets no warm-up", async () => {
    const first = mock();
    const second = mock();
    const home = tempDir("zot-warm-home-");
    mkdirSync(home, { recursive: true });
    const model = (id: string, server: MockLlm) => ({ id, baseUrl: server.url, contextWindow: 100000, maxTokens: 4096 });
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { anthropic: { models: [model("m-one", first), model("m-other", second)] } } }));
    const rt = await runtime({ home, model: "m-one", warmConnection: true, apiKey: undefined, env: { ANTHROPIC_API_KEY: "k" } });
    await eventually(() => first.warmups.length === 1, "the start's warm-up");
    const switching = rt.setModel(rt.readModels().find((m) => m.id === "m-other")!);
    rt.workArrived(); // the prompt, while the switch still makes the other server's client
    await switching;
    await Bun.sleep(300);
    expect(second.warmups).toHaveLength(0);
  });
});

describe("a prompt being written (promptComing: the TUI's editor, at each change)", () => {
  const idleSeconds = process.env.ZOT_CONNECTION_IDLE_SECONDS;
  afterEach(() => {
    if (idleSeconds === undefined) delete process.env.ZOT_CONNECTION_IDLE_SECONDS;
    else process.env.ZOT_CONNECTION_IDLE_SECONDS = idleSeconds;
  });
  // The pool reads ZOT_CONNECTION_IDLE_SECONDS when it is made (by the first warm-up), and keeps its
  // connections a minute here: a limit set later is what promptComing compares with, alone.

  test("soon after the last model call opens nothing", async () => {
    const llm = mock([{ text: "first" }]);
    const talk = await conversation({ baseUrl: llm.url, warmConnection: true });
    await eventually(() => llm.warmups.length === 1, "the start's warm-up");
    // The start's warm-up longer ago than the limit, the last call not.
    await Bun.sleep(700);
    expect((await talk.submit({ text: "one" })).status).toBe("ok");
    process.env.ZOT_CONNECTION_IDLE_SECONDS = "0.5";
    talk.promptComing();
    await Bun.sleep(300);
    expect(llm.warmups).toHaveLength(1);
  });

  test("while a model call streams (here a side question's, which runs beside the work queue), nothing, however short the limit", async () => {
    const llm = mock([{ text: "a slow side answer", delay_ms: 800 }]);
    const talk = await conversation({ baseUrl: llm.url, warmConnection: true });
    await eventually(() => llm.warmups.length === 1, "the start's warm-up");
    await Bun.sleep(50);
    const side = (async () => {
      for await (const _ of talk.ask("why?", signal()));
    })();
    await eventually(() => llm.requests.length === 1, "the side question's call");
    process.env.ZOT_CONNECTION_IDLE_SECONDS = "0.05";
    await Bun.sleep(200);
    talk.promptComing();
    await Bun.sleep(300);
    expect(llm.warmups).toHaveLength(1);
    await side;
  });

  test("after the limit, one warm-up however often it is asked, and the prompt takes its connection", async () => {
    const llm = mock([{ text: "first" }, { text: "second" }]);
    const front = await countConnections({ port: Number(new URL(llm.url).port) });
    stops.push(() => front.stop());
    const talk = await conversation({ baseUrl: front.url, warmConnection: true });
    await eventually(() => llm.warmups.length === 1, "the start's warm-up");
    // Its answer puts the connection back in the pool a moment after the mock has the HEAD.
    await Bun.sleep(50);
    expect((await talk.submit({ text: "one" })).status).toBe("ok");
    process.env.ZOT_CONNECTION_IDLE_SECONDS = "0.5";
    await Bun.sleep(600);
    talk.promptComing();
    talk.promptComing();
    await eventually(() => llm.warmups.length === 2, "the warm-up for the prompt being written");
    // Each keystroke asks again: its warm-up began within the limit.
    talk.promptComing();
    await Bun.sleep(300);
    expect(llm.warmups).toHaveLength(2);
    expect((await talk.submit({ text: "two" })).status).toBe("ok");
    expect(llm.requests).toHaveLength(2);
    expect(front.accepted).toBe(1);
  });

  test("after a switch to a model on another server, that server's connection is the one opened", async () => {
    const first = mock();
    const second = mock();
    const home = tempDir("zot-warm-home-");
    const model = (id: string, server: MockLlm) => ({ id, baseUrl: server.url, contextWindow: 100000, maxTokens: 4096 });
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { anthropic: { models: [model("m-one", first), model("m-other", second)] } } }));
    const rt = await runtime({ home, model: "m-one", warmConnection: true, apiKey: undefined, env: { ANTHROPIC_API_KEY: "k" } });
    await eventually(() => first.warmups.length === 1, "the start's warm-up");
    await rt.setModel(rt.readModels().find((m) => m.id === "m-other")!);
    await eventually(() => second.warmups.length === 1, "the switch's warm-up");
    process.env.ZOT_CONNECTION_IDLE_SECONDS = "0.2";
    await Bun.sleep(300);
    rt.promptComing();
    await eventually(() => second.warmups.length === 2, "the other server's warm-up for the prompt");
    expect(first.warmups).toHaveLength(1);
  });

  test('warmConnection "later" (a TUI given its first prompt): nothing at the start, and the same when a prompt is written later', async () => {
    const llm = mock([{ text: "given" }]);
    const talk = await conversation({ baseUrl: llm.url, warmConnection: "later" });
    await Bun.sleep(300);
    expect(llm.warmups).toHaveLength(0);
    expect((await talk.submit({ text: "the given prompt" })).status).toBe("ok");
    process.env.ZOT_CONNECTION_IDLE_SECONDS = "0.2";
    await Bun.sleep(300);
    talk.promptComing();
    await eventually(() => llm.warmups.length === 1, "the warm-up for the prompt being written");
  });
});
