// The transcript's rows with what is still changing (an answer streaming, thinking, a running tool)
// kept on the screen. Why: the renderer rewrites only the visible rows (tui/renderer.ts); rows in
// the scrollback are final. A row that changes after it scrolled off keeps its old text there (a
// table's narrow top above its wide bottom), and a block that grows above the screen shifts every
// row below, so the rows pushed into the scrollback repeat ones already there. Rules:
// - a live block says which of its first rows are final (LiveBlock.renderLive); all its other rows
//   stay on screen. When they do not fit, the block draws less of what changes (a running tool
//   shows fewer of its newest rows, a table still streaming waits behind a muted row) instead of
//   letting a changing row go up;
// - the blocks after the first live one are shown, in order, while they leave its changing rows on
//   screen; the first that would not, and all after it, wait (a muted row says how many rows) until
//   no block above them changes any more. Nothing is reordered: what waits comes where it would
//   have come, only later.
import type { Component } from "../../tui/component.ts";
import type { Theme } from "../../tui/theme.ts";
import { counted } from "../../protocol/counted.ts";

/** What a live block gives for a frame: its rows, and how many of the first ones are final. */
export interface LiveRows {
  rows: readonly string[];
  /** The first `settled` rows are the same in every later frame at this width (and once the block is done). */
  settled: number;
}

/** A block that knows which of its rows still change. */
export interface LiveBlock extends Component {
  /** Its rows when no more than `room` rows at their end may change (at least one, at most all of them). */
  renderLive(width: number, room: number): LiveRows;
}

/** A live block's rows; one that does not say is taken to change only in its last row. */
export function liveRows(block: Component, width: number, room: number): LiveRows {
  if ("renderLive" in block && typeof block.renderLive === "function") return (block as LiveBlock).renderLive(width, Math.max(1, room));
  const rows = block.render(width);
  return { rows, settled: Math.max(0, rows.length - 1) };
}

export interface LiveTail {
  /** The blocks top to bottom. */
  blocks: readonly Component[];
  /** The rows of the blocks above the first live one, kept from frame to frame (StableRows). */
  stable?: StableRows;
  /** Whether a block may still change (its rows, their number). */
  isLive(block: Component): boolean;
  /** Rows the screen has for the transcript and what follows it in `below`. */
  room: number;
  /** Rows drawn under the transcript (the extensions' notes), counted against `room`. */
  below: number;
  /**
   * Told how many of the first rows are final (those of the blocks above the first live one, and
   * its settled rows), and the first live block and the row it starts at, if there is one.
   */
  settledRows?(count: number, live?: { block: Component; row: number }): void;
}

export function renderLiveTail(width: number, tail: LiveTail, theme: Theme): string[] {
  const { blocks } = tail;
  const first = blocks.findIndex((block) => tail.isLive(block));
  // The blocks above the first live one (all of them when none is) are whole: their rows come
  // from the kept ones, so a frame of a long conversation does not copy every row one by one.
  const settled = first === -1 ? blocks.length : first;
  const rows: string[] = tail.stable ? tail.stable.rowsOf(width, blocks, settled).slice() : [];
  // Rows under the live block's changing rows: the band's are not in `room`, the notes' are.
  let free = tail.room - tail.below;
  for (let i = tail.stable ? settled : 0; i < blocks.length; i++) {
    if (i === first) {
      const live = liveRows(blocks[i]!, width, free);
      tail.settledRows?.(rows.length + live.settled, { block: blocks[i]!, row: rows.length });
      for (const line of live.rows) rows.push(line);
      free -= live.rows.length - live.settled;
      continue;
    }
    const lines = blocks[i]!.render(width);
    if (first !== -1 && i > first) {
      if (lines.length > free) {
        const waiting = lines.length + blocks.slice(i + 1).reduce((sum, block) => sum + block.render(width).length, 0);
        if (2 <= free) rows.push("", ` ${theme.muted(`… ${counted(waiting, "more row")} to come once the output above is complete`)}`);
        return rows;
      }
      free -= lines.length;
    }
    for (const line of lines) rows.push(line);
  }
  if (first === -1) tail.settledRows?.(rows.length);
  return rows;
}

/**
 * The rows of a conversation's first blocks, kept between frames. Each frame asks every one of
 * those blocks for its rows, as before, but copies none of them unless a block gave other rows
 * than last time (a cached block gives the very same array while it is unchanged): a block added,
 * one redrawn (a finished call's result, Ctrl+O), a new width. Rule: the rows are always exactly
 * the blocks' rows in order; what is kept is only a shortcut to them.
 */
export class StableRows {
  private width = -1;
  private readonly blocks: Component[] = [];
  /** each kept block's rows, as it gave them */
  private readonly parts: (readonly string[])[] = [];
  /** the row after each kept block's last */
  private readonly ends: number[] = [];
  private readonly rows: string[] = [];

  /** The rows of `blocks[0..count)`; the array is this object's: copy it before changing it. */
  rowsOf(width: number, blocks: readonly Component[], count: number): readonly string[] {
    if (width !== this.width) {
      this.width = width;
      this.keep(0);
    }
    // The first block that gives other rows than were kept (a block's rows are asked for once a frame; unchanged, it hands back the same array).
    let same = 0;
    let changed: readonly string[] | undefined;
    const kept = Math.min(count, this.blocks.length);
    while (same < kept && this.blocks[same] === blocks[same]) {
      changed = blocks[same]!.render(width);
      if (changed !== this.parts[same]) break;
      changed = undefined;
      same++;
    }
    this.keep(same);
    for (let i = same; i < count; i++) {
      const part = i === same && changed !== undefined ? changed : blocks[i]!.render(width);
      for (let k = 0; k < part.length; k++) this.rows.push(part[k]!);
      this.blocks.push(blocks[i]!);
      this.parts.push(part);
      this.ends.push(this.rows.length);
    }
    return this.rows;
  }

  /** Keeps the first `count` blocks' rows and forgets the rest. */
  private keep(count: number): void {
    this.rows.length = count === 0 ? 0 : this.ends[count - 1]!;
    this.blocks.length = count;
    this.parts.length = count;
    this.ends.length = count;
  }
}
