// The transcript's rows with a live tail, and the rows of the settled blocks kept between frames:
// whatever the blocks do, the rows are exactly theirs, in order, as if every frame read them all.
import { expect, test } from "bun:test";
import type { AgentEvent } from "../../src/protocol/events.ts";
import type { Component } from "../../src/tui/component.ts";
import { ChatView } from "../../src/modes/interactive/chat-view.ts";
import { renderLiveTail, StableRows } from "../../src/modes/interactive/live-tail.ts";
import { createTheme } from "../../src/tui/theme.ts";

const theme = createTheme({ color: false });

/** A block that gives the same array until it is changed, as the transcript's cached blocks do. */
class Block implements Component {
  private rows: string[];
  constructor(private readonly name: string, lines = 2) {
    this.rows = Array.from({ length: lines }, (_, i) => `${name}.${i}`);
  }
  render(): string[] {
    return this.rows;
  }
  redraw(lines: number): void {
    this.rows = Array.from({ length: lines }, (_, i) => `${this.name}*${i}`);
  }
}

const all = (blocks: readonly Component[], width = 80) => blocks.flatMap((block) => block.render(width));

test("kept rows are the blocks' rows after blocks are added, redrawn, removed and the width changes", () => {
  const stable = new StableRows();
  const blocks: Block[] = [new Block("a"), new Block("b", 3)];
  expect(stable.rowsOf(80, blocks, 2)).toEqual(all(blocks));
  blocks.push(new Block("c", 1), new Block("d", 4));
  expect(stable.rowsOf(80, blocks, 4)).toEqual(all(blocks));
  // A settled block redrawn (a finished call's result, Ctrl+O): its rows and every row after it are read again.
  blocks[1]!.redraw(5);
  expect(stable.rowsOf(80, blocks, 4)).toEqual(all(blocks));
  // Fewer settled blocks (one became live again), then a block removed from the middle (a /clear and new ones).
  expect(stable.rowsOf(80, blocks, 2)).toEqual(all(blocks.slice(0, 2)));
  blocks.splice(1, 1);
  expect(stable.rowsOf(80, blocks, 3)).toEqual(all(blocks));
  expect(stable.rowsOf(100, blocks, 3)).toEqual(all(blocks, 100));
  blocks.length = 0;
  expect(stable.rowsOf(80, blocks, 0)).toEqual([]);
});

test("renderLiveTail gives the same rows with kept rows as without, frame after frame, and never changes what it keeps", () => {
  const stable = new StableRows();
  const blocks: Block[] = Array.from({ length: 6 }, (_, i) => new Block(`b${i}`, i + 1));
  let live: Component | undefined = blocks[3];
  const tail = (withStable: boolean) => ({ blocks, isLive: (block: Component) => block === live, room: 12, below: 1, ...(withStable ? { stable } : {}) });
  for (let frame = 0; frame < 5; frame++) {
    const kept = renderLiveTail(80, tail(true), theme);
    expect(kept).toEqual(renderLiveTail(80, tail(false), theme));
    kept.push("changed by the caller");
    if (frame === 1) blocks[1]!.redraw(7);
    if (frame === 2) live = undefined;
    if (frame === 3) blocks.push(new Block("new", 2));
  }
});

/**
 * Feeds a chat view events one by one, drawn in `room` rows, and checks the rule the scrollback
 * needs: a row that was above the screen in one frame is the same row in every later frame.
 */
function checkRowsAboveStay(events: AgentEvent[], width: number, room: number): string[] {
  const chat = new ChatView(theme);
  let gone: string[] = [];
  let rows: string[] = [];
  for (const event of events) {
    chat.handleEvent(event);
    rows = chat.renderWithin(width, room).map((row) => Bun.stripANSI(row));
    expect(rows.slice(0, gone.length)).toEqual(gone);
    gone = rows.slice(0, Math.max(gone.length, rows.length - room));
  }
  return rows;
}
const time = "2026-11-23T10:00:00.000Z";
const deltas = (s: string, size: number): AgentEvent[] => Array.from({ length: Math.ceil(s.length / size) }, (_, i) => ({ type: "text_delta", delta: s.slice(i * size, i * size + size) }));

test("a streamed table taller than the room whose late row is wider: no row of it changes once above the screen; it is shown whole once complete", () => {
  const body = Array.from({ length: 20 }, (_, i) => `| r${i} | ${i === 15 ? "a much wider cell that appears late" : `v${i}`} |`);
  const text = `Table:\n\n| name | value |\n|---|---|\n${body.join("\n")}\n\nEND`;
  const rows = checkRowsAboveStay([{ type: "turn_start", step: 1 }, ...deltas(text, 7), { type: "assistant_message", content: [{ type: "text", text }], time }, { type: "turn_end", stop: "end_turn" }, { type: "done" }], 80, 6);
  const borders = rows.filter((row) => /[┌├└]/.test(row));
  expect(borders).toHaveLength(3);
  expect(new Set(borders.map((row) => row.length)).size).toBe(1);
});

test("a table that fits the room streams row by row; one that outgrows it waits behind a muted row", () => {
  const chat = new ChatView(theme);
  chat.handleEvent({ type: "turn_start", step: 1 });
  chat.handleEvent({ type: "text_delta", delta: "Table:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n" });
  expect(Bun.stripANSI(chat.renderWithin(80, 10).join("\n"))).toMatch(/│ 1 +│ 2 +│/);
  chat.handleEvent({ type: "text_delta", delta: Array.from({ length: 10 }, (_, i) => `| ${i} | x |`).join("\n") });
  const before = chat.renderWithin(80, 10).length;
  chat.handleEvent({ type: "text_delta", delta: "\n| 10 | x |" });
  const held = chat.renderWithin(80, 10).map((row) => Bun.stripANSI(row));
  expect(held.filter((row) => row.trim() !== "").at(-1)).toContain("… a table (17 rows so far), shown once it is complete");
  expect(held.join("\n")).not.toContain("│");
  // The rows the table had stay (blank) while it waits: the screen does not jump up.
  expect(held.length).toBeGreaterThanOrEqual(Math.min(before, 10));
});

test("a table in a blockquote is a growing table too: taller than the room, it waits", () => {
  const chat = new ChatView(theme);
  chat.handleEvent({ type: "turn_start", step: 1 });
  chat.handleEvent({ type: "text_delta", delta: "Quoted:\n\n> | a | b |\n> |---|---|\n" + Array.from({ length: 12 }, (_, i) => `> | ${i} | x |`).join("\n") });
  const held = chat.renderWithin(80, 8).map((row) => Bun.stripANSI(row));
  expect(held.join("\n")).toContain("shown once it is complete");
});

test("a list item's table: the list above it, which Bun lays out loose once the table follows, stays final (no row of it goes behind the muted row)", () => {
  const chat = new ChatView(theme);
  chat.handleEvent({ type: "turn_start", step: 1 });
  const steps = Array.from({ length: 6 }, (_, i) => `- step ${i}`).join("\n");
  chat.handleEvent({ type: "text_delta", delta: `${steps}\n- last\n\n  | a | b |\n  |---|---|\n` });
  const first = chat.renderWithin(80, 6).map((row) => Bun.stripANSI(row));
  chat.handleEvent({ type: "text_delta", delta: Array.from({ length: 12 }, (_, i) => `  | ${i} | x |`).join("\n") });
  const later = chat.renderWithin(80, 6).map((row) => Bun.stripANSI(row));
  for (let i = 0; i < 6; i++) expect(later.join("\n")).toContain(`step ${i}`);
  expect(first.filter((row) => row.includes("step")).length).toBeLessThanOrEqual(later.filter((row) => row.includes("step")).length);
});

test("a running tool's `\\r` progress line wrapped over more rows than the room: its changing rows stay on screen", () => {
  const bar = (i: number) => `\rprogress ${String(i).padStart(3)}% [${"#".repeat(i / 2).padEnd(50)}]`;
  const events: AgentEvent[] = [
    { type: "turn_start", step: 1 },
    ...deltas("run", 3),
    { type: "tool_call", id: "t1", name: "bash", args: { command: "progress" } },
    { type: "turn_end", stop: "tool_use" },
    ...Array.from({ length: 21 }, (_, i): AgentEvent => ({ type: "tool_progress", id: "t1", text: bar(i * 5) })),
    { type: "tool_result", id: "t1", name: "bash", content: [{ type: "text", text: `${bar(100)}\n[exit 0]` }], is_error: false },
    { type: "done" },
  ];
  const rows = checkRowsAboveStay(events, 40, 3);
  expect(rows.join("\n")).toContain("progress 100%");
  expect(rows.join("\n")).not.toContain("progress  45%");
});

test("renderLiveTail says how many of its first rows are final: the blocks above the live one and its settled rows, or all of them", () => {
  const blocks: Block[] = [new Block("a", 2), new Block("b", 3), new Block("c", 2)];
  let live: Component | undefined = blocks[1];
  let settled = -1;
  const tail = () => ({ blocks, isLive: (block: Component) => block === live, room: 20, below: 0, settledRows: (count: number) => (settled = count) });
  expect(renderLiveTail(80, tail(), theme)).toHaveLength(7);
  // a block that does not say changes in its last row only
  expect(settled).toBe(2 + 2);
  live = undefined;
  renderLiveTail(80, tail(), theme);
  expect(settled).toBe(7);
  const chat = new ChatView(theme);
  chat.handleEvent({ type: "turn_start", step: 1 });
  chat.handleEvent({ type: "text_delta", delta: "one\n\ntwo\n\nthree" });
  const rows = chat.renderWithin(80, 20).map((row) => Bun.stripANSI(row));
  expect(chat.finalRows()).toBeLessThan(rows.length);
  expect(rows.slice(chat.finalRows()).join("\n")).toContain("three");
});

test("a running tool's box counts from its top among the chat's final rows: drawn again after a stop, it is whole", () => {
  const chat = new ChatView(theme);
  chat.handleEvent({ type: "turn_start", step: 1 });
  chat.handleEvent({ type: "text_delta", delta: "Let me look." });
  chat.handleEvent({ type: "tool_call", id: "t1", name: "bash", args: { command: "sleep 3; echo slept" } });
  const rows = chat.renderWithin(80, 20).map((row) => Bun.stripANSI(row));
  const top = rows.findIndex((row) => row.includes("╭─ bash"));
  expect(top).toBeGreaterThan(0);
  // from the block's first row (its blank row above the border) on
  expect(chat.finalRows()).toBeLessThanOrEqual(top);
  expect(rows.slice(chat.finalRows(), top).every((row) => row.trim() === "")).toBe(true);
  expect(rows.slice(0, chat.finalRows()).join("\n")).toContain("Let me look.");
});
