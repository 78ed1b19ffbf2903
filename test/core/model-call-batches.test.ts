// A model call reading its provider's stream in batches (the events one read of a response
// completed): every event of a batch is emitted once and in order, across text and tool calls;
// nothing after an abort, even from the batch in hand; a listener that leaves out the deltas hears
// everything else; the reader's pressure holds the next batch back.
import { describe, expect, test } from "bun:test";
import { Agent } from "../../src/core/agent.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import type { ModelRequest, Provider, ProviderBatch, ProviderEvent } from "../../src/protocol/provider.ts";
import type { Tool } from "../../src/protocol/tool.ts";
import { testModel } from "../support/test-model.ts";

const usage = { type: "usage", usage: { input: 10, output: 5, cache_read: 0, cache_write: 0 } } as const;
const text = (delta: string): ProviderEvent => ({ type: "text_delta", delta });

/** A provider that hands over the given batches for each call, in turn (each call's own list). */
function batches(...calls: ProviderBatch[][]): Provider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: "batches",
    requests,
    async *stream(request) {
      requests.push(request);
      for (const batch of calls.shift() ?? []) yield batch;
    },
  };
}

const noop: Tool = {
  name: "noop",
  description: "does nothing",
  parameters: { type: "object" },
  async execute() {
    return { content: [{ type: "text", text: "nothing done" }], is_error: false };
  },
};

function setup(provider: Provider) {
  const agent = new Agent({ provider, model: testModel(), tools: [noop], system: "sys", cwd: "/tmp" });
  const events: AgentEvent[] = [];
  agent.onEvent((event) => events.push(event));
  return { agent, events };
}

/** The events the provider's stream turns into, in emission order. */
const streamed = (events: AgentEvent[]) =>
  events.filter((e) => e.type === "text_delta" || e.type.startsWith("tool_use_")).map((e) => JSON.stringify(e));

describe("a model call's batches", () => {
  test("one batch across text, a tool call and more text: every event once, in order, none merged", async () => {
    const inOneRead: ProviderEvent[] = [
      text("Let "),
      text("me "),
      text("look."),
      { type: "tool_use_start", id: "c1", name: "noop" },
      { type: "tool_use_args", id: "c1", delta: '{"a":' },
      { type: "tool_use_args", id: "c1", delta: "1}" },
      { type: "tool_use_end", id: "c1" },
      text("Then "),
      text("more."),
    ];
    const content = [
      { type: "text", text: "Let me look." },
      { type: "tool_call", id: "c1", name: "noop", args: { a: 1 } },
      { type: "text", text: "Then more." },
    ] as const;
    const { agent, events } = setup(
      batches(
        [inOneRead, [usage, { type: "done", content: [...content], stop: "tool_use" }]],
        [[text("ok"), usage, { type: "done", content: [{ type: "text", text: "ok" }], stop: "end_turn" }]],
      ),
    );
    expect(await agent.prompt({ text: "go" }, new AbortController().signal)).toEqual({ status: "ok" });
    expect(streamed(events)).toEqual([...inOneRead, text("ok")].map((e) => JSON.stringify(e)));
    // assistant_start once per call, before the first event of its first batch
    const kinds = events.map((e) => e.type);
    expect(kinds.indexOf("assistant_start")).toBe(kinds.indexOf("text_delta") - 1);
    expect(kinds.filter((k) => k === "assistant_start")).toHaveLength(2);
    expect(agent.messages[1]).toMatchObject({ role: "assistant", content });
    expect(agent.messages[2]).toMatchObject({ role: "tool", content: [{ type: "tool_result", call_id: "c1" }] });
  });

  test("an abort in the middle of a batch: not one event after the one that aborted; the text before it is kept", async () => {
    const controller = new AbortController();
    const { agent, events } = setup(
      batches([
        [text("one "), text("two "), text("three "), { type: "tool_use_start", id: "c1", name: "noop" }, { type: "tool_use_end", id: "c1" }],
        [text("never "), usage, { type: "done", content: [], stop: "end_turn" }],
      ]),
    );
    agent.onEvent((event) => {
      if (event.type === "text_delta" && event.delta === "two ") controller.abort();
    });
    expect(await agent.prompt({ text: "go" }, controller.signal)).toEqual({ status: "aborted" });
    expect(streamed(events)).toEqual([text("one "), text("two ")].map((e) => JSON.stringify(e)));
    expect(events.slice(-2)).toEqual([{ type: "turn_end", stop: "aborted" }, { type: "done" }]);
    expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "one two " }] });
  });

  test("a listener without deltas hears every other event in order; the others hear every delta", async () => {
    const provider = batches([
      [text("a"), { type: "thinking_delta", delta: "hm" }, text("b")],
      [{ type: "tool_use_start", id: "c1", name: "noop" }, { type: "tool_use_args", id: "c1", delta: "{}" }, { type: "tool_use_end", id: "c1" }],
      [usage, { type: "done", content: [{ type: "text", text: "ab" }], stop: "end_turn" }],
    ]);
    const { agent, events } = setup(provider);
    const milestones: AgentEvent[] = [];
    agent.onEvent((event) => milestones.push(event), { deltas: false });
    const late: AgentEvent[] = [];
    agent.onEvent((event) => late.push(event));
    await agent.prompt({ text: "go" }, new AbortController().signal);
    const deltaTypes = new Set(["text_delta", "thinking_delta", "tool_use_args"]);
    expect(events.filter((e) => deltaTypes.has(e.type))).toHaveLength(4);
    expect(milestones).toEqual(events.filter((e) => !deltaTypes.has(e.type)));
    expect(milestones.map((e) => e.type)).toContain("tool_use_start");
    expect(late).toEqual(events);
  });

  test("the reader's pressure holds the next batch back until it is released", async () => {
    let release: () => void = () => {};
    let pressing = false;
    const reads: number[] = [];
    let read = 0;
    const provider: Provider = {
      name: "counted",
      async *stream() {
        for (const batch of [[text("a"), text("b")], [text("c")], [usage, { type: "done", content: [{ type: "text", text: "abc" }], stop: "end_turn" } as const]] as ProviderBatch[]) {
          reads.push(++read);
          yield batch;
        }
      },
    };
    const { agent, events } = setup(provider);
    agent.holdBack(() => (pressing ? new Promise<void>((resolve) => (release = resolve)) : undefined));
    agent.onEvent((event) => {
      if (event.type === "text_delta" && event.delta === "b") pressing = true;
    });
    const running = agent.prompt({ text: "go" }, new AbortController().signal);
    await Bun.sleep(20);
    // The first batch went out whole; the second was read but waits with its events unsent.
    expect(streamed(events)).toEqual([text("a"), text("b")].map((e) => JSON.stringify(e)));
    expect(reads).toEqual([1, 2]);
    pressing = false;
    release();
    expect(await running).toEqual({ status: "ok" });
    expect(streamed(events)).toEqual([text("a"), text("b"), text("c")].map((e) => JSON.stringify(e)));
  });
});
