// One tool call in the transcript: a frame titled with the tool's name (and the extension that
// provides it), the arguments as they stream in, the live output of a running command, then the
// result: an edit's diff in colour, an error in red, anything over 12 rows collapsed to its first
// 10 until Ctrl+O expands every box. Rule: the box is drawn from its state alone and cached, so a
// transcript of hundreds of boxes costs nothing per frame once they are done. While it runs, the rows
// under its arguments change (the newest output scrolls, a `\r` progress line wrapped over several
// rows is rewritten): they all stay on screen, so where the screen has fewer rows for them, fewer of
// the newest output rows are shown (live-tail.ts).
import { noFTL } from "bun:jsc";
import type { ToolResultContent, WireToolResultContent } from "../../protocol/messages.ts";
import { base64ByteLength } from "../../protocol/messages.ts";
import { Box } from "../../tui/box.ts";
import { highlightCode } from "../../tui/highlight.ts";
import { styledRow } from "../../tui/styled-row.ts";
import { renderMarkdown } from "../../tui/markdown.ts";
import type { Theme } from "../../tui/theme.ts";
import { truncateToWidth, wrapText } from "../../tui/width.ts";
import { CachedBlock } from "./cached-block.ts";
import type { LiveBlock, LiveRows } from "./live-tail.ts";
import { argsSummary, partialArgsSummary } from "./tool-args.ts";
import { counted } from "../../protocol/counted.ts";
import { printable, printableVerbatim } from "../../protocol/printable.ts";

/** Results with more rows than this are collapsed… */
export const COLLAPSE_OVER = 12;
/** …to this many rows. */
export const COLLAPSED_ROWS = 10;
/** The arguments' summary takes at most this many rows. */
const ARG_ROWS = 3;
/**
 * Live output kept for the box: its newest characters (a command that floods, `yes`, would
 * otherwise grow the box without limit and make every frame slower than the last); the result,
 * when it comes, is the tool's own, bounded by the tool.
 */
const PROGRESS_KEPT = 64 * 1024;
/** The collapsed live view wraps no more than this much of the newest output per row shown. */
const TAIL_CHARS_PER_ROW = 1024;

export class ToolBox extends CachedBlock implements LiveBlock {
  private argsText = "";
  private args: Record<string, unknown> | undefined;
  private progress = "";
  /** lines of live output no longer kept (dropped from the front of `progress`) */
  private progressDropped = 0;
  private result: { text: string; isError: boolean; markdown: boolean } | undefined;
  private expanded = false;
  /** a --no-yolo question about this call waits for the person's answer: it has not started */
  private awaitingAnswer = false;
  /** calls of the same answer still to finish before this one: it has not started either */
  private callsAhead = 0;
  private readonly frame: Box;
  /** the rows of the arguments in the last drawing (final once the arguments are complete) */
  private drawnArgRows = 0;
  /** at most this many rows of live output, in a drawing for a short screen */
  private liveRowLimit: number | undefined;
  /** in a drawing for a screen of two rows or fewer: no row saying what is above the output shown */
  private liveQuiet = false;

  constructor(
    readonly id: string,
    private name: string,
    private readonly theme: Theme,
    private extension?: string,
  ) {
    super();
    this.frame = new Box({ render: (width) => this.body(width) });
    this.restyle();
  }

  get done(): boolean {
    return this.result !== undefined;
  }

  /** A piece of the arguments' JSON as the model streams it. */
  appendArgs(delta: string): void {
    if (this.args || delta === "") return;
    this.argsText += delta;
    this.changed();
  }

  /** The complete arguments (after any interceptor's rewrite). */
  setArgs(name: string, args: Record<string, unknown>): void {
    this.name = name;
    this.args = args;
    this.restyle();
  }

  /** Output of a running tool (bash streams its output). */
  appendProgress(text: string): void {
    if (this.result) return;
    this.progress += text;
    if (this.progress.length > 2 * PROGRESS_KEPT) {
      const cut = this.progress.length - PROGRESS_KEPT;
      this.progressDropped += newlines(this.progress, 0, cut);
      this.progress = this.progress.slice(cut);
    }
    this.changed();
  }

  setResult(content: readonly (ToolResultContent | WireToolResultContent)[], isError: boolean, extension?: string): void {
    // An extension's text marked format "markdown" is drawn as Markdown; the model got it as it is.
    const markdown = content.some((block) => block.type === "text" && block.format === "markdown");
    // What a tool returns is data from files and commands: it reaches the terminal as text.
    this.result = { text: markdown ? resultText(content) : terminalText(resultText(content)), isError, markdown };
    if (extension) this.extension = extension;
    this.restyle();
  }

  /** The call waits for the person's answer to its confirmation question (true), or no longer does. */
  setAwaitingAnswer(waiting: boolean): void {
    if (waiting === this.awaitingAnswer) return;
    this.awaitingAnswer = waiting;
    this.changed();
  }

  /** How many calls run before this one and have not finished (calls run one at a time, in order). */
  setCallsAhead(count: number): void {
    if (count === this.callsAhead) return;
    this.callsAhead = count;
    this.changed();
  }

  setExpanded(expanded: boolean): void {
    if (expanded === this.expanded) return;
    this.expanded = expanded;
    this.changed();
  }

  renderLive(width: number, room: number): LiveRows {
    const rows = this.render(width);
    // The blank row and the top border are final, and the arguments once they are complete.
    const settled = Math.min(rows.length, 2 + (this.args ? this.drawnArgRows : 0));
    if (rows.length - settled <= room || this.result || this.progress === "") return { rows, settled };
    // Under the output: the row saying what is above it (left out where only two rows fit) and the bottom border.
    this.liveRowLimit = Math.max(1, room - 2);
    this.liveQuiet = room < 3;
    try {
      return { rows: this.draw(width), settled };
    } finally {
      this.liveRowLimit = undefined;
      this.liveQuiet = false;
    }
  }

  protected draw(width: number): string[] {
    return ["", ...this.frame.render(width)];
  }

  /** Title and border colour follow the state: accent while running, red on error, grey when done. */
  private restyle(): void {
    const { theme } = this;
    const border = !this.result ? theme.accent : this.result.isError ? theme.error : theme.muted;
    const owner = this.extension ? theme.muted(` · ${printable(this.extension)}`) : "";
    // The name is the model's (an unknown tool's may hold anything): no escape of it reaches the terminal.
    this.frame.options = { title: theme.bold(printable(this.name)) + owner, border };
    this.changed();
  }

  private body(width: number): string[] {
    const rows = this.argRows(width);
    this.drawnArgRows = rows.length;
    if (this.result) rows.push(...this.collapse(this.resultRows(width)));
    else if (this.progress !== "") rows.push(...this.progressRows(width));
    // "running…" would be a lie while the question below asks whether it may run, or while an
    // earlier call (or its question) holds the line.
    else if (this.awaitingAnswer) rows.push(this.theme.warning("waiting for your answer…"));
    else if (this.callsAhead > 0) rows.push(this.theme.muted(this.callsAhead === 1 ? "waiting for the call above…" : `waiting for the ${this.callsAhead} calls above…`));
    else rows.push(this.theme.muted("running…"));
    return rows;
  }

  private argRows(width: number): string[] {
    const summary = this.args ? argsSummary(this.name, this.args) : partialArgsSummary(this.name, this.argsText);
    if (summary === "") return [];
    // The model's arguments as they run: no style could hide a part of a command, and a control
    // character is shown as a mark, never dropped (what the box shows is what ran).
    const rows = wrapText(printableVerbatim(summary), width);
    if (rows.length <= ARG_ROWS) return rows;
    return [...rows.slice(0, ARG_ROWS - 1), truncateToWidth(`${rows[ARG_ROWS - 1]}…`, width)];
  }

  private resultRows(width: number): string[] {
    const { text, isError, markdown } = this.result!;
    if (text.trim() === "") return [this.theme.muted("(no output)")];
    const trimmed = text.replace(/\n+$/, "");
    if (markdown && !isError) return renderMarkdown(trimmed, width, this.theme);
    let lines: string[];
    if (isError) lines = trimmed.split("\n").map((line) => this.theme.error(line));
    else if (this.name === "edit") lines = highlightCode(trimmed, "diff", this.theme);
    else lines = trimmed.split("\n");
    return lines.flatMap((line) => wrapText(line, width));
  }

  /** The first rows of a long result, and a line saying how to see the rest. */
  private collapse(rows: string[]): string[] {
    if (this.expanded || rows.length <= COLLAPSE_OVER) return rows;
    const hidden = rows.length - COLLAPSED_ROWS;
    return [...rows.slice(0, COLLAPSED_ROWS), this.theme.muted(`… ${counted(hidden, "more row")} · ctrl+o to expand`)];
  }

  /**
   * The last rows of live output (the newest is what matters while it runs): collapsed, only the
   * newest lines are wrapped, so a frame costs the same however much the command has written.
   */
  private progressRows(width: number): string[] {
    const text = this.progress.replace(/\n+$/, "");
    const from = this.expanded ? 0 : Math.max(0, text.length - (COLLAPSE_OVER + 1) * TAIL_CHARS_PER_ROW);
    const start = from === 0 ? 0 : text.indexOf("\n", from) + 1 || from;
    // Lines, each wrapped: what is left out above is counted in lines, however many rows each takes.
    const lines = terminalText(text.slice(start)).split("\n").map((line) => wrapText(line, width));
    const rowCount = lines.reduce((sum, rows) => sum + rows.length, 0);
    const above = this.progressDropped + newlines(text, 0, start);
    const all = () => lines.flat().map((row) => this.theme.muted(row));
    const limit = this.liveRowLimit ?? COLLAPSED_ROWS;
    const fits = this.liveRowLimit === undefined ? this.expanded || rowCount <= COLLAPSE_OVER : rowCount <= limit;
    if (above === 0 && fits) return all();
    if (this.expanded && this.liveRowLimit === undefined) return [this.theme.muted(`… ${counted(above, "line")} above`), ...all()];
    // The newest lines that fill the rows shown (the oldest of them cut at its top when it is long).
    let taken = 0;
    let kept = 0;
    while (kept < lines.length && taken < limit) {
      kept++;
      taken += lines[lines.length - kept]!.length;
    }
    const shown = lines.slice(-kept).flat().slice(-limit).map((row) => this.theme.muted(row));
    const hiddenLines = above + lines.length - kept;
    // Only the top of one long line is left out: said in rows.
    const hidden = hiddenLines > 0 ? counted(hiddenLines, "line") : counted(taken - limit, "row");
    return this.liveQuiet ? shown : [this.theme.muted(`… ${hidden} above`), ...shown];
  }
}

/** Lines in `text` between `from` and `to`. */
function newlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf("\n", from); at !== -1 && at < to; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/**
 * A tool's output as the terminal should show it: colours kept, every other escape (OSC 52 on the
 * clipboard, a cleared scrollback, a moved cursor, a hyperlink) and control character dropped, and a line a
 * progress bar rewrote with `\r` shown as it ended up.
 */
function terminalText(text: string): string {
  if (!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(text)) return text;
  return text
    .split("\n")
    .map((line) => {
      const ended = line.endsWith("\r") ? line.slice(0, -1) : line;
      return styledRow(ended.slice(ended.lastIndexOf("\r") + 1), { links: false });
    })
    .join("\n");
}

/** The text of a result; an image is a placeholder with its type and size. */
function resultText(content: readonly (ToolResultContent | WireToolResultContent)[]): string {
  return content
    .map((block) => {
      if (block.type === "text") return block.text;
      const bytes = "bytes" in block ? block.bytes : base64ByteLength(block.data);
      return `[image ${block.mime_type}, ${formatBytes(bytes)}]`;
    })
    .join("\n");
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(ToolBox.prototype.appendArgs);
