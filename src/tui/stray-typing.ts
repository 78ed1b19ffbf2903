// Text typed into a question instead of an answer. A question (trust this folder? run this
// command?) can open while the user is typing a prompt; the letters go nowhere, but the Enter that
// ends the prompt would pick whatever answer is highlighted, "Yes" most often. Rule: once a
// printable key that is not an answer's number reaches the question, Enter picks nothing until
// ↑/↓ or a number has chosen; the hint says so.
import type { Key } from "./keys.ts";

export const STRAY_HINT = "this is a question, not the prompt: pick an answer with ↑/↓ or its number first";

export class StrayTyping {
  private strayed = false;

  /** `changed` hears when Enter stops or starts counting, to show the hint. */
  constructor(private readonly changed: (strayed: boolean) => void) {}

  /**
   * Whether the question should take `key` without acting on it: stray text, or an Enter after
   * it. ↑/↓ mean the user looks at the answers again: Enter counts from then on.
   */
  swallows(key: Key): boolean {
    if (key.text !== undefined && !key.ctrl && !key.alt) {
      this.set(true);
      return true;
    }
    if (key.name === "enter") return this.strayed;
    if (key.name === "up" || key.name === "down") this.set(false);
    return false;
  }

  private set(strayed: boolean): void {
    if (this.strayed === strayed) return;
    this.strayed = strayed;
    this.changed(strayed);
  }
}
