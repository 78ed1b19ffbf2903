// The SSE decoder the stream driver reads every wire API with: the format's line ends, fields and
// comments, and the same events however the bytes are cut.
import { describe, expect, test } from "bun:test";
import { SseDecoder, type SseEvent } from "../../src/providers/sse-decoder.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Decodes `text` fed in pieces cut at the given byte offsets. */
function decode(text: string, cuts: number[] = []): SseEvent[] {
  const all = bytes(text);
  const decoder = new SseDecoder();
  const events: SseEvent[] = [];
  let from = 0;
  for (const cut of [...cuts, all.length]) {
    events.push(...decoder.push(all.subarray(from, cut)));
    from = cut;
  }
  events.push(...decoder.end());
  return events;
}

const STREAM = [
  "event: message_start\ndata: {\"type\":\"message_start\"}\n\n",
  ": a comment the server sends to keep the connection open\n\n",
  "data: {\"delta\":\"Grüße 🌍\"}\n\n",
  "id: 7\nretry: 1000\nevent: content_block_delta\ndata: {\"a\":1}\n\n",
  "data: first line\ndata: second line\n\n",
  "data: [DONE]\n\n",
].join("");

const EXPECTED: SseEvent[] = [
  { event: "message_start", data: '{"type":"message_start"}' },
  { event: undefined, data: '{"delta":"Grüße 🌍"}' },
  { event: "content_block_delta", data: '{"a":1}' },
  { event: undefined, data: "first line\nsecond line" },
  { event: undefined, data: "[DONE]" },
];

describe("SseDecoder", () => {
  test("events, their names and multi-line data; comments, ids and retries are no events", () => {
    expect(decode(STREAM)).toEqual(EXPECTED);
  });

  test("the same events wherever the bytes are cut: inside a UTF-8 sequence, a line, a blank line", () => {
    const length = bytes(STREAM).length;
    for (let cut = 1; cut < length; cut++) expect(decode(STREAM, [cut])).toEqual(EXPECTED);
    expect(decode(STREAM, Array.from({ length: length - 1 }, (_, i) => i + 1))).toEqual(EXPECTED);
  });

  test("\\r\\n and \\r end lines as \\n does, also when a \\r\\n is cut in two", () => {
    for (const lineEnd of ["\r\n", "\r"]) {
      const text = STREAM.replaceAll("\n", lineEnd);
      expect(decode(text)).toEqual(EXPECTED);
      const length = bytes(text).length;
      for (let cut = 1; cut < length; cut++) expect(decode(text, [cut])).toEqual(EXPECTED);
    }
  });

  test("a field without a colon, no space after the colon, and an event without data", () => {
    expect(decode("data\n\ndata:x\n\nevent: lonely\n\ndata:  two spaces\n\n")).toEqual([
      { event: undefined, data: "" },
      { event: undefined, data: "x" },
      { event: undefined, data: " two spaces" },
    ]);
  });

  test("the last event counts without its blank line; a half line at the end is kept until then", () => {
    const decoder = new SseDecoder();
    expect(decoder.push(bytes("data: {\"a\":"))).toEqual([]);
    expect(decoder.push(bytes("1}\r"))).toEqual([]);
    expect(decoder.end()).toEqual([{ event: undefined, data: '{"a":1}' }]);
    expect(new SseDecoder().end()).toEqual([]);
  });
});
