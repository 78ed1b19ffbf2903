// Earlier prompts, walked with Up and Down like a shell's history. Rule: what was being typed
// before the walk began is kept and comes back when walking past the newest entry; empty prompts
// and a repeat of the newest are not recorded.

export class PromptHistory {
  private readonly entries: string[];
  /** Index into entries while walking; entries.length when not walking. */
  private position: number;
  private draft = "";

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

  add(text: string): void {
    this.position = this.entries.length;
    if (text.trim() === "" || this.entries.at(-1) === text) {
      this.reset();
      return;
    }
    this.entries.push(text);
    if (this.entries.length > this.limit) this.entries.shift();
    this.reset();
  }

  /** The entry before the current one, or undefined at the oldest. `current` is saved as the draft when the walk begins. */
  previous(current: string): string | undefined {
    if (this.position === 0) return undefined;
    if (!this.browsing) this.draft = current;
    this.position--;
    return this.entries[this.position];
  }

  /** The entry after the current one, the draft past the newest, or undefined when not walking. */
  next(): string | undefined {
    if (!this.browsing) return undefined;
    this.position++;
    return this.browsing ? this.entries[this.position] : this.draft;
  }

  /** Ends a walk (the user edited or submitted). */
  reset(): void {
    this.position = this.entries.length;
    this.draft = "";
  }
}
