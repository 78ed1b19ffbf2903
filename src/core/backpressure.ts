// Holding the agent's producers back for a consumer of its events that cannot keep up (rpc's or
// --json's stdout not drained): while a pressure says wait, the model stream is not read and a
// tool's output is not taken. Rule: an abort never waits for a reader that may never read again;
// asking while nothing presses allocates nothing (it is asked once per read of a model's stream).
import { untilAborted } from "../protocol/until-aborted.ts";

export type Pressure = () => Promise<void> | undefined;

export class Backpressure {
  private pressures: readonly Pressure[] = [];

  /** Adds a pressure: it returns a promise to wait for, or undefined to go on. Returns what removes it. */
  add(pressure: Pressure): () => void {
    this.pressures = [...this.pressures, pressure];
    return () => {
      this.pressures = this.pressures.filter((p) => p !== pressure);
    };
  }

  /** What the producers wait for before making more events, or undefined (the usual case). */
  wait(signal: AbortSignal): Promise<void> | undefined {
    let waits: Promise<void>[] | undefined;
    for (const pressure of this.pressures) {
      const wait = pressure();
      if (wait) (waits ??= []).push(wait);
    }
    if (!waits) return undefined;
    return untilAborted(waits.length === 1 ? waits[0] : Promise.all(waits), signal);
  }
}
