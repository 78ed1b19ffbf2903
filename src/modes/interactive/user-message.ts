// A prompt the user sent, as the transcript shows it: a marker, then the text wrapped beside it,
// and a line for each file its @mentions attached (file-mentions.ts); a `!command` the user ran
// shows as the command and, under it, its output. A long prompt (a big paste) shows its first
// PROMPT_ROWS rows, and a long output its first OUTPUT_ROWS lines (the model has them all), and
// how many more until Ctrl+O expands them, as tool results do, so one paste or one command's
// output does not fill the scrollback.
// Rule: the text is shown as typed (no markdown), so what was sent is what is seen.
import { counted } from "../../protocol/counted.ts";
import type { Theme } from "../../tui/theme.ts";
import { truncateToWidth, wrapText } from "../../tui/width.ts";
import { CachedBlock } from "./cached-block.ts";
import { splitAttachments } from "../../conversation/file-mentions.ts";
import { parseShellContext } from "./shell-context.ts";
import { printable } from "../../protocol/printable.ts";

/** Rows of a `!command`'s output shown in the transcript. */
export const OUTPUT_ROWS = 10;

/** Rows of a prompt shown before the rest is counted (Ctrl+O shows it whole). */
export const PROMPT_ROWS = 12;

export class UserMessage extends CachedBlock {
  constructor(
    readonly text: string,
    private readonly theme: Theme,
    /** images sent with it, shown as "[2 images]" after the text */
    private readonly images = 0,
  ) {
    super();
  }

  private expanded = false;

  setExpanded(expanded: boolean): void {
    if (expanded === this.expanded) return;
    this.expanded = expanded;
    this.changed();
  }

  protected draw(width: number): string[] {
    const marker = this.theme.bold(this.theme.accent("›"));
    const shell = parseShellContext(this.text);
    const { prompt, attached } = shell ? { prompt: `!${shell.command}`, attached: [] } : splitAttachments(this.text);
    const images = this.images > 0 ? `${prompt ? " " : ""}[${this.images} image${this.images === 1 ? "" : "s"}]` : "";
    // What was typed, pasted or resumed from a session, as text: its escapes are not the terminal's to obey.
    let rows = wrapText(printable(prompt) + images, Math.max(1, width - 2)).map((row, i) => `${i === 0 ? marker : " "} ${row}`);
    // One row fewer than the limit, so a prompt that fits whole is never cut to save one row.
    if (!this.expanded && rows.length > PROMPT_ROWS) {
      const hidden = rows.length - (PROMPT_ROWS - 1);
      rows = [...rows.slice(0, PROMPT_ROWS - 1), this.theme.muted(truncateToWidth(`  … ${counted(hidden, "more row")} · ctrl+o to expand`, width))];
    }
    if (shell) rows.push(...this.outputRows(shell.output, width));
    for (const file of attached) {
      // A folder's name (or an imported session's) as text: its escapes are not the terminal's to obey either.
      rows.push(this.theme.muted(truncateToWidth(`  ⎿ attached ${printable(file.path)} (${file.lines} line${file.lines === 1 ? "" : "s"})`, width)));
    }
    return ["", ...rows];
  }

  /** The output's first rows, how many more there are, and its last line (the exit status). */
  private outputRows(output: string, width: number): string[] {
    // A command's output, as the tool box shows one: no escape of it reaches the terminal.
    const lines = printable(output).replace(/\n$/, "").split("\n");
    const status = lines.length > 1 ? lines.pop()! : undefined;
    const cut = !this.expanded && lines.length > OUTPUT_ROWS;
    const shown = cut ? lines.slice(0, OUTPUT_ROWS) : lines;
    if (cut) shown.push(`… ${counted(lines.length - OUTPUT_ROWS, "more line")} (the model has them all) · ctrl+o to expand`);
    if (status !== undefined) shown.push(status);
    return shown.map((line, i) => this.theme.muted(truncateToWidth(`${i === 0 ? "  ⎿ " : "    "}${line}`, width)));
  }
}
