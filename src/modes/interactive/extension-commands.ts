// An extension's slash command run from the editor, and what its answer does in the app: `prompt`
// sends (or queues) a prompt, `insert` puts text in the editor, `display` shows a note under the
// transcript with the extension's name, `open_panel` opens the extension's panel (the board did
// that as the answer came in), `noop` does nothing, `error` shows the error in red.
// Rule: every answer is also a `command_result` event, as in -p, --json and rpc, so the session and
// subscribed extensions see the same thing whichever mode ran the command.
import type { ExtensionManager } from "../../extensions/manager.ts";
import { commandErrorMessage } from "../../extensions/slash-command.ts";
import type { AppContext } from "./app-context.ts";
import type { ExtensionNotes } from "./extension-notes.ts";

export async function runExtensionCommand(
  app: AppContext,
  extensions: ExtensionManager,
  notes: ExtensionNotes,
  invocation: { name: string; args: string },
): Promise<void> {
  // The host applies the command's own timeout; nothing in the app cancels a command.
  const result = await extensions.runCommand(invocation.name, invocation.args, new AbortController().signal);
  app.agent.emit({
    type: "command_result",
    command: result.command,
    extension: result.extension,
    action: result.action,
    ...("text" in result ? { text: result.text } : {}),
  });
  switch (result.action) {
    case "prompt":
      app.submitPrompt(result.text);
      break;
    case "tool_prompt":
      app.submitPrompt(result.text, undefined, { ...result.tool, origin: result.extension });
      break;
    case "insert":
      app.insertText(result.text);
      break;
    case "display":
      notes.add({ extension: result.extension, level: "info", message: result.text });
      break;
    case "error":
      app.showNote(commandErrorMessage(result), "error");
      break;
    case "noop":
      break;
    case "open_panel":
      // The host has already handed the panel to the board, which shows it (panel-overlay.ts).
      break;
  }
}
