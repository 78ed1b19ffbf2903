// When the agent compacts on its own, with the real provider against the mock LLM: the threshold
// counts the context as the next call sends it (the last call's count and the tool results added
// since), and the plan believes the provider's count over the character estimate (dense text).
import { afterEach, describe, expect, test } from "bun:test";
import { Agent } from "../../src/core/agent.ts";
import { SUMMARISER_SYSTEM, SUMMARY_HEADING } from "../../src/core/compact.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import type { ModelInfo } from "../../src/protocol/models.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import type { Tool } from "../../src/protocol/tool.ts";
import { createAnthropicProvider } from "../../src/providers/anthropic.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { testModel } from "../support/test-model.ts";

const SUMMARY = "## Goal\nSummarise a.txt and b.txt";
const OVERFLOW = "prompt is too long: 26000 tokens > 20000 maximum";
/** About 1,000 tokens of system prompt, as the estimate and the provider both count prose. */
const SYSTEM = "You are zot, a coding agent. ".repeat(140);

// A 20,000-token window keeps 5,000 tokens verbatim.
const model: ModelInfo = testModel({ id: "claude-small", provider: "anthropic", api: "anthropic-messages", context_window: 20_000, max_output: 1_000 });

/** Dense text: 8,000 CJK characters, 2,000 tokens by the estimate, about 8,000 as a tokenizer counts them. */
const DENSE = "漢字仮名交じり文".repeat(1_000);

function readTool(files: Record<string, string>): Tool {
  return {
    name: "read",
    description: "reads a file",
    parameters: { type: "object", properties: { path: { type: "string" } } },
    execute: async (args) => ({ content: [{ type: "text", text: files[String(args.path)] ?? "no such file" }], is_error: false }),
  };
}

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

function setup(turns: ScriptTurn[], files: Record<string, string>, autoCompact?: number) {
  const m = (mock = startMockLlm(turns));
  const agent = new Agent({
    provider: createAnthropicProvider({ apiKey: "k", baseUrl: m.url }),
    model,
    tools: [readTool(files)],
    system: SYSTEM,
    cwd: "/tmp",
    ...(autoCompact !== undefined ? { autoCompact } : {}),
  });
  const events: AgentEvent[] = [];
  agent.onEvent((e) => events.push(e));
  return { agent, events, mock: m };
}

const types = (events: AgentEvent[]) => events.map((e) => e.type).filter((t) => t !== "text_delta" && !t.startsWith("tool_use"));
const signal = () => new AbortController().signal;
const read = (path: string): ScriptTurn => ({ tool_calls: [{ name: "read", args: { path } }] });
const sentText = (body: any) => JSON.stringify(body.messages);

describe("the threshold counts what was added since the last call", () => {
  test("a big tool result pushes the context past the threshold: compacted (auto) before the call, which never overflows", async () => {
    // The first call reports 9,000 of 20,000 tokens (45 %); the file read then adds about 9,000 more.
    const big = "a line of text, as a log or a source file has them\n".repeat(700);
    const { agent, events, mock } = setup(
      [
        { ...read("notes.txt"), usage: { input: 1_100, output: 20 } },
        { ...read("big.log"), usage: { input: 9_000, output: 20 } },
        { text: SUMMARY },
        { text: "done" },
      ],
      { "notes.txt": "n".repeat(30_000), "big.log": big },
    );
    expect(await agent.prompt({ text: "look at the notes, then the log" }, signal())).toEqual({ status: "ok" });
    // The third step: compacted first, then its one call.
    const kinds = types(events);
    const compacting = kinds.indexOf("compact_start");
    expect(kinds.slice(0, compacting).filter((k) => k === "turn_start")).toHaveLength(3);
    expect(kinds.slice(compacting - 1, compacting + 4)).toEqual(["turn_start", "compact_start", "usage", "compact_done", "assistant_start"]);
    expect(events.find((e) => e.type === "compact_start")).toEqual({ type: "compact_start", reason: "auto" });
    expect(mock.requests).toHaveLength(4);
    expect(mock.requests[2]!.body.system[0].text).toBe(SUMMARISER_SYSTEM);
    // The call after it: the summary, then the step that read the log, verbatim.
    const last = mock.requests[3]!.body;
    expect(JSON.stringify(last.messages[0])).toContain(SUMMARY_HEADING.trim());
    expect(sentText(last)).toContain("a line of text, as a log");
    expect(sentText(last)).not.toContain("nnnnnnnnnn");
  });
});

describe("dense text: the provider's count outweighs the character estimate", () => {
  test("a report past the threshold compacts the turn's older step, though the estimate finds the whole turn short enough to keep", async () => {
    // The second call reports 11,000 tokens (55 %, past a 50 % threshold) for a request the
    // estimate puts at about 3,100: the calibration makes b.txt about 7,000 tokens, more than the
    // 5,000 kept verbatim, so a.txt's step is summarised. By the estimate alone, b.txt is 2,000
    // tokens and the turn is "short enough to keep verbatim".
    const { agent, events, mock } = setup(
      [{ ...read("a.txt"), usage: { input: 1_100, output: 20 } }, { ...read("b.txt"), usage: { input: 11_000, output: 20 } }, { text: SUMMARY }, { text: "done" }],
      { "a.txt": `A-FILE ${DENSE}`, "b.txt": `B-FILE ${DENSE}` },
      0.5,
    );
    expect(await agent.prompt({ text: "summarise a.txt and b.txt" }, signal())).toEqual({ status: "ok" });
    expect(events.find((e) => e.type === "compact_done")).toMatchObject({ reason: "auto", messages_before: 5, messages_after: 3 });
    expect(mock.requests).toHaveLength(4);
    expect(mock.requests[2]!.body.system[0].text).toBe(SUMMARISER_SYSTEM);
    expect(sentText(mock.requests[2]!.body)).toContain("A-FILE");
    const last = sentText(mock.requests[3]!.body);
    expect(last).toContain("B-FILE");
    expect(last).not.toContain("A-FILE");
  });

  test("after an overflow the verbatim tail shrinks to fit: compacted and retried, not 'nothing to compact'", async () => {
    // Auto-compaction off: the second call reported 9,000, the window is 20,000; the third call
    // overflows. The estimate of the turn (about 4,100) contradicts that; the window is what counts.
    const { agent, events, mock } = setup(
      [
        { ...read("a.txt"), usage: { input: 1_100, output: 20 } },
        { ...read("b.txt"), usage: { input: 9_000, output: 20 } },
        { error: { status: 400, message: OVERFLOW } },
        { text: SUMMARY },
        { text: "done" },
      ],
      { "a.txt": `A-FILE ${DENSE}`, "b.txt": `B-FILE ${DENSE}` },
      0,
    );
    expect(await agent.prompt({ text: "summarise a.txt and b.txt" }, signal())).toEqual({ status: "ok" });
    expect(events.find((e) => e.type === "compact_done")).toMatchObject({ reason: "overflow", messages_before: 5, messages_after: 3 });
    expect(events.some((e) => e.type === "error")).toBe(false);
    expect(mock.requests).toHaveLength(5);
    const retry = sentText(mock.requests[4]!.body);
    expect(retry).toContain("B-FILE");
    expect(retry).not.toContain("A-FILE");
  });

  test("an overflow whose newest tool result alone is more than the window says that plainly, without a summarising call", async () => {
    const { agent, events, mock } = setup(
      [{ ...read("huge.txt"), usage: { input: 1_100, output: 20 } }, { error: { status: 400, message: OVERFLOW } }],
      { "huge.txt": "x".repeat(100_000) },
      0,
    );
    const outcome = await agent.prompt({ text: "read huge.txt" }, signal());
    expect(outcome).toMatchObject({ status: "error", code: "context_overflow" });
    const message = (outcome as { message: string }).message;
    expect(message).toContain("the latest step's tool results alone take about 25,006 tokens, more than the whole window (20,000 tokens)");
    expect(message).not.toContain("short enough to keep verbatim");
    expect(types(events)).not.toContain("compact_start");
    expect(mock.requests).toHaveLength(2);
  });
});
