// The NDJSON writer against a reader that stops taking lines: the backlog is counted and
// pressure() holds producers back until the reader catches up (or goes away).
import { expect, test } from "bun:test";
import type { FileSink } from "bun";
import { join } from "node:path";
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

/** A sink that takes everything at once and keeps each write. */
function recordingSink() {
  const writes: string[] = [];
  const sink = {
    write: (chunk: string) => (writes.push(chunk), chunk.length),
    flush: () => 0,
    end: () => 0,
  } as unknown as FileSink;
  return { sink, writes };
}

test("a burst of lines leaves in one write, in order, on the next macrotask", async () => {
  const { sink, writes } = recordingSink();
  const writer = new NdjsonWriter(sink);
  const events = Array.from({ length: 500 }, (_, i) => ({ type: "text_delta", delta: String(i) }));
  for (const event of events) writer.write(event);
  expect(writes).toEqual([]);
  // Not yet taken by anyone: counted as backlog already, so pressure sees a burst before it goes out.
  expect(writer.backlogBytes).toBe(events.reduce((n, e) => n + JSON.stringify(e).length + 1, 0));
  await new Promise((resolve) => setImmediate(resolve));
  expect(writes).toHaveLength(1);
  expect(writes[0]).toBe(events.map((e) => `${JSON.stringify(e)}\n`).join(""));
  expect(writer.backlogBytes).toBe(0);
});

test("a burst past 64 KiB goes out in pieces as it grows; close sends the rest; nothing lost or reordered", async () => {
  const { sink, writes } = recordingSink();
  const writer = new NdjsonWriter(sink);
  const events = Array.from({ length: 20_000 }, (_, i) => ({ type: "text_delta", delta: `d${i}` }));
  for (const event of events) writer.write(event);
  expect(writes.length).toBeGreaterThan(1);
  for (const chunk of writes) expect(chunk.length).toBeLessThan((1 << 16) + 100);
  await writer.close();
  expect(writes.join("")).toBe(events.map((e) => `${JSON.stringify(e)}\n`).join(""));
});

test("a process that exits in the middle of a burst still writes the burst's lines", async () => {
  const writer = join(import.meta.dir, "..", "..", "src", "modes", "ndjson-writer.ts");
  const script = `import { NdjsonWriter } from ${JSON.stringify(writer)};
const w = new NdjsonWriter();
for (let i = 0; i < 3; i++) w.write({ type: "text_delta", delta: String(i) });
process.exit(0);`;
  const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  expect(stdout).toBe(['{"type":"text_delta","delta":"0"}', '{"type":"text_delta","delta":"1"}', '{"type":"text_delta","delta":"2"}', ""].join("\n"));
});
