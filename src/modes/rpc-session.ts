// What every `zot rpc` command handler works with: the runtime, the work queue, the way to answer,
// and the way to start a turn. Rule: a turn (prompt, compact, an extension command's prompt) always
// ends with `done` on the wire, whatever happened inside it.
import type { Agent } from "../core/agent.ts";
import { errorText } from "../protocol/error-text.ts";
import type { RpcCommand, RpcCommandOf, RpcCommandType, RpcDataOf, RpcResponse } from "../protocol/rpc-frames.ts";
import type { Runtime } from "../runtime.ts";
import type { WorkQueue } from "./rpc-queue.ts";

export interface RpcSession {
  runtime: Runtime;
  queue: WorkQueue;
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

/**
 * The error a command that changes the transcript, the model or the reasoning level gets while
 * turns run or wait (it is refused, not queued). It starts with "agent is busy", as the original's
 * does, so clients written for it recognise it; the rest says what runs and what to do.
 */
export function busyError(session: RpcSession, what: string): string | undefined {
  const { busy, queued, runningCommand } = session.queue;
  if (!busy && queued === 0) return undefined;
  const more = queued ? ` and ${queued} more queued` : "";
  if (runningCommand) return `agent is busy: cannot ${what} while ${runningCommand} is in progress${more}; send it again once that has answered`;
  const state = busy ? `a prompt or compaction is running${more}` : `${queued} queued`;
  return `agent is busy: cannot ${what} while ${state}; send abort or wait for done`;
}

/**
 * Runs `work` in the queue without being a turn (no done): it starts at once when idle, and what
 * comes after it (a prompt sent right behind a set_model) waits for it. Rejects once the server is closing.
 */
export function runQueued<T>(session: RpcSession, command: string, work: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const accepted = session.queue.enqueue(() => work().then(resolve, reject), command);
    if (!accepted) reject(new Error("the server is shutting down"));
  });
}

/**
 * Queues a turn. `onStart` runs when it starts (the `started` response), before its first event;
 * `done` ends it on the wire even when the work threw or never reached the agent's own `done`.
 */
export function startTurn(session: RpcSession, work: (signal: AbortSignal) => Promise<unknown>, onStart?: () => void): void {
  session.queue.enqueue(async (signal) => {
    onStart?.();
    await endWithDone(session.runtime.agent, () => work(signal));
  });
}

async function endWithDone(agent: Agent, work: () => Promise<unknown>): Promise<void> {
  let done = false;
  const off = agent.onEvent((event) => {
    if (event.type === "done") done = true;
  });
  try {
    await work();
  } catch (error) {
    agent.emit({ type: "error", message: errorText(error), code: "internal" });
  } finally {
    off();
  }
  if (!done) agent.emit({ type: "done" });
}
