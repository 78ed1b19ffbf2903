// Input waiting its turn, shown above the status bar: what was typed before zot was ready, the slash
// commands waiting for extensions still starting, then the conversation's queue (prompts typed, or submitted by an extension, which the entry names, while a
// turn runs; `!commands` waiting). Rule: shown in the order it will run; Esc (cancel) and Ctrl+C drop
// it all.
import type { Component } from "../../tui/component.ts";
import type { Theme } from "../../tui/theme.ts";
import { truncateToWidth } from "../../tui/width.ts";
import { printable } from "../../protocol/printable.ts";

export interface QueuedInput {
  text: string;
  /** the extension that submitted it (`submit`), named in the queue */
  from?: string;
  /** a slash command waiting for these (`extension gostuff`) to start, as it may be theirs */
  waitingFor?: string;
}

export class QueuedPrompts implements Component {
  constructor(
    private readonly theme: Theme,
    /** what waits, read at every render */
    private readonly entries: () => readonly QueuedInput[],
  ) {}

  get size(): number {
    return this.entries().length;
  }

  render(width: number): string[] {
    return this.entries().map((item) => {
      // A prompt as text (a picked file's name in it, an extension's words): no escape of it is written.
      const first = printable(item.text.split("\n")[0]!);
      const more = item.text.includes("\n") ? " …" : "";
      const from = item.from ? ` from ${printable(item.from)}` : "";
      const what = item.waitingFor ? `waiting for ${item.waitingFor} to start` : `queued${from}`;
      return this.theme.muted(truncateToWidth(`  ↳ ${what}: ${first}${more}`, width));
    });
  }
}
