// `zot -p`: runs one input (a prompt, or an extension's `/command`) and prints the final answer on
// stdout. Rule: stdout holds only the answer (what the user was shown, after any replace_text), the
// command's displayed text, or a panel's first render as text; everything else (extension notes,
// errors, a provider's retry while the user waits) goes to stderr.
import type { Conversation, PromptInput, UnitOutcome } from "../conversation/conversation.ts";
import type { EventOf } from "../protocol/events.ts";
import { textOf } from "../protocol/messages.ts";
import { retryText } from "../protocol/retry-text.ts";

/** A panel as -p prints it. */
type PanelShown = Pick<EventOf<"panel_open">, "extension" | "panel_id" | "title" | "lines" | "footer">;

export async function runPrintMode(conversation: Conversation, input: PromptInput, signal: AbortSignal): Promise<UnitOutcome> {
  let answer = "";
  let shown = "";
  // -p has no screen to keep a panel on: the first render of each panel is printed as text (a
  // panel opened empty is shown as its first render with lines).
  const panels: PanelShown[] = [];
  const off = conversation.onEvent((event) => {
    switch (event.type) {
      case "assistant_message": {
        const text = textOf(event.content);
        if (text.trim() !== "") answer = text;
        return;
      }
      case "retry":
        return console.error(`zot: ${retryText(event)}`);
      case "ext_notify":
        return console.error(`[${event.extension}] ${event.level}: ${event.message}`);
      case "command_result":
        // -p has no editor to insert into: inserted text is printed like displayed text.
        if (event.action === "display" || event.action === "insert") shown += event.text ?? "";
        return;
      case "panel_open":
        panels.push(event);
        return;
      case "panel_render": {
        const first = panels.findLast((p) => p.extension === event.extension && p.panel_id === event.panel_id);
        if (first && first.lines.length === 0) panels[panels.indexOf(first)] = event;
        return;
      }
    }
  });
  const onAbort = () => conversation.abort("interrupted");
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const running = conversation.submit(input);
    if (signal.aborted) onAbort();
    const outcome = await running;
    if (outcome.status === "ok") {
      const out = `${shown}${panels.map(panelText).join("")}${answer}`;
      if (out) await Bun.write(Bun.stdout, out.endsWith("\n") ? out : `${out}\n`);
    }
    return outcome;
  } finally {
    signal.removeEventListener("abort", onAbort);
    off();
  }
}

/** A panel as plain text: its title, its lines, then its footer after a blank line. */
export function panelText(view: { title: string; lines: string[]; footer: string }): string {
  const footer = view.footer.trim() ? `\n${view.footer}\n` : "";
  return `${view.title}\n${view.lines.map((line) => `${line}\n`).join("")}${footer}`;
}
