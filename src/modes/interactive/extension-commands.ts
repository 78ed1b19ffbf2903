// A slash command of the conversation's (an extension's, an MCP prompt, a Markdown command, a
// skill) run from the editor, and what its answer does in the app: `prompt` sends (or queues) a
// prompt (`tool_prompt`: with the extension's tool call first), `insert` puts text in the editor,
// `display` shows a note under the transcript with the extension's name (the conversation's
// ext_display event, which the app turns into that note), `open_panel` opens the extension's panel
// (the panel_open event did that as the answer came in), `noop` does nothing, `error` shows the
// error in red.
// Rule: an extension's command (and an MCP prompt) runs at once, even while a turn runs; only the
// turn its `prompt` or `tool_prompt` answer starts waits its turn. A Markdown command or a skill is
// queued whole, as the command line typed, and runs when its turn comes: its `!` lines see what the
// turns before it did, the app is busy while they run (Esc and Ctrl+C stop them, and then nothing
// goes to the model), and a cancelled queue runs none of them.
import { commandPrompt } from "../../conversation/conversation.ts";
import { type CommandResult, commandErrorMessage, type SlashInvocation } from "../../protocol/slash-command.ts";
import type { InteractiveApp } from "./app.ts";

export async function runExtensionCommand(app: InteractiveApp, invocation: SlashInvocation): Promise<void> {
  if (app.conversation.commands.runsInTurn(invocation.name)) return runInTurn(app, invocation);
  // The extension applies the command's own timeout; nothing in the app cancels it.
  const result = await app.conversation.commands.run(invocation.name, invocation.args);
  switch (result.action) {
    case "prompt":
    case "tool_prompt": {
      const { text, tool, model, allow } = commandPrompt(result)!;
      app.submitPrompt(text, undefined, { ...(tool ? { tool } : {}), ...(model ? { model } : {}), ...(allow ? { allow } : {}) });
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

/**
 * A Markdown command or a skill: a unit of the conversation's queue, which the queue lists (and a
 * cancel gives back) as the command line typed, so Enter runs the command again (its `!` lines, its
 * model:, its allowed-tools). Its prompt answer is the unit's turn; a failure or a cancel is said.
 */
async function runInTurn(app: InteractiveApp, invocation: SlashInvocation): Promise<void> {
  const typed = `/${invocation.name}${invocation.args ? ` ${invocation.args}` : ""}`;
  let answer: { result: CommandResult; aborted: boolean } | undefined;
  await app.conversation.runCommand(invocation, {
    shown: typed,
    // As a prompt's start does: the extensions' notes of before go.
    onStart: () => app.chat.notes.clear(),
    onResult: (result, aborted) => (answer = { result, aborted }),
  });
  if (answer?.aborted) app.showNote(`${typed} was cancelled; nothing was sent to the model`, "warn");
  else if (answer?.result.action === "error") app.showNote(commandErrorMessage(answer.result), "error");
}
