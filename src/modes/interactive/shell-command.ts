// Runs a `!command` the user typed: queued behind what runs, then run in the working directory (the
// spinner runs, Esc cancels it), and the command and its output put into the conversation as
// context for the next prompt (shell-context.ts), with no model turn. Rule: a cancelled command adds
// nothing, and says so.
import type { InteractiveApp } from "./app.ts";
import { shellContextText } from "./shell-context.ts";

export async function runShellCommand(app: InteractiveApp, command: string): Promise<void> {
  if (command === "") {
    app.editor.setText("!");
    app.setStatus("type a command after !, e.g. !git status; its output goes to the model with your next prompt", "error");
    return;
  }
  const outcome = await app.conversation.shell(command, (output) => shellContextText({ command, output }));
  if (outcome.status === "added") app.chat.addUserMessage(outcome.text);
  else if (outcome.status === "cancelled") app.showNote(`!${command} was cancelled; nothing was added to the conversation`, "warn");
  app.render();
}
