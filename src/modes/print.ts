// `zot -p`: runs one prompt (or an extension's `/command`) and prints the final answer on stdout.
// Rule: stdout holds only the answer (what the user was shown, after any replace_text), the
// command's displayed text, or a panel's first render as text; everything else (extension notes,
// errors, a provider's retry while the user waits) goes to stderr.
import type { Agent, PromptInput } from "../core/agent.ts";
import type { ExtensionManager } from "../extensions/manager.ts";
import type { PanelView } from "../extensions/panels.ts";
import { promptOrCommand, type RunOutcome } from "../extensions/slash-command.ts";
import { textOf } from "../protocol/messages.ts";
import { retryText } from "../protocol/retry-text.ts";

export interface ModeSession {
  agent: Agent;
  extensions?: ExtensionManager;
  /** the session being recorded (--json says it first) */
  recording?: { id: string; file: string; resumed: boolean };
}

export async function runPrintMode(session: ModeSession, input: PromptInput, signal: AbortSignal): Promise<RunOutcome> {
  const { agent, extensions } = session;
  let answer = "";
  let shown = "";
  const off = agent.onEvent((event) => {
    if (event.type === "assistant_message") {
      const text = textOf(event.content);
      if (text.trim() !== "") answer = text;
    } else if (event.type === "retry") {
      console.error(`zot: ${retryText(event)}`);
    } else if (event.type === "ext_notify") {
      console.error(`[${event.extension}] ${event.level}: ${event.message}`);
    } else if (event.type === "command_result" && (event.action === "display" || event.action === "insert")) {
      // -p has no editor to insert into: inserted text is printed like displayed text.
      shown += event.text ?? "";
    }
  });
  extensions?.onNotify({ notify: (note) => agent.emit({ type: "ext_notify", ...note }) });
  // -p has no screen to keep a panel on: the first render of each panel is printed as text (a
  // panel opened empty is shown as its first render with lines).
  const panels: PanelView[] = [];
  extensions?.panels.show({
    open: (view) => panels.push(view),
    update: (view) => {
      const first = panels.findLast((p) => p.extension === view.extension && p.id === view.id);
      if (first && first.lines.length === 0) panels[panels.indexOf(first)] = view;
    },
    close: () => {},
  });
  try {
    const outcome = await promptOrCommand(agent, extensions, input, signal);
    if (outcome.status === "ok") {
      const out = `${shown}${panels.map(panelText).join("")}${answer}`;
      if (out) await Bun.write(Bun.stdout, out.endsWith("\n") ? out : `${out}\n`);
    }
    return outcome;
  } finally {
    off();
  }
}

/** A panel as plain text: its title, its lines, then its footer after a blank line. */
export function panelText(view: PanelView): string {
  const footer = view.footer.trim() ? `\n${view.footer}\n` : "";
  return `${view.title}\n${view.lines.map((line) => `${line}\n`).join("")}${footer}`;
}
