// Earlier prompts, walked with Up and Down like a shell's history. Rule: nothing typed is lost by
// walking: what was being typed before the walk began (the draft) comes back when walking past the
// newest entry, an entry edited during the walk keeps the edit while the walk goes on (as readline
// keeps a changed history line until the prompt is sent), and a walk that ends on another entry (a
// send, a clear) puts the draft and those edits into the history as entries of their own. Empty
// prompts and a repeat of the newest are not recorded; past `limit` the oldest go, once no walk
// points into the entries.

export class PromptHistory {
  private readonly entries: string[];
  /** Index into entries while walking; entries.length when not walking. */
  private position: number;
  private draft = "";
  /** Entries edited during this walk, by index: what the user made of them. */
  private readonly edited = new Map<number, string>();

  /** `entries` oldest first (an application may load them from its sessions). */
  constructor(
    entries: string[] = [],
    private readonly limit = 1000,
  ) {
    this.entries = entries.slice(-limit);
    this.position = this.entries.length;
  }

  get browsing(): boolean {
    return this.position < this.entries.length;
  }

  get size(): number {
    return this.entries.length;
  }

  /** The edit this walk made of entry `index`, if any. */
  editOf(index: number): string | undefined {
    return this.edited.get(index);
  }

  /** Every entry as recorded, oldest first (a copy; edits made on a walk are not in it). */
  get all(): string[] {
    return this.entries.slice();
  }

  /** Where the walk is: an entry's index, or `size` for the draft (no walk). */
  get at(): number {
    return this.position;
  }

  /** Records a prompt as the newest entry; a walk under way goes on where it is. */
  add(text: string): void {
    if (text.trim() === "" || this.entries.at(-1) === text) return;
    const browsing = this.browsing;
    this.entries.push(text);
    if (!browsing) {
      this.position = this.entries.length;
      this.trim();
    }
  }

  /** The entry before the current one, or undefined at the oldest. `current` is kept: as the draft when the walk begins, else as the entry's edit. */
  previous(current: string): string | undefined {
    if (this.position === 0) return undefined;
    this.keep(current);
    this.position--;
    return this.shown(this.position);
  }

  /** The entry after the current one, the draft past the newest, or undefined when not walking. `current` is kept as the entry's edit. */
  next(current: string): string | undefined {
    if (!this.browsing) return undefined;
    this.keep(current);
    this.position++;
    return this.browsing ? this.shown(this.position) : this.draft;
  }

  /**
   * Moves the walk to entry `index` (a Ctrl+R search's match), as ↑/↓ would have: `current` is kept
   * as they keep it, and ↑/↓ go on from there. Undefined, and nothing moved, when there is no such entry.
   */
  jumpTo(index: number, current: string): string | undefined {
    if (index < 0 || index >= this.entries.length) return undefined;
    this.keep(current);
    this.position = index;
    return this.shown(index);
  }

  /**
   * Ends a walk (a send or a clear). Ended on an entry, the edits of the others and the draft join
   * the history, written out by `expand` (the editor's paste chips), older than what is added next.
   */
  reset(expand: (text: string) => string = (text) => text): void {
    if (this.browsing) {
      const kept = [...this.edited].filter(([index]) => index !== this.position).sort(([a], [b]) => a - b);
      this.position = this.entries.length;
      for (const [, text] of kept) this.add(expand(text));
      this.add(expand(this.draft));
    }
    this.position = this.entries.length;
    this.draft = "";
    this.edited.clear();
    this.trim();
  }

  private keep(current: string): void {
    if (!this.browsing) this.draft = current;
    else if (current !== this.entries[this.position]) this.edited.set(this.position, current);
    else this.edited.delete(this.position);
  }

  private shown(index: number): string {
    return this.edited.get(index) ?? this.entries[index];
  }

  private trim(): void {
    if (this.browsing || this.entries.length <= this.limit) return;
    this.entries.splice(0, this.entries.length - this.limit);
    this.position = this.entries.length;
  }
}
