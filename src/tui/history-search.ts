// Ctrl+R in the prompt editor: a search of the earlier prompts, newest first, as readline's
// reverse-i-search and Claude Code's Ctrl+R. Typing narrows (case does not matter, anywhere in the
// prompt), Ctrl+R again finds the next older match (a prompt sent several times is shown once per
// query), Backspace widens again from the newest. An empty query matches every prompt, so Ctrl+R
// pressed again walks them all.
// Rule: the search only looks; the editor takes a match when the user says so (editor.ts).
import { graphemes } from "./width.ts";

export class HistorySearch {
  private query_ = "";
  /** Index of the entry shown; undefined until a search found one. */
  private index: number | undefined;
  /** The last step found nothing (the entry shown, if any, is the last that matched). */
  private failing_ = false;
  /** The texts Ctrl+R has shown for this query: an older copy of one is passed over. */
  private readonly seen = new Set<string>();

  /** `entries` oldest first, as the history holds them (a copy: the search sees them as they were). */
  constructor(private readonly entries: readonly string[]) {}

  get query(): string {
    return this.query_;
  }

  get failing(): boolean {
    return this.failing_;
  }

  /** Where the entry shown is in the entries searched, or undefined when none matched yet. */
  get at(): number | undefined {
    return this.index;
  }

  /** The entry shown, or undefined when none matched yet. */
  get match(): string | undefined {
    return this.index === undefined ? undefined : this.entries[this.index];
  }

  /**
   * Where the query is in the match: [start, end) in its text, or undefined (no match, an empty
   * query, or a text whose lower case has another length, where offsets would not line up).
   */
  get highlight(): [number, number] | undefined {
    const match = this.match;
    if (match === undefined || this.query_ === "") return undefined;
    const lower = match.toLowerCase();
    const query = this.query_.toLowerCase();
    if (lower.length !== match.length || query.length !== this.query_.length) return undefined;
    const start = lower.indexOf(query);
    return start === -1 ? undefined : [start, start + query.length];
  }

  /** Typed text joins the query; the match shown stays while it still matches, else an older one is looked for. */
  type(text: string): void {
    this.query_ += text;
    this.seen.clear();
    this.find(this.index ?? this.entries.length - 1);
  }

  /** Ctrl+R: the next older match (from the newest when none is shown). */
  older(): void {
    this.find(this.index === undefined ? this.entries.length - 1 : this.index - 1);
  }

  /** Backspace: one character off the query, then the newest match again. False when the query was already empty. */
  backspace(): boolean {
    if (this.query_ === "") return false;
    this.query_ = graphemes(this.query_).slice(0, -1).join("");
    this.index = undefined;
    this.failing_ = false;
    this.seen.clear();
    if (this.query_ !== "") this.find(this.entries.length - 1);
    return true;
  }

  /** The newest entry at or before `from` holding the query, not shown yet for it; none found keeps what is shown and says so. */
  private find(from: number): void {
    const query = this.query_.toLowerCase();
    const shown = this.match;
    if (shown !== undefined) this.seen.add(shown);
    for (let i = from; i >= 0; i--) {
      const entry = this.entries[i]!;
      if ((i !== this.index && this.seen.has(entry)) || !entry.toLowerCase().includes(query)) continue;
      this.index = i;
      this.failing_ = false;
      this.seen.add(entry);
      return;
    }
    this.failing_ = true;
  }
}
