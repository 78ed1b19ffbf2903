// A note for the user on stderr, `zot: …`. Rule: a note may carry names that came from a folder or
// an extension (a directory's name, a command's description), so its escape sequences and control
// characters are dropped, never written: a name cannot set the clipboard (OSC 52), move the cursor
// or rewrite the lines above it. Newlines and tabs stay.

const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[P_^X][^\x1b]*(?:\x1b\\)?|[ -/]*[0-~])?|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** `message` as plain text: no escape sequence, no control character but newlines and tabs. */
export function printable(message: string): string {
  return message.replace(ESCAPES, "");
}

export function noteOnStderr(message: string): void {
  console.error(`zot: ${printable(message)}`);
}
