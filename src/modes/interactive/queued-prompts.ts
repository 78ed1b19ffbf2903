// Prompts typed (or submitted by an extension, which the entry names) while a turn runs, waiting to
// be sent when it ends; shown above the status bar.
// Rule: sent in the order typed, one per turn; Esc (cancel) and Ctrl+C drop them all.
import type { PromptTool } from "../../core/agent.ts";
import type { Component } from "../../tui/component.ts";
import type { Theme } from "../../tui/theme.ts";
import { truncateToWidth } from "../../tui/width.ts";

export interface QueuedInput {
  text: string;
  /** typed before zot was ready: a slash command in it still has to be recognised */
  raw: boolean;
  /** the extension that submitted it (`submit`), named in the queue */
  from?: string;
  /** a command's tool_prompt: the call that runs before the prompt */
  tool?: PromptTool;
}

export class QueuedPrompts implements Component {
  private items: QueuedInput[] = [];

  constructor(private readonly theme: Theme) {}

  get size(): number {
    return this.items.length;
  }

  push(item: QueuedInput): void {
    this.items.push(item);
  }

  shift(): QueuedInput | undefined {
    return this.items.shift();
  }

  clear(): void {
    this.items = [];
  }

  render(width: number): string[] {
    return this.items.map((item) => {
      const first = item.text.split("\n")[0];
      const more = item.text.includes("\n") ? " …" : "";
      const from = item.from ? ` from ${item.from}` : "";
      return this.theme.muted(truncateToWidth(`  ↳ queued${from}: ${first}${more}`, width));
    });
  }
}
