// The hook protocol's schemas and zot ↔ PicoClaw conversions, without processes: every frame zot
// builds passes its own schema, replies are read as leniently as PicoClaw reads them, and a round
// trip through a hook that changed nothing changes nothing.
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import type { LlmResponse } from "../../src/core/intercept.ts";
import { HookEvents } from "../../src/extensions/hook-events.ts";
import { EventMethodField, hookEventMethod, hookModes, hookTimeouts, ObserveList } from "../../src/extensions/hook-spec.ts";
import {
  applyHookRequest,
  applyHookResponse,
  applyHookToolResult,
  respondedResult,
  toHookMessages,
  toHookResponse,
  toHookToolResult,
  toHookTools,
} from "../../src/extensions/hook-wire.ts";
import {
  AfterToolResult,
  ApproveToolResult,
  BeforeToolResult,
  HelloParams,
  HookEventParams,
  JsonRpcNotification,
  JsonRpcReply,
  JsonRpcRequest,
  RuntimeEventParams,
} from "../../src/protocol/hook-rpc.ts";
import type { Message } from "../../src/protocol/messages.ts";
import type { ModelRequest } from "../../src/protocol/provider.ts";
import { testModel } from "../support/test-model.ts";

const time = "2026-01-01T00:00:00.000Z";
const transcript: Message[] = [
  { role: "user", content: [{ type: "text", text: "look" }, { type: "image", mime_type: "image/png", data: "iVBORw0KGgo=" }], time },
  {
    role: "assistant",
    content: [
      { type: "thinking", text: "hmm", signature: "sig" },
      { type: "text", text: "reading" },
      { type: "tool_call", id: "a", name: "read", args: { path: "x" } },
      { type: "tool_call", id: "b", name: "read", args: { path: "y" } },
    ],
    time,
  },
  {
    role: "tool",
    content: [
      { type: "tool_result", call_id: "a", is_error: false, content: [{ type: "text", text: "X" }] },
      { type: "tool_result", call_id: "b", is_error: true, content: [{ type: "text", text: "no y" }] },
    ],
    time,
  },
];
const request: ModelRequest = {
  model: testModel(),
  system: "be brief",
  messages: transcript,
  tools: [{ name: "read", description: "reads", parameters: { type: "object" } }],
};

describe("schemas", () => {
  test("the frames zot sends pass their schemas; JSON-RPC ids are integers from 1", () => {
    expect(v.safeParse(JsonRpcRequest, { jsonrpc: "2.0", id: 1, method: "hook.hello", params: {} }).success).toBe(true);
    for (const id of [0, 1.5, "1"]) expect(v.safeParse(JsonRpcRequest, { jsonrpc: "2.0", id, method: "hook.hello", params: {} }).success).toBe(false);
    expect(v.parse(HelloParams, { name: "h", version: 1, modes: ["observe", "llm", "tool", "approve"] }).modes).toHaveLength(4);
    expect(v.safeParse(HelloParams, { name: "h", version: 2, modes: [] }).success).toBe(false);
    const events = new HookEvents("session-1");
    const [turnStart] = events.translate({ type: "user_message", content: [{ type: "text", text: "hi" }], time });
    const notification = { jsonrpc: "2.0", method: "hook.event", params: turnStart.event };
    expect(v.parse(JsonRpcNotification, JSON.parse(JSON.stringify(notification)))).toEqual(notification as any);
    expect(v.parse(HookEventParams, turnStart.event).Meta).toMatchObject({ TurnID: "zot-turn-1", SessionKey: "session-1", Iteration: 0 });
    const runtime = { jsonrpc: "2.0", method: "hook.runtime_event", params: turnStart.runtime };
    expect(v.parse(JsonRpcNotification, JSON.parse(JSON.stringify(runtime)))).toEqual(runtime as any);
    expect(v.safeParse(RuntimeEventParams, { ...turnStart.runtime, kind: "turn_start" }).success).toBe(false);
  });

  test("replies are read leniently: unknown fields pass, {} is a valid answer, a wrong type is not", () => {
    expect(v.parse(JsonRpcReply, { id: 3, result: { action: "continue", extra: 1 } })).toMatchObject({ id: 3 });
    expect(v.parse(JsonRpcReply, { jsonrpc: "1.0", id: "3", error: { code: -32000, message: "x" } }).error?.message).toBe("x");
    expect(v.parse(ApproveToolResult, {})?.approved).toBeUndefined();
    expect(v.parse(BeforeToolResult, { action: "respond", result: { for_llm: "r" }, note: "ignored" })?.result?.for_llm).toBe("r");
    expect(v.parse(AfterToolResult, null)).toBeNull();
    expect(v.safeParse(BeforeToolResult, { action: 5 }).success).toBe(false);
    expect(v.safeParse(ApproveToolResult, { approved: "yes" }).success).toBe(false);
  });

  test("modes come from the config the way PicoClaw derives them", () => {
    expect(hookModes({ intercept: ["after_llm", "approve_tool"], observe: ["turn_end"] })).toEqual({ modes: ["observe", "llm", "approve"], observe: ["turn_end"] });
    expect(hookModes({ observe: ["*"] })).toEqual({ modes: ["observe"], observe: "all" });
    expect(hookModes({ intercept: [""] })).toEqual({ error: expect.stringContaining("no hook modes enabled") });
    // PicoClaw HEAD's dotted names: agent.* are the same kinds; the other families are never sent.
    expect(hookModes({ observe: ["agent.tool.exec_end", "gateway.ready", "turn_end"] })).toEqual({ modes: ["observe"], observe: ["tool_exec_end", "turn_end"] });
    expect(v.safeParse(ObserveList, ["agent.tool.exec_start", "mcp.server.failed", "*"]).success).toBe(true);
    expect(v.safeParse(ObserveList, ["tool_exec_begin"]).success).toBe(false);
    expect(v.safeParse(ObserveList, ["agent.no_such_kind"]).success).toBe(false);
    expect(hookTimeouts({ approve_tool: 100 }, { before_tool: 7 })).toMatchObject({ hello: 5000, before_tool: 7, after_tool: 5000, approve_tool: 100 });
  });
});

describe("requests", () => {
  test("the transcript as OpenAI-style messages: system first, one tool message per result, images described", () => {
    const sent = toHookMessages(request).map((s) => s.message);
    expect(sent).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "look", media: ["image/png, 8 bytes"] },
      {
        role: "assistant",
        content: "reading",
        reasoning_content: "hmm",
        tool_calls: [
          { id: "a", type: "function", function: { name: "read", arguments: '{"path":"x"}' } },
          { id: "b", type: "function", function: { name: "read", arguments: '{"path":"y"}' } },
        ],
      },
      { role: "tool", content: "X", tool_call_id: "a" },
      { role: "tool", content: "no y", tool_call_id: "b" },
    ]);
    expect(toHookTools(request.tools)).toEqual([{ type: "function", function: { name: "read", description: "reads", parameters: { type: "object" } } }]);
  });

  test("a request sent back unchanged (through JSON) is the same request object", () => {
    const sent = toHookMessages(request);
    const echoed = JSON.parse(JSON.stringify({ model: "test-model", messages: sent.map((s) => s.message), tools: toHookTools(request.tools), options: { max_tokens: 100 } }));
    expect(applyHookRequest(request, sent, echoed)).toBe(request);
  });

  test("an appended message and a new system prompt apply; untouched messages keep images, thinking and signatures", () => {
    const sent = toHookMessages(request);
    const messages = [{ role: "system", content: "be thorough" }, ...sent.slice(1).map((s) => s.message), { role: "user", content: "and more" }];
    const next = applyHookRequest(request, sent, { messages });
    expect(next.system).toBe("be thorough");
    expect(next.messages.slice(0, 3)).toEqual(transcript);
    expect(next.messages[3]).toMatchObject({ role: "user", content: [{ type: "text", text: "and more" }] });
  });

  test("a message of a role zot does not know fails the rewrite (the request goes as it was), never drops the message", () => {
    const sent = toHookMessages(request);
    const messages = [...sent.map((s) => s.message), { role: "developer", content: "psst" }];
    expect(() => applyHookRequest(request, sent, { messages })).toThrow(`messages[${sent.length}] has the role "developer", which zot does not know`);
  });

  test("an edited tool result and a fresh assistant tool call become zot blocks", () => {
    const sent = toHookMessages(request);
    const messages = sent.map((s) => s.message).filter((m) => m.role !== "system");
    messages[3] = { role: "tool", content: "edited", tool_call_id: "b" };
    messages.push({ role: "assistant", content: "", tool_calls: [{ id: "c", function: { name: "bash", arguments: '{"command":"ls"}' } }] });
    const next = applyHookRequest(request, sent, { messages });
    expect(next.system).toBe("be brief");
    expect(next.messages[2].content).toEqual([
      transcript[2].content[0],
      { type: "tool_result", call_id: "b", is_error: false, content: [{ type: "text", text: "edited" }] },
    ]);
    expect(next.messages[3].content).toEqual([{ type: "tool_call", id: "c", name: "bash", args: { command: "ls" } }]);
  });
});

describe("responses and tool results", () => {
  const response: LlmResponse = {
    content: [{ type: "thinking", text: "t" }, { type: "text", text: "answer" }, { type: "tool_call", id: "a", name: "read", args: {} }],
    stop: "tool_use",
    usage: { input: 10, output: 5, cache_read: 2, cache_write: 0 },
  };

  test("after_llm: the response as PicoClaw's; unchanged is undefined; new text keeps thinking; removed calls end the turn", () => {
    const wire = toHookResponse(response);
    expect(wire).toMatchObject({ role: "assistant", content: "answer", finish_reason: "tool_calls", usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } });
    expect(applyHookResponse(response, JSON.parse(JSON.stringify(wire)))).toBeUndefined();
    expect(applyHookResponse(response, { content: "better" })?.content).toEqual([
      { type: "thinking", text: "t" },
      { type: "text", text: "better" },
      { type: "tool_call", id: "a", name: "read", args: {} },
    ]);
    expect(applyHookResponse(response, { tool_calls: [] })).toMatchObject({ stop: "end_turn", content: [{ type: "thinking" }, { type: "text" }] });
  });

  test("after_llm: a hook's tool call whose arguments are no JSON object is kept with what it sent (refused, quoting it), not run with {}", () => {
    const calls = (args: string | undefined) => applyHookResponse(response, { tool_calls: [{ id: "h", function: { name: "bash", arguments: args } }] })?.content.at(-1);
    expect(calls("{not json")).toEqual({ type: "tool_call", id: "h", name: "bash", args: {}, unparsed_args: "{not json" });
    expect(calls("[1, 2]")).toEqual({ type: "tool_call", id: "h", name: "bash", args: {}, unparsed_args: "[1, 2]" });
    // No arguments, or an empty object, are a call without arguments.
    for (const none of [undefined, "", "{}", "null"]) expect(calls(none)).toEqual({ type: "tool_call", id: "h", name: "bash", args: {} });
    expect(calls('{"command": "ls"}')).toEqual({ type: "tool_call", id: "h", name: "bash", args: { command: "ls" } });
  });

  test("after_tool and respond: ToolResult JSON both ways", () => {
    const result = { content: [{ type: "text" as const, text: "out" }, { type: "image" as const, mime_type: "image/png", data: "AAAA" }], is_error: false };
    expect(toHookToolResult(result)).toEqual({ for_llm: "out", silent: false, is_error: false, async: false, media: ["image/png, 3 bytes"] });
    expect(applyHookToolResult(result, { for_llm: "out" })).toBeUndefined();
    expect(applyHookToolResult(result, { for_llm: "new" })).toMatchObject({ content: [{ type: "text", text: "new" }, { type: "image" }], is_error: false });
    expect(respondedResult("h", "t", { for_llm: "r", media: ["media://1"], is_error: true })).toEqual({
      content: [{ type: "text", text: "r\nmedia: media://1" }],
      is_error: true,
      details: { hook: "h", tool: "t" },
    });
    expect(respondedResult("h", "t", {}).content).toEqual([{ type: "text", text: "(hook h returned no content)" }]);
  });
});

describe("observer events in both generations", () => {
  const at = "2026-01-01T00:00:00.000Z";
  /** One prompt: a tool that ran, one that failed, one a participant denied, then the answer. */
  function prompt(events: HookEvents) {
    return [
      events.translate({ type: "user_message", content: [{ type: "text", text: "go" }, { type: "image", mime_type: "image/png", bytes: 1 }], time: at }),
      events.translate({ type: "turn_start", step: 1 }),
      events.translate({ type: "tool_call", id: "a", name: "read", args: { path: "x" } }),
      events.translate({ type: "turn_end", stop: "tool_use" }),
      events.translate({ type: "tool_result", id: "a", name: "read", is_error: false, content: [{ type: "text", text: "X" }] }),
      events.translate({ type: "tool_result", id: "b", name: "bash", is_error: true, content: [{ type: "text", text: ` ${"e".repeat(250)} ` }] }),
      events.translate({ type: "intercept", participant: "gate", stage: "approve_tool", action: "deny", reason: "no" }),
      events.translate({ type: "tool_result", id: "c", name: "write", is_error: true, content: [{ type: "text", text: "no" }] }),
      events.translate({ type: "turn_start", step: 2 }),
      events.translate({ type: "assistant_message", content: [{ type: "text", text: "done" }], time: at }),
      events.translate({ type: "turn_end", stop: "end_turn" }),
      events.translate({ type: "done" }),
    ].flat();
  }

  test("each event has both spellings: the document's Kind and HEAD's dotted kind, one event id each, counting from 1", () => {
    const notices = prompt(new HookEvents("s-1", "/work/project"));
    expect(notices.map((n) => [n.event.Kind, n.runtime.kind, n.runtime.id])).toEqual([
      ["turn_start", "agent.turn.start", "evt-1"],
      ["llm_request", "agent.llm.request", "evt-2"],
      // the model call's response, then its tool calls, as PicoClaw tells them
      ["llm_response", "agent.llm.response", "evt-3"],
      ["tool_exec_start", "agent.tool.exec_start", "evt-4"],
      ["tool_exec_end", "agent.tool.exec_end", "evt-5"],
      ["tool_exec_end", "agent.tool.exec_end", "evt-6"],
      ["tool_exec_skipped", "agent.tool.exec_skipped", "evt-7"],
      ["llm_request", "agent.llm.request", "evt-8"],
      ["llm_response", "agent.llm.response", "evt-9"],
      ["turn_end", "agent.turn.end", "evt-10"],
    ]);
    for (const n of notices) expect(v.safeParse(RuntimeEventParams, n.runtime).success).toBe(true);
  });

  test("HEAD's envelope: lowercase keys, scope and correlation without empty fields, attrs, the severity rule", () => {
    const notices = prompt(new HookEvents("s-1", "/work/project"));
    const start = notices[3];
    expect(JSON.parse(JSON.stringify(start.runtime))).toEqual({
      id: "evt-4",
      kind: "agent.tool.exec_start",
      time: start.event.Time,
      source: { component: "agent", name: "zot" },
      scope: { agent_id: "zot", session_key: "s-1", turn_id: "zot-turn-1", channel: "cli", chat_id: "s-1" },
      correlation: { trace_id: "turn.tool.start" },
      severity: "info",
      payload: { Tool: "read", Arguments: { path: "x" } },
      attrs: { agent_source: "runTurn", iteration: 1 },
    });
    // Go leaves out an iteration of 0 (the turn has not called the model yet).
    expect(notices[0].runtime.attrs).toEqual({ agent_source: "runTurn" });
    expect(notices.map((n) => n.runtime.severity)).toEqual(["info", "info", "info", "info", "info", "warn", "warn", "info", "info", "info"]);
  });

  test("HEAD's payloads: turn_start without Channel and ChatID; turn_end with what HEAD added; the rest as the document has them", () => {
    const notices = prompt(new HookEvents("s-1", "/work/project"));
    expect(notices[0].event.Payload).toEqual({ Channel: "cli", ChatID: "s-1", UserMessage: "go", MediaCount: 1 });
    expect(notices[0].runtime.payload).toEqual({ UserMessage: "go", MediaCount: 1 });
    const end = notices.at(-1)!;
    expect(Object.keys(end.event.Payload)).toEqual(["Status", "Iterations", "Duration", "FinalContentLen"]);
    expect(end.runtime.payload).toEqual({
      Status: "completed",
      Workspace: "/work/project",
      Iterations: 2,
      Duration: end.event.Payload.Duration,
      FinalContentLen: 4,
      UserMessage: "go",
      FinalContent: "done",
      ActiveSkills: null,
      AttemptedSkills: null,
      FinalSuccessfulPath: null,
      SkillContextSnapshots: null,
      ToolKinds: ["read", "bash"],
      ToolExecutions: [
        { name: "read", success: true },
        { name: "bash", success: false, error_summary: `${"e".repeat(197)}...` },
      ],
    });
    for (const i of [2, 4, 6]) expect(notices[i].runtime.payload).toEqual(notices[i].event.Payload);
    // A turn that failed is an error, one hard-aborted a warning.
    const failed = new HookEvents("s-2");
    failed.translate({ type: "user_message", content: [{ type: "text", text: "x" }], time: at });
    failed.translate({ type: "error", message: "boom", code: "internal" });
    const [failedEnd] = failed.translate({ type: "done" });
    expect([failedEnd.runtime.severity, failedEnd.runtime.payload.ToolKinds]).toEqual(["error", null]);
  });

  test("which generation a hook speaks: event_method, else HEAD's dotted observe names, else the document's", () => {
    expect(hookEventMethod({ observe: ["tool_exec_start", "*"] }).method).toBe("hook.event");
    expect(hookEventMethod({ observe: ["agent.tool.exec_start", "agent.tool.exec_end"] })).toEqual({
      method: "hook.runtime_event",
      why: '"observe" names agent.tool.exec_start, the form of the kind only PicoClaw\'s current release accepts',
    });
    expect(hookEventMethod({ observe: ["turn_end", "gateway.ready"] }).method).toBe("hook.runtime_event");
    expect(hookEventMethod({ observe: ["*"], event_method: "hook.runtime_event" }).method).toBe("hook.runtime_event");
    expect(hookEventMethod({ observe: ["agent.turn.end"], event_method: "hook.event" }).method).toBe("hook.event");
    expect(hookEventMethod({ intercept: ["before_tool"] }).method).toBe("hook.event");
    const bad = v.safeParse(EventMethodField, "hook.events");
    expect(bad.success ? "" : bad.issues[0].message).toBe(
      'must be "hook.event" (the protocol document\'s form) or "hook.runtime_event" (PicoClaw\'s current form), not "hook.events"',
    );
    // HEAD's other agent kinds are accepted (zot never sends them); a made-up one is not.
    expect(hookModes({ observe: ["agent.message.sent", "agent.follow_up.queued"] })).toEqual({ modes: ["observe"], observe: ["follow_up_queued"] });
    expect(v.safeParse(ObserveList, ["agent.tool_exec.start"]).success).toBe(false);
  });
});
