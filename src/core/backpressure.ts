// Holding the agent's producers back for a consumer of its events that cannot keep up (rpc's or
// --json's stdout not drained): while a pressure says wait, the model stream is not read and a
// tool's output is not taken. Rule: an abort never waits for a reader that may never read again.
import { untilAborted } from "../protocol/until-aborted.ts";

export type Pressure = () => Promise<void> | undefined;

export class Backpressure {
  private readonly pressures = new Set<Pressure>();

  /** Adds a pressure: it returns a promise to wait for, or undefined to go on. Returns what removes it. */
  add(pressure: Pressure): () => void {
    this.pressures.add(pressure);
    return () => this.pressures.delete(pressure);
  }

  /** What the producers wait for before making more events, or undefined (the usual case). */
  wait(signal: AbortSignal): Promise<void> | undefined {
    const waits: Promise<void>[] = [];
    for (const pressure of this.pressures) {
      const wait = pressure();
      if (wait) waits.push(wait);
    }
    if (waits.length === 0) return undefined;
    return untilAborted(Promise.all(waits), signal);
  }
}
