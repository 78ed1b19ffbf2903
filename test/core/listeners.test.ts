// Listeners: who hears a fired value, and in what order.
import { describe, expect, test } from "bun:test";
import { Listeners } from "../../src/core/listeners.ts";

describe("Listeners", () => {
  test("every subscriber hears each value, in the order they subscribed; unsubscribed ones no more", () => {
    const listeners = new Listeners<number>();
    const heard: string[] = [];
    const offA = listeners.add((n) => heard.push(`a${n}`));
    listeners.add((n) => heard.push(`b${n}`));
    listeners.fire(1);
    offA();
    listeners.fire(2);
    expect(heard).toEqual(["a1", "b1", "b2"]);
  });

  test("the same function added twice hears each value once", () => {
    const listeners = new Listeners<number>();
    const heard: number[] = [];
    const listener = (n: number) => heard.push(n);
    listeners.add(listener);
    listeners.add(listener);
    listeners.fire(7);
    expect(heard).toEqual([7]);
  });

  test("while a value is fired: a new subscriber hears from the next value on; one unsubscribed meanwhile still hears this one", () => {
    const listeners = new Listeners<number>();
    const heard: string[] = [];
    let offC: () => void = () => {};
    listeners.add((n) => {
      heard.push(`a${n}`);
      if (n === 1) {
        listeners.add((m) => heard.push(`late${m}`));
        offC();
      }
    });
    offC = listeners.add((n) => heard.push(`c${n}`));
    listeners.fire(1);
    listeners.fire(2);
    expect(heard).toEqual(["a1", "c1", "a2", "late2"]);
  });
});
