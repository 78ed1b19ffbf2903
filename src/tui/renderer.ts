// Paints a component tree into the normal terminal screen, below the shell prompt, by diffing each
// frame's rows against the last. Rules, each a complaint about peers we do not repeat:
// - rows that have scrolled into the scrollback are never written again: a change above the
//   visible viewport (a spinner in an old tool box) is dropped, never a reason to repaint. So a
//   frame must not add or remove rows up there either: that shifts every row under them, and the
//   rows later frames push into the scrollback repeat or skip rows already there. What still
//   grows has to stay on screen; the application sees to it (it holds back what would go under);
// - scrollback is never cleared, except by clearScreen() (the user's Ctrl+L);
// - a resize repaints the visible viewport only: in place when the frame was and stays wholly on
//   screen and the terminal did not narrow (nothing reflowed), else from the top of the screen
//   (rows the frame gained since the last paint scroll into the scrollback on the way);
// - only rows that changed are rewritten, with relative cursor moves, in one write wrapped in
//   synchronized output (DEC 2026); a frame that changes nothing writes nothing;
// - a frame is written with autowrap off and turns it on again at its end: a row the terminal draws
//   wider than we measured (a ZWJ emoji sequence) is cut, not wrapped onto a row of its own, which
//   would put every relative move after it one row off. Between frames (a suspend, an exit, a
//   crash report) the terminal wraps as always;
// - paints are coalesced to at most one per `minFrameMs` (60/s) and no timer runs when nothing
//   asked for a paint.
// Coordinates: "frame rows" count from the first row the renderer ever painted. `highWater` is how
// many frame rows exist on the screen (a frame that shrank leaves blank rows below it); the visible
// viewport is the last `rows` of them.
import { noFTL } from "bun:jsc";
import { CURSOR_MARKER, type Component } from "./component.ts";
import {
  AUTOWRAP_OFF,
  AUTOWRAP_ON,
  CLEAR_SCREEN,
  CLEAR_SCROLLBACK,
  CURSOR_HOME,
  ERASE_BELOW,
  ERASE_LINE,
  HIDE_CURSOR,
  HYPERLINK_CLOSE,
  RESET_STYLE,
  SHOW_CURSOR,
  SYNC_END,
  SYNC_START,
  cursorColumn,
  cursorDown,
  cursorUp,
} from "./escapes.ts";
import { expandTabs, truncateToWidth, visibleWidth } from "./width.ts";

/** Where frames go; Terminal fits, and so does a byte counter in a test. */
export interface RenderTarget {
  readonly columns: number;
  readonly rows: number;
  write(data: string): void;
}

export interface RenderStats {
  /** Frames that wrote something. */
  frames: number;
  /** Clear screen and scrollback, then everything again: only clearScreen() (Ctrl+L) does it. */
  fullRedraws: number;
  /** The visible rows rewritten from the top after a resize; scrollback untouched. */
  viewportRepaints: number;
  bytes: number;
  lastFrameBytes: number;
}

export interface RendererOptions {
  /** Shortest time between two paints (default 16 ms, about 60 per second). */
  minFrameMs?: number;
}

interface CursorMark {
  row: number;
  column: number;
}

export class Renderer {
  readonly stats: RenderStats = { frames: 0, fullRedraws: 0, viewportRepaints: 0, bytes: 0, lastFrameBytes: 0 };
  private readonly minFrameMs: number;
  private previous: string[] = [];
  private painted = false;
  private stopped = false;
  private clearRequested = false;
  /** repaintScreen() asked: the visible rows are written again from the top of the screen */
  private screenUnknown = false;
  private highWater = 0;
  private cursorRow = 0;
  /** Column of the terminal cursor, or -1 when unknown (after writing a row). */
  private cursorCol = -1;
  private cursorShown: boolean | undefined;
  private width = 0;
  private height = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastPaint = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly target: RenderTarget,
    private readonly root: Component,
    options: RendererOptions = {},
  ) {
    this.minFrameMs = options.minFrameMs ?? 16;
  }

  /** Asks for a paint; many requests before it happens make one paint. */
  requestRender(): void {
    if (this.stopped || this.timer) return;
    const wait = Math.max(0, this.lastPaint + this.minFrameMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.renderNow();
    }, wait);
  }

  /** Paints at once (the first frame, tests). */
  renderNow(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastPaint = performance.now();
    const out = this.paint();
    if (out === "") return;
    const frame = SYNC_START + AUTOWRAP_OFF + out + AUTOWRAP_ON + SYNC_END;
    this.target.write(frame);
    this.stats.frames++;
    this.stats.lastFrameBytes = Buffer.byteLength(frame);
    this.stats.bytes += this.stats.lastFrameBytes;
  }

  /** The user's explicit clear (Ctrl+L): screen and scrollback emptied, the whole frame written again. */
  clearScreen(): void {
    this.clearRequested = true;
    this.requestRender();
  }

  /**
   * Stops painting and returns what moves the cursor to a fresh row below the frame, so what
   * comes next (the shell prompt, a crash report) does not overwrite it.
   */
  park(): string {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.painted) return "";
    return this.moveTo(Math.max(0, this.previous.length - 1)) + "\r\n" + RESET_STYLE;
  }

  /**
   * After park() for a suspend (Ctrl+Z), once the process is continued: painting goes on, and the
   * next frame is painted as the first one was, from the cursor's row down (under what the shell
   * wrote meanwhile); the rows painted before stay where they are.
   */
  restart(): void {
    this.stopped = false;
    this.painted = false;
    this.previous = [];
    this.highWater = 0;
    this.cursorRow = 0;
    this.cursorCol = -1;
    this.cursorShown = undefined;
  }

  /**
   * The screen may hold anything now (a shell wrote over the frame while zot was stopped from
   * outside): the next paint writes the visible rows again from the top of the screen, as after a
   * resize that reflowed them.
   */
  repaintScreen(): void {
    this.screenUnknown = true;
  }

  private paint(): string {
    const width = this.target.columns;
    const height = this.target.rows;
    const lines = this.root.render(width);
    if (lines.length === 0) lines.push("");
    const mark = takeCursorMark(lines, width, height);
    let out: string;
    if (!this.painted) out = this.paintAll(lines, width, "\r");
    else if (this.clearRequested) {
      out = this.paintAll(lines, width, CURSOR_HOME + CLEAR_SCREEN + CLEAR_SCROLLBACK);
      this.stats.fullRedraws++;
    } else if (this.screenUnknown) {
      out = this.repaintViewport(lines, width, height);
      this.stats.viewportRepaints++;
    } else if (width !== this.width || height !== this.height) {
      out = this.repaintAfterResize(lines, width, height);
      this.stats.viewportRepaints++;
    } else out = this.diff(lines, width, height);
    this.screenUnknown = false;
    this.painted = true;
    this.clearRequested = false;
    this.width = width;
    this.height = height;
    this.previous = lines;
    if (out !== "" && this.cursorShown) out = HIDE_CURSOR + out + this.placeCursor(mark, lines.length, height, true);
    else out += this.placeCursor(mark, lines.length, height, false);
    return out;
  }

  /** Every row from the cursor's row down (first frame, or after a clear). */
  private paintAll(lines: string[], width: number, lead: string): string {
    this.highWater = lines.length;
    this.cursorRow = lines.length - 1;
    this.cursorCol = -1;
    return lead + lines.map((line) => ERASE_LINE + fitRow(line, width)).join("\r\n") + ERASE_BELOW;
  }

  /**
   * A frame that was and stays wholly on screen, in a terminal that did not get narrower, has not
   * been reflowed: it is rewritten where it is, and the shell's rows above it stay visible.
   * Otherwise the terminal may have rewrapped or scrolled rows we cannot track: the visible
   * viewport is rewritten from the top of the screen.
   */
  private repaintAfterResize(lines: string[], width: number, height: number): string {
    const fits = this.highWater <= Math.min(this.height, height) && lines.length <= height;
    if (width < this.width || !fits) return this.repaintViewport(lines, width, height);
    const out = this.moveTo(0) + "\r" + lines.map((line) => ERASE_LINE + fitRow(line, width)).join("\r\n") + ERASE_BELOW;
    this.highWater = lines.length;
    this.cursorRow = lines.length - 1;
    this.cursorCol = -1;
    return out;
  }

  /**
   * Rewrites the visible rows from the top of the screen. The rows the frame gained since the last
   * paint were never on screen: written from the first row the screen still shows (the frame's
   * last rows before, as its cursor kept them at the bottom), they scroll into the scrollback on
   * their way, once each, instead of being skipped.
   */
  private repaintViewport(lines: string[], width: number, height: number): string {
    const top = Math.min(Math.max(0, this.highWater - height), Math.max(0, lines.length - height));
    this.highWater = lines.length;
    this.cursorRow = lines.length - 1;
    this.cursorCol = -1;
    const rows = lines.slice(top).map((line) => ERASE_LINE + fitRow(line, width));
    return CURSOR_HOME + rows.join("\r\n") + ERASE_BELOW;
  }

  private diff(lines: string[], width: number, height: number): string {
    const top = Math.max(0, this.highWater - height);
    const end = Math.max(lines.length, this.highWater);
    let first = -1;
    let last = -1;
    for (let row = top; row < end; row++) {
      const before = row < this.previous.length ? this.previous[row] : row < this.highWater ? "" : undefined;
      const after = row < lines.length ? lines[row] : "";
      if (before !== after) {
        if (first === -1) first = row;
        last = row;
      }
    }
    if (first === -1) return "";
    let out = this.moveTo(first) + "\r";
    for (let row = first; row <= last; row++) {
      if (row > first) out += "\r\n";
      out += ERASE_LINE + (row < lines.length ? fitRow(lines[row], width) : "");
    }
    this.cursorRow = last;
    this.cursorCol = -1;
    this.highWater = Math.max(this.highWater, last + 1);
    return out;
  }

  /** Relative moves only: the frame lives in the normal screen, its absolute position is unknown. */
  private moveTo(row: number): string {
    let out = "";
    if (row < this.cursorRow) out = cursorUp(this.cursorRow - row);
    else if (row > this.cursorRow) {
      const existing = Math.min(row, this.highWater - 1);
      out = cursorDown(existing - this.cursorRow);
      // Rows below the last one painted do not exist yet; newlines create (and scroll) them.
      out += "\r\n".repeat(Math.max(0, row - existing));
      this.highWater = Math.max(this.highWater, row + 1);
      if (row > existing) this.cursorCol = 0;
    }
    if (row !== this.cursorRow) this.cursorRow = row;
    return out;
  }

  private placeCursor(mark: CursorMark | undefined, rowCount: number, height: number, wasHidden: boolean): string {
    const top = Math.max(0, this.highWater - height);
    if (!mark || mark.row < top || mark.row >= rowCount) {
      if (this.cursorShown === false) return "";
      this.cursorShown = false;
      return wasHidden ? "" : HIDE_CURSOR;
    }
    let out = "";
    if (mark.row !== this.cursorRow || mark.column !== this.cursorCol) {
      out = this.moveTo(mark.row) + cursorColumn(mark.column);
      this.cursorCol = mark.column;
    }
    if (!this.cursorShown || wasHidden) out += SHOW_CURSOR;
    this.cursorShown = true;
    return out;
  }
}

/** Finds and removes the cursor marker among the rows that can be on screen. */
function takeCursorMark(lines: string[], width: number, height: number): CursorMark | undefined {
  for (let row = lines.length - 1; row >= Math.max(0, lines.length - height); row--) {
    const at = lines[row].indexOf(CURSOR_MARKER);
    if (at === -1) continue;
    const line = lines[row];
    lines[row] = line.slice(0, at) + line.slice(at + CURSOR_MARKER.length);
    return { row, column: Math.min(width - 1, visibleWidth(line.slice(0, at))) };
  }
  return undefined;
}

/** A row as written: one physical row, tabs as spaces, no wider than the terminal, styles closed at its end. */
function fitRow(line: string, width: number): string {
  let row = /[\r\n]/.test(line) ? line.replace(/[\r\n]/g, " ") : line;
  if (row.includes("\t")) row = expandTabs(row);
  if (visibleWidth(row) > width) row = truncateToWidth(row, width, "");
  if (!row.includes("\x1b")) return row;
  return row + RESET_STYLE + (row.includes("\x1b]8;") ? HYPERLINK_CLOSE : "");
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(Renderer.prototype.requestRender);
