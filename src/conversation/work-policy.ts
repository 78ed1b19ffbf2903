// How a conversation takes work: units of work (a prompt, a compaction) queued behind what runs or
// refused while busy (the front end's choice), operations that change what a turn stands on (a model
// or session switch, a reload, clear) refused while a prompt or compaction runs or waits and else run
// in the queue, in the order they came (so a client's set_model, set_reasoning, clear sent back to
// back are done one after the other), and the front end's own queued tasks (the TUI's `!command`).
// Rule: every unit ends with `done` on the stream, exactly once, whatever happens inside it: the
// agent's own done for a prompt or compaction, this one's for a command that never reached the agent,
// after an `error` for anything thrown; a unit dropped from the queue is told, and has no events.
import type { PromptOutcome } from "../core/outcomes.ts";
import { errorText } from "../protocol/error-text.ts";
import { untilAborted } from "../protocol/until-aborted.ts";
import { type BusyWording, busyMessage, turnBusyMessage, ZotBusyError } from "./busy.ts";
import type { EventStream } from "./event-stream.ts";
import { type Work, WorkQueue } from "./work-queue.ts";

/** What happens to input while a unit of work runs: it waits its turn, or it is refused at once. */
export type BusyPolicy = "queue" | "refuse";

/** How a unit of work ended: a prompt's outcome, a command that failed, or never run (dropped from the queue). */
export type UnitOutcome = PromptOutcome | { status: "command_error"; message: string } | { status: "dropped" };

export interface UnitOptions {
  /** called when the unit starts (after those queued before it), before its first event */
  onStart?(): void;
  /** the extension that submitted it, named where the queue is shown */
  from?: string;
}

export class WorkPolicy {
  readonly queue: WorkQueue;

  constructor(
    private readonly policy: BusyPolicy,
    private readonly wording: BusyWording,
    /** the conversation's stream: a unit's missing `done` (and what it threw) is said on it */
    private readonly stream: EventStream,
    /** how many units the agent has ended with its own `done` so far */
    private readonly agentUnitsDone: () => number,
    /** hears what an operation threw that nobody awaited (a unit's failure is its error event) */
    log: (message: string) => void,
    /** told as a unit of work is taken, before it waits or runs: it will call the model (Runtime.workArrived) */
    private readonly unitTaken: () => void,
  ) {
    this.queue = new WorkQueue(log);
  }

  /** Throws ZotBusyError, saying what runs and what to do, unless nothing runs or waits. */
  refuseWhileBusy(what: string): void {
    const refusal = busyMessage(this.queue, what, this.wording);
    if (refusal) throw new ZotBusyError(refusal);
  }

  /** Throws ZotBusyError, saying what runs and what to do, while a prompt or compaction runs or waits. */
  refuseWhileTurns(what: string): void {
    const refusal = turnBusyMessage(this.queue, what, this.wording);
    if (refusal) throw new ZotBusyError(refusal);
  }

  /** Queues (or, under "refuse", refuses while busy) a unit of work that ends with done. */
  unit(label: string, text: string | undefined, options: UnitOptions, work: (signal: AbortSignal) => Promise<UnitOutcome>): Promise<UnitOutcome> {
    if (this.policy === "refuse") this.refuseWhileBusy("start another prompt or compaction");
    this.unitTaken();
    return new Promise((resolve) => {
      let outcome: UnitOutcome = { status: "dropped" };
      const accepted = this.queue.enqueue({
        kind: "turn",
        label,
        ...(text !== undefined ? { text } : {}),
        ...(options.from ? { from: options.from } : {}),
        run: async (signal) => {
          options.onStart?.();
          outcome = await this.endingWithDone(() => work(signal));
        },
        // Resolved once the queue is idle again, so what the caller does next is accepted.
        after: () => resolve(outcome),
        drop: () => resolve({ status: "dropped" }),
      });
      if (!accepted) resolve({ status: "dropped" });
    });
  }

  /**
   * A place in the queue held from now for a turn that may not come (an extension's command over
   * rpc's run_command, which answers while it runs). `decision` settles to the turn, or to none:
   * then the place is given up at once (nothing waits behind it any more); a turn runs in its place
   * as a unit does (onStart, its events, done). Resolves with the turn's outcome, or undefined.
   */
  heldUnit(label: string, options: UnitOptions, decision: Promise<((signal: AbortSignal) => Promise<UnitOutcome>) | undefined>): Promise<UnitOutcome | undefined> {
    if (this.policy === "refuse") this.refuseWhileBusy("start another prompt or compaction");
    this.unitTaken();
    const turn = decision.catch(() => undefined);
    return new Promise((resolve) => {
      let outcome: UnitOutcome | undefined;
      // Until the command answers it is no prompt: what is sent meanwhile (a model switch, clear) is
      // not refused as if one ran, and waits behind it; once it answers with a turn, it is one.
      const work: Work = {
        kind: "operation",
        label: "an extension's command",
        ...(options.from ? { from: options.from } : {}),
        run: async (signal) => {
          // An abort while it waits ends the wait at once: what comes after it is not held up.
          await untilAborted(turn, signal);
          const run = signal.aborted ? undefined : await turn;
          if (!run) return;
          work.kind = "turn";
          work.label = label;
          options.onStart?.();
          outcome = await this.endingWithDone(() => run(signal));
        },
        after: () => resolve(outcome),
        drop: () => resolve({ status: "dropped" }),
      };
      if (!this.queue.enqueue(work)) return resolve({ status: "dropped" });
      void turn.then((run) => {
        if (!run) {
          if (this.queue.withdraw(work)) resolve(undefined);
          return;
        }
        work.kind = "turn";
        work.label = label;
      });
    });
  }

  /**
   * Runs `work` as a queued operation: at once (its first step before this returns) when nothing
   * runs or waits, after the operations before it otherwise; refused (rejecting with ZotBusyError)
   * while a prompt or compaction runs or waits.
   */
  exclusive<T>(what: string, label: string, work: () => T | Promise<T>): Promise<T> {
    try {
      this.refuseWhileTurns(what);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<T>((resolve, reject) => {
      const stopped = () => reject(new Error("the conversation is ending; nothing more is run"));
      let settle = stopped;
      const accepted = this.queue.enqueue({
        kind: "operation",
        label,
        run: async () => {
          try {
            const value = await work();
            settle = () => resolve(value);
          } catch (error) {
            settle = () => reject(error);
          }
        },
        // Settled once the queue is idle again, so what the caller does next is accepted.
        after: () => settle(),
        drop: stopped,
      });
      if (!accepted) stopped();
    });
  }

  /**
   * A change that takes no time (clear, the reasoning level), in the order it came: done at once
   * when nothing runs or waits (the queue never sees it, so a prompt right after is not held up),
   * after the operations before it otherwise; refused while a prompt or compaction runs or waits.
   */
  inOrder<T>(what: string, label: string, work: () => T): Promise<T> {
    if (this.queue.busy || this.queue.queued.length > 0) return this.exclusive(what, label, work);
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Queues a front end's own task behind what runs; resolves with its result (undefined when it was dropped), or rejects with what it threw. */
  task<T>(label: string, text: string, work: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      let settle = () => resolve(undefined);
      const accepted = this.queue.enqueue({
        kind: "operation",
        label,
        text,
        run: (signal) =>
          work(signal).then(
            (value) => void (settle = () => resolve(value)),
            (error: unknown) => void (settle = () => reject(error)),
          ),
        after: () => settle(),
        drop: () => resolve(undefined),
      });
      if (!accepted) resolve(undefined);
    });
  }

  /** A unit the agent ran (a prompt, a compaction) ended with the agent's own done; any other gets the conversation's. */
  private async endingWithDone(work: () => Promise<UnitOutcome>): Promise<UnitOutcome> {
    const before = this.agentUnitsDone();
    let outcome: UnitOutcome;
    try {
      outcome = await work();
    } catch (error) {
      const message = errorText(error);
      this.stream.fire({ type: "error", message, code: "internal" });
      outcome = { status: "error", message, code: "internal" };
    }
    if (this.agentUnitsDone() === before) this.stream.fire({ type: "done" });
    return outcome;
  }
}
