// The prompt editor: multi-line text with a cursor, wrapped to the width, with the keys people
// expect from readline and from Claude Code/pi/Codex:
//   Enter submits; Alt+Enter, Shift+Enter, Ctrl+J (and a trailing "\" + Enter) insert a newline;
//   ←/→ Ctrl+B/F, Home/End Ctrl+A/E, word jumps Alt+←/→ Ctrl+←/→ Alt+B/F;
//   Backspace, Delete (Ctrl+D while there is text), Ctrl+U/K (to line start/end), Ctrl+W (to the
//   previous space), Alt+Backspace and Ctrl+Backspace (previous word), Alt+D (next word), Ctrl+Y
//   (yank the last kill), Ctrl+_ (undo);
//   ↑/↓ move between rows, and on the first/last row walk the prompt history; a recalled entry left
//   as it was, with the cursor at its start or end, is walked past at once (as in Codex), so a long
//   prompt in the history does not take a press per row; the draft and edits made on the walk are
//   kept (prompt-history.ts); Ctrl+R searches them (history-search.ts): typing narrows, Ctrl+R
//   again goes older, Enter sends the match, Tab or Esc (or any key that edits or moves) takes it
//   into the editor as the walk's place (↑/↓ go on from it), and Ctrl+C or Ctrl+G leaves the text
//   as it was.
// Pastes: large ones collapse to a `[pasted text #N +L lines]` chip (one unit for the cursor and
// Backspace and every kill) that submit expands; a drop of file paths is shell-quoted. A chip's
// paste is kept until the editor is submitted or cleared, so a walk through the history, an undo
// or the app putting a draft back never leaves a chip that stands for nothing.
// Rule: a key the editor has no use for returns false (Esc, Tab, Ctrl+C, Ctrl+D on an empty editor,
// ↑ with no history), so the application decides what it means.
import { CURSOR_MARKER, type Component } from "./component.ts";
import { EditBuffer } from "./edit-buffer.ts";
import { HistorySearch } from "./history-search.ts";
import { type Key, keyId } from "./keys.ts";
import { PASTE_CHIP, PasteStore, normalizePaste, quoteDroppedPaths } from "./paste.ts";
import { PromptHistory } from "./prompt-history.ts";
import type { Theme } from "./theme.ts";
import { graphemes, visibleWidth } from "./width.ts";

export interface EditorOptions {
  /** Drawn before the first row (default "> "); later rows are indented by its width. */
  prompt?: string;
  /** Shown dimmed while the editor is empty. */
  placeholder?: string;
  /** Rows shown at most; beyond, the view scrolls with the cursor (default 10). */
  maxRows?: number;
  history?: PromptHistory;
  /** Whether a path exists (for quoting dropped paths; default fs.existsSync). */
  pathExists?: (path: string) => boolean;
}

interface UndoStep {
  text: string;
  cursor: number;
}

interface Row {
  start: number;
  end: number;
  /** The last row of its logical line (a cursor at `end` belongs here, not to the next row). */
  last: boolean;
}

const TAB_WIDTH = 4;
/**
 * Control characters, which a row never writes: the buffer may hold them (a picked file's name, a
 * recalled prompt), and an ESC written would start a sequence (a title, the clipboard). Each takes
 * no column in the layout, so dropping it moves nothing.
 */
const CONTROLS = /[\x00-\x08\x0a-\x1f\x7f-\x9f]/g;
const cellWidth = (grapheme: string) => (grapheme === "\t" ? TAB_WIDTH : visibleWidth(grapheme));

/** `mark` ([start, end) in `text`) widened to whole graphemes: an accent typed apart stays with its letter. */
function wholeGraphemes(text: string, mark: [number, number] | undefined): [number, number] | undefined {
  if (!mark) return undefined;
  let [start, end] = mark;
  let at = 0;
  for (const grapheme of graphemes(text)) {
    const next = at + grapheme.length;
    if (at < start && start < next) start = at;
    if (at < end && end < next) end = next;
    if (at >= end) break;
    at = next;
  }
  return [start, end];
}

/** Rows of at most `width` columns: broken after a space where one fits, else between graphemes. */
export function layoutRows(text: string, width: number): Row[] {
  const rows: Row[] = [];
  let lineStart = 0;
  for (const line of text.split("\n")) {
    let rowStart = lineStart;
    let rowWidth = 0;
    let afterSpace = -1;
    let at = lineStart;
    for (const grapheme of graphemes(line)) {
      const columns = cellWidth(grapheme);
      if (rowWidth + columns > width && at > rowStart) {
        const cut = afterSpace > rowStart ? afterSpace : at;
        rows.push({ start: rowStart, end: cut, last: false });
        rowWidth = graphemes(text.slice(cut, at)).reduce((sum, part) => sum + cellWidth(part), 0);
        rowStart = cut;
        afterSpace = -1;
      }
      rowWidth += columns;
      at += grapheme.length;
      if (grapheme === " ") afterSpace = at;
    }
    rows.push({ start: rowStart, end: at, last: true });
    lineStart = at + 1;
  }
  return rows;
}

export class Editor implements Component {
  /** Called with the text (pastes expanded, trailing newlines dropped) when Enter submits it. */
  onSubmit?: (text: string) => void;
  /** Called after every change of the text (to filter a popup as the user types); `recalled`: ↑/↓ put a history entry in. */
  onChange?: (text: string, change: { recalled: boolean }) => void;
  /** Only a focused editor shows the cursor. */
  focused = true;
  readonly history: PromptHistory;
  private readonly buffer = new EditBuffer(PASTE_CHIP);
  private readonly pastes = new PasteStore();
  /** The history entry ↑/↓ last put in the editor. */
  private recalled: string | undefined;
  private readonly undoStack: UndoStep[] = [];
  /** The undo steps of the other places of a history walk (an entry's index, or the draft's): each place undoes only its own edits. */
  private readonly undoElsewhere = new Map<number, UndoStep[]>();
  private lastEdit: "type" | "other" = "other";
  private lastTyped = "";
  private width = 80;
  private scrollTop = 0;
  /** The column ↑/↓ aim for, kept across a run of vertical moves. */
  private goalColumn: number | undefined;
  /** The Ctrl+R search under way: it has the keys, and the editor shows its match. */
  private search: HistorySearch | undefined;

  constructor(
    private readonly theme: Theme,
    private readonly options: EditorOptions = {},
  ) {
    this.history = options.history ?? new PromptHistory();
  }

  /** The text as shown, chips included. */
  get text(): string {
    return this.buffer.text;
  }

  /** The text with every paste chip expanded: what submit would send. */
  get value(): string {
    return this.pastes.expand(this.buffer.text);
  }

  get cursor(): number {
    return this.buffer.cursor;
  }

  get isEmpty(): boolean {
    return this.buffer.text === "";
  }

  /** A Ctrl+R search is under way (it takes Esc and Ctrl+C too: the application passes them here). */
  get searching(): boolean {
    return this.search !== undefined;
  }

  /** Ends a Ctrl+R search leaving the text as it was before it (Ctrl+C, Ctrl+G). */
  cancelSearch(): void {
    this.search = undefined;
  }

  /** Replaces the text (cursor at the end); the pastes its chips stand for are kept. */
  setText(text: string): void {
    this.edit("other", () => this.buffer.setText(text));
  }

  /** Inserts at the cursor (a picked file path, an extension's `insert` action). */
  insertText(text: string): void {
    this.edit("other", () => this.buffer.insert(text));
  }

  /**
   * Empties the editor and ends a history walk (the draft and edits made on it join the history,
   * written out). The pastes go, but for one the last kill holds (Ctrl+Y brings it back whole).
   */
  clear(): void {
    this.endWalk();
    this.setText("");
    this.undoStack.length = 0;
    this.undoElsewhere.clear();
    this.pastes.keepOnly(this.buffer.killed);
  }

  /** Esc or Ctrl+C on a draft: it goes into the history, written out, so ↑ brings it back; then the editor is cleared. */
  clearIntoHistory(): void {
    this.endWalk(this.value.replace(/\n+$/, ""));
    this.clear();
  }

  /** Submits as Enter does; an editor holding only whitespace submits nothing. */
  submit(): void {
    const value = this.value.replace(/\n+$/, "");
    if (value.trim() === "") return;
    this.endWalk(value);
    this.clear();
    this.onSubmit?.(value);
  }

  /** Ends a history walk (its draft and edits join the history, written out), then records `text` as the newest entry. */
  private endWalk(text?: string): void {
    this.history.reset((entry) => this.pastes.expand(entry));
    if (text !== undefined) this.history.add(text);
  }

  handlePaste(text: string): void {
    const normalized = normalizePaste(text);
    if (normalized === "") return;
    // Pasted into a search: its first line joins the query.
    if (this.search) return this.search.type(normalized.split("\n")[0]!);
    const chip = this.pastes.collapse(normalized);
    let insert = chip ?? quoteDroppedPaths(normalized, this.options.pathExists);
    // A dropped path glued to the word before it would read as one word.
    const before = this.buffer.text[this.buffer.cursor - 1];
    if ((chip || insert !== normalized) && before !== undefined && !/\s/.test(before)) insert = ` ${insert}`;
    this.edit("other", () => this.buffer.insert(insert));
  }

  handleKey(key: Key): boolean {
    const id = keyId(key);
    if (this.search) return this.searchKey(id, key);
    if (id !== "up" && id !== "down") this.goalColumn = undefined;
    const b = this.buffer;
    switch (id) {
      case "enter":
        if (b.text[b.cursor - 1] === "\\") {
          this.edit("other", () => {
            b.backspace();
            b.insert("\n");
          });
        } else this.submit();
        return true;
      case "ctrl+j":
        // An Enter typed at the shell before zot had the terminal (keys.ts, typedAhead).
        if (key.typedAhead) {
          this.submit();
          return true;
        }
        return this.edit("other", () => b.insert("\n"));
      case "alt+enter":
      case "shift+enter":
        return this.edit("other", () => b.insert("\n"));
      // Shift held for capitals: Shift+Backspace and Shift+Delete as the plain keys (the Kitty protocol
      // and modifyOtherKeys report them apart).
      case "backspace":
      case "shift+backspace":
        return this.edit("other", () => b.backspace());
      case "delete":
      case "shift+delete":
        return this.edit("other", () => b.deleteForward());
      case "ctrl+d":
        return this.isEmpty ? false : this.edit("other", () => b.deleteForward());
      case "left":
      case "ctrl+b":
        return this.move(() => b.left());
      case "right":
      case "ctrl+f":
        return this.move(() => b.right());
      case "home":
      case "ctrl+a":
        return this.move(() => b.lineStart());
      case "end":
      case "ctrl+e":
        return this.move(() => b.lineEnd());
      case "alt+left":
      case "ctrl+left":
      case "alt+b":
        return this.move(() => b.wordLeft());
      case "alt+right":
      case "ctrl+right":
      case "alt+f":
        return this.move(() => b.wordRight());
      case "ctrl+u":
        return this.edit("other", () => b.killToLineStart());
      case "ctrl+k":
        return this.edit("other", () => b.killToLineEnd());
      case "ctrl+w":
        return this.edit("other", () => b.killSpaceWordBack());
      case "alt+backspace":
      case "ctrl+backspace":
        return this.edit("other", () => b.killWordBack());
      case "alt+d":
      case "ctrl+delete":
        return this.edit("other", () => b.killWordForward());
      case "ctrl+y":
        return this.edit("other", () => b.yank());
      // Ctrl+_ (Ctrl+/ and Ctrl+- type it in a legacy terminal), as the Kitty protocol
      // (Ctrl+Shift+-) and xterm's modifyOtherKeys (Ctrl+Shift+_) report it too.
      case "ctrl+_":
      case "ctrl+-":
      case "ctrl+/":
      case "ctrl+shift+-":
      case "ctrl+shift+_":
        return this.undo();
      case "up":
        return this.vertical(-1);
      case "down":
        return this.vertical(1);
      case "ctrl+r":
        this.search = new HistorySearch(this.history.all);
        return true;
    }
    if (key.text !== undefined) return this.edit("type", () => b.insert(key.text as string), key.text);
    return false;
  }

  render(width: number): string[] {
    this.width = width;
    const prompt = this.options.prompt ?? "> ";
    const indent = " ".repeat(visibleWidth(prompt));
    const cursor = this.focused ? CURSOR_MARKER : "";
    if (this.search) return this.renderSearch(this.search, prompt, indent, cursor);
    if (this.isEmpty) return [prompt + cursor + this.theme.muted(this.options.placeholder ?? "")];
    const rows = layoutRows(this.buffer.text, this.rowWidth());
    const at = this.cursorRow(rows);
    const maxRows = Math.max(1, this.options.maxRows ?? 10);
    if (at < this.scrollTop) this.scrollTop = at;
    if (at >= this.scrollTop + maxRows) this.scrollTop = at - maxRows + 1;
    this.scrollTop = Math.max(0, Math.min(this.scrollTop, rows.length - maxRows));
    return rows.slice(this.scrollTop, this.scrollTop + maxRows).map((row, i) => {
      const index = this.scrollTop + i;
      return (index === 0 ? prompt : indent) + this.renderRow(row, index === at ? cursor : "");
    });
  }

  /**
   * A search: the match (or, before one, the text as it is) with the query marked, and under it
   * the query, where the cursor is. The rows scroll to show the mark.
   */
  private renderSearch(search: HistorySearch, prompt: string, indent: string, cursor: string): string[] {
    const shown = search.match ?? this.buffer.text;
    const mark = wholeGraphemes(shown, search.highlight);
    const rows = layoutRows(shown, this.rowWidth());
    const room = Math.max(1, (this.options.maxRows ?? 10) - 1);
    const at = mark ? Math.max(0, rows.findIndex((row) => mark[0] < row.end || (mark[0] === row.end && row.last))) : 0;
    const top = Math.max(0, Math.min(at - room + 1, rows.length - room));
    const lines = rows.slice(top, top + room).map((row, i) => {
      const drawn = (from: number, to: number) => shown.slice(from, to).replaceAll("\t", " ".repeat(TAB_WIDTH)).replace(CONTROLS, "");
      let text = drawn(row.start, row.end);
      if (mark && mark[0] < row.end && mark[1] > row.start) {
        const from = Math.max(mark[0], row.start);
        const to = Math.min(mark[1], row.end);
        text = drawn(row.start, from) + this.theme.inverse(drawn(from, to)) + drawn(to, row.end);
      }
      return (top + i === 0 ? prompt : indent) + text;
    });
    const state = search.failing ? "no match: " : "search prompts: ";
    const query = this.theme.muted(state) + search.query.replace(CONTROLS, "");
    const help = "  ctrl+r older · enter send · tab edit · ctrl+c cancel";
    // The query and the cursor after it come first; the help only where it fits (a query too long keeps its end).
    const queryWidth = visibleWidth(query);
    const row =
      queryWidth + 1 > this.width
        ? this.theme.muted("…") + Bun.sliceAnsi(query, queryWidth - Math.max(0, this.width - 2)) + cursor
        : query + cursor + (queryWidth + 1 + visibleWidth(help) <= this.width ? this.theme.muted(help) : "");
    lines.push(row);
    return lines;
  }

  /**
   * A key while searching: Ctrl+R goes older, text and Backspace change the query (Backspace on an
   * empty one cancels), Enter sends the match, Tab or Esc take it to edit, Ctrl+C or Ctrl+G cancel;
   * any other key takes the match and then does what it does.
   */
  private searchKey(id: string, key: Key): boolean {
    const search = this.search!;
    switch (id) {
      case "ctrl+r":
        search.older();
        return true;
      case "backspace":
      case "shift+backspace":
        if (!search.backspace()) this.cancelSearch();
        return true;
      case "ctrl+c":
      case "ctrl+g":
        this.cancelSearch();
        return true;
      case "enter":
        this.takeSearchMatch();
        this.submit();
        return true;
      case "tab":
      case "escape":
        this.takeSearchMatch();
        return true;
    }
    if (key.text !== undefined && !key.ctrl && !key.alt) {
      search.type(key.text);
      return true;
    }
    this.takeSearchMatch();
    return this.handleKey(key);
  }

  /**
   * Ends a Ctrl+R search with its match in the editor, the cursor at its end: the history walk goes
   * to that entry as ↑/↓ would have brought it, so what was being written is kept as they keep it (↓
   * past the newest brings it back) and ↑ goes on to the prompt before the match, as in a shell.
   * Without a match the editor stays as it was.
   */
  takeSearchMatch(): void {
    const search = this.search;
    this.search = undefined;
    const at = search?.at;
    // The history changed under the search (a prompt added and the oldest let go): nothing to go to.
    if (at === undefined || this.history.all[at] !== search?.match) return;
    const match = search.match;
    // The walk's place is the match only where no edit of this walk stands in for it (one left behind, or the one being made there).
    const edited = this.history.editOf(at) !== undefined || (this.history.at === at && this.buffer.text !== match);
    if (!edited) return void this.walkTo(() => this.history.jumpTo(at, this.buffer.text));
    // An entry edited on this walk: the walk there would show the edit, not the match the search
    // showed. The match comes in as an edit of the editor's (Ctrl+_ gives back what was there), and
    // the walk ends as a send ends it, its edits and draft kept in the history.
    const before = { text: this.buffer.text, cursor: this.buffer.cursor };
    this.endWalk();
    this.undoElsewhere.clear();
    this.buffer.setText(match);
    this.undoStack.push(before);
    this.lastEdit = "other";
    this.notifyChange(true);
  }

  /** Columns for text: the prompt's and one for the cursor past the last character are kept free. */
  private rowWidth(): number {
    return Math.max(1, this.width - visibleWidth(this.options.prompt ?? "> ") - 1);
  }

  private cursorRow(rows: Row[]): number {
    const cursor = this.buffer.cursor;
    const found = rows.findIndex((row) => cursor >= row.start && (cursor < row.end || (cursor === row.end && row.last)));
    return found === -1 ? rows.length - 1 : found;
  }

  /** A row's text with chips coloured, tabs as spaces and the cursor marker in place. */
  private renderRow(row: Row, marker: string): string {
    const text = this.buffer.text;
    const cursor = this.buffer.cursor;
    const chips = this.buffer.atomSpans().filter((span) => span.end > row.start && span.start < row.end);
    const cuts = new Set([row.start, row.end]);
    for (const chip of chips) cuts.add(Math.max(row.start, chip.start)).add(Math.min(row.end, chip.end));
    if (marker) cuts.add(cursor);
    const points = [...cuts].sort((a, b) => a - b);
    let out = "";
    for (let i = 0; i < points.length; i++) {
      if (marker && points[i] === cursor) out += marker;
      if (i === points.length - 1) break;
      const piece = text.slice(points[i], points[i + 1]).replaceAll("\t", " ".repeat(TAB_WIDTH)).replace(CONTROLS, "");
      const inChip = chips.some((chip) => chip.start <= points[i] && points[i] < chip.end);
      out += inChip ? this.theme.accent(piece) : piece;
    }
    return out;
  }

  /** ↑/↓: the row above or below at the same column; past the first/last row, the history. */
  private vertical(direction: 1 | -1): boolean {
    const rows = layoutRows(this.buffer.text, this.rowWidth());
    const at = this.cursorRow(rows);
    const target = at + direction;
    const { text, cursor } = this.buffer;
    const untouchedEntry = this.history.browsing && text === this.recalled && (cursor === 0 || cursor === text.length);
    if (untouchedEntry || target < 0 || target >= rows.length) {
      return this.walkTo(() => (direction < 0 ? this.history.previous(text) : this.history.next(text)));
    }
    const row = rows[at];
    this.goalColumn ??= this.columns(row.start, this.buffer.cursor);
    const goal = rows[target];
    let offset = goal.start;
    let column = 0;
    for (const grapheme of graphemes(this.buffer.text.slice(goal.start, goal.end))) {
      if (column + cellWidth(grapheme) > this.goalColumn) break;
      column += cellWidth(grapheme);
      offset += grapheme.length;
    }
    // On a row that wraps on, the end offset is the next row's start: stop one grapheme short.
    if (!goal.last && offset === goal.end && offset > goal.start) offset -= graphemes(this.buffer.text.slice(goal.start, goal.end)).at(-1)?.length ?? 0;
    this.buffer.moveTo(offset, direction);
    return true;
  }

  /** One step of a history walk (`step` moves it and gives the entry, or undefined for none): each place keeps its own undo steps. */
  private walkTo(step: () => string | undefined): boolean {
    const from = this.history.at;
    const entry = step();
    if (entry === undefined) return false;
    this.undoElsewhere.set(from, this.undoStack.splice(0));
    this.undoStack.push(...(this.undoElsewhere.get(this.history.at) ?? []));
    this.undoElsewhere.delete(this.history.at);
    this.lastEdit = "other";
    this.buffer.setText(entry);
    this.recalled = entry;
    this.notifyChange(true);
    return true;
  }

  private columns(from: number, to: number): number {
    return graphemes(this.buffer.text.slice(from, to)).reduce((sum, grapheme) => sum + cellWidth(grapheme), 0);
  }

  private move(motion: () => void): boolean {
    motion();
    this.lastEdit = "other";
    return true;
  }

  /** Runs a change with an undo snapshot (a run of typed word characters is one step). */
  private edit(kind: "type" | "other", change: () => void, typed?: string): boolean {
    const before = { text: this.buffer.text, cursor: this.buffer.cursor };
    // A word typed after a space starts a new step: undo takes back one word at a time.
    const joinsTyping = kind === "type" && this.lastEdit === "type" && !(this.lastTyped === " " && typed !== " ");
    this.lastTyped = typed ?? "";
    change();
    this.lastEdit = kind;
    if (this.buffer.text === before.text) return true;
    if (!joinsTyping) this.undoStack.push(before);
    if (this.undoStack.length > 200) this.undoStack.shift();
    this.notifyChange();
    return true;
  }

  private undo(): boolean {
    const previous = this.undoStack.pop();
    if (previous) {
      this.buffer.setText(previous.text, previous.cursor);
      this.notifyChange();
    }
    this.lastEdit = "other";
    return true;
  }

  private notifyChange(recalled = false): void {
    this.onChange?.(this.buffer.text, { recalled });
  }
}
