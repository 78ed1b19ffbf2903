// Reading a long answer's text events without JSON.parse. A stream's text deltas repeat one line
// byte for byte but for one string, the text (Anthropic: {"type":"content_block_delta","index":0,
// "delta":{"type":"text_delta","text":"…"}}; Chat Completions: the same id, created, model and
// fingerprint in every chunk). Once one such event was parsed, the next line that is the same
// prefix, one JSON string, and the same suffix is that event again with the new string in its
// slot: its text is read from between the quotes, and JSON.parse of the rest (most of a Chat
// chunk's cost, measured on a 50,000-delta answer by scripts/bench floor) is skipped.
// Rule: the result is exactly what JSON.parse of the line gives, or nothing. A shape is learned
// only after proving it: the learned line, its slot replaced by a marker, must parse back to the
// learned value with the marker in the slot (so the slot is the string token the text is, not an
// equal string elsewhere on the line). A line is read only when between the prefix and suffix there
// is one whole JSON string token; one with an escape is decoded by JSON.parse of that token alone.
// JSON's grammar does the rest: one string token in place of another changes that value and no
// other. Anything else (a line of another shape, a control character, a broken token) goes to
// JSON.parse as before, and a stream whose shape changes at every line (a field that differs in
// every chunk, as OpenAI's obfuscation padding does) or whose text is escaped otherwise than
// JSON.stringify escapes it (Python's ensure_ascii) stops being learned after a few tries.
// The value handed out is the learned object itself, its slot set to the new text: a reader must
// not keep it, or anything in it but strings, past its own turn (the wires' assemblers keep strings).
import { noFTL } from "bun:jsc";
import type { JsonObject } from "../protocol/json-object.ts";

/** Where an event keeps its text: `holder[key]`, a string. */
export interface TextSlot {
  holder: Record<string, unknown>;
  key: string;
}

/** The proof's stand-in for the text: no model writes NULs around a name (and text that is it is not learned). */
const MARKER = "\u0000zot-repeated-shape\u0000";
/** A string token's inside needs decoding (or is not one) when it holds any of these. */
const NOT_PLAIN = /["\\\u0000-\u001f]/;
/**
 * Tries to learn that did not pay, in a row, before this stream stops learning: a shape never met
 * before the next was learned, or a line the proof refused (a server that escapes text another way
 * than JSON.stringify, a field that differs in every chunk). A line read resets the count.
 */
const MAX_UNPAID_LEARNS = 4;

export class RepeatedShape {
  private prefix = "";
  private suffix = "";
  private value: JsonObject | undefined;
  private slot: TextSlot | undefined;
  /** tries to learn since a line was last read */
  private unpaid = 0;

  /** Whether learning is still worth its cost on this stream. */
  get learning(): boolean {
    return this.unpaid < MAX_UNPAID_LEARNS;
  }

  /**
   * Takes the shape of `line`, which JSON.parse made into `value`, its text at `slot` (inside
   * `value`). Nothing is learned when the proof fails (the text's token is not found once, the line
   * is not written the way JSON.stringify writes it).
   */
  learn(line: string, value: JsonObject, slot: TextSlot): void {
    this.value = undefined;
    if (!this.learning) return;
    this.unpaid++;
    const text = slot.holder[slot.key];
    // Text that is the marker itself would prove nothing (the swap would change nothing).
    if (typeof text !== "string" || text === MARKER) return;
    const token = JSON.stringify(text);
    const at = line.indexOf(token);
    if (at === -1 || line.indexOf(token, at + 1) !== -1) return;
    const prefix = line.slice(0, at);
    const suffix = line.slice(at + token.length);
    let proof: unknown;
    slot.holder[slot.key] = MARKER;
    try {
      proof = JSON.parse(`${prefix}${JSON.stringify(MARKER)}${suffix}`);
      if (JSON.stringify(proof) !== JSON.stringify(value)) return;
    } catch {
      return;
    } finally {
      slot.holder[slot.key] = text;
    }
    this.prefix = prefix;
    this.suffix = suffix;
    this.value = value;
    this.slot = slot;
  }

  /** `line` as JSON.parse would make it, when it has the learned shape; else undefined. */
  read(line: string): JsonObject | undefined {
    const value = this.value;
    if (value === undefined) return undefined;
    const start = this.prefix.length;
    const end = line.length - this.suffix.length;
    if (end - start < 2 || line.charCodeAt(start) !== 34 || line.charCodeAt(end - 1) !== 34) return undefined;
    if (!line.startsWith(this.prefix) || !line.endsWith(this.suffix)) return undefined;
    const inside = line.slice(start + 1, end - 1);
    let text: unknown = inside;
    if (NOT_PLAIN.test(inside)) {
      // Escapes (or a quote: then it is not one token, and JSON.parse says so).
      try {
        text = JSON.parse(line.slice(start, end));
      } catch {
        return undefined;
      }
      if (typeof text !== "string") return undefined;
    }
    this.slot!.holder[this.slot!.key] = text;
    this.unpaid = 0;
    return value;
  }
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(RepeatedShape.prototype.read);
