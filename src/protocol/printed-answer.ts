// What `zot -p` prints for one unit of work, read from its events: the text an extension command
// displayed (or inserted: -p has no editor), each panel's first render as text (a panel opened
// empty is shown as its first render with lines), then the last assistant message that had text
// (after any replace_text), a blank line between two of them; and an answer that said nothing, which -p
// and the TUI name (EMPTY_ANSWER). Rule: one reading, for -p and for the SDKs' TurnResult.text; no
// valibot here, so the RPC client bundled for Node uses it too.
import type { AgentEvent } from "./events.ts";
import { textOf } from "./text-of.ts";

interface PanelShown {
  extension: string;
  panel_id: string;
  title: string;
  lines: string[];
  footer: string;
}

export class PrintedAnswer {
  private readonly shown: string[] = [];
  private answer = "";
  private readonly panels: PanelShown[] = [];

  /** Takes one event of the unit, in order. */
  add(event: AgentEvent): void {
    switch (event.type) {
      case "assistant_message": {
        const text = textOf(event.content);
        if (text.trim() !== "") this.answer = text;
        return;
      }
      case "command_result":
        if ((event.action === "display" || event.action === "insert") && event.text) this.shown.push(event.text);
        return;
      case "panel_open":
        this.panels.push(event);
        return;
      case "panel_render": {
        const first = this.panels.findLast((p) => p.extension === event.extension && p.panel_id === event.panel_id);
        if (first && first.lines.length === 0) this.panels[this.panels.indexOf(first)] = event;
        return;
      }
    }
  }

  /**
   * The text, as -p prints it (without the newline -p adds when it lacks one): the pieces in order,
   * a blank line between two, so a displayed text, a panel and the answer never run together.
   */
  text(): string {
    const pieces = [...this.shown, ...this.panels.map(panelText), this.answer].filter((piece) => piece !== "");
    return pieces.map((piece, i) => (i < pieces.length - 1 ? `${piece.endsWith("\n") ? piece : `${piece}\n`}\n` : piece)).join("");
  }
}

/** A panel as plain text: its title, its lines, then its footer after a blank line. */
export function panelText(view: { title: string; lines: string[]; footer: string }): string {
  const footer = view.footer.trim() ? `\n${view.footer}\n` : "";
  return `${view.title}\n${view.lines.map((line) => `${line}\n`).join("")}${footer}`;
}

/**
 * An answer that said nothing: no text and no tool call (a refusal without words, a compatible
 * server's empty reply). -p says so on stderr and the TUI in a note, so a user can tell "nothing to
 * say" from "nothing arrived"; an answer an interceptor blocked is not empty.
 */
export const EMPTY_ANSWER = "the model returned an empty answer (no text, no tool call); ask again, or rephrase";

/** Whether an assistant message's content holds text or a tool call. */
export function saidSomething(content: Extract<AgentEvent, { type: "assistant_message" }>["content"]): boolean {
  return content.some((block) => (block.type === "text" && block.text.trim() !== "") || block.type === "tool_call");
}
