// The NDJSON writer against a reader that stops taking lines: the backlog is counted and
// pressure() holds producers back until the reader catches up (or goes away).
import { expect, test } from "bun:test";
import type { FileSink } from "bun";
import { HIGH_WATER_BYTES, NdjsonWriter } from "../../src/modes/ndjson-writer.ts";

/** A sink whose reader takes nothing until drain(): every write and flush waits. */
function stalledSink() {
  let waiting: { resolve: (n: number) => void; reject: (e: Error) => void }[] = [];
  const pending = () =>
    new Promise<number>((resolve, reject) => {
      waiting.push({ resolve, reject });
    });
  const sink = {
    write: (chunk: string) => (chunk.length > 0 ? pending() : 0),
    flush: () => pending(),
    end: () => 0,
  } as unknown as FileSink;
  return {
    sink,
    drain() {
      const all = waiting;
      waiting = [];
      for (const w of all) w.resolve(0);
    },
    breakPipe() {
      const all = waiting;
      waiting = [];
      for (const w of all) w.reject(new Error("EPIPE"));
    },
  };
}

const line = { type: "text_delta", delta: "x".repeat(10_000) };

test("under the high-water mark nothing waits; over it producers wait until the reader took the backlog", async () => {
  const { sink, drain } = stalledSink();
  const writer = new NdjsonWriter(sink);
  writer.write(line);
  expect(writer.pressure()).toBeUndefined();
  while (writer.backlogBytes <= HIGH_WATER_BYTES) writer.write(line);
  const pressure = writer.pressure();
  expect(pressure).toBeInstanceOf(Promise);
  let released = false;
  void pressure?.then(() => (released = true));
  await Bun.sleep(10);
  expect(released).toBe(false);
  drain();
  await pressure;
  expect(writer.backlogBytes).toBe(0);
  expect(writer.pressure()).toBeUndefined();
});

test("a reader that went away releases everyone waiting, and says so once", async () => {
  const { sink, breakPipe } = stalledSink();
  const gone: unknown[] = [];
  const writer = new NdjsonWriter(sink, (error) => gone.push(error));
  while (writer.backlogBytes <= HIGH_WATER_BYTES) writer.write(line);
  const pressure = writer.pressure();
  breakPipe();
  await pressure;
  expect(gone).toHaveLength(1);
  expect(writer.pressure()).toBeUndefined();
});
