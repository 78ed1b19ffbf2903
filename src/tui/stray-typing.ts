// Text typed into a question instead of an answer. A question (trust this folder? run this
// command?) can open while the user is typing a prompt; the letters go nowhere, but the Enter that
// ends the prompt would pick whatever answer is highlighted ("Yes" most often), and a digit in it
// ("fix step 3", "1st fix") would pick that answer. Rule: the question counts as typed into when
// text was being typed, and not yet sent, just before it opened (typedAhead), or when a printable key that is not an
// answer's number reaches it; then neither Enter nor a number answers until ↑/↓ show the user is
// looking at the answers again, and the hint says so. A number answers only once no other key has
// followed it for DIGIT_SETTLE_MS: a number that starts a burst of typing ("1st fix⏎" arriving in
// one read) is the start of a prompt, not an answer.
import type { Key } from "./keys.ts";

export const STRAY_HINT = "this is a question, not the prompt: press ↑ or ↓, then pick an answer";
/** How long a number waits for the next key before it answers. */
export const DIGIT_SETTLE_MS = 150;

export class StrayTyping {
  private strayed = false;
  private pending: ReturnType<typeof setTimeout> | undefined;

  /** `changed` hears when Enter and numbers stop or start counting, to show the hint. */
  constructor(private readonly changed: (strayed: boolean) => void) {}

  /** Text reached the app just before the question opened: the user was typing, not answering. */
  typedAhead(): void {
    this.set(true);
  }

  /**
   * Whether the question should take `key` without acting on it: stray text, or an Enter or a
   * number after it, or any key that follows a number still settling (which then answers nothing).
   * A number before any stray text is an answer: the caller hands it to `answer`.
   */
  swallows(key: Key): boolean {
    if (this.pending !== undefined) {
      clearTimeout(this.pending);
      this.pending = undefined;
      // Text or Enter right behind the number: the number was typing, not an answer. Esc and the
      // arrows keep their meaning (cancel, look at the answers).
      if (key.name === "enter" || (key.text !== undefined && !key.ctrl && !key.alt)) {
        this.set(true);
        return true;
      }
    }
    if (key.text !== undefined && !key.ctrl && !key.alt) {
      if (/^[1-9]$/.test(key.text) && !this.strayed) return false;
      this.set(true);
      return true;
    }
    if (key.name === "enter") return this.strayed;
    if (key.name === "up" || key.name === "down") this.set(false);
    return false;
  }

  /** Answers with a number once no other key has followed it for DIGIT_SETTLE_MS. */
  answer(choose: () => void): void {
    if (this.pending !== undefined) clearTimeout(this.pending);
    this.pending = setTimeout(() => {
      this.pending = undefined;
      choose();
    }, DIGIT_SETTLE_MS);
  }

  private set(strayed: boolean): void {
    if (this.strayed === strayed) return;
    this.strayed = strayed;
    this.changed(strayed);
  }
}
