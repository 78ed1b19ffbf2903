// Text typed into a question instead of an answer. A question (trust this folder? run this
// command?) can open while the user is typing a prompt; the letters go nowhere, but the Enter that
// ends the prompt would pick whatever answer is highlighted ("Yes" most often), and a digit in it
// ("fix step 3") would pick that answer. Rule: once a printable key that is not an answer's number
// reaches the question, neither Enter nor a number answers until ↑/↓ show the user is looking at
// the answers again; the hint says so.
import type { Key } from "./keys.ts";

export const STRAY_HINT = "this is a question, not the prompt: press ↑ or ↓, then pick an answer";

export class StrayTyping {
  private strayed = false;

  /** `changed` hears when Enter stops or starts counting, to show the hint. */
  constructor(private readonly changed: (strayed: boolean) => void) {}

  /**
   * Whether the question should take `key` without acting on it: stray text, or an Enter or a
   * number after it. A number before any stray text is an answer (the caller's). ↑/↓ mean the user
   * looks at the answers again: Enter and numbers count from then on.
   */
  swallows(key: Key): boolean {
    if (key.text !== undefined && !key.ctrl && !key.alt) {
      if (/^[1-9]$/.test(key.text) && !this.strayed) return false;
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
