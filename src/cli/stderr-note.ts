// A note for the user on stderr, `zot: …`. Rule: a note may carry names that came from a folder or
// an extension (a directory's name, a command's description): it is written as plain text
// (protocol/printable.ts).
import { printable } from "../protocol/printable.ts";

export function noteOnStderr(message: string): void {
  console.error(`zot: ${printable(message)}`);
}
