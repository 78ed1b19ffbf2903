// Plain or pre-styled text wrapped to the width, and blank rows. Rule: the wrapped rows are cached
// per text and width, so a transcript of thousands of Text components renders each frame by
// handing back arrays it already has.
import type { Component } from "./component.ts";
import type { Style } from "./theme.ts";
import { wrapText } from "./width.ts";

export interface TextOptions {
  /** Spaces before each row (and the same amount kept free on the right). */
  paddingX?: number;
  /** Applied to each wrapped row (a colour from the theme). */
  style?: Style;
}

export class Text implements Component {
  private value: string;
  private cacheWidth = -1;
  private cache: string[] = [];

  constructor(
    text = "",
    private readonly options: TextOptions = {},
  ) {
    this.value = text;
  }

  get text(): string {
    return this.value;
  }

  setText(text: string): void {
    if (text === this.value) return;
    this.value = text;
    this.cacheWidth = -1;
  }

  append(text: string): void {
    this.setText(this.value + text);
  }

  /** An empty text is no rows at all (not one blank row). */
  render(width: number): string[] {
    if (width === this.cacheWidth) return this.cache;
    const padding = this.options.paddingX ?? 0;
    const style = this.options.style;
    const indent = " ".repeat(padding);
    const rows = this.value === "" ? [] : wrapText(this.value, Math.max(1, width - 2 * padding));
    this.cache = rows.map((row) => indent + (style ? style(row) : row));
    this.cacheWidth = width;
    return this.cache;
  }
}

/** Blank rows. */
export class Spacer implements Component {
  constructor(private readonly rows = 1) {}

  render(): string[] {
    return Array.from({ length: this.rows }, () => "");
  }
}
