// Compaction through the agent, with the real providers against the mock LLM: manual, automatic at
// the threshold, on a context overflow (compact, then retry once), abort, and hard_abort after it.
import { afterEach, describe, expect, test } from "bun:test";
import { Agent, type Compacted } from "../../src/core/agent.ts";
import { SUMMARISER_SYSTEM, SUMMARY_HEADING } from "../../src/core/compact.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import type { Message } from "../../src/protocol/messages.ts";
import type { ModelInfo } from "../../src/protocol/models.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import type { Tool } from "../../src/protocol/tool.ts";
import { createAnthropicProvider } from "../../src/providers/anthropic.ts";
import { createOpenAIChatProvider } from "../../src/providers/openai-chat.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { testModel } from "../support/test-model.ts";

const TIME = "2025-01-01T00:00:00.000Z";
const SUMMARY = "## Goal\nFix the crash in src/app.ts\n\n## Next Steps\n1. add tests";
const OVERFLOW = "prompt is too long: 250000 tokens > 200000 maximum";

// A 4,000-token window keeps about 1,000 tokens (4,000 characters) of recent messages verbatim.
const anthropicModel: ModelInfo = testModel({
  id: "claude-test",
  provider: "anthropic",
  api: "anthropic-messages",
  context_window: 4_000,
  max_output: 1_000,
  price_input: 3,
  price_output: 15,
});

const text = (role: Message["role"], t: string): Message => ({ role, content: [{ type: "text", text: t }], time: TIME });

/** Six messages: an old turn with a big file read, then a short recent turn. The cut falls before "now add tests". */
function history(): Message[] {
  return [
    text("user", `Please fix src/app.ts. ${"Background. ".repeat(200)}`),
    {
      role: "assistant",
      content: [{ type: "tool_call", id: "toolu_1", name: "read", args: { path: "src/app.ts" } }],
      time: TIME,
    },
    {
      role: "tool",
      content: [
        {
          type: "tool_result",
          call_id: "toolu_1",
          is_error: false,
          content: [{ type: "text", text: `${"const x = 1;\n".repeat(400)}TypeError: x is undefined` }],
        },
      ],
      time: TIME,
    },
    text("assistant", "Fixed the crash."),
    text("user", "now add tests"),
    text("assistant", "Tests added."),
  ];
}

function echoTool(output = "echoed"): Tool {
  return {
    name: "echo",
    description: "echoes",
    parameters: { type: "object", properties: {} },
    execute: async () => ({ content: [{ type: "text", text: output }], is_error: false }),
  };
}

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

function setup(turns: ScriptTurn[], options: { messages?: Message[]; tools?: Tool[]; autoCompact?: number; api?: "anthropic" | "openai" } = {}) {
  const m = (mock = startMockLlm(turns));
  const openai = options.api === "openai";
  const provider = openai
    ? createOpenAIChatProvider({ name: "openai", apiKey: "k", baseUrl: `${m.url}/v1` })
    : createAnthropicProvider({ apiKey: "k", baseUrl: m.url });
  const model = openai ? { ...anthropicModel, id: "gpt-test", provider: "openai" as const, api: "openai-chat" as const } : anthropicModel;
  const agent = new Agent({
    provider,
    model,
    tools: options.tools ?? [echoTool()],
    system: "You are zot.",
    cwd: "/tmp",
    messages: options.messages ?? history(),
    ...(options.autoCompact !== undefined ? { autoCompact: options.autoCompact } : {}),
  });
  const events: AgentEvent[] = [];
  agent.onEvent((e) => events.push(e));
  const compactions: Compacted[] = [];
  agent.onCompacted((c) => compactions.push(c));
  return { agent, events, compactions, mock: m };
}

const types = (events: AgentEvent[]) => events.map((e) => e.type).filter((t) => t !== "text_delta");
const signal = () => new AbortController().signal;
/** The text of a recorded Anthropic request's message. */
const anthropicText = (message: any): string =>
  typeof message.content === "string" ? message.content : message.content.map((b: any) => b.text ?? "").join("");

describe("manual compaction", () => {
  test("the files the model saw stay seen: a compaction is the same conversation (write and edit judge by it)", async () => {
    const { agent } = setup([{ text: SUMMARY }]);
    agent.views.set("/tmp/seen.txt", { size: 3, mtimeMs: 1, sha256: "abc" });
    expect((await agent.compact(signal())).status).toBe("ok");
    expect([...agent.views.keys()]).toEqual(["/tmp/seen.txt"]);
  });

  test("summarises the older part with the model; events, request, usage and transcript", async () => {
    const { agent, events, compactions, mock } = setup([{ text: SUMMARY, usage: { input: 500, output: 50 } }]);
    const before = agent.messages.slice();
    // No call made yet: what zot knows of the context is the estimate of the transcript.
    const tokensBefore = agent.contextUse().tokens;
    expect(tokensBefore).toBeGreaterThan(0);

    const outcome = await agent.compact(signal());
    expect(outcome).toEqual({ status: "ok", summary: SUMMARY });
    expect(types(events)).toEqual(["compact_start", "usage", "compact_done", "done"]);
    // The summary is not streamed as answer text.
    expect(events.some((e) => e.type === "text_delta")).toBe(false);
    expect(events[0]).toEqual({ type: "compact_start", reason: "manual" });
    expect(events[2]).toEqual({ type: "compact_done", summary: SUMMARY, reason: "manual", messages_before: 6, messages_after: 3, tokens_before: tokensBefore });

    // Usage and cost count the summarising call.
    const usage = events[1] as Extract<AgentEvent, { type: "usage" }>;
    expect(usage.input).toBe(500);
    expect(usage.cost_usd).toBeCloseTo((500 * 3 + 50 * 15) / 1e6, 10);
    expect(agent.cumulative.input).toBe(500);
    expect(agent.cumulative.cost_usd).toBeCloseTo(usage.cost_usd, 10);

    // The request: same model, no tools, the summariser's system prompt, the older part serialised.
    expect(mock.requests).toHaveLength(1);
    const body = mock.requests[0]!.body;
    expect(body.model).toBe("claude-test");
    expect(body.tools).toBeUndefined();
    expect(body.max_tokens).toBe(1_000);
    expect(body.system[0].text).toBe(SUMMARISER_SYSTEM);
    expect(body.messages).toHaveLength(1);
    const sent = anthropicText(body.messages[0]);
    expect(sent).toContain("--- user ---\nPlease fix src/app.ts.");
    expect(sent).toContain('[tool call read {"path":"src/app.ts"}]');
    expect(sent).toContain("[tool result read]");
    expect(sent).toContain("TypeError: x is undefined");
    expect(sent).toContain("characters of this result omitted");
    expect(sent).toContain("Fixed the crash.");
    // The kept turn is not summarised.
    expect(sent).not.toContain("now add tests");

    // The transcript: the summary, then the recent turn verbatim.
    expect(agent.messages).toHaveLength(3);
    expect(agent.messages[0]!.content).toEqual([{ type: "text", text: `${SUMMARY_HEADING}${SUMMARY}` }]);
    expect(agent.messages.slice(1)).toEqual(before.slice(4));
    expect(compactions).toEqual([{ reason: "manual", summary: SUMMARY, message: agent.messages[0]!, kept: 2, messagesBefore: 6 }]);
    // The context is an estimate of the new transcript, well under the threshold.
    expect(agent.contextUse().tokens).toBeGreaterThan(0);
    expect(agent.contextUse().fraction).toBeLessThan(0.85);
  });

  test("the next prompt sends the summary first, and a second compaction summarises the first summary", async () => {
    const { agent, mock } = setup([
      { text: SUMMARY },
      { text: `Long answer. ${"More detail. ".repeat(400)}` },
      { text: "## Goal\nsecond summary" },
    ]);
    await agent.compact(signal());
    expect(await agent.prompt({ text: "what next?" }, signal())).toEqual({ status: "ok" });
    const next = mock.requests[1]!.body;
    expect(anthropicText(next.messages[0])).toBe(`${SUMMARY_HEADING}${SUMMARY}`);
    expect(next.tools.map((t: any) => t.name)).toEqual(["echo"]);

    expect(await agent.compact(signal())).toEqual({ status: "ok", summary: "## Goal\nsecond summary" });
    const sent = anthropicText(mock.requests[2]!.body.messages[0]);
    expect(sent).toContain(`--- user ---\n${SUMMARY_HEADING}${SUMMARY}`);
    expect(anthropicText(agent.messages[0]!)).toBe(`${SUMMARY_HEADING}## Goal\nsecond summary`);
  });

  test("instructions reach the summariser", async () => {
    const { agent, mock } = setup([{ text: SUMMARY }]);
    await agent.compact(signal(), { instructions: "keep the list of failing tests" });
    expect(anthropicText(mock.requests[0]!.body.messages[0])).toEndWith("keep the list of failing tests");
  });

  test("a short transcript: the turns before the last are summarised", async () => {
    const short = [text("user", "one"), text("assistant", "answer one"), text("user", "two"), text("assistant", "answer two")];
    const { agent, events, mock } = setup([{ text: SUMMARY }], { messages: short });
    expect(await agent.compact(signal())).toEqual({ status: "ok", summary: SUMMARY });
    expect(events.find((e) => e.type === "compact_done")).toMatchObject({ messages_before: 4, messages_after: 3 });
    expect(agent.messages.slice(1)).toEqual(short.slice(2));
    const sent = anthropicText(mock.requests[0]!.body.messages[0]);
    expect(sent).toContain("--- user ---\none\n\n--- assistant ---\nanswer one\n</conversation>");
  });

  test("nothing to compact: error then done, the transcript untouched and no model call", async () => {
    const short = [text("user", "hi"), text("assistant", "hello")];
    const { agent, events, mock } = setup([], { messages: short });
    const outcome = await agent.compact(signal());
    expect(outcome.status).toBe("error");
    expect(types(events)).toEqual(["compact_start", "error", "done"]);
    expect((events[1] as { message: string }).message).toStartWith("nothing to compact");
    expect(agent.messages).toEqual(short);
    expect(mock.requests).toHaveLength(0);

    const empty = setup([], { messages: [] });
    expect(await empty.agent.compact(signal())).toEqual({ status: "error", message: "nothing to compact: the transcript is empty", code: "compaction" });
  });

  test("a blank summary is an error and the transcript stays", async () => {
    const { agent, events } = setup([{ text: "  \n " }]);
    const before = agent.messages.slice();
    expect(await agent.compact(signal())).toEqual({ status: "error", message: "the model returned an empty summary", code: "compaction" });
    expect(types(events)).toEqual(["compact_start", "usage", "error", "done"]);
    expect(agent.messages).toEqual(before);
  });

  test("a provider error is the error event, and the transcript stays", async () => {
    const { agent, events } = setup([{ error: { status: 400, message: "bad request" } }]);
    const before = agent.messages.slice();
    const outcome = await agent.compact(signal());
    expect(outcome.status).toBe("error");
    expect(events.at(-2)).toEqual({ type: "error", message: "anthropic: HTTP 400: bad request", code: "bad_request" });
    expect(agent.messages).toEqual(before);
  });

  test("abort mid-summary: compact_start then done, no error, the transcript untouched", async () => {
    const { agent, events, mock, compactions } = setup([{ text: SUMMARY, delay_ms: 10_000 }]);
    const before = structuredClone(agent.messages);
    const controller = new AbortController();
    const running = agent.compact(controller.signal);
    while (mock.requests.length === 0) await Bun.sleep(5);
    controller.abort();
    expect(await running).toEqual({ status: "aborted" });
    expect(types(events)).toEqual(["compact_start", "done"]);
    expect(agent.messages).toEqual(before);
    expect(compactions).toEqual([]);
  });
});

describe("the context before the first call", () => {
  test("a loaded transcript (a resumed session) is estimated at once; replacing it re-estimates; an empty one is 0", () => {
    const { agent } = setup([]);
    const loaded = agent.contextUse().tokens;
    expect(loaded).toBeGreaterThan(1_000);
    agent.replaceTranscript(history().slice(4));
    expect(agent.contextUse().tokens).toBeGreaterThan(0);
    expect(agent.contextUse().tokens).toBeLessThan(loaded);
    agent.clear();
    expect(agent.contextUse()).toEqual({ tokens: 0, window: 4_000, fraction: 0 });
  });

  test("a resumed transcript past the threshold is compacted before the first call, not only after it", async () => {
    const { agent, mock, compactions } = setup([{ text: SUMMARY }, { text: "answered" }], { autoCompact: 0.3 });
    await agent.prompt({ text: "go on" }, new AbortController().signal);
    expect(compactions.map((c) => c.reason)).toEqual(["auto"]);
    expect(mock.requests).toHaveLength(2);
  });
});

describe("automatic compaction", () => {
  /** A first prompt whose call reports `input` tokens, then a second prompt. */
  async function twoPrompts(input: number, turns: ScriptTurn[], autoCompact?: number) {
    const s = setup([{ text: "first answer", usage: { input, output: 10 } }, ...turns], { autoCompact });
    expect(await s.agent.prompt({ text: "first" }, signal())).toEqual({ status: "ok" });
    s.events.length = 0;
    const outcome = await s.agent.prompt({ text: "second" }, signal());
    return { ...s, outcome };
  }

  test("the previous call's usage over the threshold compacts before the next model call", async () => {
    const { agent, events, mock, outcome } = await twoPrompts(3_600, [{ text: SUMMARY }, { text: "second answer" }]);
    expect(outcome).toEqual({ status: "ok" });
    expect(types(events)).toEqual([
      "user_message", "turn_start", "compact_start", "usage", "compact_done",
      "assistant_start", "usage", "assistant_message", "turn_end", "done",
    ]);
    expect(events[2]).toEqual({ type: "compact_start", reason: "auto" });
    // The context before, as the next call would send it: what the last call reported (input and output), and the new prompt's estimate.
    expect(events[4]).toMatchObject({ type: "compact_done", reason: "auto" });
    expect((events[4] as { tokens_before: number }).tokens_before).toBeGreaterThan(3_610);
    expect((events[4] as { tokens_before: number }).tokens_before).toBeLessThan(3_640);
    expect(mock.requests).toHaveLength(3);
    expect(mock.requests[1]!.body.system[0].text).toBe(SUMMARISER_SYSTEM);
    const third = mock.requests[2]!.body;
    expect(anthropicText(third.messages[0])).toBe(`${SUMMARY_HEADING}${SUMMARY}`);
    expect(anthropicText(third.messages.at(-1))).toBe("second");
    expect(third.tools.map((t: any) => t.name)).toEqual(["echo"]);
    expect(agent.messages[0]!.content).toEqual([{ type: "text", text: `${SUMMARY_HEADING}${SUMMARY}` }]);
    expect(agent.messages.at(-1)!.content).toEqual([{ type: "text", text: "second answer" }]);
  });

  test("below the threshold, or with auto compaction off, nothing is compacted", async () => {
    const below = await twoPrompts(3_000, [{ text: "second answer" }]);
    expect(below.outcome).toEqual({ status: "ok" });
    expect(types(below.events)).not.toContain("compact_start");
    await below.mock.stop();

    const off = await twoPrompts(3_990, [{ text: "second answer" }], 0);
    expect(types(off.events)).not.toContain("compact_start");
    expect(off.mock.requests).toHaveLength(2);
  });

  test("nothing to compact (one short turn over a tiny window) is no error: no compaction events, the turn succeeds", async () => {
    // The first call fills the window, but the transcript is one turn, short enough to keep verbatim.
    const s = setup(
      [{ tool_calls: [{ name: "echo", args: {} }], usage: { input: 3_900, output: 10 } }, { text: "done" }],
      { messages: [] },
    );
    expect(await s.agent.prompt({ text: "go" }, signal())).toEqual({ status: "ok" });
    const kinds = types(s.events);
    expect(kinds).not.toContain("compact_start");
    expect(kinds).not.toContain("error");
    expect(kinds.filter((k) => k === "turn_start")).toHaveLength(2);
    expect(kinds.at(-1)).toBe("done");
    expect(s.mock.requests).toHaveLength(2);
  });

  test("a failed automatic compaction is an error event, and the turn goes on with the whole transcript", async () => {
    const { agent, events, mock, outcome } = await twoPrompts(3_600, [
      { error: { status: 400, message: "bad request" } },
      { text: "second answer" },
    ]);
    expect(outcome).toEqual({ status: "ok" });
    expect(events.find((e) => e.type === "error")).toEqual({
      type: "error",
      message: "automatic compaction failed: anthropic: HTTP 400: bad request; going on with the whole transcript",
      code: "bad_request",
    });
    expect(types(events).slice(-5)).toEqual(["assistant_start", "usage", "assistant_message", "turn_end", "done"]);
    // 6 of history, 2 of the first prompt, the second prompt.
    expect(mock.requests[2]!.body.messages).toHaveLength(9);
    expect(agent.messages).toHaveLength(10);
  });
});

describe("context overflow", () => {
  test("anthropic: the overflow compacts, then the same call is retried once", async () => {
    const { agent, events, mock } = setup([
      { error: { status: 400, message: OVERFLOW } },
      { text: SUMMARY },
      { text: "the answer" },
    ]);
    const knownBefore = agent.contextUse().tokens;
    expect(await agent.prompt({ text: "go on" }, signal())).toEqual({ status: "ok" });
    // The refused call reported nothing: the context before is the estimate of what was sent, the prompt included.
    const done = events.find((e) => e.type === "compact_done");
    expect(done).toMatchObject({ reason: "overflow" });
    expect((done as Extract<AgentEvent, { type: "compact_done" }>).tokens_before).toBeGreaterThan(knownBefore);
    expect(types(events)).toEqual([
      "user_message", "turn_start", "compact_start", "usage", "compact_done",
      "assistant_start", "usage", "assistant_message", "turn_end", "done",
    ]);
    expect(events[2]).toEqual({ type: "compact_start", reason: "overflow" });
    expect(mock.requests).toHaveLength(3);
    const [first, , retry] = mock.requests.map((r) => r.body);
    expect(retry.system).toEqual(first.system);
    expect(retry.tools).toEqual(first.tools);
    expect(anthropicText(retry.messages[0])).toBe(`${SUMMARY_HEADING}${SUMMARY}`);
    expect(anthropicText(retry.messages.at(-1))).toBe("go on");
    expect(retry.messages.length).toBeLessThan(first.messages.length);
  });

  test("openai chat: context_length_exceeded compacts and retries too", async () => {
    const { agent, events, mock } = setup(
      [
        { error: { status: 400, message: "This model's maximum context length is 128000 tokens." } },
        { text: SUMMARY },
        { text: "the answer" },
      ],
      { api: "openai" },
    );
    expect(await agent.prompt({ text: "go on" }, signal())).toEqual({ status: "ok" });
    expect(events.find((e) => e.type === "compact_done")).toMatchObject({ reason: "overflow", summary: SUMMARY });
    expect(mock.requests).toHaveLength(3);
    const summarising = mock.requests[1]!.body;
    expect(summarising.tools).toBeUndefined();
    expect(summarising.messages[0]).toEqual({ role: "system", content: SUMMARISER_SYSTEM });
    const retry = mock.requests[2]!.body;
    expect(retry.messages[1].content).toContain(SUMMARY_HEADING);
    expect(retry.tools.map((t: any) => t.function.name)).toEqual(["echo"]);
  });

  test("a second overflow ends the turn with the error; the compacted transcript stays valid", async () => {
    const { agent, events, mock } = setup([
      { error: { status: 400, message: OVERFLOW } },
      { text: SUMMARY },
      { error: { status: 400, message: OVERFLOW } },
    ]);
    const outcome = await agent.prompt({ text: "go on" }, signal());
    expect(outcome).toEqual({ status: "error", code: "context_overflow", message: `anthropic: HTTP 400: ${OVERFLOW}` });
    expect(mock.requests).toHaveLength(3);
    expect(events.slice(-3)).toEqual([
      { type: "turn_end", stop: "error", error: `anthropic: HTTP 400: ${OVERFLOW}`, code: "context_overflow" },
      { type: "error", message: `anthropic: HTTP 400: ${OVERFLOW}`, code: "context_overflow" },
      { type: "done" },
    ]);
    expect(types(events)).not.toContain("assistant_start");
    expect(agent.messages[0]!.content).toEqual([{ type: "text", text: `${SUMMARY_HEADING}${SUMMARY}` }]);
    expect(agent.messages.at(-1)!.content).toEqual([{ type: "text", text: "go on" }]);
  });

  test("a failed overflow compaction ends the turn with the original error, saying the compaction failed too", async () => {
    const { agent, events, mock } = setup([
      { error: { status: 400, message: OVERFLOW } },
      { error: { status: 400, message: "bad request" } },
    ]);
    const before = agent.messages.length;
    const outcome = await agent.prompt({ text: "go on" }, signal());
    // What -p prints: the overflow, what was tried, and what to do.
    const message =
      `anthropic: HTTP 400: ${OVERFLOW}; compacting the conversation to fit failed too (anthropic: HTTP 400: bad request); ` +
      "compact it (/compact), fork an earlier turn (zot sessions fork), or start a new session";
    expect(outcome).toEqual({ status: "error", code: "context_overflow", message });
    expect(mock.requests).toHaveLength(2);
    // One error for the turn (docs/rpc.md), which names the compaction's failure too.
    expect(events.filter((e) => e.type === "error")).toEqual([{ type: "error", message, code: "context_overflow" }]);
    expect(agent.messages).toHaveLength(before + 1);
  });

  test("an overflow on a turn that is all there is: the advice is to send less or pick a larger window (compacting cannot help)", async () => {
    const { agent, mock, events } = setup([{ error: { status: 400, message: OVERFLOW } }], { messages: [] });
    const outcome = await agent.prompt({ text: "a very long prompt" }, signal());
    // No compaction started (nothing to compact), and the turn's one error says it all.
    expect(events.filter((e) => e.type === "compact_start")).toEqual([]);
    expect(events.filter((e) => e.type === "error")).toHaveLength(1);
    expect(outcome).toMatchObject({ status: "error", code: "context_overflow" });
    const message = (outcome as { message: string }).message;
    expect(message).toContain("compacting the conversation to fit failed too (nothing to compact");
    expect(message).toContain(`this turn alone does not fit ${agent.model.id}'s window`);
    expect(message).toContain("send less at once");
    expect(message).not.toContain("/compact");
    expect(mock.requests).toHaveLength(1);
  });
});

describe("hard_abort after a compaction mid-prompt", () => {
  /** A before_llm participant that hard-aborts the model call `when` says. */
  const hardAbortWhen = (agent: Agent, when: (payload: object) => boolean) =>
    agent.chain.add({
      name: "kill",
      priority: 0,
      stages: ["before_llm"],
      timeoutMs: 1000,
      onFailure: "allow",
      decide: async (_stage, payload) => (when(payload) ? { action: "hard_abort", reason: "stop" } : { action: "continue" }),
    });
  const hardAbortOnStep2 = (agent: Agent) => hardAbortWhen(agent, (payload) => "step" in payload && payload.step === 2);

  test("the prompt's messages, moved by the compaction, are taken out", async () => {
    // Step 1 calls the tool and reports a nearly full window; step 2 compacts first, then is hard-aborted.
    const { agent, events } = setup([
      { tool_calls: [{ id: "toolu_9", name: "echo", args: {} }], usage: { input: 3_700 } },
      { text: SUMMARY },
    ]);
    hardAbortOnStep2(agent);
    const outcome = await agent.prompt({ text: "run it" }, signal());
    expect(outcome).toMatchObject({ status: "error", message: "stop" });
    expect(types(events)).toContain("compact_done");
    // The summary and the kept part of the history; nothing of this prompt.
    expect(agent.messages.map((m) => anthropicText(m))).toEqual([`${SUMMARY_HEADING}${SUMMARY}`, "now add tests", "Tests added."]);
  });

  test("a Stop hook's second loop after a compaction inside the prompt: a hard_abort there takes back this prompt's messages, found by its first message, not by where it once started", async () => {
    const { agent } = setup([
      { tool_calls: [{ id: "toolu_9", name: "echo", args: {} }], usage: { input: 3_700 } },
      { text: SUMMARY },
      { text: "first answer" },
    ]);
    let again = false;
    agent.setPromptHooks({ stopping: async () => (again ? undefined : ((again = true), "keep going")) });
    hardAbortWhen(agent, () => again);
    const outcome = await agent.prompt({ text: "run it" }, signal());
    expect(outcome).toMatchObject({ status: "error", message: "stop" });
    expect(agent.messages.map((m) => anthropicText(m))).toEqual([`${SUMMARY_HEADING}${SUMMARY}`, "now add tests", "Tests added."]);
  });

  test("when the prompt's first messages were summarised, the transcript from before the prompt comes back: the summary, written from the prompt, is no longer sent", async () => {
    // The tool's result is bigger than the keep budget, so the cut falls inside this prompt.
    const { agent, mock } = setup(
      [{ tool_calls: [{ id: "toolu_9", name: "echo", args: {} }], usage: { input: 3_700 } }, { text: SUMMARY }, { text: "fresh" }],
      { tools: [echoTool("y".repeat(8_000))] },
    );
    const before = agent.messages.slice();
    hardAbortOnStep2(agent);
    await agent.prompt({ text: "my password is hunter2, run it" }, signal());
    expect(agent.messages).toEqual(before);
    expect(agent.contextUse().tokens).toBeLessThan(3_700);
    agent.chain.remove("kill");
    await agent.prompt({ text: "next" }, signal());
    expect(JSON.stringify(mock.requests.at(-1)!.body.messages)).not.toContain(SUMMARY);
    expect(JSON.stringify(mock.requests.at(-1)!.body.messages)).not.toContain("hunter2");
  });
});
