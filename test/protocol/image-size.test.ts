// Image sizes from headers alone, as the read tool checks them before sending an image.
import { expect, test } from "bun:test";
import { imageSize } from "../../src/protocol/image-size.ts";

test("PNG, GIF, JPEG (past other segments, progressive too) and the three WebP kinds", () => {
  const png = Buffer.from("89504e470d0a1a0a0000000d49484452000003200000025808060000001f", "hex");
  expect(imageSize(png, "image/png")).toEqual({ width: 800, height: 600 });
  expect(imageSize(Buffer.from([...Buffer.from("GIF89a"), 0x40, 1, 0xf0, 0, 0]), "image/gif")).toEqual({ width: 320, height: 240 });
  // SOI, APP0 (16 bytes), a DQT (skipped by its length), then SOF2 (progressive) of 1024×768.
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, ...new Array(14).fill(0), 0xff, 0xdb, 0, 4, 0, 0, 0xff, 0xc2, 0, 17, 8, 0x03, 0x00, 0x04, 0x00, 3, 0, 0, 0, 0, 0, 0]);
  expect(imageSize(jpeg, "image/jpeg")).toEqual({ width: 1024, height: 768 });
  const riff = (kind: string, body: number[]) => Buffer.from([...Buffer.from("RIFF"), 0, 0, 0, 0, ...Buffer.from(`WEBP${kind}`), 0, 0, 0, 0, ...body]);
  expect(imageSize(riff("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, 0x80, 0x02, 0xe0, 0x01]), "image/webp")).toEqual({ width: 640, height: 480 });
  // VP8L: signature 0x2f, then 14 bits of width - 1 and 14 of height - 1 (here 100×50).
  const w = 99;
  const h = 49;
  const bits = w | (h << 14);
  expect(imageSize(riff("VP8L", [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >> 24) & 0xff]), "image/webp")).toEqual({ width: 100, height: 50 });
  expect(imageSize(riff("VP8X", [0, 0, 0, 0, 0x3f, 0x1f, 0, 0x3f, 0x1f, 0]), "image/webp")).toEqual({ width: 8000, height: 8000 });
});

test("a header that does not say a size is no size", () => {
  expect(imageSize(Buffer.from("89504e470d0a1a0a000000", "hex"), "image/png")).toBeUndefined();
  expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2, 3, 4, 5, 6]), "image/jpeg")).toBeUndefined();
  expect(imageSize(Buffer.from([...Buffer.from("GIF89a"), 0, 0, 0, 0, 0]), "image/gif")).toBeUndefined();
});
