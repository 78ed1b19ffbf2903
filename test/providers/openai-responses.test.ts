// What only the OpenAI Responses provider does, through the real openai SDK against the mock LLM
// server speaking the real `/v1/responses` event stream: its request shape, encrypted reasoning
// replayed, calls ended item by item, summaries in parts; and the mock itself against the SDK's
// strict accumulator. What every wire does (streaming, tool calls, retries, failures and their
// codes, abort) is in wires.test.ts.
import { afterEach, expect, test } from "bun:test";
import OpenAI from "openai";
import type { ModelInfo } from "../../src/protocol/models.ts";
import { type ModelRequest, type Provider, ProviderError } from "../../src/protocol/provider.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import { openaiBaseUrl } from "../../src/providers/openai-mapping.ts";
import { createOpenAIResponsesProvider } from "../../src/providers/openai-responses.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { message, ofType, streamAll } from "../support/provider-stream.ts";
import { testModel } from "../support/test-model.ts";

const GPT: ModelInfo = testModel({ id: "gpt-test", provider: "openai", name: "GPT test", api: "openai-responses", context_window: 128_000, max_output: 4096 });
const REASONER: ModelInfo = { ...GPT, id: "gpt-reasoner", reasoning: true, max_output: 64_000 };
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

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

function openai(m: MockLlm): Provider {
  return createOpenAIResponsesProvider({ apiKey: "sk-test", baseUrl: `${m.url}/v1` });
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

test("a base URL with no path gets /v1, as Chat Completions' does (one OPENAI_BASE_URL serves both APIs); one with a path is taken as given", async () => {
  const m = start({ text: "bare host" }, { text: "with a path" });
  const bare = await run(createOpenAIResponsesProvider({ apiKey: "sk-test", baseUrl: `${m.url}/` }));
  expect(bare.error).toBeUndefined();
  expect(m.requests[0]?.path).toBe("/v1/responses");
  await run(createOpenAIResponsesProvider({ apiKey: "sk-test", baseUrl: `${m.url}/v1` }));
  expect(m.requests[1]?.path).toBe("/v1/responses");
  expect(openaiBaseUrl("https://gateway.example.com/api/openai/")).toBe("https://gateway.example.com/api/openai");
  expect(openaiBaseUrl("http://127.0.0.1:4000")).toBe("http://127.0.0.1:4000/v1");
  // /v1 goes on the path: a query stays the query (it was appended to: ?tenant=acme%2Fv1).
  expect(openaiBaseUrl("http://gw.example:4000?tenant=acme")).toBe("http://gw.example:4000/v1?tenant=acme");
});

test("the mock's event stream satisfies the SDK's strict responses.stream() accumulator", async () => {
  const m = start({
    thinking: "reasoning summary",
    text: "hello world",
    tool_calls: [{ id: "call_1", name: "read", args: { path: "a" } }],
  });
  const client = new OpenAI({ apiKey: "k", baseURL: `${m.url}/v1`, maxRetries: 0 });
  const final = await client.responses
    .stream({ model: "gpt-test", input: "hi", include: ["reasoning.encrypted_content"] })
    .finalResponse();
  expect(final.status).toBe("completed");
  expect(final.output_text).toBe("hello world");
  expect(final.output.map((o) => o.type)).toEqual(["reasoning", "message", "function_call"]);
});

test("each function call ends at its output_item.done, before the next one starts", async () => {
  const readArgs = { path: "src/main.ts", range: { from: 1, to: 40 } };
  const bashArgs = { command: "ls -la && echo done" };
  const m = start({
    text: "Looking.",
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
  expect(argsA.length).toBeGreaterThan(1);
  expect(JSON.parse(argsA.map((e) => e.delta).join(""))).toEqual(readArgs);
  expect(ofType(events, "tool_use_end").map((e) => e.id)).toEqual(["call_a", "call_b"]);
  // call_a is finished before call_b starts
  expect(events.findIndex((e) => e.type === "tool_use_end" && e.id === "call_a")).toBeLessThan(
    events.findIndex((e) => e.type === "tool_use_start" && e.id === "call_b"),
  );
  expect(done?.stop).toBe("tool_use");
  expect(done?.content).toEqual([
    { type: "text", text: "Looking." },
    { type: "tool_call", id: "call_a", name: "read", args: readArgs },
    { type: "tool_call", id: "call_b", name: "bash", args: bashArgs },
  ]);
});

test("request mapping: instructions, stateless, tools, function calls and their outputs", async () => {
  const m = start({ text: "done" });
  const tools = [
    { name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } },
  ];
  const messages = [
    message("user", { type: "text", text: "read two files" }),
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
  expect(body.instructions).toBe("You are zot.");
  expect(body.stream).toBe(true);
  expect(body.store).toBe(false);
  expect(body.max_output_tokens).toBe(4096);
  expect(body.reasoning).toBeUndefined();
  expect(body.include).toBeUndefined();
  expect(body.tools).toEqual([{ type: "function", ...tools[0], strict: false }]);
  expect(body.input).toEqual([
    { type: "message", role: "user", content: [{ type: "input_text", text: "read two files" }] },
    { type: "message", role: "assistant", content: "Reading." },
    { type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a.txt"}' },
    { type: "function_call", call_id: "call_2", name: "read", arguments: '{"path":"b.txt"}' },
    { type: "function_call_output", call_id: "call_1", output: "A" },
    { type: "function_call_output", call_id: "call_2", output: "no such file [error]" },
  ]);
});

test("xhigh and max are sent as high, which every OpenAI reasoning model takes", async () => {
  const m = start({ text: "a" }, { text: "b" });
  const provider = openai(m);
  await run(provider, request({ model: REASONER, reasoning: "max" }));
  await run(provider, request({ model: REASONER, reasoning: "xhigh" }));
  expect(m.requests.map((r) => r.body.reasoning)).toEqual([{ effort: "high", summary: "auto" }, { effort: "high", summary: "auto" }]);
});

test("reasoning parameters only when asked for on a reasoning model", async () => {
  const m = start({ text: "a" }, { text: "b" }, { text: "c" });
  const provider = openai(m);
  await run(provider, request({ model: REASONER, reasoning: "medium" }));
  await run(provider, request({ model: REASONER }));
  await run(provider, request({ model: GPT, reasoning: "high", maxTokens: 999 }));
  const [asked, notAsked, notReasoner] = m.requests.map((r) => r.body);
  expect(asked.reasoning).toEqual({ effort: "medium", summary: "auto" });
  expect(asked.include).toEqual(["reasoning.encrypted_content"]);
  expect(asked.max_output_tokens).toBe(64_000);
  expect(notAsked.reasoning).toBeUndefined();
  // a reasoning model reasons anyway, so its encrypted reasoning is still asked for
  expect(notAsked.include).toEqual(["reasoning.encrypted_content"]);
  expect(notReasoner.reasoning).toBeUndefined();
  expect(notReasoner.include).toBeUndefined();
  expect(notReasoner.max_output_tokens).toBe(999);
});

test("reasoning streams as thinking and is replayed, encrypted, in the next request's input", async () => {
  const m = start(
    {
      thinking: "The user wants a file read; call read first.",
      text: "Reading it.",
      tool_calls: [{ id: "call_r", name: "read", args: { path: "x" } }],
    },
    { text: "It says {{last_tool_result}}" },
  );
  const provider = openai(m);
  const first = await run(provider, request({ model: REASONER, reasoning: "high" }));
  const thinking = ofType(first.events, "thinking_delta");
  expect(thinking.length).toBeGreaterThan(1);
  expect(thinking.map((e) => e.delta).join("")).toBe("The user wants a file read; call read first.");
  const block = first.done?.content[0];
  expect(block?.type).toBe("thinking");
  if (block?.type !== "thinking") throw new Error("no thinking block");
  expect(block.text).toBe("The user wants a file read; call read first.");
  expect(block.reasoning_id).toBe("rs_mock_1");
  expect(block.opaque).toStartWith("enc_mock:");

  const history = [
    ...request().messages,
    message("assistant", ...(first.done?.content ?? [])),
    message("tool", { type: "tool_result", call_id: "call_r", is_error: false, content: [{ type: "text", text: "xyz" }] }),
  ];
  const second = await run(provider, request({ model: REASONER, reasoning: "high", messages: history }));
  expect(second.done?.content).toEqual([{ type: "text", text: "It says xyz" }]);
  expect(m.requests[1]?.body.input.slice(1)).toEqual([
    {
      type: "reasoning",
      id: "rs_mock_1",
      encrypted_content: block.opaque,
      summary: [{ type: "summary_text", text: "The user wants a file read; call read first." }],
    },
    { type: "message", role: "assistant", content: "Reading it." },
    { type: "function_call", call_id: "call_r", name: "read", arguments: '{"path":"x"}' },
    { type: "function_call_output", call_id: "call_r", output: "xyz" },
  ]);
});

test("thinking without encrypted content (or from another provider) is not replayed", async () => {
  const m = start({ text: "ok" });
  const messages = [
    message("user", { type: "text", text: "q" }),
    message(
      "assistant",
      { type: "thinking", text: "anthropic thoughts", signature: "sig" },
      { type: "thinking", text: "stored only by id", reasoning_id: "rs_gone" },
      { type: "text", text: "a" },
    ),
    message("user", { type: "text", text: "q2" }),
  ];
  await run(openai(m), request({ messages }));
  const input = m.requests[0]?.body.input;
  expect(input.map((i: { type: string }) => i.type)).toEqual(["message", "message", "message"]);
  expect(JSON.stringify(input)).not.toContain("thoughts");
});

test("images: input_image in user content, tool-result images in a user message after the outputs", async () => {
  const m = start({ text: "I see it" });
  const messages = [
    message("user", { type: "text", text: "what is this?" }, { type: "image", mime_type: "image/png", data: PNG }),
    message("assistant", { type: "tool_call", id: "call_s", name: "screenshot", args: {} }),
    message("tool", {
      type: "tool_result",
      call_id: "call_s",
      is_error: false,
      content: [{ type: "image", mime_type: "image/jpeg", data: "/9j/4AAQ" }],
    }),
  ];
  await run(openai(m), request({ messages }));
  const input = m.requests[0]?.body.input;
  expect(input[0]).toEqual({
    type: "message",
    role: "user",
    content: [
      { type: "input_text", text: "what is this?" },
      { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
    ],
  });
  expect(input[2]).toEqual({ type: "function_call_output", call_id: "call_s", output: "(image output follows)" });
  expect(input[3]).toEqual({
    type: "message",
    role: "user",
    content: [
      { type: "input_text", text: "Tool output included the following image content:" },
      { type: "input_image", image_url: "data:image/jpeg;base64,/9j/4AAQ", detail: "auto" },
    ],
  });
  expect(input).toHaveLength(4);
});

test("tool-result images of several calls each follow the call they came from", async () => {
  const m = start({ text: "ok" });
  const shot = (id: string) => ({ type: "tool_result" as const, call_id: id, is_error: false, content: [{ type: "image" as const, mime_type: "image/png", data: PNG }] });
  const messages = [
    message("user", { type: "text", text: "compare" }),
    message("assistant", { type: "tool_call", id: "c_before", name: "read", args: { path: "before.png" } }, { type: "tool_call", id: "c_after", name: "read", args: { path: "after.png" } }),
    message("tool", shot("c_before"), shot("c_after")),
  ];
  await run(openai(m), request({ messages }));
  const parts = m.requests[0]?.body.input.at(-1).content.map((p: { type: string; text?: string }) => p.text ?? p.type);
  expect(parts).toEqual(["Tool output included the following image content:", "From read before.png (call c_before):", "input_image", "From read after.png (call c_after):", "input_image"]);
});

test("an image no model API takes is sent as a text saying so, not as an input_image", async () => {
  const m = start({ text: "ok" });
  const svg = Buffer.from("<svg/>").toString("base64");
  await run(openai(m), request({ messages: [message("user", { type: "text", text: "look" }, { type: "image", mime_type: "image/svg+xml", data: svg })] }));
  const input = m.requests[0]?.body.input;
  expect(input[0].content.map((c: { type: string }) => c.type)).toEqual(["input_text", "input_text"]);
  expect(input[0].content[1].text).toContain("not sent to the model: its type image/svg+xml is none the model APIs take");
});

/** A raw SSE server for what the mock does not send: several summary parts, arguments only at done. */
function rawServer(events: Record<string, unknown>[]) {
  const body = events.map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join("");
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Response(body, { headers: { "content-type": "text/event-stream" } }),
  });
  servers.push(server);
  return createOpenAIResponsesProvider({ apiKey: "k", baseUrl: `http://127.0.0.1:${server.port}/v1` });
}

test("several summary parts join as paragraphs; arguments sent only at done still arrive", async () => {
  const response = { id: "resp_1", object: "response", status: "in_progress", output: [], usage: null };
  const summary = [
    { type: "summary_text", text: "First part." },
    { type: "summary_text", text: "Second part." },
  ];
  const call = { id: "fc_1", type: "function_call", call_id: "call_z", name: "read", arguments: "" };
  const provider = rawServer([
    { type: "response.created", response },
    { type: "response.output_item.added", output_index: 0, item: { id: "rs_1", type: "reasoning", summary: [] } },
    { type: "response.reasoning_summary_text.delta", item_id: "rs_1", output_index: 0, summary_index: 0, delta: "First part." },
    { type: "response.reasoning_summary_text.delta", item_id: "rs_1", output_index: 0, summary_index: 1, delta: "Second part." },
    { type: "response.output_item.done", output_index: 0, item: { id: "rs_1", type: "reasoning", summary, encrypted_content: "ENC" } },
    { type: "response.output_item.added", output_index: 1, item: call },
    { type: "response.function_call_arguments.done", item_id: "fc_1", output_index: 1, arguments: '{"path":"p"}' },
    { type: "response.output_item.done", output_index: 1, item: { ...call, arguments: '{"path":"p"}' } },
    {
      type: "response.completed",
      response: { ...response, status: "completed", usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5 } },
    },
  ]);
  const { events, done, error } = await run(provider);
  expect(error).toBeUndefined();
  const streamed = ofType(events, "thinking_delta").map((e) => e.delta).join("");
  expect(streamed).toBe("First part.\n\nSecond part.");
  expect(ofType(events, "tool_use_args")).toEqual([{ type: "tool_use_args", id: "call_z", delta: '{"path":"p"}' }]);
  expect(done?.content).toEqual([
    { type: "thinking", text: streamed, reasoning_id: "rs_1", opaque: "ENC" },
    { type: "tool_call", id: "call_z", name: "read", args: { path: "p" } },
  ]);
  expect(done?.stop).toBe("tool_use");
});


test("usage counts a compatible server left out or sent as strings are read as 0, or as the string's number", async () => {
  const usageOf = async (usage: Record<string, unknown>) => {
    const response = { id: "resp_1", object: "response", status: "in_progress", output: [], usage: null };
    const provider = rawServer([
      { type: "response.created", response },
      { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "ok" },
      { type: "response.completed", response: { ...response, status: "completed", usage } },
    ]);
    return ofType((await run(provider)).events, "usage");
  };
  expect(await usageOf({ input_tokens: 1000 })).toEqual([{ type: "usage", usage: { input: 1000, output: 0, cache_read: 0, cache_write: 0, reasoning: null } }]);
  expect(await usageOf({ input_tokens: "250", output_tokens: "7", input_tokens_details: { cached_tokens: "50" }, output_tokens_details: { reasoning_tokens: "2" } })).toEqual([
    { type: "usage", usage: { input: 200, output: 7, cache_read: 50, cache_write: 0, reasoning: 2 } },
  ]);
});

test("a content filter's response.incomplete fails the call as refused, after its usage: the call was billed", async () => {
  const response = { id: "resp_1", object: "response", status: "in_progress", output: [], usage: null };
  const provider = rawServer([
    { type: "response.created", response },
    { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "Here is the st" },
    {
      type: "response.incomplete",
      response: { ...response, status: "incomplete", incomplete_details: { reason: "content_filter" }, usage: { input_tokens: 5000, output_tokens: 30 } },
    },
  ]);
  const { events, done, error } = await run(provider);
  expect(done).toBeUndefined();
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).code).toBe("refused");
  expect(events.map((e) => e.type)).toEqual(["text_delta", "usage"]);
  expect(ofType(events, "usage")[0]?.usage).toMatchObject({ input: 5000, output: 30 });
});
