// GrowingText: a streamed text kept as its pieces and joined when read.
import { describe, expect, test } from "bun:test";
import { GrowingText } from "../../src/protocol/growing-text.ts";

describe("GrowingText", () => {
  test("reads as its start and every piece in order, before, between and after reads", () => {
    const text = new GrowingText("He");
    expect(text.text).toBe("He");
    text.append("l");
    text.append("lo");
    expect(text.text).toBe("Hello");
    text.append(", ");
    text.append("world");
    expect(text.text).toBe("Hello, world");
    expect(text.text).toBe("Hello, world");
  });

  test("empty until a non-empty piece arrives; replacing drops the pieces not yet read", () => {
    const text = new GrowingText();
    expect(text.isEmpty).toBe(true);
    text.append("");
    expect(text.isEmpty).toBe(true);
    text.append("{\"a\":");
    expect(text.isEmpty).toBe(false);
    text.text = "{\"a\":1}";
    text.append("");
    expect(text.text).toBe("{\"a\":1}");
    text.text = "";
    expect(text.isEmpty).toBe(true);
  });

  test("50,000 one-character pieces read back whole", () => {
    const text = new GrowingText();
    const expected = Array.from({ length: 50_000 }, (_, i) => String.fromCharCode(97 + (i % 26)));
    for (const piece of expected) text.append(piece);
    expect(text.text).toBe(expected.join(""));
  });
});
