// Text from someone else (an extension's panel lines, a note naming a folder's files, a command's
// description) made fit to draw as rows of the frame. Rule:
// styles survive (SGR colours and attributes, OSC 8 hyperlinks), and nothing else that could move
// the cursor, change the terminal's modes or fake the toolkit's own markers (CSI other than SGR,
// OSC other than 8, APC, DCS, C0 controls) reaches the terminal; tabs become spaces, and each
// newline starts another row, so one string can never take more rows than the caller counted.
import { ESCAPE_PATTERN } from "./sgr-state.ts";
import { expandTabs } from "./width.ts";

const SGR = /^\x1b\[[\d;:]*m$/;
const HYPERLINK = /^\x1b\]8;[^\x07\x1b]*(?:\x07|\x1b\\)$/;
// C1 controls too: a terminal may read U+009B as CSI, U+009D as OSC.
const CONTROLS = /[\x00-\x08\x0a-\x1a\x1c-\x1f\x7f-\x9f]/g;

/** The rows `text` draws as: one per line (CRLF or LF), each cleaned of everything but styles (`options` as styledRow's). */
export function styledRows(text: string, options: { links?: boolean } = {}): string[] {
  return text.split(/\r?\n/).map((row) => styledRow(row, options));
}

/**
 * One row of text, cleaned of everything but styles (a newline inside it is dropped). `links:
 * false` drops OSC 8 hyperlinks too, for text whose links nobody vouches for (a command's output:
 * a link's text could name one site and lead to another).
 */
export function styledRow(text: string, options: { links?: boolean } = {}): string {
  if (!/[\x00-\x1f\x7f-\x9f]/.test(text)) return text;
  let out = "";
  let at = 0;
  while (at < text.length) {
    const next = text.indexOf("\x1b", at);
    const end = next === -1 ? text.length : next;
    out += text.slice(at, end).replace(CONTROLS, "");
    if (next === -1) break;
    ESCAPE_PATTERN.lastIndex = next;
    const match = ESCAPE_PATTERN.exec(text);
    const sequence = match ? match[0] : "\x1b";
    if (SGR.test(sequence) || (options.links !== false && HYPERLINK.test(sequence))) out += sequence;
    at = next + sequence.length;
  }
  return expandTabs(out);
}
