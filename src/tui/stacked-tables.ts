// A Markdown table too wide for the terminal, as Claude Code shows one: each row stacked as
// `header: value` lines, rows parted by a rule, instead of a grid whose rows the width would split
// in two (Bun's layout gives every column a minimum width, so ten columns need more than 40).
// Rule: a table that fits is left to Bun's layout as it is; only the source of a table whose grid
// would be wider than the width is rewritten, so its cells keep their inline Markdown (bold, code,
// links). Only a table at the top level (its header row unindented, outside quotes and lists) is
// stacked; one inside a list or a quote keeps its grid.

/** A GFM table's delimiter row (`|---|:--:|`). */
export const TABLE_DELIMITER = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-*:?\s*)*\|?\s*$/;
/** A line that starts another block: it ends a table's rows (a blank line does too). */
const BLOCK_START = /^ {0,3}(?:[>#]|[-*+] |\d{1,9}[.)] |\u2063F\d)/;

/**
 * `text` (Markdown, fences cut out) with every top-level table whose grid would not fit (`fits`
 * says, given the table's source) written as stacked key/value rows.
 */
export function stackWideTables(text: string, fits: (table: string) => boolean): string {
  if (!text.includes("|") || !text.includes("-")) return text;
  const lines = text.split("\n");
  const out: string[] = [];
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i]!;
    const delimiter = lines[i + 1];
    if (delimiter === undefined || !isTableStart(header, delimiter)) {
      out.push(header);
      continue;
    }
    let end = i + 2;
    while (end < lines.length && lines[end]!.trim() !== "" && !BLOCK_START.test(lines[end]!)) end++;
    const table = lines.slice(i, end);
    if (fits(table.join("\n"))) out.push(...table);
    else {
      out.push(...stackedRows(cells(header), table.slice(2).map(cells)));
      changed = true;
    }
    i = end - 1;
  }
  return changed ? out.join("\n") : text;
}

/** A header row and a delimiter row with as many cells: the start of a top-level table. */
function isTableStart(header: string, delimiter: string): boolean {
  if (!/^[^\s>]/.test(header) || !header.includes("|") || !TABLE_DELIMITER.test(delimiter)) return false;
  return cells(header).length === cells(delimiter).length;
}

/** A row's cells: split at the pipes a backslash does not escape, outer pipes and spaces dropped. */
function cells(row: string): string[] {
  let inner = row.trim();
  if (inner.startsWith("|")) inner = inner.slice(1);
  if (inner.endsWith("|") && !inner.endsWith("\\|")) inner = inner.slice(0, -1);
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim());
}

/**
 * Each row as `**header:** value` lines (a hard break between them), rows parted by a rule; an
 * empty header shows the value alone, a header with its own emphasis is not made bold again.
 */
function stackedRows(headers: string[], rows: string[][]): string[] {
  const out: string[] = [""];
  rows.forEach((row, r) => {
    if (r > 0) out.push("", "---", "");
    const lines = headers.map((header, c) => {
      const value = row[c] ?? "";
      if (header === "") return value;
      return `${header.includes("*") ? `${header}:` : `**${header}:**`} ${value}`.trimEnd();
    });
    out.push(...lines.map((line, l) => (l < lines.length - 1 ? `${line}  ` : line)));
  });
  out.push("");
  return out;
}
