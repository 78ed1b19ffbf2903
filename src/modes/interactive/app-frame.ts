// The app's whole screen: the chat above, the band (queue, status, editor, popups) below. The band
// is drawn first, so that the chat knows how many rows the screen leaves it (what still changes in
// it stays on screen: live-tail.ts). The frame is kept from shrinking out of sight: the renderer
// never rewrites rows that scrolled into the scrollback, so a frame that suddenly got much shorter
// (/clear, Ctrl+O collapsing long output, a tall picker closing) would end above the visible screen
// and the editor would vanish. Rule: a shrink of more than half the screen is made up with blank
// rows on top, so the frame's end stays at the bottom of the screen; those rows never go away again
// (removing them would move every row and rewrite the whole screen on the next frame). A small
// shrink (a popup closing) leaves blank rows under the frame, which the next output fills. On exit
// the band goes (closeBand): the last frame is the chat alone, so the scrollback keeps the
// conversation and not the status bar, the editor and its hints.
import { type Component, Stack } from "../../tui/component.ts";

/** The part above the band, drawn into the rows the screen leaves it. */
export interface FrameChat {
  /** The rows, in a new array each call: the frame adds the band's rows to its end. */
  renderWithin(width: number, room: number): string[];
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

  constructor(
    private readonly chat: FrameChat,
    private readonly screenRows: () => number,
  ) {}

  /** After the screen was cleared (Ctrl+L): the next frame starts from the top. */
  reset(): void {
    this.pad = 0;
    this.peak = 0;
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
    if (this.bandClosed) return this.blank.slice(0, this.pad).concat(this.chat.renderWithin(width, height));
    const band = this.band.render(width);
    // The chat's rows are a fresh array each frame: the band goes on its end, not into a copy of it all.
    const rows = this.chat.renderWithin(width, height - band.length);
    for (const row of band) rows.push(row);
    const size = `${width}x${height}`;
    if (size !== this.size) {
      // A resize repaints the screen from this frame: its length is the new high-water mark.
      this.size = size;
      this.peak = this.pad + rows.length;
    }
    const gap = this.peak - (this.pad + rows.length);
    if (gap > height / 2) this.pad += gap;
    this.peak = Math.max(this.peak, this.pad + rows.length);
    if (this.pad === 0) return rows;
    while (this.blank.length < this.pad) this.blank.push("");
    return this.blank.slice(0, this.pad).concat(rows);
  }
}
