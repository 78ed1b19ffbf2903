// The model's reasoning, dim: while it streams, its last rows (so the user sees it move); once done,
// its first rows and how many more there are; Ctrl+O shows it whole. Rule: collapsed, it never
// takes more than a handful of rows, however long the model thought. While it streams collapsed,
// all of its last rows move up as it grows: none of them is final (live-tail.ts).
import { noFTL } from "bun:jsc";
import type { Theme } from "../../tui/theme.ts";
import { wrapText } from "../../tui/width.ts";
import { CachedBlock } from "./cached-block.ts";
import type { LiveBlock, LiveRows } from "./live-tail.ts";
import { counted } from "../../protocol/counted.ts";
import { printable } from "../../protocol/printable.ts";

const COLLAPSED_ROWS = 3;

export class ThinkingBlock extends CachedBlock implements LiveBlock {
  private text = "";
  private isStreaming = true;
  private expanded = false;

  constructor(private readonly theme: Theme) {
    super();
  }

  append(delta: string): void {
    this.text += delta;
    this.changed();
  }

  /** Still streaming: finish() not yet called. */
  get streaming(): boolean {
    return this.isStreaming;
  }

  /** The thinking is complete (the answer or a tool call followed). */
  finish(): void {
    if (!this.isStreaming) return;
    this.isStreaming = false;
    this.changed();
  }

  setExpanded(expanded: boolean): void {
    if (expanded === this.expanded) return;
    this.expanded = expanded;
    this.changed();
  }

  renderLive(width: number): LiveRows {
    const rows = this.render(width);
    // The two head rows are final; collapsed, the window of newest rows under them scrolls.
    return { rows, settled: this.expanded ? Math.max(0, rows.length - 1) : Math.min(2, rows.length) };
  }

  protected draw(width: number): string[] {
    const { dim, italic } = this.theme;
    // The model's text: no escape in it reaches the terminal.
    const text = printable(this.text).trim();
    const rows = text === "" ? [] : wrapText(text, Math.max(1, width - 3));
    const head = ["", ` ${dim(italic("✻ thinking"))}`];
    const body = (shown: string[]) => shown.map((row) => `   ${dim(italic(row))}`);
    if (this.expanded || rows.length <= COLLAPSED_ROWS) return [...head, ...body(rows)];
    const hidden = rows.length - COLLAPSED_ROWS;
    if (this.isStreaming) return [...head, `   ${dim(`… ${counted(hidden, "row")} above`)}`, ...body(rows.slice(-COLLAPSED_ROWS))];
    return [...head, ...body(rows.slice(0, COLLAPSED_ROWS)), `   ${dim(`… ${counted(hidden, "more row")} · ctrl+o to expand`)}`];
  }
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(ThinkingBlock.prototype.append);
