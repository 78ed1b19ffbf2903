// One suite over the three wire APIs (Anthropic Messages, OpenAI Chat Completions, OpenAI
// Responses): each provider through its real SDK against the mock LLM speaking its real wire
// format. Streaming, tool calls, usage, stop reasons, retries, every failure with its code and
// sentence, abort. What only one wire does (its request shape, its dialects) is in its own file.
import { afterEach, describe, expect, test } from "bun:test";
import type { ModelRequest, ProviderEvent } from "../../src/protocol/provider.ts";
import { ProviderError } from "../../src/protocol/provider.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { mockBody, type ProviderOptions, RawServers, WIRES, type Wire } from "../support/provider-wires.ts";
import { message, ofType, streamAll } from "../support/provider-stream.ts";

let mock: MockLlm | undefined;
const raw = new RawServers();
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
  await raw.stopAll();
});

function serve(...turns: ScriptTurn[]): MockLlm {
  mock = startMockLlm(turns);
  return mock;
}

const request = (wire: Wire, overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: wire.model,
  system: "You are zot.",
  messages: [message("user", { type: "text", text: "hi" })],
  tools: [],
  ...overrides,
});

async function run(wire: Wire, url: string, options: ProviderOptions & { req?: Partial<ModelRequest>; signal?: AbortSignal } = {}) {
  const retries: number[] = [];
  const provider = wire.provider(url, { ...options, onRetry: (_attempt, _error, waitMs) => retries.push(waitMs) });
  return { ...(await streamAll(provider, request(wire, options.req), options.signal)), retries };
}

function providerError(error: unknown): ProviderError {
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe.each(WIRES)("$api", (wire) => {
  test("text streams in several deltas and ends with the assembled message", async () => {
    const text = "Hello there, this answer arrives in pieces. ö🌍é";
    const m = serve({ text, chunk_size: 5 });
    const { events, error, done } = await run(wire, m.url);
    expect(error).toBeUndefined();
    const deltas = ofType(events, "text_delta");
    expect(deltas.length).toBeGreaterThanOrEqual(9);
    expect(deltas.map((d) => d.delta).join("")).toBe(text);
    expect(done).toEqual({ type: "done", content: [{ type: "text", text }], stop: "end_turn" });
    expect(events.at(-1)?.type).toBe("done");
    expect(m.requests).toHaveLength(1);
    expect(m.requests[0]!.path).toBe(wire.path);
    expect(m.requests[0]!.headers.authorization).toBe("Bearer sk-test");
    expect(m.requests[0]!.body.stream).toBe(true);
  });

  test("a long answer of quotes, escapes, control characters and emoji: every delta as it was sent (repeated lines are read without JSON.parse)", async () => {
    const text = 'He said "hi"\\n\\ and\n\ttabbed \u0001\u001f é 你好 😀 \u2028 </end> {"json":[1]} '.repeat(40);
    const m = serve({ text, chunk_size: 3 }, { text: "Reading.", tool_calls: [{ id: "call_a", name: "write", args: { content: text } }] });
    const first = await run(wire, m.url);
    expect(first.error).toBeUndefined();
    const deltas = ofType(first.events, "text_delta").map((d) => d.delta);
    expect(deltas.length).toBeGreaterThan(500);
    expect(deltas.join("")).toBe(text);
    expect(first.done?.content).toEqual([{ type: "text", text }]);
    // Tool-call arguments repeat their lines too.
    const second = await run(wire, m.url);
    expect(second.done?.content[1]).toMatchObject({ type: "tool_call", id: "call_a", name: "write", args: { content: text } });
  });

  test("thinking streams as thinking deltas and opens the message", async () => {
    const thinking = "First I consider the question carefully.";
    const m = serve({ thinking, text: "Answer." });
    const { events, done } = await run(wire, m.url, { req: { reasoning: "low" } });
    expect(ofType(events, "thinking_delta").length).toBeGreaterThan(1);
    expect(ofType(events, "thinking_delta").map((d) => d.delta).join("")).toBe(thinking);
    expect(done?.content[0]).toMatchObject({ type: "thinking", text: thinking });
    expect(done?.content[1]).toEqual({ type: "text", text: "Answer." });
  });

  test("two tool calls stream their arguments in fragments, each ended after its last fragment", async () => {
    const readArgs = { path: "src/a.ts", range: { from: 1, to: [2, 3] }, note: "ünïcode" };
    const bashArgs = { command: "ls -la && echo done" };
    const m = serve({
      text: "Reading.",
      tool_calls: [
        { id: "call_a", name: "read", args: readArgs },
        { id: "call_b", name: "bash", args: bashArgs },
      ],
    });
    const { events, done } = await run(wire, m.url);
    const calls = events.filter((e) => e.type.startsWith("tool_use"));
    expect(ofType(events, "tool_use_start")).toEqual([
      { type: "tool_use_start", id: "call_a", name: "read" },
      { type: "tool_use_start", id: "call_b", name: "bash" },
    ]);
    for (const [id, args] of [["call_a", readArgs], ["call_b", bashArgs]] as const) {
      const fragments = ofType(events, "tool_use_args").filter((e) => e.id === id);
      expect(fragments.length).toBeGreaterThanOrEqual(2);
      expect(fragments.every((f) => f.delta !== "")).toBe(true);
      expect(JSON.parse(fragments.map((f) => f.delta).join(""))).toEqual(args);
      // start, its fragments, end: in that order (Chat Completions ends every call at its finish_reason)
      const own: string[] = calls.filter((e) => "id" in e && e.id === id).map((e) => e.type);
      expect(own).toEqual(["tool_use_start", ...fragments.map(() => "tool_use_args"), "tool_use_end"]);
    }
    expect(done?.stop).toBe("tool_use");
    expect(done?.content).toEqual([
      { type: "text", text: "Reading." },
      { type: "tool_call", id: "call_a", name: "read", args: readArgs },
      { type: "tool_call", id: "call_b", name: "bash", args: bashArgs },
    ]);
  });

  test("usage: the last usage event comes before done and has the call's tokens", async () => {
    const counts = { input: 120, output: 45, cache_read: 1000, cache_write: 300, reasoning: 12 };
    const m = serve({ text: "ok", usage: counts });
    const { events } = await run(wire, m.url);
    const usages = ofType(events, "usage");
    expect(usages.at(-1)?.usage).toEqual(wire.usage(counts));
    expect(events.at(-2)?.type).toBe("usage");
  });

  test("stop reasons: end_turn, tool_use, length", async () => {
    const m = serve({ text: "done" }, { tool_calls: [{ name: "read", args: { path: "x" } }] }, { text: "cut off", stop: "length" });
    const stops: string[] = [];
    for (let i = 0; i < 3; i++) stops.push((await run(wire, m.url)).done?.stop ?? "none");
    expect(stops).toEqual(["end_turn", "tool_use", "length"]);
  });

  test("a 429 with retry-after 0 is announced, retried, then succeeds", async () => {
    const m = serve({ error: { message: "Rate limit reached", status: 429, retry_after: 0 } }, { text: "after the wait" });
    const { events, error, done, retries } = await run(wire, m.url);
    expect(error).toBeUndefined();
    expect(retries).toEqual([0]);
    expect(events[0]).toEqual({ type: "retry", attempt: 1, max_attempts: 10, wait_ms: 0, status: 429, code: "rate_limit", message: `${wire.name}: HTTP 429: Rate limit reached` });
    expect(done?.content).toEqual([{ type: "text", text: "after the wait" }]);
    expect(m.requests).toHaveLength(2);
  });

  test("onOpen is told once per answer that opened, after the retries, before its first event is read", async () => {
    const m = serve({ error: { message: "Rate limit reached", status: 429, retry_after: 0 } }, { text: "after the wait" }, { text: "again" });
    const heard: string[] = [];
    const provider = wire.provider(m.url, { onOpen: () => heard.push("open") });
    for await (const batch of provider.stream(request(wire), new AbortController().signal)) heard.push(...batch.map((e) => e.type));
    // The refused open's retry event, then the answer that opened, then what it streamed.
    expect(heard.slice(0, 2)).toEqual(["retry", "open"]);
    expect(heard.filter((e) => e === "open")).toHaveLength(1);
    expect(heard).toContain("text_delta");
    // A second call opens a second answer.
    await streamAll(provider, request(wire));
    expect(heard.filter((e) => e === "open")).toHaveLength(2);
  });

  test("a refused call opens no answer: onOpen is not told", async () => {
    const m = serve({ error: { message: "model 'nope' not found", status: 404 } });
    let opened = 0;
    const { error } = await streamAll(wire.provider(m.url, { onOpen: () => opened++ }), request(wire));
    expect(providerError(error).code).toBe("bad_request");
    expect(opened).toBe(0);
  });

  test("500 three times: three requests, two announced retries backing off from half a second, then server_error", async () => {
    const boom = { error: { message: "internal boom", status: 500 } };
    const m = serve(boom, boom, boom, { text: "never played" });
    // The run's own limit (CLAUDE_CODE_MAX_RETRIES) lowers the 10 a busy server gets.
    const { events, error, retries } = await run(wire, m.url, { maxRetries: 2 });
    const e = providerError(error);
    expect(m.requests).toHaveLength(3);
    const sentence = `${wire.name}: HTTP 500: internal boom`;
    expect(events.map((ev) => ({ ...ev, wait_ms: 0 }))).toEqual([
      { type: "retry", attempt: 1, max_attempts: 2, wait_ms: 0, status: 500, code: "server_error", message: sentence },
      { type: "retry", attempt: 2, max_attempts: 2, wait_ms: 0, status: 500, code: "server_error", message: sentence },
    ]);
    // 500 ms, then 1 s, each up to a quarter longer at random.
    expect(retries[0]).toBeGreaterThanOrEqual(500);
    expect(retries[0]).toBeLessThanOrEqual(625);
    expect(retries[1]).toBeGreaterThanOrEqual(1000);
    expect(retries[1]).toBeLessThanOrEqual(1250);
    expect([e.message, e.code, e.status]).toEqual([sentence, "server_error", 500]);
  });

  test("529 is overloaded, retried like a 5xx: ten times before it is said", async () => {
    const busy = { error: { message: "Overloaded", status: 529, retry_after: 0 } };
    const m = serve(...Array.from({ length: 11 }, () => busy), { text: "never played" });
    const { events, error } = await run(wire, m.url);
    const e = providerError(error);
    expect(m.requests).toHaveLength(11);
    expect(events.map((ev) => (ev.type === "retry" ? `${ev.attempt}/${ev.max_attempts}` : ev.type))).toEqual(Array.from({ length: 10 }, (_, i) => `${i + 1}/10`));
    expect([e.code, e.message]).toEqual(["overloaded", `${wire.name}: HTTP 529: Overloaded`]);
  });

  test("CLAUDE_CODE_MAX_RETRIES=0 (maxRetries 0): a 529 is said at once", async () => {
    const busy = { error: { message: "Overloaded", status: 529, retry_after: 0 } };
    const m = serve(busy, { text: "never played" });
    const { events, error } = await run(wire, m.url, { maxRetries: 0 });
    expect(providerError(error).code).toBe("overloaded");
    expect(events).toEqual([]);
    expect(m.requests).toHaveLength(1);
  });

  test("a retry-after too long to wait for goes to the user at once: rate_limit", async () => {
    const m = serve({ error: { message: "Rate limit reached", status: 429, retry_after: 120 } }, { text: "never" });
    const e = providerError((await run(wire, m.url)).error);
    expect(m.requests).toHaveLength(1);
    // Said with the wait the server asked for, so the user knows when trying again can help.
    expect([e.code, e.retryAfter, e.message]).toEqual([
      "rate_limit",
      120,
      `${wire.name}: HTTP 429: Rate limit reached; the server asks to wait 120 s before trying again (zot waits up to 60 s by itself)`,
    ]);
  });

  test("a 429 that names its wait only in its words is retried after that wait, not the backoff", async () => {
    const m = serve({ error: { message: "Rate limit reached on tokens per min (TPM). Please try again in 40ms.", status: 429 } }, { text: "after the named wait" });
    const { events, error, done } = await run(wire, m.url);
    expect(error).toBeUndefined();
    expect(ofType(events, "retry").map((r) => r.wait_ms)).toEqual([40]);
    expect(done?.content).toEqual([{ type: "text", text: "after the named wait" }]);
  });

  test("a 401 is auth, not retried, and the sentence names where the key came from", async () => {
    const rejected = { error: { message: "invalid x-api-key", status: 401 } };
    const m = serve(rejected, rejected, rejected, rejected, { text: "never" });
    const said = `(401 ${wire.authLabel}: invalid x-api-key)`;
    const cases: [ProviderOptions["key"], string][] = [
      [{ from: "ANTHROPIC_API_KEY" }, `${wire.name} rejected the API key from ANTHROPIC_API_KEY ${said}; check it, or pass --api-key`],
      [{ from: "--api-key" }, `${wire.name} rejected the API key from --api-key ${said}; check it`],
      [{ from: "/home/me/.zot/auth.json" }, `${wire.name} rejected the API key from /home/me/.zot/auth.json ${said}; check it, or pass --api-key`],
      [{ variable: "OLLAMA_API_KEY" }, `${wire.name} rejected the request, which carried no API key ${said}; set OLLAMA_API_KEY or pass --api-key`],
    ];
    for (const [key, sentence] of cases) {
      const e = providerError((await run(wire, m.url, { key })).error);
      expect([e.code, e.status, e.retryable, e.message]).toEqual(["auth", 401, false, sentence]);
    }
    expect(m.requests).toHaveLength(4);
  });

  test("a 401 or 403 that is a web page (a proxy, a firewall) names the URL and what refused, not the key", async () => {
    const page = "<!DOCTYPE html><html><head><title>Access denied</title></head><body>blocked by policy</body></html>";
    for (const status of [403, 401]) {
      const url = raw.refuse(status, page, "text/html");
      const e = providerError((await run(wire, url, { key: { from: "ANTHROPIC_API_KEY" } })).error);
      expect([e.code, e.status, e.retryable]).toEqual(["auth", status, false]);
      expect(e.message).toBe(
        `${wire.name}: HTTP ${status} from ${wire.baseUrl(url)}: an HTML page: Access denied; something between zot and ${wire.name} (a proxy, a firewall, a CDN) refused the request, or the base URL is not ${wire.name}'s API; check the base URL and the network's proxy, not the key`,
      );
      expect(e.message).not.toContain("rejected the API key");
    }
    // A compatible server's own JSON, even in no API's shape (vLLM's {"error": "Unauthorized"}), is its word on the key.
    const vllm = providerError((await run(wire, raw.refuse(401, '{"error":"Unauthorized"}', "application/json"), { key: { from: "ANTHROPIC_API_KEY" } })).error);
    expect(vllm.message).toContain(`${wire.name} rejected the API key from ANTHROPIC_API_KEY`);
    // Plain text or no body at all is no API's answer either.
    for (const [body, said] of [["Forbidden by policy", "Forbidden by policy"], ["", "the server sent no details"]]) {
      const url = raw.refuse(403, body!, "text/plain");
      const e = providerError((await run(wire, url, { key: { from: "ANTHROPIC_API_KEY" } })).error);
      expect(e.message).toContain(`HTTP 403 from ${wire.baseUrl(url)}: ${said}; something between zot and ${wire.name}`);
      expect(e.message).not.toContain("rejected the API key");
    }
  });

  test("a 404 (an unknown model) is bad_request and not retried", async () => {
    const m = serve({ error: { message: "model 'nope' not found", status: 404 } }, { text: "never" });
    const e = providerError((await run(wire, m.url)).error);
    expect(m.requests).toHaveLength(1);
    expect(e.code).toBe("bad_request");
    // Where zot asked, since a wrong base URL answers 404 too.
    expect(e.message).toMatch(new RegExp(`^${wire.name}: HTTP 404: model 'nope' not found \\(asked at http://127\\.0\\.0\\.1:\\d+(/v1)?; check the base URL and the model's name: zot --list-models shows the models zot knows, /model or --model picks one\\)$`));
  });

  test("a refusal as too long for the context window is context_overflow, however it is worded, and not retried", async () => {
    const wordings = ["prompt is too long: 210000 tokens > 200000 maximum", "This model's maximum context length is 128000 tokens."];
    const m = serve(...wordings.map((message) => ({ error: { message, status: 400 } })), { text: "never" });
    for (const wording of wordings) {
      const e = providerError((await run(wire, m.url)).error);
      expect([e.code, e.retryable, e.message]).toEqual(["context_overflow", false, `${wire.name}: HTTP 400: ${wording}`]);
    }
    expect(m.requests).toHaveLength(2);
  });

  test("an error the server sends after some text: the text is delivered, then the error; no done, no retry", async () => {
    const m = serve({ text: "partial answer here", error: "The server is overloaded" }, { text: "never played" });
    const { events, error, done } = await run(wire, m.url);
    const e = providerError(error);
    expect(ofType(events, "text_delta").map((d) => d.delta).join("")).toBe("partial answer here");
    expect(done).toBeUndefined();
    expect([e.code, e.message]).toEqual([wire.streamErrorCode, `${wire.name}: the model stopped with an error: The server is overloaded`]);
    expect(m.requests).toHaveLength(1);
  });

  test("an error as the stream's first event fails before any text", async () => {
    const m = serve({ error: "upstream timeout" }, { text: "never played" });
    const { events, error } = await run(wire, m.url);
    expect(events).toEqual([]);
    expect(providerError(error).message).toBe(`${wire.name}: the model stopped with an error: upstream timeout`);
    expect(m.requests).toHaveLength(1);
  });

  test("a context overflow reported inside the stream is context_overflow", async () => {
    const m = serve({ error: "Your input exceeds the context window of this model." });
    expect(providerError((await run(wire, m.url)).error).code).toBe("context_overflow");
  });

  test("a malformed stream is bad_response, after the events before it", async () => {
    const m = serve({ text: "x".repeat(200), chunk_size: 10, fault: "malformed" }, { text: "never played" });
    const { events, error, done } = await run(wire, m.url);
    const e = providerError(error);
    expect(e.code).toBe("bad_response");
    expect(e.message).toStartWith(`${wire.name}: the server sent a malformed stream (`);
    expect(ofType(events, "text_delta").length).toBeGreaterThan(0);
    expect(done).toBeUndefined();
    expect(m.requests).toHaveLength(1);
  });

  test("a connection dropped mid-stream is network, not retried", async () => {
    // The gap lets the first events out before the drop; without it Bun would reset the
    // connection before the response starts, which is the (retried) unreachable case instead.
    const m = serve({ text: "y".repeat(200), chunk_size: 10, fault: "disconnect", chunk_delay_ms: 2 }, { text: "never played" });
    const { events, error, done } = await run(wire, m.url);
    const e = providerError(error);
    expect(ofType(events, "text_delta").length).toBeGreaterThan(0);
    expect([e.code, e.retryable]).toEqual(["network", false]);
    expect(e.message).toStartWith(`${wire.name}: the connection dropped mid-stream (`);
    expect(e.message).toEndWith("); try again");
    expect(done).toBeUndefined();
    expect(m.requests).toHaveLength(1);
  });

  test("a server that cannot be reached is network, retried twice, then said with the base URL", async () => {
    const closed = startMockLlm();
    const url = closed.url;
    await closed.stop();
    const { events, error, retries } = await run(wire, url);
    const e = providerError(error);
    expect([e.code, e.retryable]).toEqual(["network", true]);
    expect(e.message).toStartWith(`${wire.name}: cannot reach ${wire.baseUrl(url)} (`);
    expect(e.message).toEndWith(wire.name === "ollama" ? "); is ollama running (ollama serve)? OLLAMA_HOST or --base-url may point elsewhere" : "); check the network and the base URL");
    expect(retries).toHaveLength(2);
    expect(events.map((ev) => ev.type)).toEqual(["retry", "retry"]);
  });

  test("a stream that ends before the model finished is bad_response", async () => {
    const url = raw.serve(wire.truncated.join(""));
    const { events, error, done } = await run(wire, url);
    const e = providerError(error);
    expect(ofType(events, "text_delta").map((d) => d.delta)).toEqual(["half"]);
    expect(done).toBeUndefined();
    expect([e.code, e.message]).toEqual(["bad_response", `${wire.name}: the stream ended before the model finished; try again`]);
  });

  test("the same answer read from CRLF line ends, comments and one byte at a time", async () => {
    const turn: ScriptTurn = { text: "Grüße 🌍, in pieces.", tool_calls: [{ id: "call_1", name: "read", args: { path: "ä.txt" } }], usage: { input: 7, output: 3 } };
    const body = await mockBody(wire, turn);
    const reframed = `: ping\r\n\r\n${body.replaceAll("\n\n", "\n: keep-alive\n\n").replaceAll("\n", "\r\n")}`;
    const plain = await run(wire, raw.serve(body));
    const framed = await run(wire, raw.serve(reframed, 1));
    expect(plain.error).toBeUndefined();
    expect(framed.error).toBeUndefined();
    expect(framed.events).toEqual(plain.events);
    expect(plain.done?.content).toEqual([
      { type: "text", text: "Grüße 🌍, in pieces." },
      { type: "tool_call", id: "call_1", name: "read", args: { path: "ä.txt" } },
    ]);
  });

  test("abort mid-stream stops at once with an AbortError: no batch after the one that aborted", async () => {
    const m = serve({ text: "word ".repeat(200), chunk_size: 5, chunk_delay_ms: 20 });
    const controller = new AbortController();
    const batches: ProviderEvent[][] = [];
    let thrown: unknown;
    try {
      for await (const batch of wire.provider(m.url).stream(request(wire), controller.signal)) {
        batches.push([...batch]);
        if (batch.some((event) => event.type === "text_delta")) controller.abort();
      }
    } catch (error) {
      thrown = error;
    }
    expect(thrown).not.toBeInstanceOf(ProviderError);
    expect((thrown as Error).name).toBe("AbortError");
    // Had the abort been ignored, 200 deltas and a done would have arrived (20 ms apart: the test would time out).
    expect(batches.at(-1)?.some((event) => event.type === "text_delta")).toBe(true);
    expect(batches.flat().some((event) => event.type === "done")).toBe(false);
    expect(ofType(batches.flat(), "text_delta")).toHaveLength(1);
  });

  test("an already aborted signal sends no request", async () => {
    const m = serve({ text: "never played" });
    const controller = new AbortController();
    controller.abort();
    const { events, error } = await run(wire, m.url, { signal: controller.signal });
    expect(error).toBeDefined();
    expect(error).not.toBeInstanceOf(ProviderError);
    expect(events).toEqual([]);
    expect(m.requests).toHaveLength(0);
  });
});
