// Refusing what must wait for an idle conversation: a prompt or compaction under the "refuse" policy
// (the SDK), and, under any policy, what would change the transcript, the model or the extensions
// under a running or queued turn's feet (clear, a model or reasoning switch, a session switch);
// behind another such change (a model switch still running) these wait their turn instead.
// Rule: the sentence starts with "agent is busy", as the original's does (clients match on it),
// says what runs, and ends with what the front end's user can do about it.
import type { WorkQueue } from "./work-queue.ts";

/** How a front end tells its user to get past a busy conversation. */
export interface BusyWording {
  /** while a prompt or compaction runs or waits: "send abort or wait for done" */
  turn: string;
  /** while an operation (a model switch, a reload) runs: "send it again once that has answered" */
  operation: string;
}

/** rpc's words; the default. */
export const RPC_BUSY_WORDING: BusyWording = {
  turn: "send abort or wait for done",
  operation: "send it again once that has answered",
};

/** Something was asked of a conversation that is busy; the message says what runs and what to do. */
export class ZotBusyError extends Error {
  override readonly name = "ZotBusyError";
}

/** The refusal of `what` while the queue runs or holds work, or undefined when it is idle. */
export function busyMessage(queue: WorkQueue, what: string, wording: BusyWording): string | undefined {
  const current = queue.current;
  const queued = queue.queued.length;
  if (!current && queued === 0) return undefined;
  const more = queued ? ` and ${queued} more queued` : "";
  if (current?.kind === "operation") {
    return `agent is busy: cannot ${what} while ${current.label} is in progress${more}; ${wording.operation}`;
  }
  const state = current ? `a prompt or compaction is running${more}` : `${queued} queued`;
  return `agent is busy: cannot ${what} while ${state}; ${wording.turn}`;
}

/**
 * The refusal of `what` while a prompt or compaction runs or waits, or undefined when none does:
 * an operation that runs or waits (a model switch) is no reason to refuse, what comes after it
 * waits its turn behind it.
 */
export function turnBusyMessage(queue: WorkQueue, what: string, wording: BusyWording): string | undefined {
  const running = queue.current?.kind === "turn";
  const queued = queue.queued.filter((work) => work.kind === "turn").length;
  if (!running && queued === 0) return undefined;
  const state = running ? `a prompt or compaction is running${queued ? ` and ${queued} more queued` : ""}` : `${queued} queued`;
  return `agent is busy: cannot ${what} while ${state}; ${wording.turn}`;
}
