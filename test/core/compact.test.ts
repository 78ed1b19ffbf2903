// Compaction's pure parts: where the cut falls, what the summariser reads, the request it gets.
import { describe, expect, test } from "bun:test";
import {
  chooseCut,
  CompactError,
  OMITTED_MARKER,
  planCompaction,
  serialiseMessages,
  SUMMARISER_SYSTEM,
  SUMMARY_HEADING,
  SUMMARY_INSTRUCTION,
  summaryMessage,
  summaryRequest,
} from "../../src/core/compact.ts";
import { type ContentBlock, isSummaryMessage, type Message } from "../../src/protocol/messages.ts";
import { testModel } from "../support/test-model.ts";

const TIME = "2025-01-01T00:00:00.000Z";
const msg = (role: Message["role"], ...content: ContentBlock[]): Message => ({ role, content, time: TIME });
/** A text message of about `tokens` tokens (four characters each). */
const said = (role: "user" | "assistant", tokens: number, mark: string = role): Message =>
  msg(role, { type: "text", text: mark.padEnd(tokens * 4, ".") });
const call = (id: string, name = "read", args: Record<string, unknown> = { path: "a.ts" }): Message =>
  msg("assistant", { type: "tool_call", id, name, args });
const result = (id: string, text: string, isError = false): Message =>
  msg("tool", { type: "tool_result", call_id: id, is_error: isError, content: [{ type: "text", text }] });

/** Every tool result in the kept part has its call in the kept part too. */
function assertValidKept(kept: Message[]) {
  expect(kept[0]!.role).not.toBe("tool");
  const calls = new Set<string>();
  for (const m of kept) {
    for (const b of m.content) {
      if (b.type === "tool_call") calls.add(b.id);
      if (b.type === "tool_result") expect(calls.has(b.call_id)).toBe(true);
    }
  }
}

describe("chooseCut", () => {
  test("an empty transcript has nothing to compact", () => {
    expect(() => chooseCut([], 100_000)).toThrow(new CompactError("nothing to compact: the transcript is empty"));
  });

  test("a transcript that fits the keep budget whole: the turns before the last are summarised; one turn is nothing to compact", () => {
    const turns = [said("user", 10), said("assistant", 10), said("user", 10), call("c1"), result("c1", "ok"), said("assistant", 10)];
    expect(chooseCut(turns, 100_000)).toBe(2);
    expect(() => chooseCut(turns.slice(2), 100_000)).toThrow(
      new CompactError("nothing to compact: the transcript is a single turn, short enough to keep verbatim"),
    );
  });

  test("when only an earlier summary comes before the last prompt, the turn's steps are summarised with it (never the summary alone, which frees nothing)", () => {
    const earlier = summaryMessage("what happened before");
    const turn = [said("user", 10), call("c1"), result("c1", "ok"), call("c2"), result("c2", "ok"), said("assistant", 10)];
    // Cut at the turn's last step: the summary, the prompt and the first calls go.
    expect(chooseCut([earlier, ...turn], 100_000)).toBe(6);
    expect(chooseCut([earlier, ...turn.slice(0, 5)], 100_000)).toBe(4);
    // A turn whose prompt an earlier compaction already summarised runs on after the summary: its steps go with it.
    expect(chooseCut([earlier, call("c1"), result("c1", "ok"), call("c2"), result("c2", "ok"), said("assistant", 10)], 100_000)).toBe(5);
    expect(() => chooseCut([earlier, call("c1"), result("c1", "ok")], 100_000)).toThrow(CompactError);
    // A summary and one prompt alone: nothing to compact.
    expect(() => chooseCut([earlier, said("user", 10)], 100_000)).toThrow(CompactError);
    // Turns of their own before the last prompt are still what goes.
    expect(chooseCut([earlier, said("user", 10), said("assistant", 10), ...turn], 100_000)).toBe(3);
  });

  test("keeps the newest messages within the budget, and at least the newest one", () => {
    const messages = [said("user", 500), said("assistant", 100), said("assistant", 100), said("assistant", 100)];
    // 300 tokens keep the last three; a budget below the newest message still keeps it.
    expect(chooseCut(messages, 100_000, 300)).toBe(1);
    expect(chooseCut(messages, 100_000, 10)).toBe(3);
  });

  test("the budget is at most a quarter of the model's window", () => {
    const messages = [said("user", 500), said("assistant", 100), said("user", 100), said("assistant", 100)];
    // 20,000 asked for, but a 1,000-token window allows 250 (two messages), a 600-token one 150 (one).
    expect(chooseCut(messages, 1_000, 20_000)).toBe(2);
    expect(chooseCut(messages, 600, 20_000)).toBe(3);
  });

  test("a cut that would keep a tool result without its call moves back to the call", () => {
    const messages = [said("user", 500), call("c1"), result("c1", "x".repeat(4_000))];
    const cut = chooseCut(messages, 100_000, 100);
    expect(cut).toBe(1);
    assertValidKept(messages.slice(cut));
  });

  test("a cut landing on a tool result moves forward to the next boundary when there is one", () => {
    const messages = [said("user", 500), call("c1"), result("c1", "x".repeat(400)), said("assistant", 10)];
    // 112 tokens reach back to the tool result (100 + 10) but not its call (5 more).
    expect(chooseCut(messages, 100_000, 112)).toBe(3);
    expect(chooseCut(messages, 100_000, 115)).toBe(1);
  });

  test("prefers a cut right before a user message", () => {
    const messages = [said("user", 1000), said("assistant", 100), said("user", 10), said("assistant", 100)];
    // The budget reaches the assistant message at 1; the user message at 2 still keeps over half of that.
    expect(chooseCut(messages, 100_000, 300)).toBe(2);
  });

  test("does not move to a user message that would drop most of the recent work", () => {
    const messages = [said("user", 1000), said("assistant", 300), said("user", 10), said("assistant", 10)];
    expect(chooseCut(messages, 100_000, 400)).toBe(1);
  });

  test("random transcripts: the kept part never starts with, or holds, a result without its call", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const messages: Message[] = [];
      for (let turn = 0; turn < 1 + Math.floor(random() * 5); turn++) {
        messages.push(said("user", 1 + Math.floor(random() * 200)));
        for (let step = 0; step < Math.floor(random() * 4); step++) {
          const id = `c${round}_${turn}_${step}`;
          messages.push(call(id), result(id, "r".repeat(Math.floor(random() * 2_000))));
        }
        messages.push(said("assistant", 1 + Math.floor(random() * 100)));
      }
      const budget = 1 + Math.floor(random() * 600);
      let cut: number;
      try {
        cut = chooseCut(messages, 100_000, budget);
      } catch (error) {
        expect((error as Error).message).toStartWith("nothing to compact");
        continue;
      }
      expect(cut).toBeGreaterThan(0);
      expect(cut).toBeLessThan(messages.length);
      assertValidKept(messages.slice(cut));
    }
  });
});

describe("chooseCut with the provider's count (dense text: CJK, base64, minified code)", () => {
  /** One turn that read two files of dense text: about 3,000 tokens each by the estimate, four times that as the provider counts. */
  const denseTurn = () => [said("user", 10, "summarise a.txt and b.txt"), call("a"), result("a", "漢".repeat(12_000)), call("b"), result("b", "字".repeat(12_000))];

  test("scaled by the calibration, the dense results no longer fit the keep budget: the older step goes, the newest stays", () => {
    // A 32K window keeps 8,192 tokens; by the estimate the whole turn (about 6,000) fits, and a single turn is nothing to compact.
    expect(() => chooseCut(denseTurn(), 32_768)).toThrow(new CompactError("nothing to compact: the transcript is a single turn, short enough to keep verbatim"));
    const cut = chooseCut(denseTurn(), 32_768, undefined, { scale: 4, full: false });
    expect(cut).toBe(3);
    assertValidKept(denseTurn().slice(cut));
  });

  test("a full context is never 'short enough to keep verbatim': a single turn gives up its steps before the last", () => {
    const full = { scale: 1, full: true };
    // Short by the estimate, but the provider said it is full: the prompt and the first step go.
    expect(chooseCut(denseTurn(), 1_000_000, undefined, full)).toBe(3);
    // Earlier turns go first, keeping the last turn whole.
    const twoTurns = [said("user", 10), said("assistant", 10), ...denseTurn()];
    expect(chooseCut(twoTurns, 1_000_000, undefined, full)).toBe(2);
    // A turn of its prompt and one step has no older step: nothing to compact, said without "short enough".
    const oneStep = denseTurn().slice(0, 3);
    expect(() => chooseCut(oneStep, 1_000_000, undefined, full)).toThrow(
      new CompactError("nothing to compact: the transcript is one turn with no earlier step to summarise"),
    );
    expect(() => chooseCut([said("user", 10)], 1_000_000, undefined, full)).toThrow(CompactError);
  });

  test("a full context whose newest step alone is more than the window says so, instead of summarising what cannot help", () => {
    const huge = [said("user", 10), call("a"), result("a", "x".repeat(12_000)), call("b"), result("b", "x".repeat(40_000))];
    expect(() => chooseCut(huge, 8_000, undefined, { scale: 1, full: true })).toThrow(
      new CompactError(
        "nothing to compact that would help: the latest step's tool results alone take about 10,005 tokens, more than the whole window (8,000 tokens), and they stay verbatim with their call",
      ),
    );
    // A manual compaction still summarises what it can.
    expect(chooseCut(huge, 8_000)).toBe(3);
  });

  test("a full context never summarises an earlier summary alone before the latest step (it would free nothing)", () => {
    const afterSummary = [summaryMessage("what happened before"), call("b"), result("b", "字".repeat(12_000))];
    expect(() => chooseCut(afterSummary, 32_768, undefined, { scale: 4, full: true })).toThrow(
      new CompactError("nothing to compact: only the earlier summary comes before the latest step, and summarising it again frees nothing"),
    );
  });
});

describe("serialiseMessages", () => {
  test("role headers, text, images as a byte count, tool calls as JSON, results by tool name; thinking left out", () => {
    const text = serialiseMessages([
      msg("user", { type: "text", text: "look at this" }, { type: "image", mime_type: "image/png", data: "iVBORw0KGgo=" }),
      msg(
        "assistant",
        { type: "thinking", text: "SECRET REASONING", signature: "sig" },
        { type: "text", text: "Reading it." },
        { type: "tool_call", id: "c1", name: "read", args: { path: "src/app.ts" } },
      ),
      result("c1", "ENOENT: no such file or directory, open 'src/app.ts'", true),
    ]);
    expect(text).toBe(
      [
        "--- user ---",
        "look at this",
        "[image: image/png, 8 bytes]",
        "",
        "--- assistant ---",
        "Reading it.",
        '[tool call read {"path":"src/app.ts"}]',
        "",
        "--- tool ---",
        "[tool result read (error)]",
        "ENOENT: no such file or directory, open 'src/app.ts'",
        "",
      ].join("\n"),
    );
    expect(text).not.toContain("SECRET");
  });

  test("a long tool result keeps its start and its end around a marker", () => {
    const long = `START${"x".repeat(10_000)}Error: the end is kept`;
    const text = serialiseMessages([call("c1", "bash", { command: "make" }), result("c1", long)]);
    expect(text).toContain("START");
    expect(text).toContain("Error: the end is kept");
    expect(text).toMatch(/\[… \d+ characters of this result omitted …\]/);
    expect(text.length).toBeLessThan(2_300);
  });

  test("over the cap the oldest messages go, with a marker; an earlier summary at the start stays", () => {
    const messages = [
      summaryMessage("## Goal\nthe old goal"),
      said("user", 1000, "OLDEST"),
      said("assistant", 100, "MIDDLE"),
      said("user", 20, "NEWEST"),
    ];
    const text = serialiseMessages(messages, 1_000);
    expect(text.length).toBeLessThanOrEqual(1_000);
    expect(text).toContain("the old goal");
    expect(text).toContain(OMITTED_MARKER);
    expect(text).not.toContain("OLDEST");
    expect(text).toContain("NEWEST");
    expect(text.indexOf("the old goal")).toBeLessThan(text.indexOf(OMITTED_MARKER));
    // Without the cap, all of it.
    expect(serialiseMessages(messages)).toContain("OLDEST");
  });

  test("a single message over the cap gives its end", () => {
    const text = serialiseMessages([msg("user", { type: "text", text: `${"a".repeat(5_000)}THE END` })], 500);
    expect(text.startsWith(OMITTED_MARKER)).toBe(true);
    expect(text.endsWith("THE END\n")).toBe(true);
    expect(text.length).toBeLessThanOrEqual(500);
  });
});

describe("summaryRequest and the compacted transcript", () => {
  const model = testModel({ context_window: 100_000, max_output: 20_000 });

  test("same model, no tools, the summariser's prompt, the older part and the instruction", () => {
    const request = summaryRequest([said("user", 10, "fix src/app.ts")], model);
    expect(request.model).toBe(model);
    expect(request.tools).toEqual([]);
    expect(request.reasoning).toBeUndefined();
    expect(request.system).toBe(SUMMARISER_SYSTEM);
    expect(request.maxTokens).toBe(8192);
    expect(request.messages).toHaveLength(1);
    const text = (request.messages[0]!.content[0] as { text: string }).text;
    expect(text).toStartWith("<conversation>\n--- user ---\nfix src/app.ts");
    expect(text).toEndWith(SUMMARY_INSTRUCTION);
    for (const section of ["## Goal", "## Constraints & Preferences", "## Progress", "### Done", "### In Progress", "### Blocked", "## Key Decisions", "## Next Steps", "## Critical Context"]) {
      expect(SUMMARY_INSTRUCTION).toContain(section);
    }
  });

  test("max tokens is the model's max output when that is lower; instructions are appended", () => {
    const request = summaryRequest([said("user", 10)], testModel({ max_output: 100 }), "  focus on the database  ");
    expect(request.maxTokens).toBe(100);
    const text = (request.messages[0]!.content[0] as { text: string }).text;
    expect(text).toEndWith(`${SUMMARY_INSTRUCTION}\n\nAdditional instructions for this summary:\nfocus on the database`);
  });

  test("the serialised part is capped so the request fits a small window", () => {
    const small = testModel({ context_window: 2_000, max_output: 500 });
    const request = summaryRequest([said("user", 5_000, "OLD"), said("assistant", 10, "RECENT")], small);
    const text = (request.messages[0]!.content[0] as { text: string }).text;
    expect(text).toContain(OMITTED_MARKER);
    expect(text).toContain("RECENT");
    expect(Math.ceil((text.length + request.system.length) / 3)).toBeLessThanOrEqual(small.context_window - 500);
  });

  test("a window as small as the output limit (an 8K local model) leaves the older part three quarters of it", () => {
    const eightK = testModel({ context_window: 8192, max_output: 8192 });
    const request = summaryRequest([said("user", 5_000, "OLD"), said("assistant", 10, "RECENT")], eightK);
    expect(request.maxTokens).toBe(2048);
    const text = (request.messages[0]!.content[0] as { text: string }).text;
    expect(text).toContain("RECENT");
    expect(Math.ceil((text.length + request.system.length) / 3)).toBeLessThanOrEqual(8192 - 2048);
  });

  test("an earlier summary is summarised again like any text", () => {
    const messages = [summaryMessage("## Goal\nship v2"), said("user", 100, "next"), said("assistant", 100), said("user", 5)];
    expect(isSummaryMessage(messages[0])).toBe(true);
    expect(isSummaryMessage(messages[1])).toBe(false);
    const plan = planCompaction(messages, testModel({ context_window: 400 }));
    expect(plan.older[0]).toBe(messages[0]);
    const text = (summaryRequest(plan.older, model).messages[0]!.content[0] as { text: string }).text;
    expect(text).toContain(`--- user ---\n${SUMMARY_HEADING}## Goal\nship v2`);
  });

  test("the summary message starts with the heading and holds the trimmed summary", () => {
    const message = summaryMessage("\n## Goal\nx\n\n");
    expect(message.role).toBe("user");
    expect(message.content).toEqual([{ type: "text", text: "## Context summary (compacted)\n\n## Goal\nx" }]);
  });
});
