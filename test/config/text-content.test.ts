// What counts as text for the system prompt (src/config/text-content.ts): judged by the first 8 KB.
import { describe, expect, test } from "bun:test";
import { whyNotText } from "../../src/config/text-content.ts";

describe("whyNotText", () => {
  test("UTF-8 text is text, a multi-byte character cut at 8 KB included; so is Latin-1 prose with a few accents", () => {
    expect(whyNotText(Buffer.from("# Rules\nAnswer in haiku. Ünïcödé, 漢字, emoji 🎉\n"))).toBeUndefined();
    expect(whyNotText(Buffer.from(`${"a".repeat(8191)}é and more`))).toBeUndefined();
    expect(whyNotText(Buffer.from("# R\xe8gles\nR\xe9pondre en fran\xe7ais, toujours, et garder les messages de commit courts.\n", "latin1"))).toBeUndefined();
    expect(whyNotText(Buffer.alloc(0))).toBeUndefined();
  });

  test("a NUL byte in the first 8 KB, or bytes mostly not UTF-8, are no text; what comes after 8 KB is not judged", () => {
    expect(whyNotText(Buffer.from("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "latin1"))).toBe("it holds NUL bytes");
    expect(whyNotText(Buffer.from([0xff, 0xfe, 0x55, 0x00, 0x54, 0x00]))).toBe("it holds NUL bytes");
    expect(whyNotText(Buffer.alloc(4096, 0xa7))).toBe("it is not UTF-8 text");
    expect(whyNotText(Buffer.concat([Buffer.alloc(8192, 0x61), Buffer.alloc(16, 0)]))).toBeUndefined();
  });
});
