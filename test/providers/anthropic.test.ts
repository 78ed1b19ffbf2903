// The Anthropic provider against the mock LLM's Anthropic wire format, through the real SDK:
// streaming, request mapping, retries and failures as a user would meet them.
import { afterEach, expect, test } from "bun:test";
import type { Message } from "../../src/protocol/messages.ts";
import type { ModelInfo } from "../../src/protocol/models.ts";
import { type ModelRequest, ProviderError, type ProviderEvent } from "../../src/protocol/provider.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import { createAnthropicProvider } from "../../src/providers/anthropic.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { ofType } from "../support/provider-stream.ts";

const TIME = "2025-01-01T00:00:00.000Z";
const PNG = "iVBORw0KGgoAAAANSUhEUg==";
const JPEG = "/9j/4AAQSkZJRgABAQ==";

function model(overrides: Partial<ModelInfo> = {}): ModelInfo {
  return {
    id: "claude-test",
    provider: "anthropic",
    name: "Claude Test",
    api: "anthropic-messages",
    context_window: 200000,
    max_output: 8000,
    reasoning: true,
    price_input: 3,
    price_output: 15,
    price_cache_read: 0.3,
    price_cache_write: 3.75,
    source: "synthetic",
    ...overrides,
  };
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: model(),
    system: "You are zot.",
    messages: [{ role: "user", content: [{ type: "text", text: "hi" }], time: TIME }],
    tools: [],
    ...overrides,
  };
}

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

function serve(...turns: ScriptTurn[]): MockLlm {
  mock = startMockLlm(turns);
  return mock;
}

interface Run {
  events: ProviderEvent[];
  error?: unknown;
  retries: number[];
}

async function run(server: MockLlm, req: ModelRequest = request(), signal = new AbortController().signal): Promise<Run> {
  const retries: number[] = [];
  const provider = createAnthropicProvider({
    apiKey: "sk-test",
    baseUrl: server.url,
    onRetry: (_attempt, _error, waitMs) => retries.push(waitMs),
  });
  const events: ProviderEvent[] = [];
  try {
    for await (const event of provider.stream(req, signal)) events.push(event);
    return { events, retries };
  } catch (error) {
    return { events, error, retries };
  }
}

function done(events: ProviderEvent[]) {
  const last = events[events.length - 1];
  if (last?.type !== "done") throw new Error(`stream did not end with done: ${JSON.stringify(last)}`);
  return last;
}

function providerError(result: Run): ProviderError {
  expect(result.error).toBeInstanceOf(ProviderError);
  return result.error as ProviderError;
}

test("text streams in several deltas and ends with the assembled message", async () => {
  const text = "Hello there, this answer arrives in pieces. ö🌍é";
  const server = serve({ text, chunk_size: 5 });
  const { events, error } = await run(server);
  expect(error).toBeUndefined();
  const deltas = ofType(events, "text_delta");
  expect(deltas.length).toBeGreaterThanOrEqual(9);
  expect(deltas.map((d) => d.delta).join("")).toBe(text);
  expect(done(events)).toEqual({ type: "done", content: [{ type: "text", text }], stop: "end_turn" });
  expect(server.requests).toHaveLength(1);
  expect(server.requests[0]!.path).toBe("/v1/messages");
  expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-test");
  expect(server.requests[0]!.body.stream).toBe(true);
});

test("thinking streams as thinking deltas and keeps its signature for replay", async () => {
  const server = serve({ thinking: "First I consider the question carefully.", text: "Answer." });
  const { events } = await run(server, request({ reasoning: "low" }));
  expect(ofType(events, "thinking_delta").length).toBeGreaterThan(1);
  expect(ofType(events, "thinking_delta").map((d) => d.delta).join("")).toBe("First I consider the question carefully.");
  expect(done(events).content).toEqual([
    { type: "thinking", text: "First I consider the question carefully.", signature: "mocksig_1" },
    { type: "text", text: "Answer." },
  ]);
});

test("tool calls stream their arguments in fragments and arrive parsed, in order", async () => {
  const args = { path: "src/a.ts", range: { from: 1, to: [2, 3] }, note: "ünïcode" };
  const server = serve({
    text: "Reading.",
    tool_calls: [
      { id: "toolu_a", name: "read", args },
      { name: "bash", args: {} },
    ],
  });
  const { events } = await run(server);
  const kinds = events.filter((e) => e.type.startsWith("tool_use")).map((e) => `${e.type}:${"id" in e ? e.id : ""}`);
  const argDeltas = ofType(events, "tool_use_args").filter((e) => e.id === "toolu_a");
  expect(argDeltas.length).toBeGreaterThanOrEqual(3);
  expect(JSON.parse(argDeltas.map((d) => d.delta).join(""))).toEqual(args);
  expect(kinds[0]).toBe("tool_use_start:toolu_a");
  expect(kinds.indexOf("tool_use_end:toolu_a")).toBe(argDeltas.length + 1);
  const second = ofType(events, "tool_use_start")[1]!;
  expect(second.name).toBe("bash");
  expect(kinds[kinds.length - 1]).toBe(`tool_use_end:${second.id}`);
  const final = done(events);
  expect(final.stop).toBe("tool_use");
  expect(final.content).toEqual([
    { type: "text", text: "Reading." },
    { type: "tool_call", id: "toolu_a", name: "read", args },
    { type: "tool_call", id: second.id, name: "bash", args: {} },
  ]);
});

test("usage comes from message_start and is updated by message_delta, with cache reads and writes", async () => {
  const server = serve({ text: "ok", usage: { input: 120, output: 45, cache_read: 1000, cache_write: 300 } });
  const { events } = await run(server);
  const usages = ofType(events, "usage").map((u) => u.usage);
  // Anthropic does not split thinking tokens out of output_tokens: reasoning is unknown.
  expect(usages[0]).toEqual({ input: 120, output: 1, cache_read: 1000, cache_write: 300, reasoning: null });
  expect(usages[usages.length - 1]).toEqual({ input: 120, output: 45, cache_read: 1000, cache_write: 300, reasoning: null });
  expect(events[events.length - 2]!.type).toBe("usage");
});

test("stop reasons map to end_turn, tool_use and length", async () => {
  const server = serve(
    { text: "done" },
    { tool_calls: [{ name: "read", args: { path: "x" } }] },
    { text: "cut off", stop: "length" },
    { text: "odd", stop: "tool_use" },
  );
  const stops: string[] = [];
  for (let i = 0; i < 4; i++) stops.push(done((await run(server)).events).stop);
  expect(stops).toEqual(["end_turn", "tool_use", "length", "tool_use"]);
});

test("the request carries system, tools, cache marks, images and tool results in Anthropic's shape", async () => {
  const messages: Message[] = [
    {
      role: "user",
      content: [
        { type: "text", text: "What is in this picture?" },
        { type: "image", mime_type: "image/png", data: PNG },
      ],
      time: TIME,
    },
    {
      role: "assistant",
      content: [
        { type: "thinking", text: "Look at it.", signature: "sig-1" },
        { type: "thinking", text: "", opaque: "redacted-bytes" },
        { type: "thinking", text: "from another provider", reasoning_id: "rs_1", opaque: "enc" },
        { type: "text", text: "" },
        { type: "text", text: "Let me check." },
        { type: "tool_call", id: "t1", name: "read", args: { path: "a.jpg" } },
        { type: "tool_call", id: "t2", name: "bash", args: { command: "ls" } },
      ],
      time: TIME,
    },
    {
      role: "tool",
      content: [
        {
          type: "tool_result",
          call_id: "t1",
          is_error: false,
          content: [
            { type: "text", text: "a.jpg:" },
            { type: "image", mime_type: "image/jpeg", data: JPEG },
          ],
        },
        {
          type: "tool_result",
          call_id: "t2",
          is_error: true,
          content: [
            { type: "text", text: "line one" },
            { type: "text", text: "line two" },
          ],
        },
        { type: "tool_result", call_id: "orphan", is_error: false, content: [{ type: "text", text: "lost" }] },
      ],
      time: TIME,
    },
  ];
  const tools = [
    { name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } },
    { name: "bash", description: "Run a command", parameters: { type: "object", properties: { command: { type: "string" } } } },
  ];
  // The mock fills {{last_tool_result}} from the request, so the answer proves what reached it.
  const server = serve({ text: "seen: {{last_tool_result}}" });
  const { events } = await run(server, request({ system: "Be brief.", messages, tools }));
  expect(done(events).content).toEqual([{ type: "text", text: "seen: line one\nline two" }]);

  const body = server.requests[0]!.body;
  expect(body.model).toBe("claude-test");
  expect(body.max_tokens).toBe(8000);
  expect(body.thinking).toBeUndefined();
  expect(body.system).toEqual([{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }]);
  expect(body.tools).toEqual([
    { name: "read", description: "Read a file", input_schema: tools[0]!.parameters },
    { ...{ name: "bash", description: "Run a command", input_schema: tools[1]!.parameters }, cache_control: { type: "ephemeral" } },
  ]);
  expect(body.messages).toEqual([
    {
      role: "user",
      content: [
        { type: "text", text: "What is in this picture?" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Look at it.", signature: "sig-1" },
        { type: "redacted_thinking", data: "redacted-bytes" },
        { type: "text", text: "Let me check." },
        { type: "tool_use", id: "t1", name: "read", input: { path: "a.jpg" } },
        { type: "tool_use", id: "t2", name: "bash", input: { command: "ls" } },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "t1",
          content: [
            { type: "text", text: "a.jpg:" },
            { type: "image", source: { type: "base64", media_type: "image/jpeg", data: JPEG } },
          ],
        },
        {
          type: "tool_result",
          tool_use_id: "t2",
          is_error: true,
          content: "line one\nline two",
          cache_control: { type: "ephemeral" },
        },
      ],
    },
  ]);
});

test("the cache mark goes on the last block of the last user message, and only there", async () => {
  const server = serve({ text: "ok" });
  const messages: Message[] = [
    { role: "user", content: [{ type: "text", text: "first" }], time: TIME },
    { role: "assistant", content: [{ type: "text", text: "reply" }], time: TIME },
    {
      role: "user",
      content: [
        { type: "text", text: "second" },
        { type: "text", text: "" },
        { type: "image", mime_type: "image/png", data: PNG },
      ],
      time: TIME,
    },
  ];
  await run(server, request({ messages, system: "" }));
  const body = server.requests[0]!.body;
  expect(body.system).toBeUndefined();
  expect(body.tools).toBeUndefined();
  expect(body.messages[0].content).toEqual([{ type: "text", text: "first" }]);
  expect(body.messages[2].content).toEqual([
    { type: "text", text: "second" },
    { type: "image", source: { type: "base64", media_type: "image/png", data: PNG }, cache_control: { type: "ephemeral" } },
  ]);
});

test("a thinking budget is sent only when reasoning is asked of a reasoning model", async () => {
  const server = serve({ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" });
  await run(server, request({ reasoning: "medium" }));
  await run(server, request({ reasoning: "high", maxTokens: 40000 }));
  await run(server, request({ reasoning: "high", model: model({ reasoning: false }) }));
  await run(server, request({ maxTokens: 1234 }));
  const [medium, high, notReasoning, plain] = server.requests.map((r) => r.body);
  expect(medium.thinking).toEqual({ type: "enabled", budget_tokens: 8192 });
  // 8000 would not leave room beyond the budget, so the answer gets headroom above it.
  expect(medium.max_tokens).toBe(8192 + 4096);
  expect(high.thinking).toEqual({ type: "enabled", budget_tokens: 16384 });
  expect(high.max_tokens).toBe(40000);
  expect(notReasoning.thinking).toBeUndefined();
  expect(notReasoning.max_tokens).toBe(8000);
  expect(plain.thinking).toBeUndefined();
  expect(plain.max_tokens).toBe(1234);
});

test("429 with retry-after 0 is retried at once, then succeeds", async () => {
  const server = serve({ error: { message: "rate limited", status: 429, retry_after: 0 } }, { text: "ok now" });
  const { events, error, retries } = await run(server);
  expect(error).toBeUndefined();
  expect(retries).toEqual([0]);
  expect(server.requests).toHaveLength(2);
  expect(done(events).content).toEqual([{ type: "text", text: "ok now" }]);
});

test("500 three times gives up after exactly three requests with an HTTP error", async () => {
  const boom = { error: { message: "internal boom", status: 500 } };
  const server = serve(boom, boom, boom, { text: "never played" });
  const result = await run(server);
  const error = providerError(result);
  expect(server.requests).toHaveLength(3);
  expect(result.retries).toHaveLength(2);
  expect(error.message).toBe("anthropic: HTTP 500: internal boom");
  expect(error.kind).toBe("http");
  expect(error.status).toBe(500);
  // the two retries were announced, and nothing else streamed
  expect(result.events).toEqual([
    { type: "retry", attempt: 1, max_attempts: 2, wait_ms: 250, status: 500, message: "anthropic: HTTP 500: internal boom" },
    { type: "retry", attempt: 2, max_attempts: 2, wait_ms: 750, status: 500, message: "anthropic: HTTP 500: internal boom" },
  ]);
});

test("400 is not retried, and a too-long prompt is reported as a context overflow", async () => {
  const server = serve(
    { error: { message: "prompt is too long: 210000 tokens > 200000 maximum", status: 400 } },
    { text: "never played" },
  );
  const error = providerError(await run(server));
  expect(server.requests).toHaveLength(1);
  expect(error.kind).toBe("context_overflow");
  expect(error.retryable).toBe(false);
  expect(error.message).toBe("anthropic: HTTP 400: prompt is too long: 210000 tokens > 200000 maximum");
});

test("401 is an auth error worded with the API's reason", async () => {
  const server = serve({ error: { message: "invalid x-api-key", status: 401 } }, { text: "never played" });
  const error = providerError(await run(server));
  expect(server.requests).toHaveLength(1);
  expect(error.kind).toBe("auth");
  expect(error.message).toBe("anthropic: HTTP 401: invalid x-api-key");
});

test("an error event mid-stream fails the call after the text already shown, without a retry", async () => {
  const server = serve({ text: "partial answer here", error: "Overloaded" }, { text: "never played" });
  const result = await run(server);
  const error = providerError(result);
  expect(ofType(result.events, "text_delta").map((d) => d.delta).join("")).toBe("partial answer here");
  expect(result.events.some((e) => e.type === "done")).toBe(false);
  expect(error.message).toBe("anthropic: overloaded_error: Overloaded");
  expect(error.kind).toBe("stream");
  expect(server.requests).toHaveLength(1);
});

test("an error event as the first event fails the call before any text", async () => {
  const server = serve({ error: "Overloaded" }, { text: "never played" });
  const result = await run(server);
  expect(providerError(result).message).toBe("anthropic: overloaded_error: Overloaded");
  expect(ofType(result.events, "text_delta")).toEqual([]);
  expect(server.requests).toHaveLength(1);
});

test("a malformed stream is a stream error, not a message", async () => {
  const server = serve({ text: "x".repeat(200), chunk_size: 10, fault: "malformed" }, { text: "never played" });
  const result = await run(server);
  const error = providerError(result);
  expect(error.kind).toBe("stream");
  expect(error.message).toStartWith("anthropic: ");
  expect(result.events.some((e) => e.type === "done")).toBe(false);
  expect(server.requests).toHaveLength(1);
});

test("a dropped connection mid-stream is an error, not a message", async () => {
  // The gap lets the headers and first events out before the drop; without it Bun would reset the
  // connection before the response starts, which is the (retried) connection case instead.
  const server = serve({ text: "y".repeat(200), chunk_size: 10, fault: "disconnect", chunk_delay_ms: 2 }, { text: "never played" });
  const result = await run(server);
  const error = providerError(result);
  expect(ofType(result.events, "text_delta").length).toBeGreaterThan(0);
  expect(error.kind).toBe("stream");
  expect(error.message).toStartWith("anthropic: the connection dropped mid-response");
  expect(result.events.some((e) => e.type === "done")).toBe(false);
  expect(server.requests).toHaveLength(1);
});

test("an unreachable server is a connection error, retried before giving up", async () => {
  const closed = startMockLlm();
  const url = closed.url;
  await closed.stop();
  const result = await run({ ...closed, url });
  const error = providerError(result);
  expect(error.kind).toBe("connection");
  expect(error.message).toStartWith(`anthropic: cannot reach ${url} (`);
  expect(result.retries).toHaveLength(2);
  expect(result.events.map((e) => e.type)).toEqual(["retry", "retry"]);
});

test("aborting mid-stream stops reading at once", async () => {
  const text = "z".repeat(300);
  const server = serve({ text, chunk_size: 1, chunk_delay_ms: 20 });
  const controller = new AbortController();
  const provider = createAnthropicProvider({ apiKey: "sk-test", baseUrl: server.url });
  const seen: ProviderEvent[] = [];
  let thrown: unknown;
  try {
    for await (const event of provider.stream(request(), controller.signal)) {
      seen.push(event);
      if (event.type === "text_delta") controller.abort();
    }
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeDefined();
  expect(thrown).not.toBeInstanceOf(ProviderError);
  expect(controller.signal.aborted).toBe(true);
  // Had the abort been ignored, all 300 deltas and a done would have arrived.
  expect(ofType(seen, "text_delta")).toHaveLength(1);
  expect(seen.some((e) => e.type === "done")).toBe(false);
});

test("an already aborted signal sends no request", async () => {
  const server = serve({ text: "never played" });
  const controller = new AbortController();
  controller.abort();
  const result = await run(server, request(), controller.signal);
  expect(result.error).toBeDefined();
  expect(result.error).not.toBeInstanceOf(ProviderError);
  expect(result.events).toEqual([]);
  expect(server.requests).toHaveLength(0);
});
