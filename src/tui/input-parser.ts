// Splits what the terminal sends into keys, pastes and replies to our queries. Rule: a chunk may
// end anywhere (inside an escape sequence, a UTF-16 pair or a paste), so what is incomplete waits
// for the next chunk; only the caller's timeout (flush) decides that a lone ESC was the Escape key.
import { PASTE_END, PASTE_START } from "./escapes.ts";
import { decodeKey, type Key } from "./keys.ts";

export type TerminalReply = { kind: "kitty-flags"; flags: number } | { kind: "device-attributes" };

export type InputEvent =
  | { type: "key"; key: Key; sequence: string }
  | { type: "paste"; text: string }
  | { type: "reply"; reply: TerminalReply };

const KITTY_REPLY = /^\x1b\[\?(\d+)u$/;
const DEVICE_ATTRIBUTES_REPLY = /^\x1b\[\?[\d;]*c$/;

export class InputParser {
  private buffer = "";
  /** The paste collected so far, while between the paste markers. */
  private paste: string | undefined;

  /** What waits for more input: an unfinished escape sequence, or a paste without its end marker. */
  get pending(): "sequence" | "paste" | undefined {
    if (this.paste !== undefined) return "paste";
    return this.buffer.length > 0 ? "sequence" : undefined;
  }

  push(data: string): InputEvent[] {
    this.buffer += data;
    return this.drain(false);
  }

  /** Stops waiting: a pending ESC is the Escape key, a pending paste ends here. */
  flush(): InputEvent[] {
    return this.drain(true);
  }

  private drain(force: boolean): InputEvent[] {
    const events: InputEvent[] = [];
    while (this.buffer.length > 0 || (force && this.paste !== undefined)) {
      if (this.paste !== undefined) {
        if (!this.takePaste(events, force)) break;
        continue;
      }
      let length = sequenceLength(this.buffer);
      if (length === 0) {
        if (!force) break;
        length = 1; // a lone ESC, or the ESC of a sequence that never finished
      }
      const sequence = this.buffer.slice(0, length);
      this.buffer = this.buffer.slice(length);
      this.take(sequence, events);
    }
    return events;
  }

  private take(sequence: string, events: InputEvent[]): void {
    if (sequence === PASTE_START) {
      this.paste = "";
      return;
    }
    const kitty = KITTY_REPLY.exec(sequence);
    if (kitty) events.push({ type: "reply", reply: { kind: "kitty-flags", flags: Number(kitty[1]) } });
    else if (DEVICE_ATTRIBUTES_REPLY.test(sequence)) events.push({ type: "reply", reply: { kind: "device-attributes" } });
    else {
      const key = decodeKey(sequence);
      if (key) events.push({ type: "key", key, sequence });
    }
  }

  /** Moves paste text out of the buffer; true when the paste ended (or was forced to). */
  private takePaste(events: InputEvent[], force: boolean): boolean {
    const end = this.buffer.indexOf(PASTE_END);
    if (end === -1 && !force) {
      // Keep a tail that could be the start of the end marker split across chunks.
      const keep = Math.min(this.buffer.length, PASTE_END.length - 1);
      this.paste += this.buffer.slice(0, this.buffer.length - keep);
      this.buffer = this.buffer.slice(this.buffer.length - keep);
      return false;
    }
    const cut = end === -1 ? this.buffer.length : end;
    events.push({ type: "paste", text: this.paste + this.buffer.slice(0, cut) });
    this.buffer = this.buffer.slice(end === -1 ? cut : cut + PASTE_END.length);
    this.paste = undefined;
    return true;
  }
}

/** Length of the first complete sequence in `text`, or 0 when it is still incomplete. */
export function sequenceLength(text: string): number {
  if (text[0] !== "\x1b") return codePointLength(text, 0);
  if (text.length < 2) return 0;
  const second = text[1];
  if (second === "[") {
    for (let i = 2; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x40 && code <= 0x7e) return i + 1;
      // A byte that cannot be part of a CSI ends a malformed one (it decodes to nothing).
      if (code < 0x20 || code > 0x3f) return i;
    }
    return 0;
  }
  if (second === "O") return text.length >= 3 ? 3 : 0;
  if (second === "]" || second === "P" || second === "_" || second === "^") {
    const bell = second === "]" ? text.indexOf("\x07", 2) : -1;
    const st = text.indexOf("\x1b\\", 2);
    const ends = [bell === -1 ? Infinity : bell + 1, st === -1 ? Infinity : st + 2];
    const end = Math.min(...ends);
    return end === Infinity ? 0 : end;
  }
  if (second === "\x1b") {
    const inner = sequenceLength(text.slice(1));
    return inner === 0 ? 0 : inner + 1;
  }
  return 1 + codePointLength(text, 1);
}

function codePointLength(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xd800 && code <= 0xdbff && at + 1 < text.length ? 2 : 1;
}
