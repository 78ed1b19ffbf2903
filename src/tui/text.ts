// Plain or pre-styled text wrapped to the width, and blank rows. Rule: the wrapped rows are cached
// per text and width (cached-text.ts), so a transcript of thousands of Text components renders
// each frame by handing back arrays it already has.
import { CachedText } from "./cached-text.ts";
import type { Component } from "./component.ts";
import type { Style } from "./theme.ts";
import { wrapText } from "./width.ts";

export interface TextOptions {
  /** Spaces before each row (and the same amount kept free on the right). */
  paddingX?: number;
  /** Applied to each wrapped row (a colour from the theme). */
  style?: Style;
}

/** An empty text is no rows at all (not one blank row). */
export class Text extends CachedText {
  constructor(
    text = "",
    private readonly options: TextOptions = {},
  ) {
    super(text, options.paddingX);
  }

  protected layout(text: string, width: number): string[] {
    if (text === "") return [];
    const rows = wrapText(text, width);
    const style = this.options.style;
    return style ? rows.map((row) => style(row)) : rows;
  }
}

/** Blank rows. */
export class Spacer implements Component {
  constructor(private readonly rows = 1) {}

  render(): string[] {
    return Array.from({ length: this.rows }, () => "");
  }
}
