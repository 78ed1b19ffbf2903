// Text from elsewhere (a model's answer, a paste) as plain text for the toolkit to lay out: every
// escape sequence dropped whole (a clipboard write, a cleared screen, `ESC c`), and every control
// character but tab and newline. Rule: only what really is a sequence is dropped: an OSC or DCS
// counts as one only with its end, on one line and at most STRING_SEQUENCE_MAX long, so a lone
// `ESC ]` (a cut hyperlink, a model echoing one) drops itself alone and never the text after it
// (Bun.stripANSI drops everything up to the text's end). The same rule as protocol/printable.ts,
// which the toolkit may not import.

/** The longest body of an OSC or DCS/APC/PM/SOS string taken as one sequence. */
const STRING_SEQUENCE_MAX = 4096;
const ESCAPES = new RegExp(
  [
    "(?:\\x1b\\[|\\x9b)[0-?]*[ -/]*[@-~]",
    `(?:\\x1b\\]|\\x9d)[^\\x07\\x1b\\x9c\\n]{0,${STRING_SEQUENCE_MAX}}(?:\\x07|\\x1b\\\\|\\x9c)`,
    `(?:\\x1b[P_^X]|[\\x90\\x98\\x9e\\x9f])[^\\x1b\\x9c\\n]{0,${STRING_SEQUENCE_MAX}}(?:\\x1b\\\\|\\x9c)`,
    "\\x1b(?:[ -/]*[0-~])?",
    "[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]",
  ].join("|"),
  "g",
);
const ANY_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/** `text` with no escape sequence and no control character but tabs and newlines. */
export function plainText(text: string): string {
  return ANY_CONTROL.test(text) ? text.replace(ESCAPES, "") : text;
}
