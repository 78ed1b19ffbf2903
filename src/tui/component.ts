// What every piece of the screen is: something that renders itself to rows for a width, and may
// take keys and pastes while focused. Rule: render() is cheap to call every frame (components cache
// what is costly) and returns rows no wider than the width; the renderer cuts what is wider.
import type { Key } from "./keys.ts";

export interface Component {
  /**
   * One string per terminal row, ANSI styles allowed, each at most `width` columns wide. An array
   * handed out is never changed afterwards: a component whose rows change returns a new one (the
   * chat keeps its settled blocks' arrays between frames and knows them by identity: live-tail.ts).
   */
  render(width: number): string[];
  /** A key while this component has focus; true when it used the key. */
  handleKey?(key: Key): boolean;
  /** A bracketed paste while this component has focus. */
  handlePaste?(text: string): void;
  /** Set by Tui.setFocus on components that have it (an editor shows its cursor only when focused). */
  focused?: boolean;
  /** Called by Tui.setFocus when text came in just before this was focused: a question opened while the user typed. */
  typedAhead?(): void;
}

/**
 * Zero-width mark a focused input puts where the text cursor is. The renderer removes it and
 * places the terminal's own cursor there (so IME candidate windows appear at the right place);
 * a frame without it hides the cursor. An APC string: Bun.stringWidth and sliceAnsi count it zero.
 */
export const CURSOR_MARKER = "\x1b_zot:cursor\x1b\\";

/** Children stacked top to bottom. */
export class Stack implements Component {
  readonly children: Component[] = [];

  constructor(...children: Component[]) {
    this.children.push(...children);
  }

  add(child: Component): this {
    this.children.push(child);
    return this;
  }

  /** Inserts before `before` (at the end when `before` is not a child). */
  insertBefore(child: Component, before: Component): this {
    const at = this.children.indexOf(before);
    if (at === -1) this.children.push(child);
    else this.children.splice(at, 0, child);
    return this;
  }

  remove(child: Component): this {
    const at = this.children.indexOf(child);
    if (at !== -1) this.children.splice(at, 1);
    return this;
  }

  clear(): this {
    this.children.length = 0;
    return this;
  }

  render(width: number): string[] {
    const rows: string[] = [];
    for (const child of this.children) {
      const lines = child.render(width);
      for (let i = 0; i < lines.length; i++) rows.push(lines[i]);
    }
    return rows;
  }
}
