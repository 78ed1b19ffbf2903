// `zot rpc`'s commands: one handler per command type, and the dispatch that answers each command
// exactly once. Rule: only turns (prompt, compact), extension reloads and model switches wait in the queue; every
// other command is answered at once, even while a turn streams (those that change the transcript, the
// model or the reasoning level refuse with "agent is busy" instead).
import { promptOrCommand } from "../extensions/slash-command.ts";
import { errorText } from "../protocol/error-text.ts";
import { toWireMessage } from "../protocol/messages.ts";
import { RPC_PROTOCOL_VERSION, type RpcCommand, type RpcCommandType } from "../protocol/rpc-frames.ts";
import { VERSION } from "../version.ts";
import { getModels, setModel } from "./rpc-models.ts";
import { setReasoning } from "./rpc-reasoning.ts";
import { type Answer, busyError, type Handler, LATER, responseTo, type RpcSession, startTurn } from "./rpc-session.ts";
import { exportSession, forkSession, importSession, listSessions, resumeSession, sessionTree } from "./rpc-sessions.ts";
import { extensionCommands, getCommands, reloadExtensions, runCommand } from "./rpc-slash-commands.ts";

export const hello: Handler<"hello"> = (_command, session) => {
  const { model } = session.runtime.agent;
  return { data: { protocol_version: RPC_PROTOCOL_VERSION, version: VERSION, provider: model.provider, model: model.id } };
};

const HANDLERS: { [T in RpcCommandType]: Handler<T> } = {
  hello,
  prompt(command, session) {
    const images = command.images ?? [];
    if (command.message.trim() === "" && images.length === 0) {
      return { error: 'prompt: give a "message", "images", or both' };
    }
    const { agent } = session.runtime;
    // A registered extension command (`/weather berlin`) runs as it does in --json (a display answer
    // is also an ext_display event).
    startTurn(
      session,
      (signal) => promptOrCommand(agent, extensionCommands(session), { text: command.message, images }, signal),
      () => session.send(responseTo(command, { data: { started: true } })),
    );
    return LATER;
  },
  abort(_command, session) {
    session.queue.abort();
    return { data: undefined };
  },
  compact(command, session) {
    const { agent } = session.runtime;
    const instructions = command.instructions?.trim();
    startTurn(
      session,
      (signal) => agent.compact(signal, instructions ? { instructions } : {}),
      () => session.send(responseTo(command, { data: { started: true } })),
    );
    return LATER;
  },
  get_state(_command, session) {
    const { agent } = session.runtime;
    return {
      data: {
        provider: agent.model.provider,
        model: agent.model.id,
        cwd: agent.cwd,
        message_count: agent.messages.length,
        busy: session.queue.busy,
        queued: session.queue.queued,
        usage: agent.cumulative,
        context: agent.contextUse(),
        session: session.runtime.session ?? null,
      },
    };
  },
  get_messages: (_command, session) => ({ data: { messages: session.runtime.agent.messages.map(toWireMessage) } }),
  clear(_command, session) {
    const busy = busyError(session, "clear");
    if (busy) return { error: busy };
    session.runtime.agent.clear();
    return { data: undefined };
  },
  set_model: setModel,
  get_models: getModels,
  ping: () => ({ data: { pong: true } }),
  set_reasoning: setReasoning,
  get_commands: getCommands,
  run_command: runCommand,
  reload_extensions: reloadExtensions,
  list_sessions: listSessions,
  session_tree: sessionTree,
  fork_session: forkSession,
  export_session: exportSession,
  import_session: importSession,
  resume_session: resumeSession,
};

/**
 * Runs one command. Resolves once it is answered, or handed to the queue (which answers when the
 * work starts); a handler that throws is answered with its error.
 */
export async function dispatch(command: RpcCommand, session: RpcSession): Promise<void> {
  const handler = HANDLERS[command.type] as Handler<RpcCommandType>;
  let answer: Answer<RpcCommandType> | typeof LATER;
  try {
    const result = handler(command as never, session);
    answer = result instanceof Promise ? await result : result;
  } catch (error) {
    answer = { error: `${command.type}: ${errorText(error)}` };
  }
  if (answer !== LATER) session.send(responseTo(command, answer));
}
