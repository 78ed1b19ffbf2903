// Terminal-column arithmetic for strings that may hold ANSI styles, CJK and emoji. Rule: every
// width in the toolkit comes from here (Bun.stringWidth underneath), never from `.length`, and a
// wrapped or truncated row closes the styles it opened and reopens them on the next row.
import { ESCAPE_PATTERN, SgrState } from "./sgr-state.ts";

const segmenter = new Intl.Segmenter();
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

/** Columns the string occupies; escape sequences count zero, wide characters two. */
export function visibleWidth(text: string): number {
  return Bun.stringWidth(text);
}

/** The user-perceived characters of a string (an emoji family or an accented letter is one). */
export function graphemes(text: string): string[] {
  if (PLAIN_ASCII.test(text)) return text.split("");
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

/** Cuts the string to at most `width` columns, marking the cut with the ellipsis (styles kept). */
export function truncateToWidth(text: string, width: number, ellipsis = "…"): string {
  if (width <= 0) return "";
  if (visibleWidth(text) <= width) return text;
  // Bun.sliceAnsi lets a wide character that straddles the cut in whole (one column over); a column less then.
  let cut = Bun.sliceAnsi(text, 0, width, ellipsis);
  for (let less = 1; visibleWidth(cut) > width && less < width; less++) cut = Bun.sliceAnsi(text, 0, width - less, ellipsis);
  return visibleWidth(cut) > width ? "" : cut;
}

/** Pads with spaces to exactly `width` columns (cutting first when longer). */
export function padToWidth(text: string, width: number): string {
  const fitted = truncateToWidth(text, width);
  const missing = width - visibleWidth(fitted);
  return missing > 0 ? fitted + " ".repeat(missing) : fitted;
}

/** Replaces tabs with spaces up to the next tab stop (Bun.stringWidth counts a tab as zero). */
export function expandTabs(text: string, tabWidth = 4): string {
  if (!text.includes("\t")) return text;
  let out = "";
  let column = 0;
  for (const unit of units(text)) {
    if (unit.escape) out += unit.text;
    else if (unit.text === "\t") {
      const spaces = tabWidth - (column % tabWidth);
      out += " ".repeat(spaces);
      column += spaces;
    } else if (unit.text === "\n") {
      out += "\n";
      column = 0;
    } else {
      out += unit.text;
      column += unit.width;
    }
  }
  return out;
}

/**
 * Wraps text to rows of at most `width` columns: at spaces where it can, inside a word where it
 * must (a long URL, CJK). A row's leading indentation carries over to its continuation rows while it
 * is under half the width, so wrapped list items and code keep their shape.
 */
export function wrapText(text: string, width: number): string[] {
  const rows: string[] = [];
  for (const line of expandTabs(text).split("\n")) {
    if (visibleWidth(line) <= width) rows.push(line);
    else rows.push(...wrapLine(line, Math.max(1, width)));
  }
  return rows;
}

interface Unit {
  text: string;
  width: number;
  escape: boolean;
}

/** Escape sequences and graphemes, in order. */
function units(text: string): Unit[] {
  const out: Unit[] = [];
  let at = 0;
  while (at < text.length) {
    const next = text.indexOf("\x1b", at);
    const end = next === -1 ? text.length : next;
    for (const grapheme of graphemes(text.slice(at, end))) out.push({ text: grapheme, width: visibleWidth(grapheme), escape: false });
    if (next === -1) break;
    ESCAPE_PATTERN.lastIndex = next;
    const match = ESCAPE_PATTERN.exec(text);
    const sequence = match ? match[0] : "\x1b";
    out.push({ text: sequence, width: 0, escape: true });
    at = next + sequence.length;
  }
  return out;
}

const isSpace = (unit: Unit) => !unit.escape && unit.text === " ";

function wrapLine(line: string, width: number): string[] {
  const all = units(line);
  let leading = 0;
  while (leading < all.length && isSpace(all[leading])) leading++;
  const indent = leading < width / 2 ? leading : 0;
  const rows: string[] = [];
  const state = new SgrState();
  let reopen = "";
  let row: Unit[] = [];
  let rowWidth = 0;
  let lastSpace = -1;
  let hasContent = false;

  const flush = (content: Unit[]) => {
    let end = content.length;
    while (end > 0 && isSpace(content[end - 1])) end--;
    let text = reopen;
    for (let i = 0; i < content.length; i++) {
      const unit = content[i];
      if (unit.escape) state.apply(unit.text);
      if (unit.escape || i < end) text += unit.text;
    }
    rows.push(text + state.close());
    reopen = state.open();
  };
  const startRow = (carried: Unit[]) => {
    row = [...Array.from({ length: indent }, () => ({ text: " ", width: 1, escape: false })), ...carried];
    rowWidth = row.reduce((sum, unit) => sum + unit.width, 0);
    lastSpace = -1;
    hasContent = carried.some((unit) => !unit.escape);
  };

  for (const unit of all) {
    if (!unit.escape && hasContent && rowWidth + unit.width > width) {
      if (isSpace(unit)) {
        flush(row);
        startRow([]);
        continue;
      }
      const carried = lastSpace >= 0 ? row.slice(lastSpace + 1) : [];
      flush(lastSpace >= 0 ? row.slice(0, lastSpace) : row);
      startRow(carried);
    }
    // A continuation row starts at its indentation, not at the spaces the break left over.
    if (isSpace(unit) && !hasContent && rows.length > 0) continue;
    row.push(unit);
    rowWidth += unit.width;
    if (isSpace(unit) && hasContent) lastSpace = row.length - 1;
    else if (!unit.escape && !isSpace(unit)) hasContent = true;
  }
  flush(row);
  return rows;
}
