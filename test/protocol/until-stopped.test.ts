// untilStopped: the work's value, or undefined once the stop comes first; and, unlike
// Promise.race([work, stopped]) with a stop that stays pending for a whole session, nothing of a
// finished wait (the value it settled with) stays reachable from the stop.
import { expect, test } from "bun:test";
import { untilStopped } from "../../src/protocol/until-stopped.ts";

test("the work's value; undefined when the stop comes first, or came before; a failure of the work is thrown", async () => {
  const stop = new AbortController();
  expect(await untilStopped(Promise.resolve(7), stop.signal)).toBe(7);
  const never = untilStopped(new Promise<number>(() => {}), stop.signal);
  stop.abort();
  expect(await never).toBeUndefined();
  expect(await untilStopped(Promise.resolve(8), stop.signal)).toBeUndefined();
  await expect(untilStopped(Promise.reject(new Error("boom")), new AbortController().signal)).rejects.toThrow("boom");
});

test("values of finished waits are not kept alive by a stop that never comes", async () => {
  const stop = new AbortController();
  let collected = 0;
  const registry = new FinalizationRegistry(() => collected++);
  const wait = async () => {
    // a chunk of stdin, as rpc reads it
    const chunk = new Uint8Array(1024);
    registry.register(chunk, "chunk");
    await untilStopped(Promise.resolve(chunk), stop.signal);
  };
  for (let i = 0; i < 2000; i++) await wait();
  for (let round = 0; round < 10 && collected < 1000; round++) {
    Bun.gc(true);
    await Bun.sleep(10);
  }
  expect(collected).toBeGreaterThan(1000);
});
