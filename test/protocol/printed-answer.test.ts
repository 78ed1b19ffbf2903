// What -p prints and what the SDKs' TurnResult.text holds, from one reading of a unit's events.
import { describe, expect, test } from "bun:test";
import type { AgentEvent } from "../../src/protocol/events.ts";
import { PrintedAnswer } from "../../src/protocol/printed-answer.ts";
import { turnResult } from "../../src/sdk/turn-result.ts";

const events: AgentEvent[] = [
  { type: "command_result", command: "todo", extension: "todo", action: "display", text: "shown first\n" },
  { type: "panel_open", extension: "todo", panel_id: "p", title: "Todo", lines: [], footer: "" },
  { type: "panel_render", extension: "todo", panel_id: "p", title: "Todo", lines: ["[ ] milk"], footer: "x toggle" },
  { type: "panel_render", extension: "todo", panel_id: "p", title: "Todo", lines: ["[x] milk"], footer: "x toggle" },
  { type: "assistant_message", content: [{ type: "text", text: "an earlier answer" }], time: "t" },
  { type: "assistant_message", content: [{ type: "text", text: "  " }], time: "t" },
  { type: "assistant_message", content: [{ type: "text", text: "The answer." }], time: "t" },
  { type: "done" },
];

describe("the printed answer", () => {
  test("displayed text, a panel empty at first as its first render with lines, then the last answer with text", () => {
    const printed = new PrintedAnswer();
    for (const event of events) printed.add(event);
    expect(printed.text()).toBe("shown first\nTodo\n[ ] milk\n\nx toggle\nThe answer.");
  });

  test("TurnResult.text is the same text", () => {
    expect(turnResult(events).text).toBe("shown first\nTodo\n[ ] milk\n\nx toggle\nThe answer.");
  });
});
