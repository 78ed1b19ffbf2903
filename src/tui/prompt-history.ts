// Earlier prompts, walked with Up and Down like a shell's history. Rule: nothing typed is lost by
// walking: what was being typed before the walk began (the draft) comes back when walking past the
// newest entry, and an entry edited during the walk keeps the edit while the walk goes on (as
// readline keeps a changed history line until the prompt is sent); a submit or a clear ends the
// walk. Empty prompts and a repeat of the newest are not recorded.

export class PromptHistory {
  private readonly entries: string[];
  /** Index into entries while walking; entries.length when not walking. */
  private position: number;
  private draft = "";
  /** Entries edited during this walk, by index: what the user made of them. */
  private edited = new Map<number, string>();

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

  /** Records a prompt as the newest entry; a walk under way goes on where it is. */
  add(text: string): void {
    if (text.trim() === "" || this.entries.at(-1) === text) return;
    const browsing = this.browsing;
    this.entries.push(text);
    if (this.entries.length > this.limit) {
      this.entries.shift();
      this.position = Math.max(0, this.position - 1);
      this.edited = new Map([...this.edited].flatMap(([index, edit]) => (index > 0 ? [[index - 1, edit] as const] : [])));
    }
    if (!browsing) this.position = this.entries.length;
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

  /** Ends a walk (the prompt was submitted or cleared): the draft and the edits are dropped. */
  reset(): void {
    this.position = this.entries.length;
    this.draft = "";
    this.edited.clear();
  }

  private keep(current: string): void {
    if (!this.browsing) this.draft = current;
    else if (current !== this.entries[this.position]) this.edited.set(this.position, current);
    else this.edited.delete(this.position);
  }

  private shown(index: number): string {
    return this.edited.get(index) ?? this.entries[index];
  }
}
