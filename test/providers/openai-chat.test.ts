// What only the Chat Completions provider (openai, ollama, compatible servers) does, through the
// real openai SDK against the mock LLM server speaking the real wire format: its request shape,
// reasoning never sent back, ollama's defaults, other servers' dialects. What every wire does
// (streaming, tool calls, retries, failures and their codes, abort) is in wires.test.ts.
import { afterEach, expect, test } from "bun:test";
import type { ModelInfo } from "../../src/protocol/models.ts";
import { type ModelRequest, type Provider, ProviderError } from "../../src/protocol/provider.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import { createOpenAIChatProvider } from "../../src/providers/openai-chat.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { message, ofType, streamAll } from "../support/provider-stream.ts";
import { testModel } from "../support/test-model.ts";

const GPT: ModelInfo = testModel({ id: "gpt-test", provider: "openai", name: "GPT test", api: "openai-chat", context_window: 128_000, max_output: 4096 });
const REASONER: ModelInfo = { ...GPT, id: "o-test", reasoning: true, max_output: 32_000 };
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
  return createOpenAIChatProvider({ name: "openai", apiKey: "sk-test", baseUrl: `${m.url}/v1` });
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

test("usage is asked for (include_usage) and comes once, from the final chunk, before done", async () => {
  const m = start({ text: "ok", usage: { input: 100, output: 20, cache_read: 30, reasoning: 12 } });
  const { events } = await run(openai(m));
  expect(ofType(events, "usage")).toEqual([
    { type: "usage", usage: { input: 100, output: 20, cache_read: 30, cache_write: 0, reasoning: 12 } },
  ]);
  // usage precedes done, so the loop has it when the turn ends
  expect(events.findIndex((e) => e.type === "usage")).toBeLessThan(events.findIndex((e) => e.type === "done"));
  expect(m.requests[0]?.body.stream_options).toEqual({ include_usage: true });
});

test("reasoning_content deltas become thinking, kept in the message but not sent back with a text answer", async () => {
  const m = start(
    { thinking: "First I consider the question carefully.", text: "Answer." },
    { text: "second" },
  );
  const provider = openai(m);
  const first = await run(provider);
  const thinking = ofType(first.events, "thinking_delta");
  expect(thinking.length).toBeGreaterThan(1);
  expect(thinking.map((e) => e.delta).join("")).toBe("First I consider the question carefully.");
  expect(first.done?.content[0]).toEqual({ type: "thinking", text: "First I consider the question carefully.", chat_field: "reasoning_content" });

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

test("reasoning streamed as reasoning_content goes back with the tool calls it led to (DeepSeek and Kimi refuse the call otherwise); as `reasoning` (Groq, Cerebras refuse the field), or another wire's, it does not", async () => {
  const m = start({ text: "done" });
  const call = (id: string) => ({ type: "tool_call" as const, id, name: "read", args: { path: "a.txt" } });
  const result = (id: string) => message("tool", { type: "tool_result", call_id: id, is_error: false, content: [{ type: "text", text: "A" }] });
  const messages = [
    message("user", { type: "text", text: "read it" }),
    message("assistant", { type: "thinking", text: "I should read a.txt.", chat_field: "reasoning_content" }, call("c1")),
    result("c1"),
    message("assistant", { type: "thinking", text: "streamed as reasoning", chat_field: "reasoning" }, call("c2")),
    result("c2"),
    // An Anthropic thinking block (signed), or one recorded before the field was kept.
    message("assistant", { type: "thinking", text: "signed", signature: "sig" }, call("c3")),
    result("c3"),
    message("assistant", { type: "thinking", text: "older" }, call("c4")),
    result("c4"),
  ];
  await run(openai(m), request({ messages }));
  const sent = m.requests[0]?.body.messages;
  expect(sent[2]).toMatchObject({ role: "assistant", content: null, reasoning_content: "I should read a.txt." });
  for (const at of [4, 6, 8]) expect([at, sent[at]]).toEqual([at, expect.not.objectContaining({ reasoning_content: expect.anything() })]);
});

test("in a turn that called tools, the answer that ended it goes back with its reasoning_content too, in every later request (DeepSeek's thinking mode: a 400 otherwise); a turn without tool calls sends none", async () => {
  const m = start({ text: "done" });
  const thought = (text: string) => ({ type: "thinking" as const, text, chat_field: "reasoning_content" as const });
  const messages = [
    message("user", { type: "text", text: "run it" }),
    message("assistant", thought("I will run it."), { type: "tool_call", id: "c1", name: "bash", args: { command: "echo hi" } }),
    message("tool", { type: "tool_result", call_id: "c1", is_error: false, content: [{ type: "text", text: "hi" }] }),
    message("assistant", thought("It printed hi."), { type: "text", text: "It printed hi." }),
    message("user", { type: "text", text: "and 2+2?" }),
    message("assistant", thought("Easy."), { type: "text", text: "4" }),
    message("user", { type: "text", text: "thanks" }),
  ];
  await run(openai(m), request({ messages }));
  const sent = m.requests[0]?.body.messages;
  expect(sent[2]).toMatchObject({ role: "assistant", reasoning_content: "I will run it." });
  expect(sent[4]).toEqual({ role: "assistant", content: "It printed hi.", reasoning_content: "It printed hi." });
  expect(sent[6]).toEqual({ role: "assistant", content: "4" });
});

test("for DeepSeek's and Kimi's models (by id), a message of a tool-calling turn with no reasoning carries the field empty: a turn answered before a switch, a step that streamed none; other models get it only where it was streamed", async () => {
  const turn = (reasoning?: string) => [
    message("user", { type: "text", text: "run it" }),
    message("assistant", ...(reasoning ? [{ type: "thinking" as const, text: reasoning, chat_field: "reasoning_content" as const }] : []), { type: "tool_call", id: "c1", name: "bash", args: { command: "ls" } }),
    message("tool", { type: "tool_result", call_id: "c1", is_error: false, content: [{ type: "text", text: "a" }] }),
    message("assistant", { type: "text", text: "a" }),
    message("user", { type: "text", text: "next" }),
  ];
  const sentFor = async (modelId: string, messages: ReturnType<typeof turn>) => {
    const m = start({ text: "ok" });
    await run(openai(m), request({ model: { ...request().model, id: modelId }, messages }));
    return m.requests[0]?.body.messages;
  };
  const switched = await sentFor("deepseek-v4-pro", turn());
  expect([switched[2].reasoning_content, switched[4].reasoning_content]).toEqual(["", ""]);
  const kimi = await sentFor("moonshotai/kimi-k2-thinking", turn("I list."));
  expect([kimi[2].reasoning_content, kimi[4].reasoning_content]).toEqual(["I list.", ""]);
  const streamed = await sentFor("my-proxy-model", turn("I list."));
  expect([streamed[2].reasoning_content, "reasoning_content" in streamed[4]]).toEqual(["I list.", false]);
  // any other model, with no reasoning_content in sight: no field (OpenAI's own would refuse it)
  const plain = await sentFor("gpt-4.1", turn());
  expect([plain[2], plain[4]]).toEqual([expect.not.objectContaining({ reasoning_content: expect.anything() }), { role: "assistant", content: "a" }]);
});

test("the field the reasoning came in is kept on the thinking block", async () => {
  const viaReasoning = rawServer([rawChunk({ role: "assistant", reasoning: "hmm" }), rawChunk({ content: "ok" }, "stop"), "[DONE]"]);
  expect((await run(viaReasoning)).done?.content[0]).toEqual({ type: "thinking", text: "hmm", chat_field: "reasoning" });
  const viaContent = rawServer([rawChunk({ role: "assistant", reasoning_content: "hmm" }), rawChunk({ content: "ok" }, "stop"), "[DONE]"]);
  expect((await run(viaContent)).done?.content[0]).toEqual({ type: "thinking", text: "hmm", chat_field: "reasoning_content" });
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
  await run(provider, request({ model: REASONER, reasoning: "max" }));
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

test("a model that takes no images (models.json input: text) is sent none: each stands as a text saying so", async () => {
  const m = start({ text: "ok" });
  const messages = [message("user", { type: "text", text: "what is this?" }, { type: "image", mime_type: "image/png", data: PNG })];
  await run(openai(m), request({ model: { ...request().model, id: "llama3.1:8b", images: false }, messages }));
  expect(m.requests[0]?.body.messages.at(-1)).toEqual({ role: "user", content: "what is this?\n[an image left out of this request: llama3.1:8b takes no images (models.json says its input is text)]" });
});

test("tool-result images of several calls (before.png and after.png read at once) each follow the call they came from", async () => {
  const m = start({ text: "ok" });
  const shot = (id: string) => ({ type: "tool_result" as const, call_id: id, is_error: false, content: [{ type: "image" as const, mime_type: "image/png", data: PNG }] });
  const messages = [
    message("user", { type: "text", text: "compare" }),
    message("assistant", { type: "tool_call", id: "c_before", name: "read", args: { path: "before.png" } }, { type: "tool_call", id: "c_after", name: "read", args: { path: "after.png" } }),
    message("tool", shot("c_before"), shot("c_after")),
  ];
  await run(openai(m), request({ messages }));
  const parts = m.requests[0]?.body.messages.at(-1).content.map((p: { type: string; text?: string }) => p.text ?? p.type);
  expect(parts).toEqual(["Tool output included the following image content:", "From read before.png (call c_before):", "image_url", "From read after.png (call c_after):", "image_url"]);
});

test("an image no model API takes is sent as a text saying so: in a prompt, and in a tool's result", async () => {
  const m = start({ text: "ok" });
  const svg = Buffer.from("<svg/>").toString("base64");
  const messages = [
    message("user", { type: "text", text: "look" }, { type: "image", mime_type: "image/svg+xml", data: svg }),
    message("assistant", { type: "tool_call", id: "c1", name: "shot", args: {} }),
    message("tool", { type: "tool_result", call_id: "c1", is_error: false, content: [{ type: "image", mime_type: "image/svg+xml", data: svg }] }),
  ];
  await run(openai(m), request({ messages }));
  const sent = JSON.stringify(m.requests[0]?.body.messages);
  expect(sent).not.toContain("image/svg+xml;base64");
  expect(sent.split("not sent to the model: its type image/svg+xml is none the model APIs take")).toHaveLength(3);
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
  expect((failed.error as ProviderError).message).toBe(`ollama: HTTP 404: model 'nope' not found (asked at ${m.url}/v1; check the base URL and the model's name: zot --list-models shows the models zot knows, /model or --model picks one)`);
  expect((failed.error as ProviderError).code).toBe("bad_request");
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

function usageChunk(usage: Record<string, unknown>) {
  return JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices: [], usage });
}

test("usage counts a compatible server left out, sent as strings or as nonsense are read as the Anthropic reader reads them: 0, or the string's number", async () => {
  const usageOf = async (usage: Record<string, unknown>) => ofType((await run(rawServer([rawChunk({ content: "ok" }, "stop"), usageChunk(usage), "[DONE]"]))).events, "usage");
  // Without completion_tokens the output had been undefined, and the call's cost NaN.
  expect(await usageOf({ prompt_tokens: 1000 })).toEqual([{ type: "usage", usage: { input: 1000, output: 0, cache_read: 0, cache_write: 0, reasoning: null } }]);
  // Strings had been summed as strings ("0" + "7" = "07").
  expect(await usageOf({ prompt_tokens: "250", completion_tokens: "7", prompt_tokens_details: { cached_tokens: "50" }, completion_tokens_details: { reasoning_tokens: "2" } })).toEqual([
    { type: "usage", usage: { input: 200, output: 7, cache_read: 50, cache_write: 0, reasoning: 2 } },
  ]);
  expect(await usageOf({ prompt_tokens: -5, completion_tokens: "lots", prompt_tokens_details: null, completion_tokens_details: { reasoning_tokens: null } })).toEqual([
    { type: "usage", usage: { input: 0, output: 0, cache_read: 0, cache_write: 0, reasoning: null } },
  ]);
});

test("DeepSeek's cache hits (prompt_cache_hit_tokens, no cached_tokens) and OpenRouter's cache writes (cache_write_tokens) come out of the input, as cache read and cache write", async () => {
  const usageOf = async (usage: Record<string, unknown>) => ofType((await run(rawServer([rawChunk({ content: "ok" }, "stop"), usageChunk(usage), "[DONE]"]))).events, "usage")[0]?.usage;
  expect(await usageOf({ prompt_tokens: 100_000, completion_tokens: 100, prompt_cache_hit_tokens: 99_000, prompt_cache_miss_tokens: 1000 })).toEqual({
    input: 1000,
    output: 100,
    cache_read: 99_000,
    cache_write: 0,
    reasoning: null,
  });
  // OpenAI's own field wins where both are there.
  expect(await usageOf({ prompt_tokens: 1000, completion_tokens: 1, prompt_cache_hit_tokens: 600, prompt_tokens_details: { cached_tokens: 500 } })).toMatchObject({ input: 500, cache_read: 500 });
  expect(await usageOf({ prompt_tokens: 194, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 50, cache_write_tokens: 100, audio_tokens: 0 } })).toEqual({
    input: 44,
    output: 2,
    cache_read: 50,
    cache_write: 100,
    reasoning: null,
  });
});

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

test("invalid tool arguments become an empty object, kept as sent; arguments sent as an object are taken as they are", async () => {
  const provider = rawServer([
    rawChunk({ tool_calls: [{ index: 0, id: "c9", type: "function", function: { name: "bash", arguments: '{"command": "ls' } }] }),
    rawChunk({}, "length"),
    "[DONE]",
  ]);
  const { done } = await run(provider);
  expect(done?.stop).toBe("length");
  expect(done?.content).toEqual([{ type: "tool_call", id: "c9", name: "bash", args: {}, unparsed_args: '{"command": "ls' }]);
  const objects = await run(rawServer([rawChunk({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "bash", arguments: { command: "ls" } } }] }), rawChunk({}, "tool_calls"), "[DONE]"]));
  expect(objects.done?.content).toEqual([{ type: "tool_call", id: "c1", name: "bash", args: { command: "ls" } }]);
});

test("a refusal is the answer's text; a content filter's stop fails the call as refused, keeping what streamed", async () => {
  const refused = await run(rawServer([rawChunk({ role: "assistant", refusal: "I can't help with that." }), rawChunk({}, "stop"), "[DONE]"]));
  expect(refused.error).toBeUndefined();
  expect(ofType(refused.events, "text_delta").map((d) => d.delta).join("")).toBe("I can't help with that.");
  expect(refused.done?.content).toEqual([{ type: "text", text: "I can't help with that." }]);

  const filtered = await run(rawServer([rawChunk({ role: "assistant", content: "Here is the st" }), rawChunk({}, "content_filter"), usageChunk({ prompt_tokens: 5000, completion_tokens: 30 }), "[DONE]"]));
  expect(filtered.done).toBeUndefined();
  expect((filtered.error as ProviderError).code).toBe("refused");
  expect((filtered.error as ProviderError).message).toBe("openai: the provider's content filter stopped the answer (finish_reason: content_filter)");
  expect(ofType(filtered.events, "text_delta").map((d) => d.delta).join("")).toBe("Here is the st");
  // The call was billed: its usage comes, after what streamed, before the failure.
  expect(filtered.events.map((e) => e.type)).toEqual(["text_delta", "usage"]);
  expect(ofType(filtered.events, "usage")[0]?.usage).toMatchObject({ input: 5000, output: 30 });
});

test("a 429 that says the quota ran out is not retried: waiting does not bring it back", async () => {
  let served = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => {
      served++;
      return Response.json({ error: { message: "You exceeded your current quota.", type: "insufficient_quota", code: "insufficient_quota" } }, { status: 429, headers: { "retry-after": "0" } });
    },
  });
  servers.push(server);
  const failed = await run(createOpenAIChatProvider({ name: "openai", apiKey: "k", baseUrl: `http://127.0.0.1:${server.port}/v1` }));
  expect(served).toBe(1);
  expect((failed.error as ProviderError).message).toBe("openai: HTTP 429: You exceeded your current quota.");
});

test("a 429 that names its wait only in x-ratelimit-reset-tokens (OpenAI's tokens per minute) is retried after it", async () => {
  let served = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => {
      if (served++ > 0) return new Response(`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { content: "ok" }, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`, { headers: { "content-type": "text/event-stream" } });
      return Response.json(
        { error: { message: "Rate limit reached for gpt-4.1 on tokens per min (TPM).", type: "tokens", code: "rate_limit_exceeded" } },
        { status: 429, headers: { "x-ratelimit-remaining-tokens": "200", "x-ratelimit-reset-requests": "12ms", "x-ratelimit-reset-tokens": "0.3s" } },
      );
    },
  });
  servers.push(server);
  const answered = await run(createOpenAIChatProvider({ name: "openai", apiKey: "k", baseUrl: `http://127.0.0.1:${server.port}/v1` }));
  expect(answered.error).toBeUndefined();
  expect(served).toBe(2);
  expect(ofType(answered.events, "retry").map((r) => [r.wait_ms, r.code])).toEqual([[300, "rate_limit"]]);
});

test("a server that sent its finish_reason and usage, then keeps the connection open without [DONE]: the answer is whole after a short quiet, not a failure after API_TIMEOUT_MS", async () => {
  const before = process.env.API_TIMEOUT_MS;
  // Long enough that the answer being whole is the short quiet's doing (without it: a failure after 10 s).
  process.env.API_TIMEOUT_MS = "10000";
  try {
    const lines = [
      rawChunk({ role: "assistant", content: "All done." }),
      rawChunk({}, "stop"),
      JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } }),
    ];
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      idleTimeout: 0,
      fetch: () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(lines.map((l) => `data: ${l}\n\n`).join("")));
              // …and no [DONE]: the connection is left open
            },
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
    });
    servers.push(server);
    const { events, done, error } = await run(createOpenAIChatProvider({ name: "openai", apiKey: "k", baseUrl: `http://127.0.0.1:${server.port}/v1` }));
    expect(error).toBeUndefined();
    expect(done?.content).toEqual([{ type: "text", text: "All done." }]);
    expect(ofType(events, "usage")[0]?.usage).toMatchObject({ input: 7, output: 3 });
  } finally {
    if (before === undefined) delete process.env.API_TIMEOUT_MS;
    else process.env.API_TIMEOUT_MS = before;
  }
});

test("a 200 that is not an event stream is said as such, naming the base URL: a whole JSON answer, an HTML page, a gateway's JSON error in its own words", async () => {
  const answer = async (body: string, type: string) => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(body, { headers: { "content-type": type } }) });
    servers.push(server);
    const base = `http://127.0.0.1:${server.port}/v1`;
    const failed = await run(createOpenAIChatProvider({ name: "openai", apiKey: "k", baseUrl: base }));
    return { base, error: failed.error as ProviderError };
  };
  const whole = await answer('{"id":"x","object":"chat.completion","choices":[{"message":{"role":"assistant","content":"hi"}}]}', "application/json");
  expect(whole.error.code).toBe("bad_response");
  expect(whole.error.message).toBe(
    `openai: the server sent a malformed stream (the server sent the whole answer as one JSON object, not the event stream zot asked for; check the base URL (${whole.base}), and that the server streams)`,
  );
  const html = await answer("<html><body>Sign in to the network</body></html>", "text/html; charset=utf-8");
  expect(html.error.message).toBe(
    `openai: the server sent a malformed stream (the server answered with text/html, not an event stream; check the base URL (${html.base}), and that any proxy on the way passes streams through)`,
  );
  const credits = await answer('{"error":{"message":"Insufficient credits. Add more at the billing page.","code":402}}', "application/json");
  expect(credits.error.message).toContain("Insufficient credits. Add more at the billing page.");
  const other = await answer('{"status":"ok"}', "application/json; charset=utf-8");
  expect(other.error.message).toContain("the server answered with application/json, not an event stream");
  // A JSON body that never ends is not waited on past the silence limit (here 0.5 s): the same sentence.
  const before = process.env.API_TIMEOUT_MS;
  process.env.API_TIMEOUT_MS = "500";
  try {
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      idleTimeout: 0,
      fetch: () => new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"partial": ')) }), { headers: { "content-type": "application/json" } }),
    });
    servers.push(server);
    const endless = await run(createOpenAIChatProvider({ name: "openai", apiKey: "k", baseUrl: `http://127.0.0.1:${server.port}/v1` }));
    expect((endless.error as ProviderError).message).toContain("the server answered with application/json, not an event stream");
  } finally {
    if (before === undefined) delete process.env.API_TIMEOUT_MS;
    else process.env.API_TIMEOUT_MS = before;
  }
});

test("a server that takes the request and never answers is said as such (not 'cannot reach'), within API_TIMEOUT_MS", async () => {
  const before = process.env.API_TIMEOUT_MS;
  process.env.API_TIMEOUT_MS = "300";
  try {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Promise<Response>(() => {}) });
    servers.push(server);
    const base = `http://127.0.0.1:${server.port}/v1`;
    const failed = await run(createOpenAIChatProvider({ name: "ollama", apiKey: "", baseUrl: base }));
    expect((failed.error as ProviderError).message).toBe(
      `ollama: ${base} took the request but sent no answer within 0.3 s; the server may be stuck or overloaded (API_TIMEOUT_MS, in ms, sets how long zot waits)`,
    );
  } finally {
    if (before === undefined) delete process.env.API_TIMEOUT_MS;
    else process.env.API_TIMEOUT_MS = before;
  }
}, 20_000);

test("API_TIMEOUT_MS past what a timer can wait is the longest it can, not an instant failure", async () => {
  const { silenceLimitMs } = await import("../../src/providers/silence-limit.ts");
  expect(silenceLimitMs({ API_TIMEOUT_MS: "99999999999" })).toBe(2 ** 31 - 1);
  expect(silenceLimitMs({})).toBe(600_000);
  expect(silenceLimitMs({ API_TIMEOUT_MS: "nonsense" })).toBe(600_000);
});

test("OpenRouter's finish_reason error fails the call (server_error), keeping what streamed, not a complete answer", async () => {
  const failed = await run(rawServer([rawChunk({ role: "assistant", content: "Half an ans" }), rawChunk({}, "error"), usageChunk({ prompt_tokens: 40, completion_tokens: 3 }), "[DONE]"]));
  expect(failed.done).toBeUndefined();
  expect((failed.error as ProviderError).code).toBe("server_error");
  expect((failed.error as ProviderError).message).toBe("openai: the server ended the answer with an error (finish_reason: error); try again");
  expect(ofType(failed.events, "text_delta").map((d) => d.delta).join("")).toBe("Half an ans");
  expect(ofType(failed.events, "usage")[0]?.usage).toMatchObject({ input: 40, output: 3 });
});
