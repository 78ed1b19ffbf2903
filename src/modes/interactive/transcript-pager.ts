// /jump's view: the transcript shown from the start of an earlier turn in a window above the
// editor, scrolled with ↑/↓ and PgUp/PgDn, closed with Esc. Why a window and not the terminal's
// scrollback: the app lives in the normal screen and cannot scroll the terminal, and re-printing
// old turns below would duplicate them in the scrollback. Rule: it shows a snapshot of the rows
// taken when it opened, at most the screen's height less the band below it.
import type { Component } from "../../tui/component.ts";
import { type Key, keyId } from "../../tui/keys.ts";
import type { Theme } from "../../tui/theme.ts";
import { truncateToWidth, visibleWidth } from "../../tui/width.ts";

/** Rows left for the status bar and the editor under the window. */
const BAND_ROWS = 6;

export class TranscriptPager implements Component {
  onClose?: () => void;
  private top: number;

  constructor(
    private readonly rows: string[],
    start: number,
    private readonly title: string,
    private readonly theme: Theme,
    private readonly screenRows: () => number,
  ) {
    this.top = start;
  }

  render(width: number): string[] {
    const height = this.height();
    this.top = Math.max(0, Math.min(this.top, this.rows.length - height));
    const shown = this.rows.slice(this.top, this.top + height);
    const end = Math.min(this.rows.length, this.top + height);
    const head = ` ${this.title} · rows ${this.top + 1}–${end} of ${this.rows.length} `;
    const rule = (text: string) => this.theme.accent(text + "─".repeat(Math.max(0, width - visibleWidth(text))));
    return [
      truncateToWidth(rule(`──${head}`), width),
      ...shown,
      truncateToWidth(this.theme.muted("  ↑/↓ pgup/pgdn home/end scroll · esc back"), width),
    ];
  }

  handleKey(key: Key): boolean {
    const page = Math.max(1, this.height() - 1);
    switch (key.text === " " ? "pagedown" : keyId(key)) {
      case "up":
        this.top -= 1;
        break;
      case "down":
        this.top += 1;
        break;
      case "pageup":
        this.top -= page;
        break;
      case "pagedown":
        this.top += page;
        break;
      case "home":
        this.top = 0;
        break;
      case "end":
        this.top = this.rows.length;
        break;
      case "escape":
      case "enter":
      case "q":
        this.onClose?.();
        break;
    }
    return true;
  }

  private height(): number {
    return Math.max(3, this.screenRows() - BAND_ROWS);
  }
}
