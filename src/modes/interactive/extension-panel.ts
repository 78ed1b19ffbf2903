// An extension's panel in the TUI (a todo list, a review queue, a loop dashboard): a rule with the
// title, the extension's lines as it sent them, its footer (muted, after a blank row) and a closing
// rule that says how to leave. While it has focus every key is the extension's: Esc (and Ctrl+C,
// which the app hands overlays as Esc) closes it; every other key the protocol names is sent on
// (arrows, enter, tab, backspace, delete, home, end, pageup, pagedown, and `rune` with the text of
// a printable key, space included); other keys (Ctrl/Alt chords, F-keys) and pastes are dropped.
// Rule: the panel never takes more rows than it was given. It does not scroll on its own, since
// the extension owns every key, PgUp/PgDn included, as in the original: lines past the room are
// cut, with a "… n more lines" row, and the extension learns its room from panel_resize (`height`:
// the lines that show in full) to window long content itself. A line wider than the screen is cut,
// never wrapped, so an extension's row numbers (a cursor on row 3) stay the rows the user sees.
import type { EventOf } from "../../protocol/events.ts";
import type { HostFrameOf, PanelView } from "../../protocol/ext-frames.ts";
import type { Component } from "../../tui/component.ts";
import type { Key } from "../../tui/keys.ts";
import { styledRow, styledRows } from "../../tui/styled-row.ts";
import type { Theme } from "../../tui/theme.ts";
import { truncateToWidth, visibleWidth } from "../../tui/width.ts";

/** A key the protocol sends a panel (panel_key). */
export type PanelKey = HostFrameOf<"panel_key">["key"];

export type { PanelView };

/** The view a panel_open or panel_render event shows. */
export function panelViewOf(event: EventOf<"panel_open" | "panel_render">): PanelView {
  return { extension: event.extension, id: event.panel_id, title: event.title, lines: event.lines, footer: event.footer };
}

/** What the panel does with the user's keys: on to the extension, or close. */
export interface PanelInput {
  key(key: PanelKey, text?: string): void;
  close(): void;
}

/** The rules around the lines and a one-row footer after its blank row. */
const CHROME_ROWS = 4;
/** Whatever the screen, the title rule, a line and the closing rule. */
const MIN_ROWS = 3;

const NAMED_KEYS: ReadonlyMap<string, PanelKey> = new Map(
  (["up", "down", "left", "right", "enter", "tab", "backspace", "delete", "home", "end", "pageup", "pagedown"] as const).map((name) => [name, name]),
);

/** The panel_key a key press is, if the protocol has one: `rune` with text for printable keys. */
export function panelKeyOf(key: Key): { key: PanelKey; text?: string } | undefined {
  if (key.name === "space" && !key.ctrl && !key.alt) return { key: "rune", text: " " };
  if (key.text !== undefined) return { key: "rune", text: key.text };
  if (key.ctrl || key.alt) return undefined;
  const named = NAMED_KEYS.get(key.name);
  return named ? { key: named } : undefined;
}

/** The lines a panel of at most `rows` rows shows in full with a one-row footer (panel_resize's height). */
export function panelLineRoom(rows: number): number {
  return Math.max(1, rows - CHROME_ROWS);
}

export class ExtensionPanel implements Component {
  focused = false;
  /** Told the width and panelLineRoom at every render (the owner reports a change as panel_resize). */
  onSize?: (width: number, height: number) => void;

  constructor(
    private view: PanelView,
    private readonly theme: Theme,
    /** the most rows the panel may take on this screen */
    private readonly maxRows: () => number,
    private readonly input: PanelInput,
  ) {}

  get id(): string {
    return this.view.id;
  }

  get extension(): string {
    return this.view.extension;
  }

  /** The extension redrew it (panel_render): the whole panel as it is now. */
  show(view: PanelView): void {
    this.view = view;
  }

  render(width: number): string[] {
    const { theme } = this;
    const maxRows = Math.max(MIN_ROWS, this.maxRows());
    this.onSize?.(width, panelLineRoom(maxRows));
    const footer = this.view.footer.trim() === "" ? [] : ["", ...styledRows(this.view.footer.replace(/\n+$/, "")).map((row) => theme.muted(truncateToWidth(row, width)))];
    const room = Math.max(1, maxRows - 2 - footer.length);
    const lines = this.view.lines.flatMap((line) => styledRows(line));
    const shown = lines.length <= room ? lines : lines.slice(0, room - 1);
    const rows = [this.titleRule(width), ...shown.map((line) => truncateToWidth(line, width))];
    if (shown.length < lines.length) rows.push(theme.muted(truncateToWidth(`… ${lines.length - shown.length} more lines`, width)));
    return [...rows, ...footer, this.closingRule(width)];
  }

  handleKey(key: Key): boolean {
    if (key.name === "escape") {
      this.input.close();
      return true;
    }
    const panelKey = panelKeyOf(key);
    if (panelKey) this.input.key(panelKey.key, panelKey.text);
    return true;
  }

  /** A paste is not a key; the protocol has no frame for it, and typing it out key by key could act on every character. */
  handlePaste(): void {}

  /** `── Title · extension ───────` (the extension named when the title is not its name). */
  private titleRule(width: number): string {
    const { theme, view } = this;
    const title = styledRow(view.title.split(/\r?\n/)[0] ?? "");
    const owner = view.extension !== view.title ? theme.muted(` · ${view.extension}`) : "";
    const head = truncateToWidth(`${theme.accent("── ")}${theme.bold(title)}${owner} `, width);
    return head + theme.accent("─".repeat(Math.max(0, width - visibleWidth(head))));
  }

  /** `──────── esc close ──` */
  private closingRule(width: number): string {
    const hint = " esc close ";
    const tail = 2;
    if (width < visibleWidth(hint) + tail + 2) return this.theme.accent("─".repeat(width));
    return this.theme.accent("─".repeat(width - visibleWidth(hint) - tail)) + this.theme.muted(hint) + this.theme.accent("─".repeat(tail));
  }
}
