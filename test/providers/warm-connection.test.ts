// warmConnection (providers/warm-connection.ts) in-process, over real sockets: where Bun can
// preconnect, a connection opens and nothing is sent on it; where it cannot (Bun 1.4.5 throws for a
// URL on its scheme's default port, which a test cannot listen on, so its throw is made here), a
// HEAD at the origin opens it; either way the next request takes that connection; the signal ends a
// HEAD that waits for an answer; a URL that is not http(s) opens nothing.
import { afterEach, describe, expect, test } from "bun:test";
import { eventually } from "../fixtures/extensions/make.ts";
import { type CountedConnections, countConnections } from "../support/counted-connections.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { warmConnection } from "../../src/providers/warm-connection.ts";

const started: { stop(): Promise<void> }[] = [];
const realFetch = globalThis.fetch;
afterEach(async () => {
  globalThis.fetch = realFetch;
  for (const one of started.splice(0).reverse()) await one.stop();
});

async function mockBehindFront(): Promise<{ mock: MockLlm; front: CountedConnections }> {
  const mock = startMockLlm();
  started.push(mock);
  const front = await countConnections({ port: Number(new URL(mock.url).port) });
  started.push(front);
  return { mock, front };
}


/** The global fetch with another preconnect (Bun's own is read-only). */
function preconnectBy(preconnect: (url: string) => void): void {
  globalThis.fetch = Object.assign((input: string | URL | Request, init?: RequestInit) => realFetch(input, init), { preconnect }) as typeof fetch;
}

/** Bun's preconnect as it is for https://api.anthropic.com in Bun 1.4.5. */
function preconnectThrows(): void {
  preconnectBy(() => {
    throw new TypeError("Invalid port");
  });
}

describe("warmConnection", () => {
  test("Bun's preconnect still throws for a URL on its scheme's default port (when it stops, the HEAD can go)", () => {
    expect(() => realFetch.preconnect("https://127.0.0.1")).toThrow("Invalid port");
  });

  test("a server on a port of its own: a connection opens, nothing is sent on it, and the next request takes it", async () => {
    const { mock, front } = await mockBehindFront();
    warmConnection(`${front.url}/v1`, new AbortController().signal);
    await eventually(() => front.accepted === 1, "the connection");
    await Bun.sleep(50);
    expect(mock.warmups).toHaveLength(0);
    expect(mock.requests).toHaveLength(0);
    expect((await fetch(`${front.url}/v1/models`)).status).toBe(404);
    expect(front.accepted).toBe(1);
  });

  test("where preconnect throws: a HEAD at the origin (not the base URL's path) opens the connection the next request takes", async () => {
    preconnectThrows();
    const { mock, front } = await mockBehindFront();
    warmConnection(`${front.url}/v1`, new AbortController().signal);
    await eventually(() => mock.warmups.length === 1, "the HEAD");
    expect(mock.warmups[0]?.path).toBe("/");
    await Bun.sleep(20);
    expect((await fetch(`${front.url}/v1/models`)).status).toBe(404);
    expect(mock.requests.map((r) => r.path)).toEqual(["/v1/models"]);
    expect(front.accepted).toBe(1);
  });

  test("the signal ends a HEAD the server never answers, closing its connection", async () => {
    preconnectThrows();
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
    let asked = 0;
    preconnectBy(() => void asked++);
    warmConnection("ftp://127.0.0.1:21", new AbortController().signal);
    warmConnection("not a url", new AbortController().signal);
    expect(asked).toBe(0);
  });
});
