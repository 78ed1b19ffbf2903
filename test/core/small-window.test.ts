// A model with a small window (a vLLM, SGLang or llama.cpp server started with 8K): zot asks for an
// output that leaves room for the prompt, asks again for what fits when the server's own count says
// the output is what overflowed, and says the server's numbers (never its own contradicting ones)
// when the window zot has for the model is wrong.
import { afterEach, describe, expect, test } from "bun:test";
import { Agent } from "../../src/core/agent.ts";
import { MIN_OUTPUT_ROOM, withOutputRoom } from "../../src/core/output-room.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import type { ModelInfo } from "../../src/protocol/models.ts";
import { type ModelRequest, outputLimit } from "../../src/protocol/provider.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import { createOpenAIChatProvider } from "../../src/providers/openai-chat.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { testModel } from "../support/test-model.ts";

const QWEN: ModelInfo = testModel({ id: "qwen-local", provider: "openai", api: "openai-chat", context_window: 8192, max_output: 8192, source: "user" });
const TIME = "2025-01-01T00:00:00.000Z";

function request(model: ModelInfo, text = "hi", extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model, system: "You are zot.", messages: [{ role: "user", content: [{ type: "text", text }], time: TIME }], tools: [], ...extra };
}

describe("withOutputRoom", () => {
  test("only a window the user gave caps the output: the catalog's (OpenAI's are the input's alone) and a guessed one (an unlisted ollama model) do not", () => {
    const long = "x".repeat(600_000);
    const gpt5 = testModel({ id: "gpt-5", provider: "openai", api: "openai-responses", context_window: 272_000, max_output: 128_000, source: "catalog" });
    expect(withOutputRoom(request(gpt5, long), 1).outputRoom).toBeUndefined();
    const guessed = testModel({ id: "llama3", provider: "ollama", api: "openai-chat", context_window: 32_768, max_output: 8192, source: "synthetic" });
    expect(withOutputRoom(request(guessed, "x".repeat(100_000)), 1).outputRoom).toBeUndefined();
    expect(withOutputRoom(request({ ...guessed, source: "user" }, "x".repeat(100_000)), 1).outputRoom).toBeLessThan(8192); // given in models.json, it caps
  });

  test("a window the output asked for would fill leaves the prompt its room", () => {
    const sized = withOutputRoom(request(QWEN), 1);
    expect(sized.outputRoom).toBeDefined();
    expect(outputLimit(sized)).toBeLessThan(8192 - 10);
    expect(outputLimit(sized)).toBeGreaterThan(7000);
  });

  test("a window with room to spare is left alone: the request is the same object", () => {
    const roomy = { ...QWEN, context_window: 200_000 };
    const asked = request(roomy);
    expect(withOutputRoom(asked, 1)).toBe(asked);
  });

  test("the room never falls below the floor, and a prompt that fills the window is the server's to refuse", () => {
    const sized = withOutputRoom(request(QWEN, "x".repeat(40_000)), 1);
    expect(outputLimit(sized)).toBe(MIN_OUTPUT_ROOM);
  });

  test("a calibrated scale (the provider counts more than the estimate) leaves less room", () => {
    const text = "y".repeat(12_000);
    expect(outputLimit(withOutputRoom(request(QWEN, text), 2))).toBeLessThan(outputLimit(withOutputRoom(request(QWEN, text), 1)));
  });

  test("a smaller room already set (a server's own count) is kept", () => {
    const sized = withOutputRoom(request(QWEN, "hi", { outputRoom: 2000 }), 1);
    expect(outputLimit(sized)).toBe(2000);
  });
});

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

function agentOn(turns: ScriptTurn[], model: ModelInfo = QWEN, url?: string) {
  const m = (mock = startMockLlm(turns));
  const agent = new Agent({
    provider: createOpenAIChatProvider({ name: "openai", apiKey: "k", baseUrl: `${url ?? m.url}/v1` }),
    model,
    tools: [],
    system: "You are zot.",
    cwd: "/tmp",
  });
  const events: AgentEvent[] = [];
  agent.onEvent((e) => events.push(e));
  return { agent, events, mock: m };
}

const signal = () => new AbortController().signal;
const vllm = (prompt: number, completion: number) =>
  `This model's maximum context length is 8192 tokens. However, you requested ${prompt + completion} tokens (${prompt} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`;

describe("a small window, end to end through the Chat wire", () => {
  test("the first request asks for less than the whole window", async () => {
    const { agent, mock } = agentOn([{ text: "answered" }]);
    const outcome = await agent.prompt({ text: "hi" }, signal());
    expect(outcome.status).toBe("ok");
    expect(mock.requests[0]!.body.max_tokens).toBeLessThan(8192);
  });

  test("a refusal whose count leaves room for an answer is asked again for what fits, without compacting", async () => {
    // zot takes the window to be 128K; the server's is 8K.
    const { agent, events, mock } = agentOn(
      [{ error: { status: 400, message: vllm(751, 8192) } }, { text: "answered" }],
      { ...QWEN, context_window: 128_000 },
    );
    const outcome = await agent.prompt({ text: "hi" }, signal());
    expect(outcome.status).toBe("ok");
    expect(mock.requests.map((r) => r.body.max_tokens)).toEqual([8192, 8192 - 751 - 256]);
    expect(events.filter((e) => e.type === "compact_start")).toEqual([]);
  });

  test("a window the server says is smaller than zot's is said in the server's numbers, with the models.json entry; nothing is compacted", async () => {
    const refusal = "the request exceeds the available context size, try increasing it";
    // llama.cpp names its window in fields beside the message, which the mock does not play.
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        Response.json({ error: { code: 400, type: "exceed_context_size_error", message: refusal, n_prompt_tokens: 5000, n_ctx: 4096 } }, { status: 400 }),
    });
    try {
      const { agent, events } = agentOn([], { ...QWEN, context_window: 128_000 }, `http://127.0.0.1:${server.port}`);
      const outcome = await agent.prompt({ text: "hi" }, signal());
      expect(outcome).toMatchObject({ status: "error", code: "context_overflow" });
      const message = (outcome as { message: string }).message;
      expect(message).toBe(
        `openai: HTTP 400: ${refusal}; the server's window for qwen-local is 4,096 tokens, where zot takes it to be 128,000: ` +
          'give the model its window in models.json ("contextWindow": 4096), then send less at once or compact the conversation (/compact)',
      );
      expect(events.filter((e) => e.type === "compact_start")).toEqual([]);
    } finally {
      await server.stop(true);
    }
  });
});
