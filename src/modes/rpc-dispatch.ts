// `zot rpc`'s commands: one handler per command type, and the dispatch that answers each command
// exactly once. Rule: only turns (prompt, compact) and what changes the transcript, the model, the
// reasoning level or the extensions (clear, set_model, set_reasoning, reload_extensions, a session
// switch) wait in the conversation's queue, the latter only behind one another (a client's
// back-to-back set_model, set_reasoning, clear are done in order) and refused with "agent is busy"
// while a turn runs or waits; every other command is answered at once, even while a turn streams.
import { ZotBusyError } from "../conversation/conversation.ts";
import { errorText } from "../protocol/error-text.ts";
import { imagesIssue } from "../protocol/image-input.ts";
import { toWireMessage } from "../protocol/messages.ts";
import { RPC_PROTOCOL_VERSION, type RpcCommand, type RpcCommandType } from "../protocol/rpc-frames.ts";
import { VERSION } from "../version.ts";
import { getModels, setModel } from "./rpc-models.ts";
import { setReasoning } from "./rpc-reasoning.ts";
import { type Answer, answerOnStart, type Handler, LATER, responseTo, type RpcSession } from "./rpc-session.ts";
import { exportSession, forkSession, importSession, listSessions, resumeSession, sessionTree } from "./rpc-sessions.ts";
import { getCommands, reloadExtensions, runCommand } from "./rpc-slash-commands.ts";
import { getMcpServers, mcpReconnect } from "./rpc-mcp.ts";

export const hello: Handler<"hello"> = (command, session) => {
  const { model, guards } = session.conversation;
  // "confirm": true: the client answers confirm_request events, as the TUI's dialog would (for the
  // rest of the process: false does not take it back); `confirm` says whether it is asked now.
  if (command.confirm === true) guards.setConfirmer(session.confirmations.confirmer);
  const confirm = guards.asksSomeone;
  return {
    data: { protocol_version: RPC_PROTOCOL_VERSION, version: VERSION, provider: model.provider, model: model.id, ...(command.confirm !== undefined ? { confirm } : {}) },
  };
};

const HANDLERS: { [T in RpcCommandType]: Handler<T> } = {
  hello,
  prompt(command, session) {
    const images = command.images ?? [];
    if (command.message.trim() === "" && images.length === 0) {
      return { error: 'prompt: give a "message", "images", or both' };
    }
    // The frame's schema checked the type, size and encoding; the bytes must be that image too.
    const issue = imagesIssue(images);
    if (issue) return { error: `prompt: ${issue}` };
    // A registered extension command (`/weather berlin`) runs as it does in --json (a display answer
    // is also an ext_display event).
    // Its @files and @server:uri resources go with it, as in the TUI.
    void session.conversation.submit({ text: command.message, images }, { mentions: "sent", onStart: answerOnStart(session, command, { data: { started: true } }) });
    return LATER;
  },
  abort(_command, session) {
    session.conversation.abort();
    return { data: undefined };
  },
  compact(command, session) {
    void session.conversation.compact(command.instructions, { onStart: answerOnStart(session, command, { data: { started: true } }) });
    return LATER;
  },
  get_state: (_command, session) => ({ data: session.conversation.state() }),
  get_messages: (_command, session) => ({ data: { messages: session.conversation.messages.map(toWireMessage) } }),
  async clear(_command, session) {
    await session.conversation.clear();
    return { data: undefined };
  },
  set_model: setModel,
  get_models: getModels,
  ping: () => ({ data: { pong: true } }),
  set_reasoning: setReasoning,
  get_commands: getCommands,
  run_command: runCommand,
  reload_extensions: reloadExtensions,
  confirm: (command, session) => session.confirmations.answer(command),
  get_mcp_servers: getMcpServers,
  mcp_reconnect: mcpReconnect,
  list_sessions: listSessions,
  session_tree: sessionTree,
  fork_session: forkSession,
  export_session: exportSession,
  import_session: importSession,
  resume_session: resumeSession,
};

/**
 * Runs one command. Resolves once it is answered, or handed to the queue (which answers when the
 * work starts); a handler that throws is answered with its error (a busy refusal as it is worded).
 */
export async function dispatch(command: RpcCommand, session: RpcSession): Promise<void> {
  const handler = HANDLERS[command.type] as Handler<RpcCommandType>;
  let answer: Answer<RpcCommandType> | typeof LATER;
  try {
    const result = handler(command as never, session);
    answer = result instanceof Promise ? await result : result;
  } catch (error) {
    answer = { error: error instanceof ZotBusyError ? error.message : `${command.type}: ${errorText(error)}` };
  }
  if (answer !== LATER) session.send(responseTo(command, answer));
}
