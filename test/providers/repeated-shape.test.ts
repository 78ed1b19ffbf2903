// Reading a stream's repeated text events without JSON.parse (src/providers/repeated-shape.ts): a
// line is read exactly as JSON.parse reads it, or not at all. Checked against JSON.parse itself
// over escapes, Unicode and random text, over lines that only look alike, and over the lines a
// shape must never be learned from.
import { describe, expect, test } from "bun:test";
import type { JsonObject } from "../../src/protocol/json-object.ts";
import { RepeatedShape, type TextSlot } from "../../src/providers/repeated-shape.ts";

const anthropicLine = (text: string) => JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } });
const anthropicSlot = (value: JsonObject): TextSlot => ({ holder: value.delta as Record<string, unknown>, key: "text" });
const chatLine = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1795753860,
    model: "gpt-4.1",
    system_fingerprint: "fp_1",
    choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }],
    usage: null,
    ...extra,
  });
const chatSlot = (value: JsonObject): TextSlot => ({ holder: (value.choices as JsonObject[])[0]!.delta as Record<string, unknown>, key: "content" });

/** A shape learned from `first` (parsed in full, as the stream driver does). */
function learned(first: string, slotOf: (value: JsonObject) => TextSlot): RepeatedShape {
  const shape = new RepeatedShape();
  const value = JSON.parse(first) as JsonObject;
  shape.learn(first, value, slotOf(value));
  return shape;
}

/** What reading `line` gives, as plain data (the shape hands out one object it reuses). */
const readAs = (shape: RepeatedShape, line: string) => {
  const value = shape.read(line);
  return value === undefined ? undefined : structuredClone(value);
};

const TRICKY = ["", "x", "Hello, world", 'a "quoted" word', "back\\slash\\", "line\nbreak\ttab\r", "\u0001\u001f", "é ö 你好", "😀 and 🌍", "\u2028\u2029", "\ud800 lone", "</script>", "\\u0041 not an escape", "{\"json\":[1,2]}"];

describe("a repeated line is read as JSON.parse reads it", () => {
  test.each(TRICKY)("Anthropic text %j", (text) => {
    const shape = learned(anthropicLine("first"), anthropicSlot);
    const line = anthropicLine(text);
    expect(readAs(shape, line)).toEqual(JSON.parse(line));
  });

  test.each(TRICKY)("a Chat Completions chunk's content %j", (text) => {
    const shape = learned(chatLine("first"), chatSlot);
    const line = chatLine(text);
    expect(readAs(shape, line)).toEqual(JSON.parse(line));
  });

  test("random text, 2,000 lines, each read as JSON.parse reads it, none refused", () => {
    const pool = ['"', "\\", "\n", "\u0000", "\u0007", "a", "b", " ", "é", "😀", "\ud83d", "\udc00", "\u2028", "/", "{", "}", "[", "]", ",", ":"];
    const shape = learned(chatLine("first"), chatSlot);
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let i = 0; i < 2000; i++) {
      let text = "";
      for (let n = next() % 12; n > 0; n--) text += pool[next() % pool.length];
      const line = chatLine(text);
      expect(readAs(shape, line)).toEqual(JSON.parse(line));
    }
  });

  test("a line written with other spacing is learned and read the same way (the proof needs no canonical form)", () => {
    const spaced = (text: string) => `{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": ${JSON.stringify(text)}}}`;
    const shape = learned(spaced("first"), anthropicSlot);
    expect(readAs(shape, spaced("second"))).toEqual(JSON.parse(spaced("second")));
  });

  test("the value is the learned object itself, its slot set to each line's text", () => {
    const first = anthropicLine("first");
    const shape = new RepeatedShape();
    const value = JSON.parse(first) as JsonObject;
    shape.learn(first, value, anthropicSlot(value));
    expect(value).toEqual(JSON.parse(first));
    expect(shape.read(anthropicLine("second"))).toBe(value);
    expect((value.delta as JsonObject).text).toBe("second");
  });
});

describe("anything else is left to JSON.parse", () => {
  const shape = () => learned(chatLine("first"), chatSlot);
  const refused = {
    "another field changed": chatLine("x", { usage: { prompt_tokens: 1 } }),
    "another id": chatLine("x").replace("chatcmpl-1", "chatcmpl-2"),
    "two tokens where the text goes": chatLine("PLACE").replace('"PLACE"', '"a","role":"b"'),
    "a number where the text goes": chatLine("PLACE").replace('"PLACE"', "42"),
    "a raw control character inside the text": chatLine("PLACE").replace('"PLACE"', '"a\u0001b"'),
    "a broken escape": chatLine("PLACE").replace('"PLACE"', '"a\\qb"'),
    "an escaped closing quote": chatLine("PLACE").replace('"PLACE"', '"ab\\"'),
    "a space before the text": chatLine("PLACE").replace('"PLACE"', ' "ab"'),
    "nothing where the text goes": chatLine("PLACE").replace('"PLACE"', ""),
    "a truncated line": chatLine("abc").slice(0, -5),
  };
  test.each(Object.entries(refused))("%s", (_, line) => {
    expect(shape().read(line)).toBeUndefined();
  });

  test("nothing is read before a shape is learned", () => {
    expect(new RepeatedShape().read(chatLine("x"))).toBeUndefined();
  });
});

describe("learning proves the slot first", () => {
  test("text whose token appears twice on the line (the model is named as the text is): nothing learned", () => {
    const line = chatLine("gpt-4.1");
    const shape = learned(line, chatSlot);
    expect(shape.read(chatLine("gpt-4.1"))).toBeUndefined();
  });

  test("text written with an escape while an equal token elsewhere is plain: that token is not taken for the slot", () => {
    // The text "x" sent as "\u0078"; the model's name is "x". JSON.stringify("x") is found once, at the model.
    const line = `{"model":"x","delta":{"text":"\\u0078"}}`;
    const value = JSON.parse(line) as JsonObject;
    const shape = new RepeatedShape();
    shape.learn(line, value, { holder: value.delta as Record<string, unknown>, key: "text" });
    // Had the model been taken for the slot, this line (another model) would read as text "y".
    expect(shape.read(`{"model":"y","delta":{"text":"\\u0078"}}`)).toBeUndefined();
    expect(value).toEqual(JSON.parse(line));
  });

  test("text that is the proof's own marker proves nothing: not learned (found by review: the swap changed nothing)", () => {
    const marker = "\\u0000zot-repeated-shape\\u0000";
    const escaped = "\\u0000zot-repeated-shap\\u0065\\u0000";
    const line = `{"type":"content_block_delta","index":0,"x":"${marker}","delta":{"type":"text_delta","text":"${escaped}"}}`;
    const shape = learned(line, anthropicSlot);
    const next = `{"type":"content_block_delta","index":0,"x":"hello","delta":{"type":"text_delta","text":"${escaped}"}}`;
    expect(shape.read(next)).toBeUndefined();
  });

  /** Feeds lines that are never read (each differs from the last) until the shape stops learning; how many it tried. */
  function triesBeforeGivingUp(lineAt: (i: number) => string, slotOf: (value: JsonObject) => TextSlot): number {
    const shape = new RepeatedShape();
    let tries = 0;
    for (let i = 0; i < 20 && shape.learning; i++) {
      const line = lineAt(i);
      expect(shape.read(line)).toBeUndefined();
      const value = JSON.parse(line) as JsonObject;
      shape.learn(line, value, slotOf(value));
      tries++;
    }
    expect(shape.learning).toBe(false);
    return tries;
  }

  test("a server that escapes text otherwise than JSON.stringify (Python's ensure_ascii) stops being learned after a few tries", () => {
    const line = (i: number) => `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\\u4f60\\u597d ${i}"}}`;
    expect(triesBeforeGivingUp(line, anthropicSlot)).toBeLessThan(10);
  });

  test("a stream whose lines all differ (a random field in every chunk) stops being learned after a few", () => {
    expect(triesBeforeGivingUp((i) => chatLine("t", { obfuscation: `pad${i}` }), chatSlot)).toBeLessThan(10);
  });

  test("shapes that take turns, each met before the next, keep the stream learning", () => {
    const shape = new RepeatedShape();
    for (let i = 0; i < 10; i++) {
      for (const model of ["one", "two"]) {
        const first = chatLine("first", { model });
        if (shape.read(first) === undefined) {
          const value = JSON.parse(first) as JsonObject;
          shape.learn(first, value, chatSlot(value));
        }
        const line = chatLine(`text ${i}`, { model });
        expect(readAs(shape, line)).toEqual(JSON.parse(line));
      }
    }
    expect(shape.learning).toBe(true);
  });
});
