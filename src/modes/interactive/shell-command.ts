// Runs a `!command` the user typed: in the working directory, as the app's activity (the spinner
// runs, Esc cancels it), then puts the command and its output into the conversation as context
// for the next prompt (shell-context.ts), with no model turn. Rule: a cancelled command adds
// nothing; while a turn runs, the command waits in the queue like a prompt (the app sees to that).
import type { InteractiveApp } from "./app.ts";
import { shellContextText } from "./shell-context.ts";

export async function runShellCommand(app: InteractiveApp, command: string): Promise<void> {
  if (command === "") {
    app.editor.setText("!");
    app.setStatus("type a command after !, e.g. !git status; its output goes to the model with your next prompt", "error");
    return;
  }
  await app.runActivity(`running ${command.split("\n")[0]}`, async (signal) => {
    const result = await app.runtime.shell(command, signal);
    if (result.aborted) {
      app.showNote(`!${command} was cancelled; nothing was added to the conversation`, "warn");
      return;
    }
    const text = shellContextText({ command, output: result.text });
    app.agent.addContext(text);
    app.chat.addUserMessage(text);
  });
}
