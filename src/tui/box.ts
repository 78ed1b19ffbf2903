// A frame drawn around another component, with an optional title in the top border (tool boxes,
// dialogs). Rule: the box is exactly the width it is given; the child renders for the width inside
// the border and padding, and its rows are padded or cut to that width so the right border lines up
// whatever the row holds (CJK, emoji, styles).
import type { Component } from "./component.ts";
import type { Style } from "./theme.ts";
import { padToWidth, truncateToWidth, visibleWidth } from "./width.ts";

export interface BoxOptions {
  /** Shown in the top border. */
  title?: string;
  /** Colour of the border (and of the title unless it is styled already). */
  border?: Style;
  /** Spaces between the border and the child on each side (default 1). */
  paddingX?: number;
}

export class Box implements Component {
  constructor(
    public child: Component,
    public options: BoxOptions = {},
  ) {}

  render(width: number): string[] {
    const padding = this.options.paddingX ?? 1;
    const inner = width - 2 - 2 * padding;
    if (inner < 1) return this.child.render(width).map((row) => truncateToWidth(row, width));
    const paint = this.options.border ?? ((text: string) => text);
    const title = this.options.title ? truncateToWidth(` ${this.options.title} `, width - 4) : "";
    const top = paint("╭─") + title + paint(`${"─".repeat(Math.max(0, width - 3 - visibleWidth(title)))}╮`);
    const side = paint("│");
    const pad = " ".repeat(padding);
    const rows = this.child.render(inner).map((row) => side + pad + padToWidth(row, inner) + pad + side);
    return [top, ...rows, paint(`╰${"─".repeat(width - 2)}╯`)];
  }
}
