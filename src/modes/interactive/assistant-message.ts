// The model's answer: markdown that grows with each text delta while it streams, and is replaced by
// what the user is meant to see once the message is complete (an extension's replace_text rewrites
// it). Also used for markdown a command shows (/help, /btw answers). Rule: the markdown component
// re-renders only when the text changed, so a paint while nothing streams costs nothing.
import { noFTL } from "bun:jsc";
import { Markdown } from "../../tui/markdown.ts";
import type { Theme } from "../../tui/theme.ts";
import { CachedBlock } from "./cached-block.ts";

export class AssistantMessage extends CachedBlock {
  private readonly markdown: Markdown;

  constructor(text: string, theme: Theme) {
    super();
    this.markdown = new Markdown(text, theme, { paddingX: 1 });
  }

  get text(): string {
    return this.markdown.text;
  }

  append(delta: string): void {
    if (delta === "") return;
    this.markdown.append(delta);
    this.changed();
  }

  setText(text: string): void {
    if (text === this.markdown.text) return;
    this.markdown.setText(text);
    this.changed();
  }

  protected draw(width: number): string[] {
    const rows = this.markdown.render(width);
    return rows.length === 0 ? [] : ["", ...rows];
  }
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(AssistantMessage.prototype.append);
