// Repairing a transcript read back from a damaged or interrupted session: a valid one is left as it
// is (the same array); every call gets exactly one result right after it; results whose call was
// lost become text; a first message that is not the user's gets a note before it.
import { describe, expect, test } from "bun:test";
import type { Message, ToolResultBlock } from "../../src/protocol/messages.ts";
import { LOST_START_TEXT, MISSING_RESULT_TEXT, repairTranscript } from "../../src/session/repair.ts";

const time = "2026-11-23T10:16:00.000Z";
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }], time });
const calls = (...ids: string[]): Message => ({ role: "assistant", content: ids.map((id) => ({ type: "tool_call", id, name: "bash", args: {} })), time });
const result = (id: string, text = `out ${id}`): ToolResultBlock => ({ type: "tool_result", call_id: id, is_error: false, content: [{ type: "text", text }] });
const tool = (...results: ToolResultBlock[]): Message => ({ role: "tool", content: results, time });

describe("repairTranscript", () => {
  test("a valid transcript comes back as the same array", () => {
    const messages = [user("go"), calls("a", "b"), tool(result("a"), result("b")), { role: "assistant", content: [{ type: "text", text: "ok" }], time } as Message];
    const repaired = repairTranscript(messages);
    expect(repaired.messages).toBe(messages);
    expect(repaired).toMatchObject({ interrupted: 0, orphaned: 0, lostStart: false });
  });

  test("a tool call id used twice (in one message, or by an earlier step) is renamed with its result, the results paired in order", () => {
    const repaired = repairTranscript([
      user("go"),
      calls("dup", "dup"),
      tool(result("dup", "one"), result("dup", "two")),
      calls("hook_call_1"),
      tool(result("hook_call_1")),
      calls("hook_call_1", ""),
      tool(result("hook_call_1", "again"), result("", "empty")),
    ]);
    const ids = repaired.messages.flatMap((m) => m.content.flatMap((b) => (b.type === "tool_call" ? [b.id] : b.type === "tool_result" ? [`${b.call_id}=${JSON.stringify(b.content)}`] : [])));
    expect(ids).toEqual([
      "dup",
      "dup_2",
      `dup=${JSON.stringify([{ type: "text", text: "one" }])}`,
      `dup_2=${JSON.stringify([{ type: "text", text: "two" }])}`,
      "hook_call_1",
      `hook_call_1=${JSON.stringify([{ type: "text", text: "out hook_call_1" }])}`,
      "hook_call_1_2",
      "call_1",
      `hook_call_1_2=${JSON.stringify([{ type: "text", text: "again" }])}`,
      `call_1=${JSON.stringify([{ type: "text", text: "empty" }])}`,
    ]);
    expect(repaired).toMatchObject({ renamed: 3, interrupted: 0, orphaned: 0 });
  });

  test("a call with no result is answered as interrupted, after the results it has", () => {
    const repaired = repairTranscript([user("go"), calls("a", "b"), tool(result("b"))]);
    expect(repaired.messages[2]!.content).toEqual([
      result("b"),
      { type: "tool_result", call_id: "a", is_error: true, content: [{ type: "text", text: MISSING_RESULT_TEXT }] },
    ]);
    expect(repaired.interrupted).toBe(1);
  });

  test("results that answer nothing (their call's record lost, a second answer, a stray tool message) become text in a user message", () => {
    const repaired = repairTranscript([user("go"), calls("a"), tool(result("a"), result("a", "again"), result("zz")), tool(result("x"))]);
    expect(repaired.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(repaired.messages[2]!.content).toEqual([result("a")]);
    const text = JSON.stringify(repaired.messages[3]!.content);
    expect(text).toContain("the result of tool call zz, whose request was lost from a damaged session file");
    expect(text).toContain("again");
    expect(text).toContain("out x");
    expect(repaired.orphaned).toBe(3);
  });

  test("a transcript that starts with the model's message gets a note before it; empty messages go", () => {
    const repaired = repairTranscript([{ role: "user", content: [], time }, { role: "assistant", content: [{ type: "text", text: "hi" }], time }]);
    expect(repaired.messages).toEqual([
      { role: "user", content: [{ type: "text", text: LOST_START_TEXT }], time },
      { role: "assistant", content: [{ type: "text", text: "hi" }], time },
    ]);
    expect(repaired.lostStart).toBe(true);
  });
});
