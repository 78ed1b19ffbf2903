// An extension's panel in the TUI, in process: how it draws (title rule, lines, footer, closing
// rule, the room it keeps to), which keys it sends on, and the PanelOverlay between a real
// PanelBoard (as the conversation's panel controls) and the app's overlays (open, render, replace, close by the user or the extension, the
// room reported once per size).
import { describe, expect, test } from "bun:test";
import { PanelBoard, type PanelOwner, type PanelView } from "../../src/extensions/panels.ts";
import { ExtensionPanel, panelKeyOf, panelLineRoom } from "../../src/modes/interactive/extension-panel.ts";
import { PanelOverlay } from "../../src/modes/interactive/panel-overlay.ts";
import type { HostFrameOf } from "../../src/protocol/ext-frames.ts";
import type { Component } from "../../src/tui/component.ts";
import { decodeKey, type Key } from "../../src/tui/keys.ts";
import { createTheme } from "../../src/tui/theme.ts";

const theme = createTheme({ color: false });
const plain = (rows: string[]) => rows.map((row) => Bun.stripANSI(row));

function view(fields: Partial<PanelView> = {}): PanelView {
  return { extension: "todo", id: "p1", title: "Todo", lines: ["› [ ] buy milk", "  [ ] write tests"], footer: "x toggle", ...fields };
}

function panel(fields: Partial<PanelView> = {}, maxRows = 20) {
  const sent: { key: string; text?: string }[] = [];
  let closed = 0;
  const component = new ExtensionPanel(view(fields), theme, () => maxRows, {
    key: (key, text) => sent.push(text === undefined ? { key } : { key, text }),
    close: () => closed++,
  });
  return { component, sent, closed: () => closed };
}

const key = (sequence: string): Key => {
  const decoded = decodeKey(sequence);
  if (!decoded) throw new Error(`not a key: ${JSON.stringify(sequence)}`);
  return decoded;
};

describe("the panel's rows", () => {
  test("a title rule naming the extension, the lines as sent, a blank row and the footer, a closing rule with the way out", () => {
    expect(plain(panel().component.render(40))).toEqual([
      `── Todo · todo ${"─".repeat(25)}`,
      "› [ ] buy milk",
      "  [ ] write tests",
      "",
      "x toggle",
      `${"─".repeat(27)} esc close ──`,
    ]);
  });

  test("no footer: no blank row; a title that is the extension's name is not repeated", () => {
    const rows = plain(panel({ title: "todo", footer: "  " }).component.render(30));
    expect(rows).toEqual([`── todo ${"─".repeat(22)}`, "› [ ] buy milk", "  [ ] write tests", `${"─".repeat(17)} esc close ──`]);
  });

  test("the footer is muted, the title bold, the rules in the accent colour; the lines keep their own styles", () => {
    const coloured = createTheme({ color: true });
    const component = new ExtensionPanel(view({ lines: ["\x1b[32mdone\x1b[39m"] }), coloured, () => 20, { key() {}, close() {} });
    const rows = component.render(40);
    expect(rows[0]).toContain(coloured.bold("Todo"));
    expect(rows[0]).toStartWith(coloured.accent("── "));
    expect(rows[1]).toBe("\x1b[32mdone\x1b[39m");
    expect(rows[3]).toBe(coloured.muted("x toggle"));
  });

  test("more lines than the room: the first ones and a row saying how many more; never more rows than given", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `item ${i + 1}`);
    const rows = plain(panel({ lines }, 10).component.render(40));
    expect(rows).toHaveLength(10);
    expect(rows.slice(1, 6)).toEqual(["item 1", "item 2", "item 3", "item 4", "item 5"]);
    expect(rows[6]).toBe("… 25 more lines");
    expect(rows[8]).toBe("x toggle");
    // Exactly the room reported as panel_resize's height shows in full.
    const exact = plain(panel({ lines: lines.slice(0, panelLineRoom(10)) }, 10).component.render(40));
    expect(exact).toHaveLength(10);
    expect(exact.join("\n")).not.toContain("more lines");
  });

  test("a wide line is cut, not wrapped; a newline in a line is another row; escapes that move the cursor or clear the screen are dropped", () => {
    const rows = panel({ lines: ["x".repeat(50), "one\ntwo", "a\x1b[2Jb\x1b[5;1Hc\rd\x07e\x1b_zot:cursor\x1b\\f", "\ttabbed"] }).component.render(20);
    expect(plain(rows).slice(1, 6)).toEqual([`${"x".repeat(19)}…`, "one", "two", "abcdef", "    tabbed"]);
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(20);
  });

  test("the size it is drawn at is reported at every render: the width and the lines that fit", () => {
    const { component } = panel({}, 18);
    const sizes: string[] = [];
    component.onSize = (width, height) => sizes.push(`${width}x${height}`);
    component.render(80);
    component.render(60);
    expect(sizes).toEqual(["80x14", "60x14"]);
  });
});

describe("the panel's keys", () => {
  test("named keys go by name, printable keys as rune with their text (space and non-ASCII too); Esc closes", () => {
    const { component, sent, closed } = panel();
    for (const sequence of ["\x1b[A", "\x1b[B", "\x1b[D", "\x1b[C", "\r", "\t", "\x7f", "\x1b[3~", "\x1b[H", "\x1b[F", "\x1b[5~", "\x1b[6~", "x", "X", " ", "é", "日"]) {
      expect(component.handleKey(key(sequence))).toBe(true);
    }
    expect(sent).toEqual([
      { key: "up" },
      { key: "down" },
      { key: "left" },
      { key: "right" },
      { key: "enter" },
      { key: "tab" },
      { key: "backspace" },
      { key: "delete" },
      { key: "home" },
      { key: "end" },
      { key: "pageup" },
      { key: "pagedown" },
      { key: "rune", text: "x" },
      { key: "rune", text: "X" },
      { key: "rune", text: " " },
      { key: "rune", text: "é" },
      { key: "rune", text: "日" },
    ]);
    expect(closed()).toBe(0);
    component.handleKey(key("\x1b"));
    expect(closed()).toBe(1);
  });

  test("the Kitty protocol's space and shifted letters are runes too; Ctrl/Alt chords and F-keys are kept from the extension (and from the editor)", () => {
    expect(panelKeyOf(key("\x1b[32u"))).toEqual({ key: "rune", text: " " });
    expect(panelKeyOf(key("\x1b[65;2u"))).toEqual({ key: "rune", text: "A" });
    expect(panelKeyOf(key("\x1b[1;2A"))).toEqual({ key: "up" });
    for (const sequence of ["\x01", "\x1bx", "\x1b[15~", "\x1b[1;5A"]) expect(panelKeyOf(key(sequence))).toBeUndefined();
    const { component, sent } = panel();
    expect(component.handleKey(key("\x01"))).toBe(true);
    component.handlePaste();
    expect(sent).toEqual([]);
  });
});

/** A PanelBoard with one fake extension, and a PanelOverlay on a fake screen. */
function board(rows = 30) {
  const frames: HostFrameOf<"panel_key" | "panel_close" | "panel_resize">[] = [];
  const owner = (name: string): PanelOwner => ({ name, sendPanel: (frame) => frames.push(frame), log() {} });
  const overlays: Component[] = [];
  let renders = 0;
  const panels = new PanelBoard();
  const overlay = new PanelOverlay(
    {
      theme,
      openOverlay(component) {
        overlays.push(component);
        return { close: () => overlays.splice(overlays.indexOf(component), 1) };
      },
      render: () => renders++,
      screenRows: () => rows,
    },
    { key: (k, text) => panels.key(k, text), close: () => panels.closeByUser(), resize: (width, height) => panels.resize(width, height) },
  );
  panels.show(overlay);
  const draw = (width = 100) => plain(overlays.at(-1)?.render(width) ?? []);
  return { panels, overlay, overlays, frames, owner, draw, renders: () => renders };
}

describe("the panel overlay", () => {
  test("an opened panel is an overlay; keys go to its extension as panel_key; Esc takes it down and sends panel_close", () => {
    const { panels, overlays, frames, owner, draw } = board();
    const todo = owner("todo");
    panels.apply(todo, { op: "open", panel: { id: "p1", title: "Todo", lines: ["a", "b"] } });
    expect(overlays).toHaveLength(1);
    expect(draw()[0]).toStartWith("── Todo · todo ");
    overlays[0]!.handleKey!(key("\x1b[B"));
    overlays[0]!.handleKey!(key("x"));
    overlays[0]!.handleKey!(key("\x1b"));
    expect(frames.filter((frame) => frame.type !== "panel_resize")).toEqual([
      { type: "panel_key", panel_id: "p1", key: "down" },
      { type: "panel_key", panel_id: "p1", key: "rune", text: "x" },
      { type: "panel_close", panel_id: "p1" },
    ]);
    expect(overlays).toHaveLength(0);
    expect(panels.current).toBeUndefined();
  });

  test("panel_render redraws it in place (an empty title keeps the old one); the extension's panel_close takes it down unannounced", () => {
    const { panels, overlays, frames, owner, draw, renders } = board();
    const todo = owner("todo");
    panels.apply(todo, { op: "open", panel: { id: "p1", title: "Todo", lines: ["a"] } });
    const shown = overlays[0];
    panels.apply(todo, { op: "render", panel_id: "p1", lines: ["a", "b"], footer: "2 items" });
    expect(overlays).toEqual([shown!]);
    expect(renders()).toBe(1);
    expect(draw().slice(0, 5)).toEqual([`── Todo · todo ${"─".repeat(85)}`, "a", "b", "", "2 items"]);
    panels.apply(todo, { op: "close", panel_id: "p1" });
    expect(overlays).toHaveLength(0);
    expect(frames.filter((frame) => frame.type === "panel_close")).toEqual([]);
  });

  test("another extension's panel replaces it (the first is told); an extension exiting takes its panel down", () => {
    const { panels, overlays, frames, owner, draw } = board();
    const todo = owner("todo");
    const review = owner("review");
    panels.apply(todo, { op: "open", panel: { id: "p1", title: "Todo" } });
    panels.apply(review, { op: "open", panel: { id: "r1", title: "" } });
    expect(overlays).toHaveLength(1);
    expect(draw()[0]).toStartWith("── review ");
    expect(frames.filter((frame) => frame.type === "panel_close")).toEqual([{ type: "panel_close", panel_id: "p1" }]);
    panels.apply(review, { op: "gone" });
    expect(overlays).toHaveLength(0);
  });

  test("the room is reported when the first panel draws and when the size changes, once per size; later panels get it from the board", () => {
    const { panels, frames, owner, draw } = board(30);
    const todo = owner("todo");
    panels.apply(todo, { op: "open", panel: { id: "p1", title: "Todo" } });
    draw(100);
    draw(100);
    draw(80);
    panels.apply(todo, { op: "open", panel: { id: "p2", title: "Other" } });
    draw(80);
    expect(frames).toEqual([
      { type: "panel_resize", panel_id: "p1", width: 100, height: 20 },
      { type: "panel_resize", panel_id: "p1", width: 80, height: 20 },
      { type: "panel_close", panel_id: "p1" },
      { type: "panel_resize", panel_id: "p2", width: 80, height: 20 },
    ]);
  });
});
