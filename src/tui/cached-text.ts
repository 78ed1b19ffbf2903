// A component showing a text laid out to the width, with optional padding on both sides (Text
// wraps it, Markdown renders it). Rule: the rows are laid out once per text and width, so a
// transcript of thousands of them renders each frame by handing back arrays it already has.
import { noFTL } from "bun:jsc";
import type { Component } from "./component.ts";

export abstract class CachedText implements Component {
  private value: string;
  private cacheWidth = -1;
  private cache: string[] = [];

  constructor(
    text: string,
    /** spaces before each row (and the same amount kept free on the right) */
    private readonly paddingX = 0,
  ) {
    this.value = text;
  }

  /** The rows of `text` for `width` columns (the width inside the padding, at least 1). */
  protected abstract layout(text: string, width: number): string[];

  get text(): string {
    return this.value;
  }

  setText(text: string): void {
    if (text === this.value) return;
    this.value = text;
    this.cacheWidth = -1;
  }

  /** Adds to the end (a streamed delta). */
  append(text: string): void {
    this.setText(this.value + text);
  }

  render(width: number): string[] {
    if (width === this.cacheWidth) return this.cache;
    const rows = this.layout(this.value, Math.max(1, width - 2 * this.paddingX));
    const indent = " ".repeat(this.paddingX);
    this.cache = this.paddingX > 0 ? rows.map((row) => indent + row) : rows;
    this.cacheWidth = width;
    return this.cache;
  }
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(CachedText.prototype.append);
noFTL(CachedText.prototype.setText);
