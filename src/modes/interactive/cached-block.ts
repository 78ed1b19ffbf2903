// A piece of the transcript that draws itself only when it changed or the width did. Rule: the
// transcript of a long session is thousands of rows, and every frame asks every block for its rows;
// a block that did not change answers with the array it already has.
import { noFTL } from "bun:jsc";
import type { Component } from "../../tui/component.ts";

export abstract class CachedBlock implements Component {
  private cacheWidth = -1;
  private cache: string[] = [];

  render(width: number): string[] {
    if (width !== this.cacheWidth) {
      this.cache = this.draw(width);
      this.cacheWidth = width;
    }
    return this.cache;
  }

  /** Call after every change of what draw() shows (the next render draws a new array; the one handed out is never changed). */
  protected changed(): void {
    this.cacheWidth = -1;
  }

  protected abstract draw(width: number): string[];
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(CachedBlock.prototype["changed"]);
