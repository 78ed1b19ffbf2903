// What every `zot rpc` command handler works with: the conversation, the way to answer, and the
// signal of the server's end. Rule: a handler answers each command exactly once: now (data or an
// error sentence), or LATER when the work it queued starts (a prompt's or compaction's `started`).
import type { Conversation } from "../conversation/conversation.ts";
import type { RpcConfirmations } from "./rpc-confirm.ts";
import type { RpcCommand, RpcCommandOf, RpcCommandType, RpcDataOf, RpcResponse } from "../protocol/rpc-frames.ts";

export interface RpcSession {
  conversation: Conversation;
  /** the client as the one who confirms tool calls, once it says in hello that it answers */
  confirmations: RpcConfirmations;
  /** aborted when the server shuts down (a signal, stdout closed, stdin closed and the work done): work outside the queue stops too */
  closing: AbortSignal;
  /** writes one response line */
  send(response: RpcResponse): void;
}

/** A handler's answer: data for a success (undefined for commands without data), or an error sentence. */
export type Answer<T extends RpcCommandType> = { data: RpcDataOf<T> } | { error: string };

/** The handler answers later itself (a queued turn answers when it starts). */
export const LATER = Symbol("answered later");

export type Handler<T extends RpcCommandType> = (
  command: RpcCommandOf<T>,
  session: RpcSession,
) => Answer<T> | typeof LATER | Promise<Answer<T> | typeof LATER>;

export function responseTo<T extends RpcCommandType>(command: RpcCommandOf<T> | RpcCommand, answer: Answer<T>): RpcResponse {
  const id = command.id !== undefined ? { id: command.id } : {};
  if ("error" in answer) return { type: "response", ...id, command: command.type, success: false, error: answer.error };
  return { type: "response", ...id, command: command.type, success: true, ...(answer.data !== undefined ? { data: answer.data } : {}) };
}

/** What answers a command when its work starts: the response is sent right before the work's first event. */
export function answerOnStart<T extends RpcCommandType>(session: RpcSession, command: RpcCommandOf<T>, answer: Answer<T>): () => void {
  return () => session.send(responseTo(command, answer));
}
