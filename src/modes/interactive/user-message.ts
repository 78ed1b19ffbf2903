// A prompt the user sent, as the transcript shows it: a marker, then the text wrapped beside it.
// Rule: the text is shown as typed (no markdown), so what was sent is what is seen.
import type { Theme } from "../../tui/theme.ts";
import { wrapText } from "../../tui/width.ts";
import { CachedBlock } from "./cached-block.ts";

export class UserMessage extends CachedBlock {
  constructor(
    readonly text: string,
    private readonly theme: Theme,
  ) {
    super();
  }

  protected draw(width: number): string[] {
    const marker = this.theme.bold(this.theme.accent("›"));
    const rows = wrapText(this.text, Math.max(1, width - 2));
    return ["", ...rows.map((row, i) => `${i === 0 ? marker : " "} ${row}`)];
  }
}
