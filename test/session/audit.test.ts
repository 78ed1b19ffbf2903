// The audit trail's raw material: every intercept event of a rewrite or a synthetic response says
// what it was and what it became, bounded in size, and a model request's rewrite is summarised.
import { describe, expect, test } from "bun:test";
import { CHANGE_TEXT_MAX } from "../../src/core/intercept-change.ts";
import { type Decision, InterceptChain, type Participant } from "../../src/core/intercept.ts";
import type { AgentEvent, InterceptStage } from "../../src/protocol/events.ts";
import type { ModelRequest } from "../../src/protocol/provider.ts";
import { testModel } from "../support/test-model.ts";

function participant(name: string, decide: (stage: InterceptStage, payload: any) => Decision): Participant {
  return {
    name,
    priority: 0,
    stages: ["before_llm", "after_llm", "tool_call", "after_tool", "assistant_message"],
    timeoutMs: 1000,
    onFailure: "allow",
    decide: async (stage, payload) => decide(stage, payload) as any,
  };
}

function chainWith(decide: (stage: InterceptStage, payload: any) => Decision) {
  const events: AgentEvent[] = [];
  const chain = new InterceptChain({ emit: (e) => events.push(e) });
  chain.add(participant("p", decide));
  return { chain, events };
}

const signal = new AbortController().signal;
const request: ModelRequest = {
  model: testModel(),
  system: "You are zot. Be brief.",
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }], time: "t" }],
  tools: [{ name: "bash", description: "", parameters: {} }],
};

describe("intercept events carry before and after", () => {
  test("a tool_call rewrite: the call before and after", async () => {
    const { chain, events } = chainWith(() => ({ action: "modify", value: { command: "ls -la" }, reason: "longer listing" }));
    await chain.run("tool_call", { id: "c1", name: "bash", args: { command: "ls" } }, signal);
    expect(events).toEqual([
      {
        type: "intercept",
        participant: "p",
        stage: "tool_call",
        action: "modify",
        reason: "longer listing",
        before: 'bash {"command":"ls"}',
        after: 'bash {"command":"ls -la"}',
      },
    ]);
  });

  test("a synthetic response: the call it stood in for and the answer given", async () => {
    const { chain, events } = chainWith(() => ({ action: "respond", result: { content: [{ type: "text", text: "cached" }], is_error: false } }));
    await chain.run("tool_call", { id: "c1", name: "read", args: { path: "a" } }, signal);
    expect(events[0]).toMatchObject({ action: "respond", before: 'read {"path":"a"}', after: "cached" });
  });

  test("a long rewrite is cut to a bounded excerpt that says how much was left out", async () => {
    const long = "y".repeat(CHANGE_TEXT_MAX + 500);
    const { chain, events } = chainWith(() => ({ action: "modify", value: long }));
    await chain.run("assistant_message", { text: "short", content: [] }, signal);
    const event = events[0] as Extract<AgentEvent, { type: "intercept" }>;
    // The model's text is not repeated (what a rewrite masked stays out of the event); the transcript has it.
    expect(event.before).toBe("the model's text (5 characters), not repeated");
    expect(event.after).toBe(`${"y".repeat(CHANGE_TEXT_MAX)}… (500 more characters)`);
  });

  test("a tool's output a participant rewrote (a secret it masked) is not repeated: its length, and what it became", async () => {
    const { chain, events } = chainWith(() => ({ action: "modify", value: { content: [{ type: "text", text: "token=[redacted]" }], is_error: false } }));
    const result = { content: [{ type: "text" as const, text: "token=sk-live-123456" }], is_error: false };
    await chain.run("after_tool", { id: "c1", name: "bash", args: {}, result, durationMs: 1 }, signal);
    const event = events[0] as Extract<AgentEvent, { type: "intercept" }>;
    expect(event.before).toBe("the tool's output (20 characters), not repeated");
    expect(event.after).toBe("token=[redacted]");
    expect(JSON.stringify(events)).not.toContain("sk-live");
  });

  test("a model request rewrite is summarised by the parts that changed, not copied whole", async () => {
    const { chain, events } = chainWith((_stage, payload) => ({
      action: "modify",
      value: {
        ...payload.request,
        system: `${payload.request.system} Never run rm.`,
        messages: [...payload.request.messages, { role: "user", content: [{ type: "text", text: "injected context" }], time: "t" }],
      },
    }));
    await chain.run("before_llm", { step: 1, request }, signal);
    const event = events[0] as Extract<AgentEvent, { type: "intercept" }>;
    expect(event.before).toBe('system: 22 characters; from character 23: ""\nmessages: 1\nmessage 2: (none)');
    expect(event.after).toBe('system: 36 characters; from character 23: " Never run rm."\nmessages: 2\nmessage 2: user: injected context');
  });

  test("a deny has nothing rewritten, so no before/after", async () => {
    const { chain, events } = chainWith(() => ({ action: "deny", reason: "no" }));
    await chain.run("tool_call", { id: "c1", name: "bash", args: {} }, signal);
    expect(events[0]).toEqual({ type: "intercept", participant: "p", stage: "tool_call", action: "deny", reason: "no" });
  });
});
