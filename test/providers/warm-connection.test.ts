// warmConnection (providers/warm-connection.ts) and the pool it warms (model-connections.ts)
// in-process, over real sockets: a HEAD at the origin opens a connection that the next request
// through the pool takes; the signal ends a HEAD that waits for an answer; a URL that is not
// http(s) opens nothing. The idle limit, through the binary: test/e2e/warm-connection.test.ts.
import { afterEach, describe, expect, test } from "bun:test";
import { eventually } from "../fixtures/extensions/make.ts";
import { type CountedConnections, countConnections } from "../support/counted-connections.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { connectionIdleSeconds, modelFetch } from "../../src/providers/model-connections.ts";
import { warmConnection } from "../../src/providers/warm-connection.ts";

const started: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const one of started.splice(0).reverse()) await one.stop();
});

async function mockBehindFront(): Promise<{ mock: MockLlm; front: CountedConnections }> {
  const mock = startMockLlm();
  started.push(mock);
  const front = await countConnections({ port: Number(new URL(mock.url).port) });
  started.push(front);
  return { mock, front };
}

describe("warmConnection", () => {
  test("a HEAD at the origin (not the base URL's path) opens the connection the next request through the pool takes", async () => {
    const { mock, front } = await mockBehindFront();
    warmConnection(`${front.url}/v1`, new AbortController().signal);
    await eventually(() => mock.warmups.length === 1, "the HEAD");
    expect(mock.warmups[0]?.path).toBe("/");
    await Bun.sleep(20);
    expect((await modelFetch(`${front.url}/v1/models`)).status).toBe(404);
    expect(mock.requests.map((r) => r.path)).toEqual(["/v1/models"]);
    expect(front.accepted).toBe(1);
    // The global fetch has a pool of its own: the warm-up is not in it.
    expect((await fetch(`${front.url}/v1/models`)).status).toBe(404);
    expect(front.accepted).toBe(2);
  });

  test("the signal ends a HEAD the server never answers, closing its connection", async () => {
    const silent = await countConnections({ silent: true });
    started.push(silent);
    const controller = new AbortController();
    warmConnection(silent.url, controller.signal);
    await eventually(() => silent.accepted === 1, "the connection");
    await Bun.sleep(50);
    expect(silent.closed).toBe(0);
    controller.abort();
    await eventually(() => silent.closed === 1, "the connection closed");
  });

  test("a base URL that is not http(s), or not a URL, opens nothing and throws nothing", async () => {
    const { front } = await mockBehindFront();
    warmConnection(front.url.replace(/^http:/, "ftp:"), new AbortController().signal);
    warmConnection("not a url", new AbortController().signal);
    await Bun.sleep(100);
    expect(front.accepted).toBe(0);
  });
});

describe("connectionIdleSeconds", () => {
  test("a minute, unless ZOT_CONNECTION_IDLE_SECONDS says a positive number", () => {
    expect(connectionIdleSeconds({})).toBe(60);
    expect(connectionIdleSeconds({ ZOT_CONNECTION_IDLE_SECONDS: "20" })).toBe(20);
    expect(connectionIdleSeconds({ ZOT_CONNECTION_IDLE_SECONDS: "0" })).toBe(60);
    expect(connectionIdleSeconds({ ZOT_CONNECTION_IDLE_SECONDS: "soon" })).toBe(60);
  });
});
