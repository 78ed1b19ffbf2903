// A built-in command's picker (/model, /sessions, /jump) fits the terminal: in a short one its
// title, the filter and the highlighted row stay in view, and the list scrolls.
import { expect, test } from "bun:test";
import { Picker } from "../../src/modes/interactive/commands/pick.ts";
import { createTheme } from "../../src/tui/theme.ts";

const items = Array.from({ length: 30 }, (_, i) => ({ label: `session ${i}`, value: i }));
const DOWN = { name: "down", ctrl: false, alt: false, shift: false };

test("in a 10-row terminal the list shrinks to what is left: title, filter and highlight stay in view", () => {
  let rows = 10;
  const picker = new Picker(items, createTheme({ color: false }), { title: "Sessions" }, () => rows);
  const shown = picker.render(60);
  expect(shown.length).toBeLessThanOrEqual(rows - 4); // the status bar, the editor and the row the frame keeps free
  expect(shown[0]).toContain("Sessions");
  expect(shown[1]).toContain("›");
  for (let i = 0; i < 5; i++) picker.handleKey(DOWN);
  expect(picker.render(60).join("\n")).toContain("session 5");
  // taller, it shows its ten as before
  rows = 40;
  expect(picker.render(60).filter((row) => row.includes("session "))).toHaveLength(10);
});
