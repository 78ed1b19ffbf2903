// The conversation's work that must not overlap (prompts, compactions, a model switch, an extension
// reload, a session switch, the TUI's `!command`): one item at a time, in the order it came.
// Rule: abort reaches only the running item; the queued ones still run unless the queue is cleared
// (the TUI's Esc) or closed (the end of the run), and an item dropped so is told, never left hanging.
import { Listeners } from "../core/listeners.ts";
import { errorText } from "../protocol/error-text.ts";

export interface Work {
  /** a turn (a prompt or a compaction: its events end with `done`), or an operation (none) */
  kind: "turn" | "operation";
  /** what it is, for the busy error and a front end's status: "a model switch", "a prompt" */
  label: string;
  /** a queued prompt as a front end lists it: its text and the extension that sent it */
  text?: string;
  from?: string;
  run(signal: AbortSignal): Promise<void>;
  /** called once it is no longer running (the queue is not busy with it any more) */
  after?(): void;
  /** called instead of run when it is dropped from the queue before it started */
  drop?(): void;
}

export class WorkQueue {
  private running: { work: Work; controller: AbortController; done: Promise<void> } | undefined;
  /** between an item's end and the next one's start */
  private gap: Promise<void> | undefined;
  private waiting: Work[] = [];
  private closed = false;
  private readonly changes = new Listeners<void>();

  /** `log` hears what an item threw (an item is expected to report its own failures). */
  constructor(private readonly log: (message: string) => void) {}

  /** an item is running (or about to start after the one that just ended) */
  get busy(): boolean {
    return this.running !== undefined || this.gap !== undefined;
  }

  /** the running item */
  get current(): Work | undefined {
    return this.running?.work;
  }

  /** items waiting their turn, in order */
  get queued(): readonly Work[] {
    return this.waiting;
  }

  /** Hears every change: an item queued, started, finished or dropped. Returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    return this.changes.add(listener);
  }

  /** Runs `work` now when idle, else after everything queued before it; never once closed (then false). */
  enqueue(work: Work): boolean {
    if (this.closed) return false;
    this.waiting.push(work);
    if (!this.busy) this.next();
    else this.changed();
    return true;
  }

  /** Aborts the running item, if any. */
  abort(reason = "aborted"): void {
    this.running?.controller.abort(new Error(reason));
  }

  /** Takes one waiting item out of the queue, unrun and untold (false: it runs, ran, or was never queued). */
  withdraw(work: Work): boolean {
    const at = this.waiting.indexOf(work);
    if (at === -1) return false;
    this.waiting.splice(at, 1);
    this.changed();
    return true;
  }

  /** Drops every queued item (the running one goes on until it ends or is aborted). */
  clear(): void {
    const dropped = this.waiting;
    this.waiting = [];
    for (const work of dropped) work.drop?.();
    if (dropped.length > 0) this.changed();
  }

  /** Drops the queued items and takes no more. */
  close(): void {
    this.closed = true;
    this.clear();
  }

  /** Resolves when nothing runs and nothing waits any more. */
  async idle(): Promise<void> {
    for (;;) {
      const wait = this.running?.done ?? this.gap;
      if (!wait) return;
      await wait;
    }
  }

  private next(): void {
    const work = this.waiting.shift();
    if (!work) return this.changed();
    // Busy from the item's first synchronous step on.
    const running = { work, controller: new AbortController(), done: Promise.resolve() };
    this.running = running;
    this.changed();
    running.done = (async () => work.run(running.controller.signal))()
      .catch((error: unknown) => this.log(errorText(error)))
      .finally(() => {
        this.running = undefined;
        work.after?.();
        this.startNextLater();
      });
  }

  /**
   * After an item ends, the next starts on the next turn of the event loop (busy meanwhile), so
   * whatever answers the item that ended (a continuation of its promise: rpc's response to a model
   * switch) goes out before the next one starts; a clear meanwhile still drops it.
   */
  private startNextLater(): void {
    if (this.waiting.length === 0) return this.changed();
    this.changed();
    this.gap = new Promise((resolve) =>
      setImmediate(() => {
        this.gap = undefined;
        this.next();
        resolve();
      }),
    );
  }

  private changed(): void {
    this.changes.fire();
  }
}
