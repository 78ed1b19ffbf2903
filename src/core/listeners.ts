// A set of subscribers to one kind of thing the agent reports (its events, appended messages, tool
// steps, compactions). Rule: subscribing returns what unsubscribes; a value reaches every listener
// subscribed when it is fired, in the order they subscribed.
import { noFTL } from "bun:jsc";

export type Listener<T> = (value: T) => void;

export class Listeners<T> {
  private readonly set = new Set<Listener<T>>();

  /** Subscribes; returns the unsubscribe function. */
  add(listener: Listener<T>): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  fire(value: T): void {
    for (const listener of this.set) listener(value);
  }
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(Listeners.prototype.fire);
