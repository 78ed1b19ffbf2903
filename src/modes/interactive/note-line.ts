// A line of the transcript that is not a message: a command's output, a runtime note, an error in
// red, an interceptor's decision in muted grey. Rule: the level decides the colour and nothing else.
import type { Style, Theme } from "../../tui/theme.ts";
import { styledRows } from "../../tui/styled-row.ts";
import { wrapText } from "../../tui/width.ts";
import type { NoteLevel } from "./app-context.ts";
import { CachedBlock } from "./cached-block.ts";

/** How a note of each level is drawn; "muted" is for interceptors' decisions and other asides. */
export type NoteStyle = NoteLevel | "muted";

export function noteStyle(theme: Theme, level: NoteStyle): Style {
  switch (level) {
    case "error":
      return theme.error;
    case "warn":
      return theme.warning;
    case "success":
      return theme.success;
    case "muted":
      return theme.muted;
    default:
      return (text) => text;
  }
}

export class NoteLine extends CachedBlock {
  constructor(
    readonly text: string,
    private readonly level: NoteStyle,
    private readonly theme: Theme,
  ) {
    super();
  }

  protected draw(width: number): string[] {
    const style = noteStyle(this.theme, this.level);
    // A note may carry names from the folder or an extension, or a provider's (a proxy's) error
    // text: drawn with their styles at most, never their escapes, and never a link, whose text
    // could name one site and lead to another (zot's own notes have none).
    return ["", ...wrapText(styledRows(this.text, { links: false }).join("\n"), Math.max(1, width - 2)).map((row) => ` ${style(row)}`)];
  }
}
