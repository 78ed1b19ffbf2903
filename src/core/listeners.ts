// The subscribers to one kind of thing the agent reports (its events, appended messages, tool
// steps, compactions). Rule: subscribing returns what unsubscribes; a value reaches every listener
// subscribed when it is fired, in the order they subscribed, as Node's EventEmitter does: one that
// subscribes while a value is being fired hears from the next value on, and one that unsubscribes
// meanwhile still hears the value being fired. The list is copied when it changes, not when a
// value is fired (a long answer fires tens of thousands of deltas).
import { noFTL } from "bun:jsc";

export type Listener<T> = (value: T) => void;

export class Listeners<T> {
  private list: readonly Listener<T>[] = [];

  /** Subscribes (once, however often it is added); returns the unsubscribe function. */
  add(listener: Listener<T>): () => void {
    if (!this.list.includes(listener)) this.list = [...this.list, listener];
    return () => {
      this.list = this.list.filter((each) => each !== listener);
    };
  }

  fire(value: T): void {
    const list = this.list;
    for (let i = 0; i < list.length; i++) list[i]!(value);
  }
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(Listeners.prototype.fire);
