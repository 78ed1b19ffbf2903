// Text from elsewhere as plain text for a terminal, in the two ways a person needs it. Neither can
// set the clipboard (OSC 52), move the cursor, hide a part of itself (a colour, \r) or rewrite the
// lines above it; newlines and tabs stay. Rule: text to be read (a folder's names, a model's
// thinking, an error) is `printable`: its escape sequences are dropped, and only what really is one
// (an OSC or DCS without its end is no sequence: dropping "up to its end" would hide the text after
// it). Text that will run or be written (a model's tool arguments a person approves) is
// `printableVerbatim`: nothing is dropped, every control character is shown as a mark, so what is
// asked about is exactly what runs. Where styles may stay (a tool's coloured output), see
// tui/styled-row.ts.

/** The longest body of an OSC or DCS/APC/PM/SOS string taken as one sequence (and dropped). */
const STRING_SEQUENCE_MAX = 4096;
const ESCAPES = new RegExp(
  [
    // CSI
    "(?:\\x1b\\[|\\x9b)[0-?]*[ -/]*[@-~]",
    // OSC: with its end (BEL or ST), on one line
    `(?:\\x1b\\]|\\x9d)[^\\x07\\x1b\\x9c\\n]{0,${STRING_SEQUENCE_MAX}}(?:\\x07|\\x1b\\\\|\\x9c)`,
    // DCS, SOS, PM, APC: with their end (ST), on one line
    `(?:\\x1b[P_^X]|[\\x90\\x98\\x9e\\x9f])[^\\x1b\\x9c\\n]{0,${STRING_SEQUENCE_MAX}}(?:\\x1b\\\\|\\x9c)`,
    // two-byte and nF escapes; a lone ESC (of an OSC or DCS without its end, say) is dropped alone
    "\\x1b(?:[ -/]*[0-~])?",
    "[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]",
  ].join("|"),
  "g",
);

/** `message` as plain text: no escape sequence, no control character but newlines and tabs. */
export function printable(message: string): string {
  return message.replace(ESCAPES, "");
}

/**
 * Control characters (all but newline and tab), and the bidi controls that would reorder what is
 * shown (a right-to-left override makes `txt.exe` read `exe.txt`).
 */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL = new RegExp(CONTROLS.source);

/**
 * `text` with every character kept, each control character shown as a mark instead of written:
 * C0 controls as their control pictures (ESC as `␛`, BEL as `␇`, CR as `␍`), DEL as `␡`, C1
 * controls as `\x9b`, bidi controls as `\u202e`. Newlines and tabs stay.
 */
export function printableVerbatim(text: string): string {
  return text.replace(CONTROLS, controlMark);
}

/**
 * A name that stands on one line (a folder's path, an extension's name in a list or a question):
 * as printableVerbatim shows it, its newlines and tabs as marks too (`␊`, `␉`), so it cannot add a
 * row of its own.
 */
export function printableName(text: string): string {
  return printableVerbatim(text).replace(/[\n\t]/g, controlMark);
}

/** Whether `text` holds a character printableVerbatim shows as a mark. */
export function hasControls(text: string): boolean {
  return CONTROL.test(text);
}

function controlMark(control: string): string {
  const code = control.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  if (code <= 0x9f) return `\\x${code.toString(16)}`;
  return `\\u${code.toString(16).padStart(4, "0")}`;
}
