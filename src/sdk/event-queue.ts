// A push-to-pull bridge: a producer pushes values as they happen, one consumer reads them with
// `for await`. The SDKs hand their event streams out through it.
// Rule: this file imports nothing (the RPC client is bundled for Node from it), and nothing pushed
// is lost: values wait in memory until read, so a consumer that never reads should not subscribe.

/** A single-consumer async iterable fed by push(); ends with end(), or fails with end(error). */
export class EventQueue<T> implements AsyncIterable<T> {
  private readonly buffered: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private failWaiting: ((error: unknown) => void) | undefined;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private iterated = false;

  /** Called once when the consumer stops early (break, return) or the queue ends. */
  constructor(private readonly onClose: () => void = () => {}) {}

  push(value: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.clearWaiting();
      resolve({ value, done: false });
    } else {
      this.buffered.push(value);
    }
  }

  /** No more values: the consumer reads what is buffered, then stops (or gets `error`, if given). */
  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    if (error !== undefined) this.failure = { error };
    this.onClose();
    if (this.buffered.length > 0 || !this.waiting) return;
    // A reader is waiting, so nothing is buffered: it gets the end (or the failure) now.
    const resolve = this.waiting;
    const reject = this.failWaiting;
    this.clearWaiting();
    const failure = this.failure;
    this.failure = undefined;
    if (failure) reject?.(failure.error);
    else resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.iterated) throw new Error("this event stream has one reader; it is already being read");
    this.iterated = true;
    return {
      next: () => this.next(),
      return: async () => {
        this.buffered.length = 0;
        this.end();
        return { value: undefined, done: true };
      },
    };
  }

  private next(): Promise<IteratorResult<T>> {
    if (this.buffered.length > 0) return Promise.resolve({ value: this.buffered.shift() as T, done: false });
    if (this.failure) {
      const { error } = this.failure;
      // The failure is reported once; the stream is over after it.
      this.failure = undefined;
      return Promise.reject(error);
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failWaiting = reject;
    });
  }

  private clearWaiting(): void {
    this.waiting = undefined;
    this.failWaiting = undefined;
  }
}
