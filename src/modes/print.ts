// `zot -p`: runs one prompt (or an extension's `/command`) and prints the final answer on stdout.
// Rule: stdout holds only the answer (what the user was shown, after any replace_text) or the
// command's displayed text; everything else (extension notes, errors) goes to stderr.
import type { Agent, PromptInput } from "../core/agent.ts";
import type { ExtensionManager } from "../extensions/manager.ts";
import { promptOrCommand, type RunOutcome } from "../extensions/slash-command.ts";
import { textOf } from "../protocol/messages.ts";

export interface ModeSession {
  agent: Agent;
  extensions?: ExtensionManager;
}

export async function runPrintMode(session: ModeSession, input: PromptInput, signal: AbortSignal): Promise<RunOutcome> {
  const { agent, extensions } = session;
  let answer = "";
  let shown = "";
  const off = agent.onEvent((event) => {
    if (event.type === "assistant_message") {
      const text = textOf(event.content);
      if (text.trim() !== "") answer = text;
    } else if (event.type === "ext_notify") {
      console.error(`[${event.extension}] ${event.level}: ${event.message}`);
    } else if (event.type === "command_result" && (event.action === "display" || event.action === "insert")) {
      // -p has no editor to insert into: inserted text is printed like displayed text.
      shown += event.text ?? "";
    }
  });
  extensions?.onNotify({ notify: (note) => agent.emit({ type: "ext_notify", ...note }) });
  try {
    const outcome = await promptOrCommand(agent, extensions, input, signal);
    if (outcome.status === "ok") {
      const out = `${shown}${answer}`;
      if (out) await Bun.write(Bun.stdout, out.endsWith("\n") ? out : `${out}\n`);
    }
    return outcome;
  } finally {
    off();
  }
}
