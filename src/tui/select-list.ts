// A list to pick from, narrowed by a fuzzy filter: slash commands, models, sessions, files,
// dialog answers. Items may belong to groups, each shown under a divider (built-in commands,
// then "extensions"). Keys: ↑/↓ (Ctrl+P/N), PgUp/PgDn, Home/End move; Enter picks; Esc cancels;
// typed text and Backspace edit the filter when `typeToFilter` is on (the default); otherwise the
// application feeds the filter with setFilter() (a popup filtered by the editor's text).
// Rule: a new filter highlights its best match, new items keep the highlighted item where it still
// is; keys the list has no use for (Tab, →) return false, so the application can use them.
import type { Component } from "./component.ts";
import { type FuzzyMatch, fuzzyFilter } from "./fuzzy.ts";
import { type Key, keyId } from "./keys.ts";
import type { Theme } from "./theme.ts";
import { styledRow } from "./styled-row.ts";
import { truncateToWidth, visibleWidth } from "./width.ts";

export interface SelectItem<T = string> {
  label: string;
  value: T;
  /** Shown dimmed after the label. */
  description?: string;
  /** Items of a group stay together, under a divider with the group's name. */
  group?: string;
}

export interface SelectListOptions {
  /** Rows of items shown at most (default 8), or a function read at each frame (fitted to the screen); the list scrolls with the selection. */
  maxVisible?: number | (() => number);
  /** Shown when nothing matches (default "no matches"). */
  emptyText?: string;
  /** Typed characters edit the filter (default true). */
  typeToFilter?: boolean;
}

interface Entry<T> {
  item: SelectItem<T>;
  match: FuzzyMatch;
}

export class SelectList<T = string> implements Component {
  onSelect?: (item: SelectItem<T>) => void;
  onCancel?: () => void;
  private items: SelectItem<T>[];
  private query = "";
  private entries: Entry<T>[] = [];
  private index = 0;
  private scrollTop = 0;

  constructor(
    items: SelectItem<T>[],
    private readonly theme: Theme,
    private readonly options: SelectListOptions = {},
  ) {
    this.items = items;
    this.refilter();
  }

  get filter(): string {
    return this.query;
  }

  /** The highlighted item (undefined when nothing matches). */
  get selected(): SelectItem<T> | undefined {
    return this.entries[this.index]?.item;
  }

  /** The items that match the filter, in the order shown. */
  get matches(): SelectItem<T>[] {
    return this.entries.map((entry) => entry.item);
  }

  setItems(items: SelectItem<T>[]): void {
    this.items = items;
    this.refilter(true);
  }

  setFilter(query: string): void {
    if (query === this.query) return;
    this.query = query;
    this.refilter();
  }

  private visible(): number {
    const max = this.options.maxVisible;
    return Math.max(1, (typeof max === "function" ? max() : max) ?? 8);
  }

  /** Moves the highlight by `delta` rows, stopping at the ends. */
  move(delta: number): void {
    if (this.entries.length === 0) return;
    this.index = Math.max(0, Math.min(this.entries.length - 1, this.index + delta));
  }

  handleKey(key: Key): boolean {
    const page = this.visible();
    switch (keyId(key)) {
      case "up":
      case "ctrl+p":
        this.move(-1);
        return true;
      case "down":
      case "ctrl+n":
        this.move(1);
        return true;
      case "pageup":
        this.move(-page);
        return true;
      case "pagedown":
        this.move(page);
        return true;
      case "home":
        this.move(-this.entries.length);
        return true;
      case "end":
        this.move(this.entries.length);
        return true;
      case "enter": {
        const item = this.selected;
        if (item) this.onSelect?.(item);
        return true;
      }
      case "escape":
        this.onCancel?.();
        return true;
      case "backspace":
        if (!(this.options.typeToFilter ?? true)) return false;
        this.setFilter(this.query.slice(0, -1));
        return true;
    }
    if (key.text !== undefined && (this.options.typeToFilter ?? true)) {
      this.setFilter(this.query + key.text);
      return true;
    }
    return false;
  }

  render(width: number): string[] {
    if (this.entries.length === 0) return [this.theme.muted(truncateToWidth(`  ${this.options.emptyText ?? "no matches"}`, width))];
    const rows: { text: string; entry?: number }[] = [];
    let group: string | undefined;
    this.entries.forEach((entry, i) => {
      if (entry.item.group !== undefined && entry.item.group !== group) rows.push({ text: this.divider(entry.item.group, width) });
      group = entry.item.group;
      rows.push({ text: this.itemRow(entry, i === this.index, width), entry: i });
    });
    const max = this.visible();
    if (rows.length <= max) return rows.map((row) => row.text);
    const selectedRow = rows.findIndex((row) => row.entry === this.index);
    if (selectedRow < this.scrollTop) this.scrollTop = selectedRow > 0 && rows[selectedRow - 1].entry === undefined ? selectedRow - 1 : selectedRow;
    if (selectedRow >= this.scrollTop + max) this.scrollTop = selectedRow - max + 1;
    this.scrollTop = Math.max(0, Math.min(this.scrollTop, rows.length - max));
    const shown = rows.slice(this.scrollTop, this.scrollTop + max).map((row) => row.text);
    shown.push(this.theme.muted(truncateToWidth(`  ${this.index + 1}/${this.entries.length}`, width)));
    return shown;
  }

  /** A new filter highlights the best match; new items keep the highlighted one where it still is. */
  private refilter(keepSelection = false): void {
    const keep = this.selected;
    const matched = fuzzyFilter(this.items, this.query, (item) => item.label);
    // Groups keep the order in which they first appear among the items.
    const order = [...new Set(this.items.map((item) => item.group))];
    this.entries = order.flatMap((group) => matched.filter((entry) => entry.item.group === group));
    const stay = keepSelection && keep ? this.entries.findIndex((entry) => entry.item.value === keep.value) : -1;
    this.index = stay !== -1 ? stay : this.bestIndex();
  }

  /** The best-scoring entry (groups reorder the list, so it is not always the first). */
  private bestIndex(): number {
    let best = 0;
    this.entries.forEach((entry, i) => {
      if (entry.match.score > this.entries[best].match.score) best = i;
    });
    return best;
  }

  private divider(name: string, width: number): string {
    const head = `── ${name} `;
    return this.theme.muted(head + "─".repeat(Math.max(0, width - visibleWidth(head))));
  }

  private itemRow(entry: Entry<T>, selected: boolean, width: number): string {
    // Labels and descriptions come from files and extensions (a command's description): no escapes reach the terminal.
    const label = styledRow(entry.item.label);
    const description = entry.item.description === undefined ? undefined : styledRow(entry.item.description);
    const marked = new Set(entry.match.positions);
    let text = "";
    for (let i = 0; i < label.length; i++) text += marked.has(i) ? this.theme.bold(this.theme.accent(label[i])) : label[i];
    const styled = selected ? this.theme.bold(this.theme.accent(text)) : text;
    const marker = selected ? this.theme.accent("› ") : "  ";
    const tail = description ? `  ${this.theme.muted(description)}` : "";
    return truncateToWidth(marker + styled + tail, width);
  }
}
