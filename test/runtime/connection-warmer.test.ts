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
});

describe("a prompt being written (Conversation.promptComing: the TUI's first character)", () => {
  const idleSeconds = process.env.ZOT_CONNECTION_IDLE_SECONDS;
  afterEach(() => {
    if (idleSeconds === undefined) delete process.env.ZOT_CONNECTION_IDLE_SECONDS;
    else process.env.ZOT_CONNECTION_IDLE_SECONDS = idleSeconds;
  });

  test("soon after the last work opens nothing; while a turn runs, nothing either, however long the pool keeps a connection", async () => {
    const llm = mock([{ text: "first" }, { text: "slow", delay_ms: 600 }]);
    const talk = await conversation({ baseUrl: llm.url, warmConnection: true });
    await eventually(() => llm.warmups.length === 1, "the start's warm-up");
    // The start's warm-up longer ago than the limit, the last work not. (The limit is set once the
    // pool exists, which reads it when it is made.)
    await Bun.sleep(700);
    expect((await talk.submit({ text: "one" })).status).toBe("ok");
    process.env.ZOT_CONNECTION_IDLE_SECONDS = "0.5";
    talk.promptComing();
    await Bun.sleep(300);
    expect(llm.warmups).toHaveLength(1);
    // A limit far below the wait: only the running turn keeps it from warming.
    process.env.ZOT_CONNECTION_IDLE_SECONDS = "0.05";
    const running = talk.submit({ text: "two" });
    await eventually(() => llm.requests.length === 2, "the second prompt's call");
    await Bun.sleep(100);
    talk.promptComing();
    await Bun.sleep(300);
    expect(llm.warmups).toHaveLength(1);
    expect((await running).status).toBe("ok");
  });

  test("after an idle the pool closes a connection after, writing opens it again once, and the prompt takes it", async () => {
    const llm = mock([{ text: "first" }, { text: "second" }]);
    const front = await countConnections({ port: Number(new URL(llm.url).port) });
    stops.push(() => front.stop());
    const talk = await conversation({ baseUrl: front.url, warmConnection: true });
    await eventually(() => llm.warmups.length === 1, "the start's warm-up");
    expect((await talk.submit({ text: "one" })).status).toBe("ok");
    process.env.ZOT_CONNECTION_IDLE_SECONDS = "0.5";
    await Bun.sleep(600);
    talk.promptComing();
    await eventually(() => llm.warmups.length === 2, "the warm-up for the prompt being written");
    // The same prompt again (the editor emptied and filled): its warm-up began within the limit.
    talk.promptComing();
    await Bun.sleep(300);
    expect(llm.warmups).toHaveLength(2);
    expect((await talk.submit({ text: "two" })).status).toBe("ok");
    expect(llm.requests).toHaveLength(2);
    // In-process the pool keeps its connections a minute (it was made before the limit was set):
    // the warm-up and both prompts took the one connection.
    expect(front.accepted).toBe(1);
  });
});
