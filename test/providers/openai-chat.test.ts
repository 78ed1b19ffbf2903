// The Chat Completions provider (openai, ollama, compatible servers) through the real openai SDK
// against the mock LLM server speaking the real wire format.
import { afterEach, expect, test } from "bun:test";
import type { ModelInfo } from "../../src/protocol/models.ts";
import { type ModelRequest, type Provider, ProviderError, type ProviderEvent } from "../../src/protocol/provider.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import { createOpenAIChatProvider } from "../../src/providers/openai-chat.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { message, ofType, streamAll } from "../support/provider-stream.ts";
import { testModel } from "../support/test-model.ts";

const GPT: ModelInfo = testModel({ id: "gpt-test", provider: "openai", name: "GPT test", api: "openai-chat", context_window: 128_000, max_output: 4096 });
const REASONER: ModelInfo = { ...GPT, id: "o-test", reasoning: true, max_output: 32_000 };
const PNG = "iVBORw0KGgo=";

let mock: MockLlm | undefined;
let servers: { stop(force?: boolean): unknown }[] = [];
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
  for (const server of servers) await server.stop(true);
  servers = [];
});

function start(...turns: ScriptTurn[]): MockLlm {
  mock = startMockLlm(turns);
  return mock;
}

function openai(m: MockLlm, apiKey = "sk-test"): Provider {
  return createOpenAIChatProvider({ name: "openai", apiKey, baseUrl: `${m.url}/v1` });
}


function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: GPT,
    system: "You are zot.",
    messages: [message("user", { type: "text", text: "hi" })],
    tools: [],
    ...overrides,
  };
}

function run(provider: Provider, req: ModelRequest = request(), signal?: AbortSignal) {
  return streamAll(provider, req, signal);
}

test("text streams in several deltas and ends the turn", async () => {
  const text = "Hello from the mock model, streamed in pieces. ö🌍é";
  const m = start({ text, chunk_size: 10 });
  const { events, error, done } = await run(openai(m));
  expect(error).toBeUndefined();
  const deltas = ofType(events, "text_delta");
  expect(deltas.length).toBeGreaterThanOrEqual(5);
  expect(deltas.map((d) => d.delta).join("")).toBe(text);
  expect(done?.stop).toBe("end_turn");
  expect(done?.content).toEqual([{ type: "text", text }]);
  expect(events.at(-1)?.type).toBe("done");
  expect(m.requests[0]?.path).toBe("/v1/chat/completions");
  expect(m.requests[0]?.headers.authorization).toBe("Bearer sk-test");
});

test("two tool calls stream their arguments in fragments and stop with tool_use", async () => {
  const readArgs = { path: "src/main.ts", range: { from: 1, to: 40 } };
  const bashArgs = { command: "ls -la && echo done" };
  const m = start({
    text: "Let me look.",
    tool_calls: [
      { id: "call_a", name: "read", args: readArgs },
      { id: "call_b", name: "bash", args: bashArgs },
    ],
  });
  const { events, done } = await run(openai(m));
  expect(ofType(events, "tool_use_start")).toEqual([
    { type: "tool_use_start", id: "call_a", name: "read" },
    { type: "tool_use_start", id: "call_b", name: "bash" },
  ]);
  const argsA = ofType(events, "tool_use_args").filter((e) => e.id === "call_a");
  const argsB = ofType(events, "tool_use_args").filter((e) => e.id === "call_b");
  expect(argsA.length).toBeGreaterThan(1);
  expect(argsB.length).toBeGreaterThan(1);
  expect(JSON.parse(argsA.map((e) => e.delta).join(""))).toEqual(readArgs);
  expect(ofType(events, "tool_use_end").map((e) => e.id)).toEqual(["call_a", "call_b"]);
  // every tool_use_end comes after its last argument fragment
  const lastArgs = events.findLastIndex((e) => e.type === "tool_use_args" && e.id === "call_b");
  expect(events.findIndex((e) => e.type === "tool_use_end" && e.id === "call_b")).toBeGreaterThan(lastArgs);
  expect(done?.stop).toBe("tool_use");
  expect(done?.content).toEqual([
    { type: "text", text: "Let me look." },
    { type: "tool_call", id: "call_a", name: "read", args: readArgs },
    { type: "tool_call", id: "call_b", name: "bash", args: bashArgs },
  ]);
});

test("usage comes from the final chunk, with cached tokens split out of the prompt and the reasoning tokens within the output", async () => {
  const m = start({ text: "ok", usage: { input: 100, output: 20, cache_read: 30, reasoning: 12 } });
  const { events } = await run(openai(m));
  expect(ofType(events, "usage")).toEqual([
    { type: "usage", usage: { input: 100, output: 20, cache_read: 30, cache_write: 0, reasoning: 12 } },
  ]);
  // usage precedes done, so the loop has it when the turn ends
  expect(events.findIndex((e) => e.type === "usage")).toBeLessThan(events.findIndex((e) => e.type === "done"));
  expect(m.requests[0]?.body.stream_options).toEqual({ include_usage: true });
});

test("finish_reason length maps to stop length", async () => {
  const m = start({ text: "cut off mid", stop: "length" });
  const { done } = await run(openai(m));
  expect(done?.stop).toBe("length");
});

test("reasoning_content deltas become thinking, kept in the message but never sent back", async () => {
  const m = start(
    { thinking: "First I consider the question carefully.", text: "Answer." },
    { text: "second" },
  );
  const provider = openai(m);
  const first = await run(provider);
  const thinking = ofType(first.events, "thinking_delta");
  expect(thinking.length).toBeGreaterThan(1);
  expect(thinking.map((e) => e.delta).join("")).toBe("First I consider the question carefully.");
  expect(first.done?.content[0]).toEqual({ type: "thinking", text: "First I consider the question carefully." });

  const history = [
    message("user", { type: "text", text: "hi" }),
    message("assistant", ...(first.done?.content ?? [])),
    message("user", { type: "text", text: "more" }),
  ];
  await run(provider, request({ messages: history }));
  const sent = m.requests[1]?.body.messages;
  expect(sent[2]).toEqual({ role: "assistant", content: "Answer." });
  expect(JSON.stringify(sent)).not.toContain("consider the question");
});

test("request mapping: system first, tools, assistant tool calls, tool results, empty assistant left out", async () => {
  const m = start({ text: "done" });
  const tools = [
    { name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } },
  ];
  const messages = [
    message("user", { type: "text", text: "read two files" }, { type: "text", text: "please" }),
    message("assistant", { type: "thinking", text: "only thoughts" }),
    message(
      "assistant",
      { type: "text", text: "Reading." },
      { type: "tool_call", id: "call_1", name: "read", args: { path: "a.txt" } },
      { type: "tool_call", id: "call_2", name: "read", args: { path: "b.txt" } },
    ),
    message(
      "tool",
      { type: "tool_result", call_id: "call_1", is_error: false, content: [{ type: "text", text: "A" }] },
      { type: "tool_result", call_id: "call_2", is_error: true, content: [{ type: "text", text: "no such file" }] },
    ),
  ];
  await run(openai(m), request({ messages, tools }));
  const body = m.requests[0]?.body;
  expect(body.model).toBe("gpt-test");
  expect(body.stream).toBe(true);
  expect(body.max_tokens).toBe(4096);
  expect(body.max_completion_tokens).toBeUndefined();
  expect(body.reasoning_effort).toBeUndefined();
  expect(body.tool_choice).toBe("auto");
  expect(body.tools).toEqual([{ type: "function", function: tools[0] }]);
  expect(body.messages).toEqual([
    { role: "system", content: "You are zot." },
    { role: "user", content: "read two files\nplease" },
    {
      role: "assistant",
      content: "Reading.",
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.txt"}' } },
        { id: "call_2", type: "function", function: { name: "read", arguments: '{"path":"b.txt"}' } },
      ],
    },
    { role: "tool", tool_call_id: "call_1", content: "A" },
    { role: "tool", tool_call_id: "call_2", content: "no such file [error]" },
  ]);
});

test("no tools: neither tools nor tool_choice is sent", async () => {
  const m = start({ text: "ok" });
  await run(openai(m));
  expect(m.requests[0]?.body.tools).toBeUndefined();
  expect(m.requests[0]?.body.tool_choice).toBeUndefined();
});

test("reasoning parameters only when asked for on a reasoning model", async () => {
  const m = start({ text: "a" }, { text: "b" }, { text: "c" });
  const provider = openai(m);
  await run(provider, request({ model: REASONER, reasoning: "high" }));
  await run(provider, request({ model: REASONER }));
  await run(provider, request({ model: GPT, reasoning: "high", maxTokens: 999 }));
  const [asked, notAsked, notReasoner] = m.requests.map((r) => r.body);
  expect(asked.reasoning_effort).toBe("high");
  expect(asked.max_completion_tokens).toBe(32_000);
  expect(asked.max_tokens).toBeUndefined();
  expect(notAsked.reasoning_effort).toBeUndefined();
  expect(notAsked.max_completion_tokens).toBe(32_000);
  expect(notReasoner.reasoning_effort).toBeUndefined();
  expect(notReasoner.max_tokens).toBe(999);
});

test("images: user images as data-URL parts, tool-result images in a user message after the tool messages", async () => {
  const m = start({ text: "I see it" });
  const messages = [
    message("user", { type: "text", text: "what is this?" }, { type: "image", mime_type: "image/png", data: PNG }),
    message("assistant", { type: "tool_call", id: "call_s", name: "screenshot", args: {} }),
    message("tool", {
      type: "tool_result",
      call_id: "call_s",
      is_error: false,
      content: [
        { type: "text", text: "screenshot.png" },
        { type: "image", mime_type: "image/jpeg", data: "/9j/4AAQ" },
      ],
    }),
  ];
  await run(openai(m), request({ messages }));
  const sent = m.requests[0]?.body.messages;
  expect(sent[1]).toEqual({
    role: "user",
    content: [
      { type: "text", text: "what is this?" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
    ],
  });
  expect(sent[3]).toEqual({ role: "tool", tool_call_id: "call_s", content: "screenshot.png" });
  expect(sent[4]).toEqual({
    role: "user",
    content: [
      { type: "text", text: "Tool output included the following image content:" },
      { type: "text", text: "screenshot.png" },
      { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/4AAQ" } },
    ],
  });
  expect(sent).toHaveLength(5);
});

test("{{last_tool_result}} is filled from the newest tool message", async () => {
  const m = start({ text: "The file says: {{last_tool_result}}" });
  const messages = [
    message("user", { type: "text", text: "read" }),
    message("assistant", { type: "tool_call", id: "c1", name: "read", args: {} }),
    message("tool", { type: "tool_result", call_id: "c1", is_error: false, content: [{ type: "text", text: "42" }] }),
  ];
  const { done } = await run(openai(m), request({ messages }));
  expect(done?.content).toEqual([{ type: "text", text: "The file says: 42" }]);
});

test("ollama: named ollama, no key needed, /v1 added to a bare base URL, errors say ollama", async () => {
  const m = start({ text: "llama says hi" }, { error: { message: "model 'nope' not found", status: 404 } });
  const provider = createOpenAIChatProvider({ name: "ollama", apiKey: "", baseUrl: m.url });
  expect(provider.name).toBe("ollama");
  const ok = await run(provider);
  expect(ok.done?.content).toEqual([{ type: "text", text: "llama says hi" }]);
  expect(m.requests[0]?.path).toBe("/v1/chat/completions");
  expect(m.requests[0]?.headers.authorization).toBe("Bearer ollama");
  const failed = await run(provider);
  expect(failed.error).toBeInstanceOf(ProviderError);
  expect((failed.error as ProviderError).message).toBe("ollama: HTTP 404: model 'nope' not found");
});

test("429 with retry-after 0 is retried, then succeeds", async () => {
  const m = start({ error: { message: "Rate limit reached", status: 429, retry_after: 0 } }, { text: "after the wait" });
  const { error, done } = await run(openai(m));
  expect(error).toBeUndefined();
  expect(done?.content).toEqual([{ type: "text", text: "after the wait" }]);
  expect(m.requests).toHaveLength(2);
});

test("a retry-after too long to wait for goes to the user at once, with the wait in the error", async () => {
  const m = start({ error: { message: "Rate limit reached", status: 429, retry_after: 60 } }, { text: "never" });
  const { error } = await run(openai(m));
  expect(m.requests).toHaveLength(1);
  const e = error as ProviderError;
  expect(e).toBeInstanceOf(ProviderError);
  expect(e.retryable).toBe(true);
  expect(e.retryAfter).toBe(60);
  expect(e.message).toBe("openai: HTTP 429: Rate limit reached");
});

test("500 three times gives a ProviderError after exactly three requests", async () => {
  const fail = { error: { message: "The server had an error", status: 500 } };
  const m = start(fail, fail, fail, { text: "never reached" });
  const { error, events } = await run(openai(m));
  expect(m.requests).toHaveLength(3);
  // each retry is announced before its wait; nothing else streamed
  expect(events).toEqual([
    { type: "retry", attempt: 1, max_attempts: 2, wait_ms: 250, status: 500, message: "openai: HTTP 500: The server had an error" },
    { type: "retry", attempt: 2, max_attempts: 2, wait_ms: 750, status: 500, message: "openai: HTTP 500: The server had an error" },
  ]);
  expect(error).toBeInstanceOf(ProviderError);
  const e = error as ProviderError;
  expect(e.message).toBe("openai: HTTP 500: The server had an error");
  expect(e.status).toBe(500);
  expect(e.kind).toBe("http");
});

test("401 is not retried and says what the server said", async () => {
  const m = start({ error: { message: "Incorrect API key provided", status: 401 } }, { text: "never" });
  const { error } = await run(openai(m, "sk-wrong"));
  expect(m.requests).toHaveLength(1);
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).message).toBe("openai: HTTP 401: Incorrect API key provided");
  expect((error as ProviderError).kind).toBe("auth");
  expect((error as ProviderError).retryable).toBe(false);
});

test("a context-length error is reported as context_overflow", async () => {
  const m = start({
    error: { message: "This model's maximum context length is 128000 tokens. However, you requested 130000 tokens.", status: 400 },
  });
  const { error } = await run(openai(m));
  expect((error as ProviderError).kind).toBe("context_overflow");
  expect(m.requests).toHaveLength(1);
});

test("an error after streamed text fails the call after one request, keeping the deltas", async () => {
  const m = start({ text: "partial answer", error: "The server is overloaded" }, { text: "never" });
  const { events, error } = await run(openai(m));
  expect(m.requests).toHaveLength(1);
  expect(ofType(events, "text_delta").map((e) => e.delta).join("")).toBe("partial answer");
  expect(events.some((e) => e.type === "done")).toBe(false);
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).kind).toBe("stream");
  expect((error as ProviderError).message).toBe("openai: the model stopped with an error: The server is overloaded");
});

test("an error event with no text fails at once", async () => {
  const m = start({ error: "upstream timeout" });
  const { events, error } = await run(openai(m));
  expect(events).toEqual([]);
  expect((error as ProviderError).kind).toBe("stream");
  expect((error as ProviderError).message).toContain("upstream timeout");
});

test("a malformed stream is a ProviderError, not a crash", async () => {
  const m = start({ text: "some text that will be cut by broken JSON halfway through the stream", fault: "malformed" });
  const { error, done } = await run(openai(m));
  expect(done).toBeUndefined();
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).kind).toBe("stream");
  expect((error as ProviderError).message).toStartWith("openai: the server sent a malformed stream");
});

test("a connection dropped mid-stream is a ProviderError and is not retried", async () => {
  // The gap between chunks lets the first bytes reach the client before the drop.
  const m = start(
    { text: "a long answer that will never arrive in full ".repeat(4), fault: "disconnect", chunk_delay_ms: 5 },
    { text: "no" },
  );
  const { events, error, done } = await run(openai(m));
  expect(ofType(events, "text_delta").length).toBeGreaterThan(0);
  expect(done).toBeUndefined();
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).kind).toBe("stream");
  expect((error as ProviderError).message).toContain("mid-stream");
  expect(m.requests).toHaveLength(1);
});

test("a server that cannot be reached is a retryable connection error", async () => {
  const m = start();
  const url = m.url;
  await m.stop();
  mock = undefined;
  const provider = createOpenAIChatProvider({ name: "openai", apiKey: "k", baseUrl: `${url}/v1` });
  const { error } = await run(provider);
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).kind).toBe("connection");
  expect((error as ProviderError).message).toStartWith(`openai: could not reach ${url}/v1`);
  expect((error as ProviderError).retryable).toBe(true);
});

test("abort mid-stream stops promptly with an abort, not a ProviderError", async () => {
  const m = start({ text: "word ".repeat(200), chunk_size: 5, chunk_delay_ms: 20 });
  const controller = new AbortController();
  const events: ProviderEvent[] = [];
  let error: unknown;
  try {
    for await (const event of openai(m).stream(request(), controller.signal)) {
      events.push(event);
      if (events.length === 2) controller.abort();
    }
  } catch (e) {
    error = e;
  }
  expect(error).toBeDefined();
  expect(error).not.toBeInstanceOf(ProviderError);
  expect((error as Error).name).toBe("AbortError");
  expect(events.some((e) => e.type === "done")).toBe(false);
  // nothing after the abort; and the test would time out if the stream were read to its end
  // (hundreds of chunks, 20 ms apart)
  expect(events).toHaveLength(2);
});

/** A raw SSE server for what the mock does not speak: other servers' dialects and broken endings. */
function rawServer(lines: string[]) {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Response(lines.map((l) => `data: ${l}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } }),
  });
  servers.push(server);
  return createOpenAIChatProvider({ name: "openai", apiKey: "k", baseUrl: `http://127.0.0.1:${server.port}/v1` });
}

function rawChunk(delta: Record<string, unknown>, finish: string | null = null) {
  return JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] });
}

test("compatible servers: `reasoning` deltas, tool calls without index or id, finish_reason stop with tools", async () => {
  const provider = rawServer([
    rawChunk({ role: "assistant", reasoning: "thinking it over" }),
    // ollama style: whole calls in one delta, no index, no id, and "stop" as the finish reason
    rawChunk({
      tool_calls: [
        { type: "function", function: { name: "read", arguments: '{"path":"x"}' } },
        { type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
      ],
    }),
    rawChunk({}, "stop"),
    "[DONE]",
  ]);
  const { events, done, error } = await run(provider);
  expect(error).toBeUndefined();
  expect(ofType(events, "thinking_delta")).toEqual([{ type: "thinking_delta", delta: "thinking it over" }]);
  const starts = ofType(events, "tool_use_start");
  expect(starts.map((s) => s.name)).toEqual(["read", "bash"]);
  expect(starts[0]?.id).toStartWith("call_");
  expect(starts[0]?.id).not.toBe(starts[1]?.id);
  expect(ofType(events, "tool_use_end").map((e) => e.id)).toEqual(starts.map((s) => s.id));
  expect(done?.stop).toBe("tool_use");
  expect(done?.content.slice(1)).toEqual([
    { type: "tool_call", id: starts[0]!.id, name: "read", args: { path: "x" } },
    { type: "tool_call", id: starts[1]!.id, name: "bash", args: { command: "ls" } },
  ]);
  expect(ofType(events, "usage")).toEqual([]);
});

test("a stream that ends without a finish_reason is a ProviderError", async () => {
  const provider = rawServer([rawChunk({ role: "assistant", content: "half an ans" }), "[DONE]"]);
  const { events, error, done } = await run(provider);
  expect(ofType(events, "text_delta").map((e) => e.delta)).toEqual(["half an ans"]);
  expect(done).toBeUndefined();
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).kind).toBe("stream");
  expect((error as ProviderError).message).toBe("openai: the stream ended before the model finished; try again");
});

test("invalid tool arguments become an empty object", async () => {
  const provider = rawServer([
    rawChunk({ tool_calls: [{ index: 0, id: "c9", type: "function", function: { name: "bash", arguments: '{"command": "ls' } }] }),
    rawChunk({}, "length"),
    "[DONE]",
  ]);
  const { done } = await run(provider);
  expect(done?.stop).toBe("length");
  expect(done?.content).toEqual([{ type: "tool_call", id: "c9", name: "bash", args: {} }]);
});
