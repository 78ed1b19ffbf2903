// `zot rpc`'s session commands (additive to the original protocol): list_sessions, session_tree,
// fork_session, export_session, import_session and resume_session, over the conversation's session
// operations. Rule: what only reads or adds files (list, tree, export, import, a fork while no
// session is recorded) is answered at once, even while a turn streams; what changes this process's
// transcript (resume_session, a fork it switches to) is refused while a turn runs or waits, and
// runs as queued work so no turn starts meanwhile.
import { resolve } from "node:path";
import { realpathSync } from "node:fs";
import type { SessionNode, SessionSummary } from "../conversation/conversation.ts";
import { errorText } from "../protocol/error-text.ts";
import type { RpcDataOf, SessionTreeNode } from "../protocol/rpc-frames.ts";
import type { Handler, RpcSession } from "./rpc-session.ts";

export const listSessions: Handler<"list_sessions"> = async (_command, session) => {
  const { sessions, problems } = await session.conversation.sessions.list();
  return { data: { sessions: sessions.map((s) => entryOf(s, session)), problems } };
};

export const sessionTree: Handler<"session_tree"> = async (_command, session) => {
  const { roots, problems } = await session.conversation.sessions.tree();
  const nodeOf = (node: SessionNode): SessionTreeNode => ({ ...entryOf(node.session, session), children: node.children.map(nodeOf) });
  return { data: { roots: roots.map(nodeOf), problems } };
};

/**
 * A fork of a session (default: this process's) up to a user turn. While this process records a
 * session the fork becomes it, as a branch checked out; otherwise the fork is only written.
 */
export const forkSession: Handler<"fork_session"> = async (command, session) => {
  try {
    // Found when the fork runs: behind a switch sent before it, the source is what that switched to.
    const { fork, switched, notes } = await session.conversation.sessions.fork(() => sourceFile(session, command.session), command.at);
    const data: RpcDataOf<"fork_session"> = { id: fork.id, file: fork.file, parent: fork.parent, at: fork.turn, turns: fork.turns, messages: fork.messages, switched, notes };
    return { data };
  } catch (error) {
    // The fork speaks the command line's flag; here the field is `at`.
    const message = errorText(error);
    if (message.startsWith("--at ")) throw new Error(message.replace(/^--at /, '"at" '));
    throw inRpcWords(error);
  }
};

export const exportSession: Handler<"export_session"> = async (command, session) => {
  const source = await sourceFile(session, command.session);
  try {
    const { file, problems } = await session.conversation.sessions.export(source, command.path, { force: command.force === true });
    return { data: { file, problems } };
  } catch (error) {
    throw inRpcWords(error);
  }
};

export const importSession: Handler<"import_session"> = async (command, session) => ({ data: await session.conversation.sessions.import(command.path) });

/** Makes a session this process's: its transcript, model and usage; from then on it is recorded. */
export const resumeSession: Handler<"resume_session"> = async (command, session) => {
  const { conversation } = session;
  let already: string | undefined;
  // The session is found when the switch runs, in order behind what was sent before it.
  let notes: string[] | undefined;
  try {
    notes = await conversation.sessions.resume(async () => {
      const file = await sourceFile(session, command.session);
      const current = conversation.session;
      // The same file by whatever path (a $ZOT_HOME behind a link): compared where the paths lead.
      if (!current || leadsTo(current.file) !== leadsTo(file)) return file;
      already = current.id;
      return undefined;
    });
  } catch (error) {
    throw inRpcWords(error);
  }
  return { data: resumeData(session, notes ?? [`session ${already} is this process's session already`]) };
};

/** Where a path leads (itself when it leads nowhere). */
function leadsTo(file: string): string {
  try {
    return realpathSync(resolve(file));
  } catch {
    return resolve(file);
  }
}

/** A session error as an rpc client acts on it: the commands and fields it sends, not the command line's. */
function inRpcWords(error: unknown): unknown {
  const message = errorText(error);
  const rpc = message
    .replace("pass --force to overwrite it", 'send "force": true to overwrite it')
    .replace(/zot sessions import (\S+)/g, (_, file: string) => `import_session {"path": ${JSON.stringify(file.replace(/[),]+$/, ""))}}`)
    // A process's directory is fixed once it runs: the client starts one there instead.
    .replace(/run zot there, or pass --cwd (.+)$/, (_, dir: string) => `start zot rpc in ${dir} (its working directory, or --cwd ${dir}) to resume it`);
  return rpc === message ? error : Object.assign(new Error(rpc), { code: (error as { code?: unknown }).code });
}

function entryOf(summary: SessionSummary, session: RpcSession): RpcDataOf<"list_sessions">["sessions"][number] {
  const { cwd: _cwd, ...entry } = summary;
  return { ...entry, current: summary.id === session.conversation.session?.id };
}

/** The file a command means: the session it names (a path relative to the process's cwd), else this process's own. */
async function sourceFile(session: RpcSession, ref: string | undefined): Promise<string> {
  const { sessions } = session.conversation;
  if (ref !== undefined) return await sessions.find(ref);
  const current = sessions.current;
  if (!current) {
    throw new Error(
      'this process records no session, so name one with "session" (list_sessions lists them), or start zot rpc with --session or --continue',
    );
  }
  if (!sessions.recorded) throw new Error(`this process's session ${current.id} has nothing recorded yet; send a prompt first`);
  return current.file;
}

function resumeData(session: RpcSession, notes: string[]): RpcDataOf<"resume_session"> {
  const { conversation } = session;
  const state = conversation.state();
  return {
    session: conversation.session!,
    provider: state.provider,
    model: state.model,
    message_count: state.message_count,
    usage: state.usage,
    notes,
  };
}
