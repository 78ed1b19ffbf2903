// Text from elsewhere (a folder's names, a model's tool arguments) as plain text for a terminal:
// every escape sequence and control character is dropped, styles too, never written: it cannot set
// the clipboard (OSC 52), move the cursor, hide a part of itself (a colour, \r) or rewrite the lines
// above it. Newlines and tabs stay. Where styles may stay (a tool's coloured output), see
// tui/styled-row.ts.

const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[P_^X][^\x1b]*(?:\x1b\\)?|[ -/]*[0-~])?|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** `message` as plain text: no escape sequence, no control character but newlines and tabs. */
export function printable(message: string): string {
  return message.replace(ESCAPES, "");
}

