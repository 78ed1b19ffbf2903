// The connection to the model opened while zot waits for a prompt (runtime/connection-warmer.ts,
// providers/warm-connection.ts), through the compiled binary: zot rpc and the TUI open it once
// they have waited a moment, with one HEAD at the origin, and the first prompt's request takes it
// instead of opening its own; a server that never answers does not hold the exit. And the pool it
// lives in (providers/model-connections.ts): a connection idle past its limit is closed, so one a
// network forgot (Azure's NAT, after 4 minutes) cannot swallow the next prompt. Connections are
// counted by a TCP front between zot and the mock LLM (support/counted-connections.ts). A prompt
// sent at once, dispose and model switches: test/providers/warm-connection.test.ts and
// test/runtime/connection-warmer.test.ts.
import { afterEach, describe, expect, test } from "bun:test";
import { eventually } from "../fixtures/extensions/make.ts";
import { type CountedConnections, countConnections } from "../support/counted-connections.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { rpcFixture } from "../support/rpc-process.ts";
import { ready } from "../support/zot-pty.ts";

const fixture = rpcFixture();
const runs = ptyRuns();
const fronts: CountedConnections[] = [];
afterEach(async () => {
  for (const front of fronts.splice(0)) await front.stop();
});

async function frontOf(mock: MockLlm | "silent"): Promise<CountedConnections> {
  const front = await countConnections(mock === "silent" ? { silent: true } : { port: Number(new URL(mock.url).port) });
  fronts.push(front);
  return front;
}


describe("zot rpc", () => {
  test("Anthropic: the connection opens at the start, with a HEAD at the origin, and the first prompt takes it", async () => {
    const mock = fixture.llm([{ text: "hello" }, { text: "again" }]);
    const front = await frontOf(mock);
    const r = fixture.spawn(["--no-ext", "--provider", "anthropic", "--api-key", "k", "--base-url", front.url]);
    await eventually(() => mock.warmups.length === 1, "the connection opened at the start");
    await Bun.sleep(50);
    expect(await r.call({ type: "ping" })).toMatchObject({ success: true });
    expect(mock.warmups).toEqual([{ path: "/", at: 0 }]);
    expect(mock.requests).toHaveLength(0);
    expect(front.accepted).toBe(1);
    const events = await r.prompt("hi");
    expect(events.find((e) => e.type === "assistant_message")?.content).toEqual([{ type: "text", text: "hello" }]);
    expect(mock.requests.map((q) => q.path)).toEqual(["/v1/messages"]);
    // The request went over the connection the warm-up opened.
    expect(front.accepted).toBe(1);
    await r.prompt("more");
    expect(front.accepted).toBe(1);
    expect(mock.warmups).toHaveLength(1);
    expect(await r.close()).toBe(0);
  });

  test("OpenAI Chat at a base URL with a path: the origin's connection opens, and the prompt takes it", async () => {
    const mock = fixture.llm([{ text: "chat answer" }]);
    const front = await frontOf(mock);
    const r = fixture.spawn(["--no-ext", "--provider", "openai", "--model", "gpt-4.1", "--api-key", "k", "--base-url", `${front.url}/v1`]);
    await eventually(() => mock.warmups.length === 1, "the connection opened at the start");
    // The HEAD's answer puts the connection back in the pool a moment after the mock has the HEAD.
    await Bun.sleep(50);
    const events = await r.prompt("hi");
    expect(events.find((e) => e.type === "assistant_message")?.content).toEqual([{ type: "text", text: "chat answer" }]);
    expect(mock.requests.map((q) => q.path)).toEqual(["/v1/chat/completions"]);
    // At the origin, not at the base URL's /v1.
    expect(mock.warmups).toEqual([{ path: "/", at: 0 }]);
    expect(front.accepted).toBe(1);
    expect(await r.close()).toBe(0);
  });

  test("a server that accepts the connection and never answers does not hold the exit", async () => {
    const silent = await frontOf("silent");
    const r = fixture.spawn(["--no-ext", "--provider", "anthropic", "--api-key", "k", "--base-url", silent.url]);
    await eventually(() => silent.accepted === 1, "the connection opened at the start");
    expect(await r.call({ type: "ping" })).toMatchObject({ success: true, data: { pong: true } });
    expect(await r.close()).toBe(0);
    await eventually(() => silent.closed === 1, "the connection closed with zot");
  });
});

describe("the pool's idle limit", () => {
  test("a connection idle past ZOT_CONNECTION_IDLE_SECONDS is closed, and the next prompt opens a new one", async () => {
    const mock = fixture.llm([{ text: "before the pause" }, { text: "after the pause" }]);
    // zot keeps an idle connection 1 s, which Bun's 4-second timer makes 8.
    const front = await frontOf(mock);
    const r = fixture.spawn(["--no-ext", "--provider", "anthropic", "--api-key", "k", "--base-url", front.url], {
      env: { ZOT_CONNECTION_IDLE_SECONDS: "1" },
    });
    await eventually(() => mock.warmups.length === 1, "the warm-up");
    await Bun.sleep(50);
    const first = await r.prompt("one");
    expect(first.find((e) => e.type === "assistant_message")?.content).toEqual([{ type: "text", text: "before the pause" }]);
    expect(front.accepted).toBe(1);
    await eventually(() => front.closed === 1, "zot closing the idle connection", 15_000);
    const second = await r.prompt("two");
    expect(second.find((e) => e.type === "assistant_message")?.content).toEqual([{ type: "text", text: "after the pause" }]);
    expect(front.accepted).toBe(2);
    expect(mock.requests).toHaveLength(2);
    expect(await r.close()).toBe(0);
  }, 40_000);
});

describe("the TUI", () => {
  test("opens the connection while the first prompt is typed, and the prompt takes it", async () => {
    const mock = startMockLlm([{ text: "typed answer" }]);
    const front = await frontOf(mock);
    const { session } = runs.start({ ...mock, url: front.url });
    await ready(session);
    await eventually(() => mock.warmups.length === 1, "the connection opened at the start");
    await Bun.sleep(50);
    session.type("hello\r");
    await session.waitForText("typed answer");
    expect(mock.requests).toHaveLength(1);
    expect(mock.warmups).toHaveLength(1);
    expect(front.accepted).toBe(1);
  });

  test("started with a prompt: a prompt typed after the pool closed the connection opens it again while it is typed, and takes it", async () => {
    const mock = startMockLlm([{ text: "before the pause" }, { text: "after the pause" }]);
    const front = await frontOf(mock);
    const { session } = runs.start({ ...mock, url: front.url }, { args: ["one"], env: { ZOT_CONNECTION_IDLE_SECONDS: "1" } });
    await session.waitForText("before the pause");
    // The given prompt opened its own connection; nothing was warmed at the start.
    expect(mock.warmups).toHaveLength(0);
    await eventually(() => front.closed === 1, "zot closing the idle connection", 15_000);
    expect(front.accepted).toBe(1);
    // The first character: the connection opens again while the rest is typed.
    session.type("t");
    await eventually(() => mock.warmups.length === 1 && front.accepted === 2, "the warm-up for the prompt being typed");
    await Bun.sleep(50);
    session.type("wo\r");
    await session.waitForText("after the pause");
    expect(mock.requests).toHaveLength(2);
    expect(mock.warmups).toHaveLength(1);
    expect(front.accepted).toBe(2);
  }, 40_000);
});
