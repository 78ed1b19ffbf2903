// What only the Anthropic provider does, against the mock LLM's Anthropic wire format through the
// real SDK: thinking signatures, usage from message_start and message_delta, the stop reasons it
// maps, the request's shape (cache marks, images, tool results, thinking budgets). What every wire
// does (streaming, tool calls, retries, failures and their codes, abort) is in wires.test.ts.
import { afterEach, expect, test } from "bun:test";
import type { Message } from "../../src/protocol/messages.ts";
import type { ModelInfo } from "../../src/protocol/models.ts";
import type { ModelRequest, ProviderEvent } from "../../src/protocol/provider.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import { createAnthropicProvider } from "../../src/providers/anthropic.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { ofType, streamAll } from "../support/provider-stream.ts";
import { ProviderError } from "../../src/protocol/provider.ts";

const TIME = "2025-01-01T00:00:00.000Z";
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
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

async function run(server: MockLlm, req: ModelRequest = request()): Promise<{ events: ProviderEvent[] }> {
  const provider = createAnthropicProvider({ apiKey: "sk-test", baseUrl: server.url });
  const events: ProviderEvent[] = [];
  for await (const batch of provider.stream(req, new AbortController().signal)) events.push(...batch);
  return { events };
}

function done(events: ProviderEvent[]) {
  const last = events[events.length - 1];
  if (last?.type !== "done") throw new Error(`stream did not end with done: ${JSON.stringify(last)}`);
  return last;
}

test("a query in the base URL goes with the request, not into its path (a gateway's ?tenant=…)", async () => {
  const m = serve({ text: "ok" });
  const provider = createAnthropicProvider({ apiKey: "sk-test", baseUrl: `${m.url}?tenant=acme` });
  for await (const _ of provider.stream(request(), new AbortController().signal));
  expect([m.requests[0]?.path, m.requests[0]?.query]).toEqual(["/v1/messages", "?tenant=acme"]);
});

test("thinking streams as thinking deltas and keeps its signature for replay", async () => {
  const server = serve({ thinking: "First I consider the question carefully.", text: "Answer." });
  const { events } = await run(server, request({ reasoning: "low" }));
  expect(ofType(events, "thinking_delta").length).toBeGreaterThan(1);
  expect(ofType(events, "thinking_delta").map((d) => d.delta).join("")).toBe("First I consider the question carefully.");
  expect(done(events).content).toEqual([
    { type: "thinking", text: "First I consider the question carefully.", signature: "mocksig_1", model: "claude-test" },
    { type: "text", text: "Answer." },
  ]);
});

test("reasoning goes back only to the model that wrote it: after a switch, another Claude model's signed or redacted thinking is left out", async () => {
  const said = (blocks: Message["content"]): Message[] => [
    { role: "user", content: [{ type: "text", text: "q1" }], time: TIME },
    { role: "assistant", content: [...blocks, { type: "text", text: "a1" }], time: TIME },
    { role: "user", content: [{ type: "text", text: "q2" }], time: TIME },
  ];
  const server = serve({ text: "ok" }, { text: "ok" });
  await run(server, request({ messages: said([
    { type: "thinking", text: "mine", signature: "sig-mine", model: "claude-test" },
    { type: "thinking", text: "another's", signature: "sig-other", model: "claude-opus-4-5" },
    { type: "thinking", text: "", opaque: "redacted-other", model: "claude-opus-4-5" },
    // A session recorded before zot stamped the model: replayed as it always was.
    { type: "thinking", text: "unstamped", signature: "sig-old" },
  ]) }));
  expect(server.requests[0]!.body.messages[1].content).toEqual([
    { type: "thinking", thinking: "mine", signature: "sig-mine" },
    { type: "thinking", thinking: "unstamped", signature: "sig-old" },
    { type: "text", text: "a1" },
  ]);
});

test("the same model under another spelling (its dated id, a gateway's) is the same model; the last assistant message that called tools keeps all its thinking, as the API requires to go on", async () => {
  const server = serve({ text: "ok" }, { text: "ok" });
  const dated = request({
    model: { ...model(), id: "claude-sonnet-4-5-20250929" },
    messages: [
      { role: "user", content: [{ type: "text", text: "q1" }], time: TIME },
      { role: "assistant", content: [{ type: "thinking", text: "alias's", signature: "sig-a", model: "claude-sonnet-4-5" }, { type: "text", text: "a1" }], time: TIME },
      { role: "user", content: [{ type: "text", text: "q2" }], time: TIME },
    ],
  });
  await run(server, dated);
  expect(server.requests[0]!.body.messages[1].content[0]).toEqual({ type: "thinking", thinking: "alias's", signature: "sig-a" });
  const loop = request({
    messages: [
      { role: "user", content: [{ type: "text", text: "q1" }], time: TIME },
      { role: "assistant", content: [{ type: "thinking", text: "older turn", signature: "sig-1", model: "claude-opus-4-5" }, { type: "text", text: "a1" }], time: TIME },
      { role: "user", content: [{ type: "text", text: "run it" }], time: TIME },
      { role: "assistant", content: [{ type: "thinking", text: "calling", signature: "sig-2", model: "claude-opus-4-5" }, { type: "tool_call", id: "t1", name: "bash", args: { command: "ls" } }], time: TIME },
      { role: "tool", content: [{ type: "tool_result", call_id: "t1", is_error: false, content: [{ type: "text", text: "a.txt" }] }], time: TIME },
    ],
  });
  await run(server, loop);
  const sent = server.requests[1]!.body.messages;
  expect(sent[1].content).toEqual([{ type: "text", text: "a1" }]);
  expect(sent[3].content[0]).toEqual({ type: "thinking", thinking: "calling", signature: "sig-2" });
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

test("the API's stop reason decides, even tool_use without a call", async () => {
  const server = serve({ text: "odd", stop: "tool_use" });
  expect(done((await run(server)).events).stop).toBe("tool_use");
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

test("another server's tool call ids (Kimi's functions.bash:0) are sent in the form the API takes, the same for the call and its result; distinct ids stay distinct", async () => {
  const server = serve({ text: "ok" });
  const result = (id: string, text: string) => ({ type: "tool_result" as const, call_id: id, is_error: false, content: [{ type: "text" as const, text }] });
  const messages: Message[] = [
    { role: "user", content: [{ type: "text", text: "list" }], time: TIME },
    {
      role: "assistant",
      content: [
        { type: "tool_call", id: "functions.bash:0", name: "bash", args: { command: "ls" } },
        { type: "tool_call", id: "functions.bash_0", name: "bash", args: { command: "pwd" } },
        { type: "tool_call", id: "toolu_01ok", name: "bash", args: { command: "id" } },
      ],
      time: TIME,
    },
    { role: "tool", content: [result("functions.bash:0", "a"), result("functions.bash_0", "b"), result("toolu_01ok", "c")], time: TIME },
  ];
  await run(server, request({ messages }));
  const sent = server.requests[0]?.body as { messages: { content: { type: string; id?: string; tool_use_id?: string }[] }[] };
  const uses = sent.messages[1].content.map((block) => block.id);
  const results = sent.messages[2].content.map((block) => block.tool_use_id);
  expect(results).toEqual(uses);
  for (const id of uses) expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
  expect(new Set(uses).size).toBe(3);
  expect(uses[2]).toBe("toolu_01ok");
  expect(uses[0]).toStartWith("functions_bash_0_");
});

test("the request carries what the API takes of the conversation's images: 21 screenshots over 2000 px are not all sent", async () => {
  const server = serve({ text: "ok" });
  const be32 = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  const shot = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...be32(2880), ...be32(1800), 8, 6, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]).toString("base64");
  const messages: Message[] = Array.from({ length: 21 }, () => ({ role: "user" as const, content: [{ type: "image" as const, mime_type: "image/png", data: shot }], time: TIME }));
  await run(server, request({ messages }));
  const sent = JSON.stringify(server.requests[0]?.body);
  expect(sent.split('"type":"image"').length - 1).toBe(11);
  expect(sent).toContain("an image left out of this request: a request with more than 20 images takes none over 2000 px a side");
});

test("an image no model API takes (svg, or text called png) is sent as a text saying so, never as an image the API refuses", async () => {
  const server = serve({ text: "ok" });
  const svg = Buffer.from("<svg/>").toString("base64");
  const messages: Message[] = [
    { role: "user", content: [{ type: "text", text: "look" }, { type: "image", mime_type: "image/svg+xml", data: svg }, { type: "image", mime_type: "image/png", data: PNG }], time: TIME },
  ];
  await run(server, request({ messages }));
  const content = server.requests[0]!.body.messages[0].content;
  expect(content.map((b: { type: string }) => b.type)).toEqual(["text", "text", "image"]);
  expect(content[1].text).toStartWith("[an image not sent to the model: its type image/svg+xml is none the model APIs take");
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


test("adaptive models (Opus 4.7 on, the 5.x models, Fable) are never sent a budget: a level is output_config.effort", async () => {
  const server = serve(...["a", "b", "c", "d", "e", "f"].map((text) => ({ text })));
  const on = (id: string, fields: Partial<ModelRequest> = {}) => run(server, request({ model: model({ id }), ...fields }));
  await on("claude-opus-4-7", { reasoning: "high" });
  await on("claude-opus-4-7");
  await on("claude-sonnet-5", { reasoning: "low" });
  await on("claude-sonnet-5-5-20261001");
  await on("claude-fable-5-2", { reasoning: "medium" });
  await on("claude-sonnet-4-6", { reasoning: "medium" });
  const [opusAsked, opusPlain, sonnet5, sonnet55, fable, sonnet46] = server.requests;
  const summarized = { type: "adaptive", display: "summarized" };
  const dropChanged = { ...summarized, block_binding: { prefix_mismatch_behavior: "drop_block" } };
  expect(opusAsked.body).toMatchObject({ thinking: summarized, output_config: { effort: "high" }, max_tokens: 8000 });
  // Opus 4.7 thinks only when asked.
  expect(opusPlain.body.thinking).toBeUndefined();
  expect(opusPlain.body.output_config).toBeUndefined();
  expect(sonnet5.body).toMatchObject({ thinking: summarized, output_config: { effort: "low" } });
  // The 5.5 models think unasked, and bind their thinking to the conversation: a block whose prefix
  // changed (a compaction, a new tool) is dropped, with the beta that allows it.
  expect(sonnet55.body.thinking).toEqual(dropChanged);
  expect(sonnet55.body.output_config).toBeUndefined();
  expect(sonnet55.headers["anthropic-beta"]).toBe("thinking-binding-controls-2026-08-01");
  expect(fable.body).toMatchObject({ thinking: dropChanged, output_config: { effort: "medium" } });
  expect(sonnet5.headers["anthropic-beta"]).toBeUndefined();
  // Sonnet 4.6 still takes a budget.
  expect(sonnet46.body.thinking).toEqual({ type: "enabled", budget_tokens: 8192 });
  expect(sonnet46.body.output_config).toBeUndefined();
});

test("xhigh and max: as they are for an adaptive model; for a budget model the largest budget its output limit leaves room for, never below high's", async () => {
  const server = serve(...["a", "b", "c", "d"].map((text) => ({ text })));
  await run(server, request({ model: model({ id: "claude-opus-5-5", max_output: 128_000 }), reasoning: "max" }));
  await run(server, request({ model: model({ id: "claude-sonnet-4-6", max_output: 128_000 }), reasoning: "max" }));
  await run(server, request({ model: model({ id: "claude-haiku-4-5", max_output: 40_000 }), reasoning: "max" }));
  await run(server, request({ model: model({ id: "claude-haiku-4-5", max_output: 8_000 }), reasoning: "xhigh" }));
  const [adaptive, roomy, tight, tiny] = server.requests.map((r) => r.body);
  expect(adaptive.output_config).toEqual({ effort: "max" });
  expect(roomy.thinking).toEqual({ type: "enabled", budget_tokens: 49152 });
  expect(tight.thinking).toEqual({ type: "enabled", budget_tokens: 40_000 - 4096 });
  expect(tight.max_tokens).toBe(40_000);
  expect(tiny.thinking).toEqual({ type: "enabled", budget_tokens: 16384 });
});

/** A raw Anthropic stream the mock does not speak: a compatible server's omissions, an API stop reason. */
function rawAnthropic(events: Record<string, unknown>[]) {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Response(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } }),
  });
  raw.push(server);
  return createAnthropicProvider({ apiKey: "sk-test", baseUrl: `http://127.0.0.1:${server.port}` });
}
const raw: ReturnType<typeof Bun.serve>[] = [];
afterEach(() => {
  for (const server of raw.splice(0)) server.stop(true);
});

const textBlock = (text: string) => [
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
  { type: "content_block_stop", index: 0 },
];

test("a compatible server's stream without usage, or with counts as strings, still gives the answer", async () => {
  const bare = await streamAll(rawAnthropic([{ type: "message_start", message: { id: "m", role: "assistant", content: [] } }, ...textBlock("Hello."), { type: "message_delta", delta: { stop_reason: "end_turn" } }, { type: "message_stop" }]), request());
  expect(bare.error).toBeUndefined();
  expect(bare.done?.content).toEqual([{ type: "text", text: "Hello." }]);
  const strings = await streamAll(
    rawAnthropic([
      { type: "message_start", message: { id: "m", role: "assistant", content: [], usage: { input_tokens: "100", output_tokens: "1" } } },
      ...textBlock("Hi."),
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: "20" } },
      { type: "message_stop" },
    ]),
    request(),
  );
  expect(ofType(strings.events, "usage").at(-1)?.usage).toMatchObject({ input: 100, output: 20 });
});

test("1-hour cache writes (cache_creation.ephemeral_1h_input_tokens) are said apart, within cache_write, for their price; none, and the usage is as before", async () => {
  const usage = (startUsage: Record<string, unknown>, deltaUsage: Record<string, unknown> = { output_tokens: 20 }) =>
    streamAll(
      rawAnthropic([
        { type: "message_start", message: { id: "m", role: "assistant", content: [], usage: startUsage } },
        ...textBlock("Hi."),
        { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: deltaUsage },
        { type: "message_stop" },
      ]),
      request(),
    ).then((run) => ofType(run.events, "usage").map((e) => e.usage));
  const cache_creation = { ephemeral_5m_input_tokens: 40_000, ephemeral_1h_input_tokens: 60_000 };
  expect(await usage({ input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 100_000, cache_creation })).toEqual([
    { input: 10, output: 1, cache_read: 0, cache_write: 100_000, cache_write_1h: 60_000, reasoning: null },
    { input: 10, output: 20, cache_read: 0, cache_write: 100_000, cache_write_1h: 60_000, reasoning: null },
  ]);
  // A gateway that sends the counts only at message_delta.
  expect((await usage({ input_tokens: 0, output_tokens: 0 }, { output_tokens: 20, input_tokens: 10, cache_creation_input_tokens: 100_000, cache_creation })).at(-1)).toMatchObject({ cache_write: 100_000, cache_write_1h: 60_000 });
  expect((await usage({ input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 500, cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 0 } })).at(-1)).toEqual({ input: 10, output: 20, cache_read: 0, cache_write: 500, reasoning: null });
});

test("a refusal fails the call as refused, and a full context window as context_overflow, keeping what streamed", async () => {
  const stream = (stop: string) =>
    streamAll(rawAnthropic([{ type: "message_start", message: { id: "m", role: "assistant", content: [], usage: { input_tokens: 5, output_tokens: 0 } } }, ...textBlock("Part"), { type: "message_delta", delta: { stop_reason: stop }, usage: { output_tokens: 3 } }, { type: "message_stop" }]), request());
  const refused = await stream("refusal");
  expect((refused.error as ProviderError).code).toBe("refused");
  expect((refused.error as ProviderError).message).toStartWith("anthropic: the model declined to answer (stop_reason: refusal)");
  expect(ofType(refused.events, "text_delta").map((d) => d.delta).join("")).toBe("Part");
  const full = await stream("model_context_window_exceeded");
  expect((full.error as ProviderError).code).toBe("context_overflow");
  expect((full.error as ProviderError).message).toContain("filled the model's context window");
});

/** A server that answers each request with the next of `responses` (made fresh each time). */
function answering(...responses: (() => Response)[]) {
  let served = 0;
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (responses[served++] ?? responses.at(-1)!)() });
  raw.push(server);
  return { provider: createAnthropicProvider({ apiKey: "sk-test", baseUrl: `http://127.0.0.1:${server.port}` }), served: () => served };
}
const sse = (events: Record<string, unknown>[]) => () =>
  new Response(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });
const failing = (status: number, body: string, headers: Record<string, string> = {}) => () => new Response(body, { status, headers: { "retry-after": "0", ...headers } });
const apiError = (type: string, message: string) => JSON.stringify({ type: "error", error: { type, message } });

test("an event without a field the API promises is a malformed stream named by the event's type, not the runtime's TypeError", async () => {
  const start = { type: "message_start", message: { id: "m", role: "assistant", content: [], usage: { input_tokens: 1, output_tokens: 0 } } };
  for (const [event, type] of [
    [{ type: "content_block_start", index: 0 }, "content_block_start"],
    [{ type: "content_block_delta", index: 0 }, "content_block_delta"],
  ] as const) {
    const broken = answering(sse([start, ...(type === "content_block_delta" ? [{ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }] : []), event]));
    const run = await streamAll(broken.provider, request());
    const error = run.error as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.code).toBe("bad_response");
    expect(error.message).toStartWith(`anthropic: the server sent a malformed stream (a ${type} event lacks a field the API promises (`);
  }
});

test("a body its content-encoding says is gzip and is not: a malformed stream, not a dropped connection to try again", async () => {
  const garbled = answering(() => new Response("event: message_start\ndata: {}\n\n", { headers: { "content-type": "text/event-stream", "content-encoding": "gzip" } }));
  const run = await streamAll(garbled.provider, request());
  const error = run.error as ProviderError;
  expect(error.code).toBe("bad_response");
  expect(error.message).toStartWith("anthropic: the server sent a malformed stream (its compressed body could not be decoded (");
  expect(error.message).not.toContain("try again");
});

test("what the SDKs retry is retried (408, a CDN's 524 with its HTML page named by its title); x-should-retry: false is not", async () => {
  const ok = sse([{ type: "message_start", message: { id: "m", role: "assistant", content: [], usage: { input_tokens: 1, output_tokens: 0 } } }, ...textBlock("At last."), { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } }, { type: "message_stop" }]);
  const html = "<!DOCTYPE html><html><head><title>example.com | 524: A timeout occurred</title></head><body>…</body></html>";
  const flaky = answering(failing(408, apiError("timeout_error", "Request timed out")), failing(524, html, { "content-type": "text/html" }), ok);
  const run = await streamAll(flaky.provider, request());
  expect(run.error).toBeUndefined();
  expect(run.done?.content).toEqual([{ type: "text", text: "At last." }]);
  expect(ofType(run.events, "retry").map((r) => [r.status, r.message])).toEqual([
    [408, "anthropic: HTTP 408: Request timed out"],
    [524, "anthropic: HTTP 524: an HTML page: example.com | 524: A timeout occurred"],
  ]);
  const final = answering(failing(500, apiError("api_error", "do not retry this"), { "x-should-retry": "false" }), ok);
  const refused = await streamAll(final.provider, request());
  expect((refused.error as ProviderError).message).toBe("anthropic: HTTP 500: do not retry this");
  expect(final.served()).toBe(1);
});

test("a server that goes silent is given up after API_TIMEOUT_MS: mid-stream with what arrived kept, and before any answer (retried)", async () => {
  const before = process.env.API_TIMEOUT_MS;
  process.env.API_TIMEOUT_MS = "300";
  try {
    const head = [{ type: "message_start", message: { id: "m", role: "assistant", content: [], usage: { input_tokens: 1, output_tokens: 0 } } }, ...textBlock("Part")];
    const stalling = answering(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(head.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("")));
              // …and nothing more, the connection left open
            },
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
    );
    const stalled = await streamAll(stalling.provider, request());
    expect((stalled.error as ProviderError).code).toBe("network");
    expect((stalled.error as ProviderError).message).toContain("the server sent nothing for 0.3 s in the middle of the answer");
    expect(ofType(stalled.events, "text_delta").map((d) => d.delta).join("")).toBe("Part");

    const mute = answering(() => new Promise<Response>(() => {}) as unknown as Response);
    const silent = await streamAll(mute.provider, request());
    expect((silent.error as ProviderError).message).toMatch(/^anthropic: http:\/\/127\.0\.0\.1:\d+ took the request but sent no answer within 0\.3 s/);
    expect(ofType(silent.events, "retry")).toHaveLength(2);
    expect(mute.served()).toBe(3);
  } finally {
    if (before === undefined) delete process.env.API_TIMEOUT_MS;
    else process.env.API_TIMEOUT_MS = before;
  }
}, 20_000);

test("time zot spent frozen (stopped with Ctrl+Z, the machine asleep) is not the server's silence: the answer sent meanwhile is read", async () => {
  const before = process.env.API_TIMEOUT_MS;
  process.env.API_TIMEOUT_MS = "300";
  try {
    const events = [{ type: "message_start", message: { id: "m", role: "assistant", content: [], usage: { input_tokens: 1, output_tokens: 0 } } }, ...textBlock("Sent while zot was stopped."), { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } }, { type: "message_stop" }];
    const sse = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
    const late = answering(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(sse.slice(0, 2).join("")));
              // the rest comes while zot is frozen (below), after API_TIMEOUT_MS
              setTimeout(() => {
                controller.enqueue(new TextEncoder().encode(sse.slice(2).join("")));
                controller.close();
              }, 1400);
            },
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
    );
    // zot frozen 1.6 s while it waits for the server (the event loop held, as a SIGSTOP holds the whole process)
    setTimeout(() => {
      const until = performance.now() + 1600;
      while (performance.now() < until);
    }, 100);
    const result = await streamAll(late.provider, request());
    expect(result.error).toBeUndefined();
    expect(ofType(result.events, "text_delta").map((d) => d.delta).join("")).toBe("Sent while zot was stopped.");
  } finally {
    if (before === undefined) delete process.env.API_TIMEOUT_MS;
    else process.env.API_TIMEOUT_MS = before;
  }
}, 20_000);

test("a reader of zot's events that holds the stream back longer than API_TIMEOUT_MS is not the server going silent", async () => {
  const before = process.env.API_TIMEOUT_MS;
  process.env.API_TIMEOUT_MS = "300";
  try {
    const events = [{ type: "message_start", message: { id: "m", role: "assistant", content: [], usage: { input_tokens: 1, output_tokens: 0 } } }, ...textBlock("Held back."), { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } }, { type: "message_stop" }];
    const sse = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
    const held = answering(
      () =>
        new Response(
          new ReadableStream({
            async start(controller) {
              controller.enqueue(new TextEncoder().encode(sse.slice(0, 2).join("")));
              await Bun.sleep(50);
              controller.enqueue(new TextEncoder().encode(sse.slice(2).join("")));
              controller.close();
            },
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
    );
    const seen: ProviderEvent[] = [];
    for await (const batch of held.provider.stream(request(), new AbortController().signal)) {
      seen.push(...batch);
      await Bun.sleep(500);
    }
    expect(done(seen).content).toEqual([{ type: "text", text: "Held back." }]);
  } finally {
    if (before === undefined) delete process.env.API_TIMEOUT_MS;
    else process.env.API_TIMEOUT_MS = before;
  }
}, 20_000);
