// The model's answer: markdown that grows with each text delta while it streams, and is replaced by
// what the user is meant to see once the message is complete (an extension's replace_text rewrites
// it). Also used for markdown a command shows (/help, /btw answers). Rule: the markdown component
// re-renders only when the text changed, so a paint while nothing streams costs nothing. While it
// streams, its rows are final but the last (words only add to it), except a table still growing:
// a wider row re-lays out every column, so all its rows stay on screen. A growing table taller than
// the screen has for it is held back behind a muted row until it is complete (a blank line or the
// answer's end), then shown whole. Why not keep the column widths it first chose: Bun's renderer
// lays the table out, a fixed layout would cut the wider cells it is meant to show, and the
// finished table would still be drawn with other widths than the rows already in the scrollback.
import { noFTL } from "bun:jsc";
import { growingTableStart, Markdown } from "../../tui/markdown.ts";
import { truncateToWidth } from "../../tui/width.ts";
import type { Theme } from "../../tui/theme.ts";
import { CachedBlock } from "./cached-block.ts";
import type { LiveBlock, LiveRows } from "./live-tail.ts";

export class AssistantMessage extends CachedBlock implements LiveBlock {
  private readonly markdown: Markdown;
  /** The text above a table still growing, laid out alone: its rows are the final ones. */
  private readonly aboveTable: Markdown;
  /** the last live frame's width, final rows and rows shown */
  private lastLive = { width: -1, settled: 0, rows: 0 };

  constructor(
    text: string,
    private readonly theme: Theme,
  ) {
    super();
    this.markdown = new Markdown(text, theme, { paddingX: 1 });
    this.aboveTable = new Markdown("", theme, { paddingX: 1 });
  }

  get text(): string {
    return this.markdown.text;
  }

  append(delta: string): void {
    if (delta === "") return;
    this.markdown.append(delta);
    this.changed();
  }

  setText(text: string): void {
    if (text === this.markdown.text) return;
    this.markdown.setText(text);
    this.changed();
  }

  renderLive(width: number, room: number): LiveRows {
    const rows = this.render(width);
    const last = this.lastLive.width === width ? this.lastLive : { width, settled: 0, rows: 0 };
    const table = growingTableStart(this.markdown.text);
    let settled: number;
    if (table === undefined) settled = Math.max(0, rows.length - 1);
    else {
      this.aboveTable.setText(this.markdown.text.slice(0, table));
      const above = this.aboveTable.render(width);
      // The rows the text above the table gives alone, as far as the whole text shows the same (a
      // list that turns loose when a table follows adds only invisible resets to its rows).
      settled = Math.min(1, rows.length);
      while (settled < rows.length && settled - 1 < above.length && visible(rows[settled]!) === visible(above[settled - 1]!)) settled++;
    }
    // Rows once final stay final: they may be in the scrollback already.
    settled = Math.min(rows.length, Math.max(settled, last.settled));
    let shown: readonly string[] = rows;
    if (table !== undefined && rows.length - settled > room) {
      const note = truncateToWidth(` ${this.theme.muted(`… a table (${rows.length - settled} rows so far), shown once it is complete`)}`, width);
      const waiting = [...rows.slice(0, settled), ...(room >= 2 ? ["", note] : [note])];
      // As many rows as the last frame had, within the room: the screen does not jump up while the table waits.
      while (waiting.length < Math.min(last.rows, settled + room)) waiting.push("");
      shown = waiting;
    }
    this.lastLive = { width, settled, rows: shown.length };
    return { rows: shown, settled };
  }

  protected draw(width: number): string[] {
    const rows = this.markdown.render(width);
    return rows.length === 0 ? [] : ["", ...rows];
  }
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(AssistantMessage.prototype.append);

/** A row as it shows: the same text with other (invisible) escape sequences is the same row. */
function visible(row: string): string {
  return Bun.stripANSI(row);
}
