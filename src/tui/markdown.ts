// Markdown for the terminal: Bun.markdown.ansi lays out the prose (headings, emphasis, code spans,
// lists, quotes, tables with CJK-aware cell wrapping, links) and this file draws the fenced code
// itself. Why both, measured on Bun 1.4.5: Bun's renderer is CommonMark-correct and fast (0.9 ms
// for a 22 KB answer, so a streaming message can be re-rendered whole on every paint), and it
// renders an unclosed fence, but it highlights only the JavaScript family (python, go, rust, bash,
// json, diff, c, yaml, sql… came out plain), never wraps code lines or headings to the width
// (a 99-column code line stayed 99 wide at 40 columns), and knows nothing of our theme.
// So fences (closed or not, top level or inside list items) are cut out before Bun sees the text,
// replaced by a placeholder paragraph, and drawn here in their place with highlight.ts; and a
// link whose text is its address is rewritten so Bun shows it once (markdown-links.ts); a table too
// wide for the width is stacked as key/value rows (stacked-tables.ts).
// Rule: every row fits the width, and a message renders the same whether its last fence has
// arrived or not (streaming).
import { CachedText } from "./cached-text.ts";
import { highlightCode } from "./highlight.ts";
import { linksShownOnce } from "./markdown-links.ts";
import { plainText } from "./plain-text.ts";
import { stackWideTables, TABLE_DELIMITER } from "./stacked-tables.ts";
import { withoutColor } from "./sgr-state.ts";
import type { Theme } from "./theme.ts";
import { visibleWidth, wrapText } from "./width.ts";

interface Fence {
  lang: string;
  code: string;
}

const FENCE_OPEN = /^( *)(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
/** U+2063 (invisible separator) around an index: Bun keeps it, and no model writes it. */
const placeholder = (index: number) => `\u2063F${index}\u2063`;
const PLACEHOLDER_ROW = /^( *)\u2063F(\d+)\u2063\s*$/;

/** Cuts fenced code blocks out of the source, leaving a placeholder paragraph at each one's indentation. */
export function extractFences(source: string): { text: string; fences: Fence[] } {
  const lines = source.split("\n");
  const out: string[] = [];
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE_OPEN.exec(lines[i]);
    if (!open) {
      out.push(lines[i]);
      continue;
    }
    const [, indent, marker, lang] = open;
    const close = new RegExp(`^ *${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`);
    const code: string[] = [];
    for (i++; i < lines.length && !close.test(lines[i]); i++) {
      code.push(lines[i].replace(new RegExp(`^ {0,${indent.length}}`), ""));
    }
    // The blank rows keep the placeholder from joining a paragraph the fence interrupted.
    out.push("", indent + placeholder(fences.length), "");
    fences.push({ lang, code: code.join("\n") });
  }
  return { text: out.join("\n"), fences };
}

/** A line of a blockquote without its `>` markers (a table or a blank line in a quote counts as one outside). */
const QUOTE_MARKERS = /^ {0,3}(?:> ?)+/;

/**
 * Where a table that may still grow begins in a text that is still arriving: its header line's
 * offset when the text ends inside a table (no blank line after it yet), else undefined. Why: a
 * row that arrives wider than the others widens every column, so all of a growing table's rows
 * may still change, not only its last.
 */
export function growingTableStart(source: string): number | undefined {
  const lines = source.split("\n");
  let fence: RegExp | undefined;
  let runStart = 0;
  let offset = 0;
  const starts: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    starts.push(offset);
    offset += lines[i].length + 1;
    if (fence) {
      if (fence.test(lines[i])) {
        fence = undefined;
        runStart = i + 1;
      }
      continue;
    }
    const open = FENCE_OPEN.exec(lines[i]);
    if (open) fence = new RegExp(`^ *${open[2][0] === "`" ? "`" : "~"}{${open[2].length},}\\s*$`);
    // The empty string after a text's last newline is no blank line yet.
    if (open || (lines[i].replace(QUOTE_MARKERS, "").trim() === "" && i < lines.length - 1)) runStart = i + 1;
  }
  if (fence) return undefined;
  // The last line is one still arriving (or the empty one after a newline): part of the run.
  for (let i = Math.max(runStart + 1, 1); i < lines.length; i++) {
    const line = lines[i].replace(QUOTE_MARKERS, "");
    if (line.includes("|") && TABLE_DELIMITER.test(line) && i - 1 >= runStart) return starts[i - 1];
  }
  return undefined;
}

/** Columns between tab stops, as CommonMark counts them. */
const TAB_STOP = 4;

/**
 * Tabs as the spaces up to the next stop, counted from the line's start (as CommonMark reads a
 * tab's indentation). Why before Bun lays the text out: it counts a tab zero columns wide, so a
 * paragraph or a table row with tabs came out wider than the width and was cut when drawn. Only
 * the lines with a tab are touched, and only when the text has one.
 */
function tabsAsSpaces(text: string): string {
  if (!text.includes("\t")) return text;
  return text
    .split("\n")
    .map((line) => {
      if (!line.includes("\t")) return line;
      let out = "";
      let column = 0;
      for (const [i, part] of line.split("\t").entries()) {
        if (i > 0) {
          const spaces = TAB_STOP - (column % TAB_STOP);
          out += " ".repeat(spaces);
          column += spaces;
        }
        out += part;
        column += visibleWidth(part);
      }
      return out;
    })
    .join("\n");
}

/** Renders markdown to rows no wider than `width`. */
export function renderMarkdown(source: string, width: number, theme: Theme): string[] {
  // The model's text as plain text, once, before it is laid out, so a paragraph and a code block
  // show the same text the same way (Bun's renderer drops only the ESC of a sequence it meets).
  const { text: cut, fences } = extractFences(tabsAsSpaces(plainText(source)));
  const options = { columns: Math.max(1, width), colors: true, light: theme.light };
  // A table whose grid would split its rows in two is stacked as key/value rows instead.
  const text = stackWideTables(cut, (table) => Bun.markdown.ansi(table, options).split("\n").every((row) => visibleWidth(row) <= width));
  let rendered = Bun.markdown.ansi(linksShownOnce(text), options);
  if (!theme.color) rendered = withoutColor(rendered);
  const rows = rendered.split("\n");
  while (rows.length > 0 && Bun.stripANSI(rows[rows.length - 1]).trim() === "") rows.pop();
  const out: string[] = [];
  for (const row of rows) {
    const fence = PLACEHOLDER_ROW.exec(Bun.stripANSI(row));
    if (fence && fences[Number(fence[2])]) out.push(...renderFence(fences[Number(fence[2])], fence[1].length, width, theme));
    else if (visibleWidth(row) > width) out.push(...wrapText(row, width));
    else out.push(row);
  }
  return out;
}

/** Code lines two columns in from their block's indentation, highlighted, long lines wrapped. */
function renderFence(fence: Fence, indent: number, width: number, theme: Theme): string[] {
  const pad = " ".repeat(Math.min(indent + 2, Math.max(0, width - 10)));
  const inner = Math.max(1, width - pad.length);
  const known = fence.lang !== "";
  const lines = highlightCode(fence.code, fence.lang, theme);
  const out: string[] = [];
  for (const line of lines) {
    for (const row of wrapText(line, inner)) out.push(pad + (known ? row : theme.accent(row)));
  }
  return out;
}

export interface MarkdownOptions {
  /** Spaces before each row (and the same kept free on the right). */
  paddingX?: number;
}

/** A markdown text, re-rendered only when its text or the width changes. */
export class Markdown extends CachedText {
  constructor(
    text: string,
    private readonly theme: Theme,
    options: MarkdownOptions = {},
  ) {
    super(text, options.paddingX);
  }

  protected layout(text: string, width: number): string[] {
    return text.trim() === "" ? [] : renderMarkdown(text, width, this.theme);
  }
}
