// `zot rpc`'s session commands (additive to the original protocol): list_sessions, session_tree,
// fork_session, export_session, import_session and resume_session, over the functions of
// src/session/. Rule: what only reads or adds files (list, tree, export, import, a fork while no
// session is recorded) is answered at once, even while a turn streams; what changes this process's
// transcript (resume_session, a fork it switches to) is refused while a turn runs or waits, and
// runs as queued work so no turn starts meanwhile.
import { existsSync } from "node:fs";
import os from "node:os";
import { resolve } from "node:path";
import { UsageError } from "../config/usage-error.ts";
import { errorText } from "../protocol/error-text.ts";
import type { RpcCommand, RpcCommandOf, RpcDataOf, SessionTreeNode } from "../protocol/rpc-frames.ts";
import { findSession, looksLikePath } from "../session/find.ts";
import { forkSession as forkFile, type ForkResult } from "../session/fork.ts";
import { listSessions as listFiles, type SessionSummary } from "../session/list.ts";
import { exportSession as exportFile, importSession as importFile } from "../session/portable.ts";
import { type SessionNode, sessionForest } from "../session/tree.ts";
import { type Answer, busyError, type Handler, LATER, responseTo, type RpcSession } from "./rpc-session.ts";

export const listSessions: Handler<"list_sessions"> = (_command, session) => {
  const { sessions, problems } = listFiles(session.runtime.home, session.runtime.agent.cwd);
  return { data: { sessions: sessions.map((s) => entryOf(s, session)), problems } };
};

export const sessionTree: Handler<"session_tree"> = (_command, session) => {
  const { sessions, problems } = listFiles(session.runtime.home, session.runtime.agent.cwd);
  const nodeOf = (node: SessionNode): SessionTreeNode => ({ ...entryOf(node.session, session), children: node.children.map(nodeOf) });
  return { data: { roots: sessionForest(sessions).map(nodeOf), problems } };
};

/**
 * A fork of a session (default: this process's) up to a user turn. While this process records a
 * session the fork becomes it, as a branch checked out; otherwise the fork is only written.
 */
export const forkSession: Handler<"fork_session"> = (command, session) => {
  const { runtime } = session;
  const source = sourceFile(session, command.session);
  const fork = () => forkAt(source, runtime.home, command.at);
  if (!runtime.session) return { data: forkData(fork(), false, []) };
  const busy = busyError(session, "fork this process's session (the fork becomes it)");
  if (busy) return { error: busy };
  return queued(session, command, async () => {
    const made = fork();
    const notes = await runtime.switchSession({ kind: "open", ref: made.file });
    return { data: forkData(made, true, notes) };
  });
};

export const exportSession: Handler<"export_session"> = (command, session) => {
  const source = sourceFile(session, command.session);
  const { file, problems } = exportFile(source, {
    dest: command.path,
    here: session.runtime.agent.cwd,
    userHome: os.homedir(),
    force: command.force === true,
  });
  return { data: { file, problems } };
};

export const importSession: Handler<"import_session"> = (command, session) => {
  const { home, agent } = session.runtime;
  const { id, file, problems } = importFile(resolve(agent.cwd, command.path), { home, cwd: agent.cwd, userHome: os.homedir() });
  return { data: { id, file, problems } };
};

/** Makes a session this process's: its transcript, model and usage; from then on it is recorded. */
export const resumeSession: Handler<"resume_session"> = (command, session) => {
  const busy = busyError(session, "resume a session");
  if (busy) return { error: busy };
  const file = sourceFile(session, command.session);
  const current = session.runtime.session;
  if (current && resolve(current.file) === resolve(file)) {
    return { data: resumeData(session, [`session ${current.id} is this process's session already`]) };
  }
  return queued(session, command, async () => ({ data: resumeData(session, await session.runtime.switchSession({ kind: "open", ref: file })) }));
};

function entryOf(summary: SessionSummary, session: RpcSession): RpcDataOf<"list_sessions">["sessions"][number] {
  const { cwd: _cwd, ...entry } = summary;
  return { ...entry, current: summary.id === session.runtime.session?.id };
}

/** The file a command means: the session it names (a path relative to the process's cwd), else this process's own. */
function sourceFile(session: RpcSession, ref: string | undefined): string {
  const { home, agent } = session.runtime;
  if (ref !== undefined) return findSession(home, agent.cwd, looksLikePath(ref) ? resolve(agent.cwd, ref) : ref).file;
  const current = session.runtime.session;
  if (!current) {
    throw new UsageError(
      'this process records no session, so name one with "session" (list_sessions lists them), or start zot rpc with --session or --continue',
    );
  }
  if (!existsSync(current.file)) throw new UsageError(`this process's session ${current.id} has nothing recorded yet; send a prompt first`);
  return current.file;
}

function forkAt(source: string, home: string, at: number | undefined): ForkResult {
  try {
    return forkFile(source, { home, atTurn: at });
  } catch (error) {
    // fork.ts speaks the command line's flag; here the field is `at`.
    if (error instanceof UsageError) throw new UsageError(error.message.replace(/^--at /, '"at" '));
    throw error;
  }
}

function forkData(fork: ForkResult, switched: boolean, notes: string[]): RpcDataOf<"fork_session"> {
  return { id: fork.id, file: fork.file, parent: fork.parent, at: fork.turn, turns: fork.turns, messages: fork.messages, switched, notes };
}

function resumeData(session: RpcSession, notes: string[]): RpcDataOf<"resume_session"> {
  const { agent } = session.runtime;
  return {
    session: session.runtime.session!,
    provider: agent.model.provider,
    model: agent.model.id,
    message_count: agent.messages.length,
    usage: agent.cumulative,
    notes,
  };
}

/** Runs `work` as queued work (the queue is idle: the caller checked) and answers when it ends. */
function queued<T extends "fork_session" | "resume_session">(
  session: RpcSession,
  command: RpcCommandOf<T>,
  work: () => Promise<Answer<T>>,
): typeof LATER {
  session.queue.enqueue(async () => {
    let answer: Answer<T>;
    try {
      answer = await work();
    } catch (error) {
      answer = { error: `${(command as RpcCommand).type}: ${errorText(error)}` };
    }
    session.send(responseTo(command, answer));
  }, (command as RpcCommand).type);
  return LATER;
}
