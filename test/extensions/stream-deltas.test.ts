// Why the extension manager subscribes to the agent without the stream's deltas: neither protocol
// has a notification for an answer's pieces (hooks' llm_delta is never sent, extensions have no
// such event), and they change no bookkeeping. Rule: if either protocol starts making something of
// a delta, this fails, and the manager's subscription must take deltas again.
import { describe, expect, test } from "bun:test";
import { ExtensionEvents } from "../../src/extensions/ext-events.ts";
import { HookEvents } from "../../src/extensions/hook-events.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import { isStreamDelta, type StreamDelta } from "../../src/protocol/stream-delta.ts";

const DELTAS: StreamDelta[] = [
  { type: "text_delta", delta: "Hel" },
  { type: "thinking_delta", delta: "hm" },
  { type: "tool_use_args", id: "c1", delta: '{"a":1}' },
];

describe("an answer's deltas", () => {
  test("are exactly the three stream events", () => {
    expect(DELTAS.every(isStreamDelta)).toBe(true);
    const others: AgentEvent[] = [
      { type: "assistant_start" },
      { type: "tool_use_start", id: "c1", name: "read" },
      { type: "tool_use_end", id: "c1" },
      { type: "tool_progress", id: "c1", text: "…" },
      { type: "done" },
    ];
    expect(others.some(isStreamDelta)).toBe(false);
  });

  test("make no hook notification and leave the turn bookkeeping as it was", () => {
    const hooks = new HookEvents("s-1", "/work");
    hooks.translate({ type: "user_message", content: [{ type: "text", text: "go" }], time: "2026-01-01T00:00:00.000Z" });
    hooks.translate({ type: "turn_start", step: 1 });
    const before = hooks.meta("x");
    for (const delta of DELTAS) expect(hooks.translate(delta)).toEqual([]);
    expect(hooks.meta("x")).toEqual(before);
    // The next notice still counts from where it was: no event id went to a delta.
    expect(hooks.translate({ type: "turn_end", stop: "end_turn" })[0]?.runtime.id).toBe("evt-3");
  });

  test("make no extension notification and use no sequence number", () => {
    const sent: { event: string; sequence: number }[] = [];
    const events = new ExtensionEvents((frame) => sent.push(frame), "/work", "s-1");
    for (const delta of DELTAS) events.fromAgent(delta, () => ({ messages: 0, bytes: 0 }));
    expect(sent).toEqual([]);
    events.fromAgent({ type: "turn_start", step: 1 }, () => ({ messages: 0, bytes: 0 }));
    expect(sent.map((f) => [f.event, f.sequence])).toEqual([["turn_start", 1]]);
  });
});
