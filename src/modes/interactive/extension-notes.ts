// The notes extensions leave for the user (`notify`, and what a command `display`s), under the
// transcript with the extension's name. Rule: notes are a live area, not history: the next prompt
// clears them all, and an extension's `clear_notes` takes back its own. A note's escapes are the
// terminal's no more than a panel's are (styled-row.ts).
import type { EventOf } from "../../protocol/events.ts";
import type { Theme } from "../../tui/theme.ts";
import { styledRows } from "../../tui/styled-row.ts";
import { wrapText } from "../../tui/width.ts";
import { printable } from "../../protocol/printable.ts";
import { CachedBlock } from "./cached-block.ts";
import { noteStyle } from "./note-line.ts";

export interface ExtensionNote {
  extension: string;
  level: EventOf<"ext_notify">["level"];
  message: string;
}

export class ExtensionNotes extends CachedBlock {
  private notes: ExtensionNote[] = [];

  constructor(private readonly theme: Theme) {
    super();
  }

  get size(): number {
    return this.notes.length;
  }

  add(note: ExtensionNote): void {
    if (note.message.trim() === "") return;
    this.notes.push(note);
    this.changed();
  }

  /** Every note, or only those of one extension. */
  clear(extension?: string): void {
    const kept = extension === undefined ? [] : this.notes.filter((note) => note.extension !== extension);
    if (kept.length === this.notes.length) return;
    this.notes = kept;
    this.changed();
  }

  protected draw(width: number): string[] {
    if (this.notes.length === 0) return [];
    const rows = [""];
    for (const note of this.notes) {
      const prefix = `[${printable(note.extension)}] `;
      const style = noteStyle(this.theme, note.level === "info" ? "muted" : note.level);
      // An extension's words (often relayed from elsewhere: an API, an issue title, a log) as a
      // panel's lines are drawn, styles kept, no other escape written, and no link: its text could name one site and lead to another.
      for (const line of styledRows(note.message.replace(/\n+$/, ""), { links: false })) {
        for (const row of wrapText(line, Math.max(1, width - 2 - prefix.length))) rows.push(` ${this.theme.accent(prefix)}${style(row)}`);
      }
    }
    return rows;
  }
}
