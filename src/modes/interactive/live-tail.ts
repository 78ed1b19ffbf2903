// The transcript's rows with the end of a block that is still changing (an answer streaming,
// thinking, a running tool) kept on the screen. Why: the renderer rewrites only the visible rows
// (tui/renderer.ts); rows in the scrollback are final. A block that grows while more rows than the
// screen holds sit under it (/help run mid-answer at 30 rows) grows above the screen: its new rows
// are never seen, and every row below shifts, so the rows pushed into the scrollback repeat ones
// already there. Rule: the blocks after the first live one are shown, in order, while they leave
// that block's last row on screen; the first that would not, and all after it, wait (a muted row
// says how many rows) until no block above them changes any more. Nothing is reordered: what waits
// comes where it would have come, only later.
import type { Component } from "../../tui/component.ts";
import type { Theme } from "../../tui/theme.ts";
import { counted } from "../../protocol/counted.ts";

export interface LiveTail {
  /** The blocks top to bottom. */
  blocks: readonly Component[];
  /** Whether a block may still change (its rows, their number). */
  isLive(block: Component): boolean;
  /** Rows the screen has for the transcript and what follows it in `below`. */
  room: number;
  /** Rows drawn under the transcript (the extensions' notes), counted against `room`. */
  below: number;
}

export function renderLiveTail(width: number, tail: LiveTail, theme: Theme): string[] {
  const rows: string[] = [];
  const { blocks } = tail;
  const first = blocks.findIndex((block) => tail.isLive(block));
  // Rows under the live block's last row, other than the transcript's: the band and the notes.
  // The live block's last row itself needs one row of the room.
  const free = tail.room - tail.below - 1;
  let under = 0;
  for (let i = 0; i < blocks.length; i++) {
    const lines = blocks[i]!.render(width);
    if (first !== -1 && i > first) {
      if (under + lines.length > free) {
        const waiting = lines.length + blocks.slice(i + 1).reduce((sum, block) => sum + block.render(width).length, 0);
        if (under + 2 <= free) rows.push("", ` ${theme.muted(`… ${counted(waiting, "more row")} to come once the output above is complete`)}`);
        return rows;
      }
      under += lines.length;
    }
    for (const line of lines) rows.push(line);
  }
  return rows;
}
