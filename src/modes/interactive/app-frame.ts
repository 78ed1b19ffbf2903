// The app's whole screen: the chat above, the band (queue, status, editor, popups) below. The band
// is drawn first, so that the chat knows how many rows the screen leaves it (what still changes in
// it stays on screen: live-tail.ts). Rules:
// - the chat always has at least one row: a band taller than the screen leaves out its blank rows,
//   then rows above the editor (the status bar), then the rows of a popup furthest under it;
// - the frame is kept from shrinking out of sight: the renderer never rewrites rows that scrolled
//   into the scrollback, so a frame that suddenly got much shorter (/clear, a tall picker closing)
//   could end above the visible screen and the editor would vanish. A shrink that would take the
//   band off the screen is made up with blank rows on top, so the frame's end stays at the bottom
//   of the screen; those rows never go away again (removing them would move every row and rewrite
//   the whole screen on the next frame). Any smaller shrink (a popup closing, Ctrl+O collapsing)
//   leaves blank rows under the frame, which the next output fills: blank rows on top would bring
//   rows back onto the screen that are in the scrollback already, and show them twice;
// - on exit the band goes (closeBand): the last frame is the chat alone, so the scrollback keeps
//   the conversation and not the status bar, the editor and its hints;
// - Ctrl+Z leaves the band out too (hideBand) while zot is stopped. Once continued, the renderer
//   paints as if starting anew under the shell's lines, and the frame begins at its first row that
//   can still change (continueBelow: the settled rows stay where they were painted, above; what
//   was still changing, an answer streaming or a tool running, is drawn again below them).
import { type Component, CURSOR_MARKER, Stack } from "../../tui/component.ts";

/** The part above the band, drawn into the rows the screen leaves it. */
export interface FrameChat {
  /** The rows, in a new array each call: the frame adds the band's rows to its end. */
  renderWithin(width: number, room: number): string[];
  /** How many of the first rows the last renderWithin gave stay as they are (none said: all of them). */
  finalRows?(): number;
  /** How many of its last rows the frame just drawn shows on screen (blank rows left under a shrunk frame take the rest). */
  shownRows?(rows: number): void;
}

export class AppFrame implements Component {
  /** What is under the chat, top to bottom. */
  readonly band = new Stack();
  private pad = 0;
  /** The most rows any frame had (the renderer's high-water mark). */
  private peak = 0;
  private size = "";
  private blank: string[] = [];
  private bandClosed = false;
  private bandHidden = false;
  /** The first frame row painted since the last stop (continueBelow); the rows above it are the scrollback's. */
  private origin = 0;
  private continuing = false;
  private refill = false;
  private width = 0;
  /** the width and the count of final rows of the frame left on screen at the last stop */
  private atStop: { width: number; rows: number } | undefined;

  constructor(
    private readonly chat: FrameChat,
    private readonly screenRows: () => number,
  ) {}

  /** After the screen was cleared (Ctrl+L): the next frame starts from the top. */
  reset(): void {
    this.pad = 0;
    this.peak = 0;
    this.origin = 0;
  }

  /** Ctrl+Z: the frames leave the band out (the chat alone is left on screen while zot is stopped), or have it again. */
  hideBand(hidden: boolean): void {
    this.bandHidden = hidden;
  }

  /**
   * zot was continued after a stop, and the renderer paints its next frame as a first one, under
   * what the shell wrote: that frame starts at the first row that can still change, as the chat
   * has it then (before any more of a stream is read), and so do the frames after it.
   */
  continueBelow(): void {
    this.continuing = true;
  }

  /**
   * The next frame is painted from the top of the screen (zot was stopped from outside, and the
   * shell may have written over the frame): since a stop of its own, the frame starts no later
   * than where it fills the screen, so the rows painted before that stop are on it again.
   */
  fillScreen(): void {
    this.refill = true;
  }

  /**
   * The app is ending: from now on the frame is the chat alone. The blank rows on top stay (taking
   * them away would move every row), and no more are added for the band's rows going.
   */
  closeBand(): void {
    this.bandClosed = true;
  }

  render(width: number): string[] {
    const height = this.screenRows();
    if (this.bandClosed || this.bandHidden) {
      const chat = this.chat.renderWithin(width, height);
      if (this.continuing) this.continueAt(chat.length, width);
      // What is on screen as zot stops: after `fg` the frame starts no later (rows that settle
      // meanwhile, a turn going on after `bg`, were never painted).
      if (this.bandHidden) this.atStop = { width, rows: this.pad + Math.min(chat.length, this.chat.finalRows?.() ?? chat.length) };
      return this.fromOrigin(this.withPad(chat));
    }
    const band = fitBand(this.band.render(width), height - 1);
    // The chat's rows are a fresh array each frame: the band goes on its end, not into a copy of it all.
    const rows = this.chat.renderWithin(width, height - band.length);
    const chatRows = rows.length;
    for (const row of band) rows.push(row);
    if (this.continuing) this.continueAt(chatRows, width);
    // A narrower screen is painted again from its top (the terminal reflowed it), as is one a shell
    // wrote over: the rows painted before a stop, that are still on it, are painted again with it.
    if (this.origin > 0 && (this.refill || width < this.width)) this.origin = Math.min(this.origin, Math.max(0, this.pad + rows.length - height));
    this.refill = false;
    this.width = width;
    const size = `${width}x${height}`;
    if (size !== this.size) {
      // A resize repaints the screen from this frame: its length is the new high-water mark.
      this.size = size;
      this.peak = this.pad + rows.length;
    }
    const gap = this.peak - (this.pad + rows.length);
    if (gap > height - band.length) this.pad += gap;
    // A chat that shrank above the first row painted since a stop (/clear): blank rows on top keep the band in the frame.
    if (this.pad + chatRows < this.origin) this.pad = this.origin - chatRows;
    this.peak = Math.max(this.peak, this.pad + rows.length);
    // The screen ends at the high-water mark: blank rows under this frame are on it, above the chat's rows.
    const under = this.peak - (this.pad + rows.length);
    this.chat.shownRows?.(Math.max(0, Math.min(height - band.length - under, this.pad + chatRows - this.origin)));
    return this.fromOrigin(this.withPad(rows));
  }

  /** The frame from here on starts at the chat's first row that can still change. */
  private continueAt(chatRows: number, width: number): void {
    this.continuing = false;
    const final = this.pad + Math.min(chatRows, this.chat.finalRows?.() ?? chatRows);
    this.origin = this.atStop?.width === width ? Math.min(final, this.atStop.rows) : final;
    this.atStop = undefined;
    // The frame painted next is the renderer's first, under the shell's lines: its length is the
    // high-water mark, and its width no narrowing (the rule above is for a screen painted before).
    this.size = "";
    this.width = width;
  }

  private withPad(rows: string[]): string[] {
    if (this.pad === 0) return rows;
    while (this.blank.length < this.pad) this.blank.push("");
    return this.blank.slice(0, this.pad).concat(rows);
  }

  private fromOrigin(rows: string[]): string[] {
    return this.origin === 0 ? rows : rows.slice(this.origin);
  }
}

/** The band in at most `rows` rows (at least one): its blank rows go first, then those furthest from the editor's cursor. */
function fitBand(band: string[], rows: number): string[] {
  const max = Math.max(1, rows);
  if (band.length <= max) return band;
  let fitted = band;
  while (fitted.length > max) {
    const blank = fitted.findIndex((row) => row.trim() === "");
    if (blank === -1) break;
    fitted = fitted.filter((_, i) => i !== blank);
  }
  if (fitted.length <= max) return fitted;
  const cursor = fitted.findIndex((row) => row.includes(CURSOR_MARKER));
  const from = Math.min(cursor === -1 ? fitted.length - 1 : cursor, fitted.length - max);
  return fitted.slice(from, from + max);
}
