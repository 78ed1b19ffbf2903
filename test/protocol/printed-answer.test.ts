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
  test("displayed text, a panel empty at first as its first render with lines, then the last answer with text, a blank line between two", () => {
    const printed = new PrintedAnswer();
    for (const event of events) printed.add(event);
    expect(printed.text()).toBe("shown first\n\nTodo\n[ ] milk\n\nx toggle\n\nThe answer.");
  });

  test("pieces without a newline of their own never run together; one piece alone is as it came", () => {
    const printed = new PrintedAnswer();
    printed.add({ type: "command_result", command: "crash", extension: "x", action: "display", text: "bye" });
    printed.add({ type: "panel_open", extension: "x", panel_id: "p", title: "dying", lines: ["x"], footer: "" });
    expect(printed.text()).toBe("bye\n\ndying\nx\n");
    const alone = new PrintedAnswer();
    alone.add({ type: "assistant_message", content: [{ type: "text", text: "Just this." }], time: "t" });
    expect(alone.text()).toBe("Just this.");
  });

  test("TurnResult.text is the same text", () => {
    expect(turnResult(events).text).toBe("shown first\n\nTodo\n[ ] milk\n\nx toggle\n\nThe answer.");
  });
});
