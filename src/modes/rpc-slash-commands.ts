// Slash commands over rpc (additive to the original protocol): `get_commands`, `run_command` and
// `reload_extensions`. Rule: a built-in does exactly what its rpc command does (clear, compact,
// set_model, reload_extensions); an extension command's answer is the response, and its `prompt`
// answer becomes a queued turn, answered when it starts; the TUI's own commands are refused with a sentence saying so.
// Wherever an extension command runs over rpc (run_command, a /command in a prompt), a `display`
// answer is also an `ext_display` event, as the newer original sends it.
import type { ReloadReport } from "../extensions/manager.ts";
import { commandErrorMessage, commandPrompt, type SlashCommands } from "../extensions/slash-command.ts";
import { errorText } from "../protocol/error-text.ts";
import type { RpcCommandOf } from "../protocol/rpc-frames.ts";
import { switchModel } from "./rpc-models.ts";
import { type Answer, busyError, type Handler, LATER, responseTo, type RpcSession, startTurn } from "./rpc-session.ts";

/** The built-in commands that mean something without a TUI. */
const RPC_BUILTINS = [
  { name: "clear", description: "Empty the transcript (usage and cost so far stay)" },
  { name: "compact", description: "Summarise the transcript into one message; the arguments guide the summary" },
  { name: "model", description: "Show the model, or switch to another of this provider: /model <id>" },
  { name: "reload-ext", description: "Stop every extension, read the manifests again and start them" },
];

export const getCommands: Handler<"get_commands"> = (_command, session) => ({
  data: {
    commands: [
      ...RPC_BUILTINS.map((c) => ({ ...c, source: "builtin" as const })),
      ...(session.runtime.extensions?.commands() ?? []).map((c) => ({ ...c, source: "extension" as const })),
    ],
  },
});

export const reloadExtensions: Handler<"reload_extensions"> = (command, session) =>
  reload(session, command, (report) => ({
    data: { stopped: report.stopped, loaded: report.started, ready: report.ready, warnings: report.warnings },
  }));

export const runCommand: Handler<"run_command"> = async (command, session) => {
  const name = command.name.replace(/^\//, "");
  const args = command.args.trim();
  const { agent } = session.runtime;
  const display = (text: string): Answer<"run_command"> => ({ data: { command: name, action: "display", text } });
  switch (name) {
    case "clear": {
      const busy = busyError(session, "clear");
      if (busy) return { error: busy };
      agent.clear();
      return display("transcript cleared");
    }
    case "compact":
      startTurn(
        session,
        (signal) => agent.compact(signal, args ? { instructions: args } : {}),
        () => session.send(responseTo(command, { data: { command: name, action: "started" } })),
      );
      return LATER;
    case "model": {
      if (!args) return display(`model: ${agent.model.id} (${agent.model.provider}); /model <id> switches, get_models lists the models`);
      const switched = await switchModel(session, args);
      return "error" in switched ? switched : display(`model: ${switched.data.model}`);
    }
    case "reload-ext":
      return reload(session, command, (report) => display(reloadText(report)));
  }
  const commands = extensionCommands(session);
  if (commands?.hasCommand(name)) {
    const result = await commands.runCommand(name, args, session.closing);
    if (result.action === "error") return { error: commandErrorMessage(result) };
    const text = "text" in result ? { text: result.text } : {};
    const data = { command: result.command, extension: result.extension, action: result.action, ...text };
    const prompt = commandPrompt(result);
    if (!prompt) return { data };
    // Like a prompt's started: the answer comes when the turn starts (it may wait behind others),
    // so every event from it to the next done is this turn's.
    startTurn(
      session,
      (signal) => agent.prompt(prompt, signal),
      () => session.send(responseTo(command, { data })),
    );
    return LATER;
  }
  const { BUILTIN_COMMANDS } = await import("../extensions/manager.ts");
  const usable = `over rpc: ${RPC_BUILTINS.map((c) => `/${c.name}`).join(", ")} and the extension commands get_commands lists`;
  if (BUILTIN_COMMANDS.has(name)) return { error: `/${name} is a command of the interactive TUI and does nothing ${usable}` };
  return { error: `unknown command "/${name}"; ${usable}` };
};

/**
 * The extensions' commands as rpc runs them: a `display` answer is also an `ext_display` event (where
 * the TUI shows it as a note); the answer itself is unchanged. Undefined without extensions.
 */
export function extensionCommands(session: RpcSession): SlashCommands | undefined {
  const { agent, extensions } = session.runtime;
  if (!extensions) return undefined;
  return {
    hasCommand: (name) => extensions.hasCommand(name),
    async runCommand(name, args, signal) {
      const result = await extensions.runCommand(name, args, signal);
      if (result.action === "display") agent.emit({ type: "ext_display", extension: result.extension, text: result.text });
      return result;
    },
  };
}

/** Reloads the extensions as queued work, so no turn starts while they come and go. */
function reload<T extends "reload_extensions" | "run_command">(
  session: RpcSession,
  command: RpcCommandOf<T>,
  answer: (report: ReloadReport) => Answer<T>,
): Answer<T> | typeof LATER {
  const extensions = session.runtime.extensions;
  if (!extensions) {
    return { error: "no extensions are loaded in this process (--no-ext); start zot rpc without --no-ext, or with --ext DIR" };
  }
  const busy = busyError(session, "reload the extensions");
  if (busy) return { error: busy };
  session.queue.enqueue(async () => {
    try {
      session.send(responseTo(command, answer(await extensions.reload())));
    } catch (error) {
      session.send(responseTo(command, { error: `reload failed: ${errorText(error)}` }));
    }
  }, "an extension reload");
  return LATER;
}

function reloadText(report: ReloadReport): string {
  const summary = `extensions reloaded: ${report.stopped} stopped, ${report.started} loaded, ${report.ready} ready`;
  return [summary, ...report.warnings].join("\n");
}
