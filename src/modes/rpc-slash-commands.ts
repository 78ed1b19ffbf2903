// Slash commands over rpc (additive to the original protocol): `get_commands`, `run_command` and
// `reload_extensions`. Rule: a built-in does exactly what its rpc command does (clear, compact,
// set_model, reload_extensions); an extension command's answer is the response, and its `prompt`
// answer becomes a queued turn, answered when it starts; a Markdown command or a skill is queued
// whole, run when its turn comes and answered then; the TUI's own commands are refused with a sentence saying so.
// Wherever an extension command runs over rpc (run_command, a /command in a prompt), a `display`
// answer is also an `ext_display` event, as the newer original sends it.
import { commandPrompt, type ReloadReport, ZotBusyError } from "../conversation/conversation.ts";
import { errorText } from "../protocol/error-text.ts";
import type { RpcCommandOf, RpcDataOf } from "../protocol/rpc-frames.ts";
import { type CommandResult, commandErrorMessage } from "../protocol/slash-command.ts";
import { switchModel } from "./rpc-models.ts";
import { type Answer, answerOnStart, type Handler, LATER, responseTo, type RpcSession } from "./rpc-session.ts";

/** The built-in commands that mean something without a TUI. */
const RPC_BUILTINS = [
  { name: "clear", description: "Empty the transcript (usage and cost so far stay)" },
  { name: "compact", description: "Summarise the transcript into one message; the arguments guide the summary" },
  { name: "model", description: "Show the model, or switch to another of this provider: /model <id>" },
  { name: "reload-ext", description: "Stop every extension, read the manifests again and start them; read the commands and skills again" },
];

export const getCommands: Handler<"get_commands"> = (_command, session) => ({
  data: {
    commands: [
      ...RPC_BUILTINS.map((c) => ({ ...c, source: "builtin" as const })),
      ...session.conversation.commands.list().map((c) => ({ ...c, source: "extension" as const })),
    ],
  },
});

export const reloadExtensions: Handler<"reload_extensions"> = (_command, session) =>
  reload<"reload_extensions">(session, (report) => ({
    data: { stopped: report.stopped, loaded: report.started, ready: report.ready, warnings: report.warnings },
  }));

export const runCommand: Handler<"run_command"> = async (command, session) => {
  const name = command.name.replace(/^\//, "");
  const args = command.args.trim();
  const { conversation } = session;
  const display = (text: string): Answer<"run_command"> => ({ data: { command: name, action: "display", text } });
  switch (name) {
    case "clear":
      await conversation.clear();
      return display("transcript cleared");
    case "compact":
      void conversation.compact(args, { onStart: answerOnStart(session, command, { data: { command: name, action: "started" } }) });
      return LATER;
    case "model": {
      const { model } = conversation;
      if (!args) return display(`model: ${model.id} (${model.provider}); /model <id> switches, get_models lists the models`);
      const switched = await switchModel(session, args);
      return "error" in switched ? switched : display(`model: ${switched.data.model}`);
    }
    case "reload-ext":
      return reload<"run_command">(session, (report) => display(reloadText(report)));
  }
  // A Markdown command or a skill runs when its turn comes, queued as a prompt is: its `!` lines see
  // what the turns before it did. Its answer is the response, sent then (after its `!` lines' events).
  if (conversation.commands.runsInTurn(name)) {
    void conversation
      .runCommand(
        { name, args },
        {
          onResult: (result, aborted) => {
            const failed = aborted ? `/${result.command}: cancelled while its ! lines ran; nothing was sent to the model` : result.action === "error" ? commandErrorMessage(result) : undefined;
            session.send(responseTo(command, failed ? { error: failed } : { data: dataOf(result) }));
          },
        },
      )
      .then((outcome) => {
        if (outcome.status === "dropped") session.send(responseTo(command, { error: `/${name}: not run: it was cancelled before its turn came` }));
      });
    return LATER;
  }
  // An extension still starting may be the one that provides it: its command waits for it. Its
  // place in the queue is held from now (before any wait), so a prompt sent after it runs after
  // its turn. Like a prompt's started, a prompt answer is the response when that turn starts (it
  // may wait behind others), so every event from it to the next done is this turn's.
  const known = conversation.awaitCommand(name);
  const running = known.then((has) => (has ? conversation.commands.run(name, args, session.closing) : undefined));
  void conversation.commandTurn(running, {
    onTurn: (result) => session.send(responseTo(command, { data: dataOf(result) })),
    // Aborted (or the queue cleared) while the extension was still answering: said, never left unanswered.
    onDropped: (result) => session.send(responseTo(command, { error: `/${result.command} (extension ${result.extension}): its prompt was not run: it was cancelled before its turn came` })),
  });
  const result = await running;
  if (result) {
    if (result.action === "error") return { error: commandErrorMessage(result) };
    return commandPrompt(result) ? LATER : { data: dataOf(result) };
  }
  const usable = `over rpc: ${RPC_BUILTINS.map((c) => `/${c.name}`).join(", ")} and the extension commands get_commands lists`;
  if (conversation.commands.isBuiltin(name)) return { error: `/${name} is a command of the interactive TUI and does nothing ${usable}` };
  return { error: `unknown command "/${name}"; ${usable}` };
};

/** run_command's answer data: the command, who answered, how, and its text. */
function dataOf(result: CommandResult): RpcDataOf<"run_command"> {
  const text = "text" in result ? { text: result.text } : {};
  return { command: result.command, extension: result.extension, action: result.action, ...text };
}

/** Reloads the extensions and reads the commands and skills again, as queued work, so no turn starts while they come and go. */
async function reload<T extends "reload_extensions" | "run_command">(
  session: RpcSession,
  answer: (report: ReloadReport) => Answer<T>,
): Promise<Answer<T>> {
  const { conversation } = session;
  try {
    const report = await conversation.reloadExtensions({ exclusive: true });
    const off = conversation.hasExtensions ? [] : ["extensions are off in this process (--no-ext without --ext); the Markdown commands and skills were read again"];
    return answer({ ...report, warnings: [...off, ...report.warnings] });
  } catch (error) {
    if (error instanceof ZotBusyError) throw error;
    return { error: `reload failed: ${errorText(error)}` };
  }
}

function reloadText(report: ReloadReport): string {
  const summary = `extensions reloaded: ${report.stopped} stopped, ${report.started} loaded, ${report.ready} ready`;
  return [summary, ...report.warnings].join("\n");
}
