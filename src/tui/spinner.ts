// A busy indicator: a braille spinner and a label. Rule: its timer runs only while it is started
// AND being drawn: a tick that finds it was not rendered since the last tick (removed from the
// screen, or its owner stopped asking for glyph()) stops the timer, and the next render starts it
// again. So an idle screen has no timer, and a spinner nobody sees costs nothing.
// `animate: false` (users who want no motion) shows a still glyph and never starts a timer.
import type { Component } from "./component.ts";
import type { Style } from "./theme.ts";
import { truncateToWidth } from "./width.ts";

export const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export interface SpinnerOptions {
  /** Time between frames (default 80 ms). */
  intervalMs?: number;
  frames?: string[];
  /** false: a still glyph, no timer (default true). */
  animate?: boolean;
  /** Colour of the glyph. */
  style?: Style;
}

export class Spinner implements Component {
  label = "";
  private frameIndex = 0;
  private active = false;
  private shown = false;
  private timer: ReturnType<typeof setInterval> | undefined;

  /** `onFrame` asks for a paint (Tui.requestRender); it is called on each tick while drawn. */
  constructor(
    private readonly onFrame: () => void,
    private readonly options: SpinnerOptions = {},
  ) {}

  get running(): boolean {
    return this.active;
  }

  /** Whether a timer is ticking now (for tests and idle checks). */
  get ticking(): boolean {
    return this.timer !== undefined;
  }

  start(label = this.label): void {
    this.label = label;
    this.active = true;
  }

  stop(): void {
    this.active = false;
    this.halt();
  }

  /** The current frame, for a status line that draws the spinner itself; counts as being drawn. */
  glyph(): string {
    this.shown = true;
    const frames = this.options.frames ?? SPINNER_FRAMES;
    if (this.active && (this.options.animate ?? true) && !this.timer) {
      this.timer = setInterval(() => this.tick(), this.options.intervalMs ?? 80);
    }
    const glyph = frames[this.frameIndex % frames.length];
    return this.options.style ? this.options.style(glyph) : glyph;
  }

  /** No rows while stopped; else the glyph and the label. */
  render(width: number): string[] {
    if (!this.active) return [];
    return [truncateToWidth(this.label ? `${this.glyph()} ${this.label}` : this.glyph(), width)];
  }

  private tick(): void {
    if (!this.shown || !this.active) {
      this.halt();
      return;
    }
    this.shown = false;
    this.frameIndex++;
    this.onFrame();
  }

  private halt(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
