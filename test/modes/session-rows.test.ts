// The session table: each column as wide as its widest cell, whatever the number of rows, and the
// prompt fitted to the terminal's width.
import { expect, test } from "bun:test";
import { formatRows } from "../../src/modes/session-rows.ts";
import type { SessionSummary } from "../../src/session/list.ts";

const session = (id: string, model: string, messages: number, cost: number, prompt: string): SessionSummary => ({
  id,
  file: `/s/${id}.jsonl`,
  cwd: "/p",
  created: "2026-11-28T10:00:00.000Z",
  updated: "2026-11-28T10:00:00.000Z",
  model,
  provider: "anthropic",
  messages,
  cost_usd: cost,
  first_prompt: prompt,
});

test("columns align to their widest cell; the prompt is cut to the width", () => {
  const rows = formatRows([session("a", "claude-sonnet-4-5", 2, 0.01, "fix the build"), session("b", "gpt-5", 120, 12.5, "a much longer prompt that will not fit")], ["1.", "10."], 80);
  expect(rows).toHaveLength(2);
  // the model, message and cost columns start and end at the same places in both rows
  const modelAt = rows.map((row, i) => row.indexOf(i === 0 ? "claude-sonnet-4-5" : "gpt-5"));
  expect(modelAt[0]).toBe(modelAt[1]);
  const msgsEnd = rows.map((row) => row.indexOf(" msg") + (row.includes(" msgs") ? 5 : 4));
  expect(msgsEnd[0]).toBe(msgsEnd[1]);
  expect(rows[0]).toContain("  2 msgs");
  expect(rows[1]).toContain("120 msgs");
  for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(80);
  expect(rows[0]).toContain('"fix the build"');
});

test("ten thousand rows come out, each aligned as the first", () => {
  const many = Array.from({ length: 10_000 }, (_, i) => session(String(i), i === 9_999 ? "a-very-long-model-name" : "m", i, i / 100, `prompt ${i}`));
  const rows = formatRows(many, many.map((_, i) => `${i + 1}.`));
  expect(rows).toHaveLength(10_000);
  const at = (row: string) => row.indexOf(" msg");
  expect(at(rows[0]!)).toBe(at(rows[9_999]!));
});
