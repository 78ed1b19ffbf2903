// The text being edited and the cursor in it, with the motions and deletions of a line editor
// (readline/Emacs names). Rule: the cursor only ever stops on a grapheme boundary (never inside an
// emoji or a combining sequence) and never inside an atom (a span such as a paste chip that moves
// and deletes as one unit). Knows nothing of rows or widths; the Editor lays the text out.
import { graphemes } from "./width.ts";

interface Span {
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}_]/u;
const SPACE = /\s/;
/** Enough UTF-16 units for the longest grapheme a user types (family emoji, flags with tags). */
const LOOKAROUND = 64;

export class EditBuffer {
  text = "";
  cursor = 0;
  /** The last text deleted by a kill command (Ctrl+K/U/W, Alt+Backspace, Alt+D), for yank. */
  killed = "";

  /** `atoms` matches the spans that act as one character (it must have the g flag). */
  constructor(private readonly atoms?: RegExp) {}

  setText(text: string, cursor = text.length): void {
    this.text = text;
    this.cursor = Math.max(0, Math.min(cursor, text.length));
    this.snap(1);
  }

  /** Puts the cursor at `offset` (out of an atom, towards `direction`). */
  moveTo(offset: number, direction: 1 | -1 = 1): void {
    this.cursor = Math.max(0, Math.min(offset, this.text.length));
    this.snap(direction);
  }

  insert(text: string): void {
    this.text = this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor);
    this.cursor += text.length;
  }

  left(): void {
    const atom = this.atomSpans().find((span) => span.end === this.cursor);
    this.cursor = atom ? atom.start : this.previousBoundary(this.cursor);
    this.snap(-1);
  }

  right(): void {
    const atom = this.atomSpans().find((span) => span.start === this.cursor);
    this.cursor = atom ? atom.end : this.nextBoundary(this.cursor);
    this.snap(1);
  }

  backspace(): void {
    if (this.cursor === 0) return;
    const end = this.cursor;
    this.left();
    this.remove(this.cursor, end);
  }

  deleteForward(): void {
    const start = this.cursor;
    this.right();
    this.remove(start, this.cursor);
    this.cursor = start;
  }

  lineStart(): void {
    this.cursor = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
  }

  lineEnd(): void {
    const end = this.text.indexOf("\n", this.cursor);
    this.cursor = end === -1 ? this.text.length : end;
  }

  /** Back to the start of the word (letters, digits, _) before the cursor. */
  wordLeft(): void {
    this.cursor = this.scanBack(this.cursor, (char) => !WORD.test(char));
    this.cursor = this.scanBack(this.cursor, (char) => WORD.test(char));
    this.snap(-1);
  }

  /** On to the end of the word after the cursor. */
  wordRight(): void {
    this.cursor = this.scanForward(this.cursor, (char) => !WORD.test(char));
    this.cursor = this.scanForward(this.cursor, (char) => WORD.test(char));
    this.snap(1);
  }

  /** Ctrl+U: to the start of the line; at the start already, the newline before it. */
  killToLineStart(): void {
    const start = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    this.kill(start === this.cursor ? Math.max(0, start - 1) : start, this.cursor);
  }

  /** Ctrl+K: to the end of the line; at the end already, the newline after it. */
  killToLineEnd(): void {
    const found = this.text.indexOf("\n", this.cursor);
    const end = found === -1 ? this.text.length : found;
    this.kill(this.cursor, end === this.cursor ? Math.min(this.text.length, end + 1) : end);
  }

  /** Alt+Backspace: the word before the cursor (stops at punctuation: "path/to|" loses "to"). */
  killWordBack(): void {
    const end = this.cursor;
    this.wordLeft();
    this.kill(this.cursor, end);
  }

  /**
   * Ctrl+W: back to the previous whitespace (readline's unix-word-rubout: "path/to|" loses it all);
   * an atom counts as one non-space character, its own spaces included ("see[chip]|" loses both).
   */
  killSpaceWordBack(): void {
    const atoms = this.atomSpans();
    let start = this.scanBack(this.cursor, (char) => SPACE.test(char));
    for (;;) {
      const atom = atoms.find((span) => span.end === start);
      if (atom) start = atom.start;
      else if (start > 0 && !SPACE.test(this.text.slice(this.previousBoundary(start), start))) start = this.previousBoundary(start);
      else break;
    }
    this.kill(start, this.cursor);
  }

  /** Alt+D: the word after the cursor. */
  killWordForward(): void {
    const start = this.cursor;
    this.wordRight();
    this.kill(start, this.cursor);
  }

  /** Ctrl+Y: inserts the last killed text. */
  yank(): void {
    if (this.killed) this.insert(this.killed);
  }

  /** The spans of atoms in the text. */
  atomSpans(): Span[] {
    if (!this.atoms) return [];
    return Array.from(this.text.matchAll(this.atoms), (match) => ({ start: match.index, end: match.index + match[0].length }));
  }

  private kill(start: number, end: number): void {
    if (end <= start) return;
    this.killed = this.text.slice(start, end);
    this.remove(start, end);
  }

  private remove(start: number, end: number): void {
    this.text = this.text.slice(0, start) + this.text.slice(end);
    this.cursor = start;
  }

  /** Moves a cursor that landed inside an atom to the atom's edge in the direction of travel. */
  private snap(direction: 1 | -1): void {
    const inside = this.atomSpans().find((span) => span.start < this.cursor && this.cursor < span.end);
    if (inside) this.cursor = direction > 0 ? inside.end : inside.start;
  }

  private previousBoundary(at: number): number {
    const before = graphemes(this.text.slice(Math.max(0, at - LOOKAROUND), at));
    return at - (before.at(-1)?.length ?? 0);
  }

  private nextBoundary(at: number): number {
    return at + (graphemes(this.text.slice(at, at + LOOKAROUND))[0]?.length ?? 0);
  }

  private scanBack(from: number, skip: (char: string) => boolean): number {
    let at = from;
    while (at > 0) {
      const previous = this.previousBoundary(at);
      if (!skip(this.text.slice(previous, at))) break;
      at = previous;
    }
    return at;
  }

  private scanForward(from: number, skip: (char: string) => boolean): number {
    let at = from;
    while (at < this.text.length) {
      const next = this.nextBoundary(at);
      if (!skip(this.text.slice(at, next))) break;
      at = next;
    }
    return at;
  }
}
