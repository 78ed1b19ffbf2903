// The work of `zot rpc` that must not overlap (prompts, compactions, an extension reload, a model switch): one
// item at a time, in the order they came. Rule: abort reaches only the running item; the queued
// ones still run, unless the queue is closed (the server stopping: a signal, stdout closed).
import { errorText } from "../protocol/error-text.ts";

export type Work = (signal: AbortSignal) => Promise<void>;

export class WorkQueue {
  private running: { controller: AbortController; done: Promise<void>; command?: string } | undefined;
  private waiting: { work: Work; command?: string }[] = [];
  private closed = false;

  /** `log` hears what an item threw (an item is expected to report its own failures). */
  constructor(private readonly log: (message: string) => void) {}

  /** an item is running */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** the running item when it is a command's work rather than a turn (no done ends it): "set_model" … */
  get runningCommand(): string | undefined {
    return this.running?.command;
  }

  /** items waiting their turn */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Runs `work` now when idle, else after everything queued before it; never once closed (then false).
   * `command` names work that is not a turn (a model switch, a reload), for the busy error.
   */
  enqueue(work: Work, command?: string): boolean {
    if (this.closed) return false;
    this.waiting.push({ work, command });
    if (!this.running) this.next();
    return true;
  }

  /** Aborts the running item, if any. */
  abort(reason = "aborted"): void {
    this.running?.controller.abort(new Error(reason));
  }

  /** Forgets every queued item and takes no more (the running one goes on until it ends or is aborted). */
  close(): void {
    this.closed = true;
    this.waiting = [];
  }

  /** Resolves when nothing runs any more (after close(), for good). */
  async idle(): Promise<void> {
    while (this.running) await this.running.done;
  }

  private next(): void {
    const item = this.waiting.shift();
    if (!item) return;
    const { work, command } = item;
    // Busy from the item's first synchronous step on.
    const running = { controller: new AbortController(), done: Promise.resolve(), command };
    this.running = running;
    running.done = (async () => work(running.controller.signal))()
      .catch((error: unknown) => this.log(`rpc: ${errorText(error)}`))
      .finally(() => {
        this.running = undefined;
        this.next();
      });
  }
}
