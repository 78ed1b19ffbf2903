// /btw through Agent.ask with the real SDKs against the mock LLM: the request has no tools and the
// whole transcript (tool calls and results as text) plus the question; the answer streams as side
// events, never text_delta; the transcript is untouched; the call's usage and cost count.
import { afterEach, describe, expect, test } from "bun:test";
import { Agent } from "../../src/core/agent.ts";
import { SIDE_PREAMBLE, type SideEvent } from "../../src/core/side-question.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import type { Message } from "../../src/protocol/messages.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import { createAnthropicProvider } from "../../src/providers/anthropic.ts";
import { createOpenAIChatProvider } from "../../src/providers/openai-chat.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { testModel } from "../support/test-model.ts";

const TIME = "2025-01-01T00:00:00.000Z";
const text = (role: Message["role"], t: string): Message => ({ role, content: [{ type: "text", text: t }], time: TIME });

function transcript(): Message[] {
  return [
    text("user", "Please fix src/app.ts"),
    {
      role: "assistant",
      content: [
        { type: "thinking", text: "let me look", signature: "sig" },
        { type: "text", text: "Reading it." },
        { type: "tool_call", id: "toolu_1", name: "read", args: { path: "src/app.ts" } },
      ],
      time: TIME,
    },
    {
      role: "tool",
      content: [{ type: "tool_result", call_id: "toolu_1", is_error: false, content: [{ type: "text", text: "const x = undefined; x.y" }] }],
      time: TIME,
    },
    text("assistant", "Fixed the crash."),
  ];
}

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

function setup(turns: ScriptTurn[], options: { api?: "anthropic" | "openai"; messages?: Message[] } = {}) {
  const m = (mock = startMockLlm(turns));
  const openai = options.api === "openai";
  const agent = new Agent({
    provider: openai
      ? createOpenAIChatProvider({ name: "openai", apiKey: "k", baseUrl: `${m.url}/v1` })
      : createAnthropicProvider({ apiKey: "k", baseUrl: m.url }),
    model: testModel({
      id: openai ? "gpt-test" : "claude-test",
      provider: openai ? "openai" : "anthropic",
      api: openai ? "openai-chat" : "anthropic-messages",
      price_input: 3,
      price_output: 15,
    }),
    tools: [{ name: "read", description: "reads", parameters: { type: "object" }, execute: async () => ({ content: [], is_error: false }) }],
    system: "You are zot.",
    cwd: "/tmp",
    messages: options.messages ?? transcript(),
  });
  const events: AgentEvent[] = [];
  agent.onEvent((e) => events.push(e));
  const appended: Message[] = [];
  agent.onMessage((msg) => appended.push(msg));
  return { agent, events, appended, mock: m };
}

async function collect(stream: AsyncIterable<SideEvent>): Promise<SideEvent[]> {
  const out: SideEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

/** An Anthropic message's text blocks, joined. */
const anthropicText = (message: any): string =>
  typeof message.content === "string" ? message.content : message.content.map((b: any) => b.text ?? "").join("\n");

describe("Agent.ask", () => {
  test("Anthropic: no tools, the whole transcript as text plus the question; streamed; transcript untouched; usage counted", async () => {
    const { agent, events, appended, mock: m } = setup([{ text: "It dereferenced undefined.", usage: { input: 900, output: 30 }, chunk_size: 5 }]);
    const before = structuredClone(agent.messages);

    const side = await collect(agent.ask("what was the bug?", new AbortController().signal));

    // The answer streams in pieces, then one side_done with the whole answer and its priced usage.
    const deltas = side.filter((e) => e.type === "side_delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => (e as { text: string }).text).join("")).toBe("It dereferenced undefined.");
    const done = side.at(-1)!;
    expect(done).toMatchObject({ type: "side_done", answer: "It dereferenced undefined.", usage: { input: 900, output: 30 } });
    expect((done as any).usage.cost_usd).toBeCloseTo((900 * 3 + 30 * 15) / 1e6, 10);

    // The request: same model and system prompt, no tools, the transcript then the question.
    expect(m.requests).toHaveLength(1);
    const body = m.requests[0]!.body;
    expect(body.model).toBe("claude-test");
    expect(body.system[0].text).toBe("You are zot.");
    expect(body.tools).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('"tool_use"');
    expect(JSON.stringify(body)).not.toContain('"thinking"');
    expect(body.messages.map((msg: any) => msg.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(anthropicText(body.messages[0])).toBe("Please fix src/app.ts");
    expect(anthropicText(body.messages[1])).toBe('Reading it.\n[tool call read {"path":"src/app.ts"}]');
    expect(anthropicText(body.messages[2])).toBe("[tool result read]\nconst x = undefined; x.y");
    expect(anthropicText(body.messages[3])).toBe("Fixed the crash.");
    expect(anthropicText(body.messages[4])).toBe(`${SIDE_PREAMBLE}\n\nwhat was the bug?`);

    // Nothing joined the transcript; the agent's own stream saw only the usage, never text_delta.
    expect(agent.messages).toEqual(before);
    expect(appended).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(["usage"]);
    expect(events[0]).toMatchObject({ type: "usage", input: 900, output: 30, cumulative: { input: 900, output: 30 } });
    expect(agent.cumulative.input).toBe(900);
    expect(agent.cumulative.cost_usd).toBeCloseTo((done as any).usage.cost_usd, 10);
  });

  test("OpenAI chat: no tools either, and the question last", async () => {
    const { agent, mock: m } = setup([{ text: "Because x was undefined.", usage: { input: 50, output: 5 } }], { api: "openai" });
    const side = await collect(agent.ask("why?", new AbortController().signal));
    expect(side.at(-1)).toMatchObject({ type: "side_done", answer: "Because x was undefined." });
    const body = m.requests[0]!.body;
    expect(body.tools).toBeUndefined();
    expect(body.messages[0]).toEqual({ role: "system", content: "You are zot." });
    expect(body.messages.at(-1)).toEqual({ role: "user", content: `${SIDE_PREAMBLE}\n\nwhy?` });
    expect(JSON.stringify(body.messages)).toContain("[tool result read]");
    expect(agent.cumulative.input).toBe(50);
  });

  test("a side chat goes on: earlier questions and answers come before the new question", async () => {
    const { agent, mock: m } = setup([{ text: "Yes." }]);
    await collect(agent.ask("and now?", new AbortController().signal, { history: [{ question: "first?", answer: "First answer." }] }));
    const messages = m.requests[0]!.body.messages;
    expect(messages.slice(-3).map((msg: any) => [msg.role, anthropicText(msg)])).toEqual([
      ["user", `${SIDE_PREAMBLE}\n\nfirst?`],
      ["assistant", "First answer."],
      ["user", `${SIDE_PREAMBLE}\n\nand now?`],
    ]);
  });

  test("asked mid-turn, with a tool call still waiting for its result: the request stays valid", async () => {
    const waiting: Message[] = [transcript()[0]!, transcript()[1]!];
    const { agent, mock: m } = setup([{ text: "It is reading a file." }], { messages: waiting });
    const side = await collect(agent.ask("what is it doing?", new AbortController().signal));
    expect(side.at(-1)).toMatchObject({ type: "side_done" });
    const roles = m.requests[0]!.body.messages.map((msg: any) => msg.role);
    expect(roles).toEqual(["user", "assistant", "user"]);
    expect(agent.messages).toHaveLength(2);
  });

  test("the snapshot is the transcript when asked, whatever happens to it while the answer streams", async () => {
    const { agent, mock: m } = setup([{ text: "ok", delay_ms: 50 }]);
    const stream = agent.ask("q?", new AbortController().signal);
    agent.clear();
    await collect(stream);
    expect(anthropicText(m.requests[0]!.body.messages[0])).toBe("Please fix src/app.ts");
  });

  test("abort mid-stream: side_aborted, the usage so far counts, the transcript is untouched", async () => {
    const { agent } = setup([{ text: "a long answer ".repeat(50), chunk_size: 4, chunk_delay_ms: 10, usage: { input: 10, output: 3 } }]);
    const before = structuredClone(agent.messages);
    const controller = new AbortController();
    const side: SideEvent[] = [];
    for await (const event of agent.ask("q?", controller.signal)) {
      side.push(event);
      if (event.type === "side_delta") controller.abort();
    }
    expect(side.at(-1)).toEqual({ type: "side_aborted" });
    expect(side.filter((e) => e.type === "side_delta").length).toBeGreaterThanOrEqual(1);
    // message_start reported the input tokens before the abort
    expect(agent.cumulative.input).toBe(10);
    expect(agent.messages).toEqual(before);
  });

  test("a provider error ends it with side_error in words for the user; the transcript is untouched", async () => {
    const { agent } = setup([{ error: { message: "model overloaded, try later", status: 400 } }]);
    const side = await collect(agent.ask("q?", new AbortController().signal));
    expect(side).toHaveLength(1);
    expect(side[0]!.type).toBe("side_error");
    expect((side[0] as { message: string }).message).toContain("model overloaded, try later");
    expect(agent.messages).toHaveLength(4);
  });
});
