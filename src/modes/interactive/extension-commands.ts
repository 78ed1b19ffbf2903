// An extension's slash command run from the editor, and what its answer does in the app: `prompt`
// sends (or queues) a prompt (`tool_prompt`: with the extension's tool call first), `insert` puts text in the editor, `display` shows a note under the
// transcript with the extension's name (the conversation's ext_display event, which the app turns
// into that note), `open_panel` opens the extension's panel (the panel_open event did that as the
// answer came in), `noop` does nothing, `error` shows the error in red.
// Rule: the command runs at once, even while a turn runs; only the turn its `prompt` or
// `tool_prompt` answer starts waits its turn.
import { commandPrompt } from "../../conversation/conversation.ts";
import { COMMANDS_OWNER, commandErrorMessage, SKILLS_OWNER } from "../../protocol/slash-command.ts";
import type { AppContext } from "./app-context.ts";

export async function runExtensionCommand(app: AppContext, invocation: { name: string; args: string }): Promise<void> {
  // The extension applies the command's own timeout; nothing in the app cancels a command.
  const result = await app.conversation.commands.run(invocation.name, invocation.args);
  switch (result.action) {
    case "prompt":
    case "tool_prompt": {
      const { text, tool, model, allow } = commandPrompt(result)!;
      // A Markdown command's or a skill's prompt is its expansion: the queue shows, and a cancel gives
      // back, the command line typed, so Enter runs the command again (its model:, its allowed-tools).
      const expansion = result.extension === COMMANDS_OWNER || result.extension === SKILLS_OWNER;
      const typed = expansion ? `/${invocation.name}${invocation.args.trim() ? ` ${invocation.args.trim()}` : ""}` : undefined;
      // A Markdown command attached its @files when it was expanded (only the folder's, untrusted).
      app.submitPrompt(text, undefined, { ...(tool ? { tool } : {}), ...(model ? { model } : {}), ...(allow ? { allow } : {}) }, result.action === "prompt" && result.attached === true, typed);
      break;
    }
    case "insert":
      app.insertText(result.text);
      break;
    case "error":
      app.showNote(commandErrorMessage(result), "error");
      break;
    case "display":
    case "noop":
    case "open_panel":
      break;
  }
}
