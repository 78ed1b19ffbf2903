// The images one request carries, by the limits of the API it goes to: the newest are sent, and an
// image the API would refuse, or one more than a request may hold, stands as a text saying why, so
// a conversation with many screenshots is never refused on every later request.
import { expect, test } from "bun:test";
import type { Message } from "../../src/protocol/messages.ts";
import { ANTHROPIC_IMAGE_LIMITS, imageLimitsFor, OPENAI_IMAGE_LIMITS, withinImageLimits } from "../../src/protocol/request-images.ts";

const time = "2026-11-28T10:00:00.000Z";
const be32 = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
/** A PNG whose header says width×height, `bytes` long in all. */
function png(width: number, height: number, bytes = 64): string {
  const head = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...be32(width), ...be32(height), 8, 6, 0, 0, 0, 1, 2, 3, 4];
  const end = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];
  return Buffer.from([...head, ...new Array(Math.max(0, bytes - head.length - end.length)).fill(0), ...end]).toString("base64");
}
/** A read of each image, one tool result each, oldest first. */
function reads(images: string[]): Message[] {
  return images.flatMap((data, i): Message[] => [
    { role: "assistant", content: [{ type: "tool_call", id: `c${i}`, name: "read", args: { path: `${i}.png` } }], time },
    { role: "tool", content: [{ type: "tool_result", call_id: `c${i}`, is_error: false, content: [{ type: "image", mime_type: "image/png", data }] }], time },
  ]);
}
const sentImages = (messages: readonly Message[]) =>
  messages.flatMap((m) => m.content.flatMap((b) => (b.type === "tool_result" ? b.content : [b]))).map((b) => (b.type === "image" ? "image" : b.type === "text" ? b.text : b.type))
    .filter((b) => b !== "tool_call");

test("a transcript within the limits is sent as it is", () => {
  const messages = reads([png(100, 100), png(2880, 1800)]);
  expect(withinImageLimits(messages, ANTHROPIC_IMAGE_LIMITS)).toBe(messages);
});

test("Anthropic: past 20 screenshots over 2000 px the oldest stand as texts, ten at a time, so the requests of a growing conversation share their start; the transcript keeps them", () => {
  const kept = (count: number) => sentImages(withinImageLimits(reads(Array.from({ length: count }, () => png(2880, 1800))), ANTHROPIC_IMAGE_LIMITS)).filter((b) => b === "image").length;
  expect([20, 21, 25, 30, 31].map(kept)).toEqual([20, 11, 15, 20, 11]);
  const messages = reads(Array.from({ length: 21 }, () => png(2880, 1800)));
  const sent = sentImages(withinImageLimits(messages, ANTHROPIC_IMAGE_LIMITS));
  expect(sent[0]).toBe("[an image left out of this request: a request with more than 20 images takes none over 2000 px a side; the newest are sent]");
  expect(sentImages(messages).filter((b) => b === "image")).toHaveLength(21);
  // small ones: up to 100, the cut in steps of ten too
  const small = sentImages(withinImageLimits(reads(Array.from({ length: 101 }, () => png(64, 64))), ANTHROPIC_IMAGE_LIMITS));
  expect(small.filter((b) => b === "image")).toHaveLength(91);
  expect(small[0]).toBe("[an image left out of this request: the conversation holds more images than one request may carry (100); the newest are sent]");
  // one screenshot among small icons, older than the newest 20: it alone stands as a text, the icons go
  const mixed = sentImages(withinImageLimits(reads([...Array.from({ length: 50 }, () => png(64, 64)), png(2880, 1800), ...Array.from({ length: 20 }, () => png(64, 64))]), ANTHROPIC_IMAGE_LIMITS));
  expect(mixed.filter((b) => b === "image")).toHaveLength(70);
  expect(mixed[50]).toBe("[an image left out of this request: a request with more than 20 images takes none over 2000 px a side]");
  // OpenAI takes them all
  expect(withinImageLimits(messages, OPENAI_IMAGE_LIMITS)).toBe(messages);
});

test("the images' bytes: past what one request may carry the older stand as texts; one image over an API's own limits always does", () => {
  const photos = reads(Array.from({ length: 7 }, () => png(3000, 2000, 3_600_000)));
  const sent = sentImages(withinImageLimits(photos, ANTHROPIC_IMAGE_LIMITS));
  expect(sent.filter((b) => b === "image")).toHaveLength(5);
  // a step of half of what fits: never most of them lost
  expect(sentImages(withinImageLimits(reads(Array.from({ length: 8 }, () => png(3000, 2000, 3_600_000))), ANTHROPIC_IMAGE_LIMITS)).filter((b) => b === "image")).toHaveLength(4);
  expect(sent[0]).toBe("[an image left out of this request: the conversation's images are more than one request may carry (24 MB of them); the newest are sent]");
  const odd = reads([png(9000, 100), png(100, 100, 4_000_000)]);
  expect(sentImages(withinImageLimits(odd, ANTHROPIC_IMAGE_LIMITS))).toEqual([
    "[an image left out of this request: it is 9000 px on a side, over the 8000 px the API takes]",
    "[an image left out of this request: it is 5.1 MB of base64, over the 5 MB an image may be]",
  ]);
  expect(withinImageLimits(odd, OPENAI_IMAGE_LIMITS)).toBe(odd);
});

test("a model that takes no images (models.json input: text) gets none, each standing as a text saying so", () => {
  const messages = reads([png(100, 100)]);
  const limits = imageLimitsFor({ id: "llama3.1:8b", images: false }, OPENAI_IMAGE_LIMITS);
  expect(sentImages(withinImageLimits(messages, limits))).toEqual(["[an image left out of this request: llama3.1:8b takes no images (models.json says its input is text)]"]);
  expect(imageLimitsFor({ id: "llava", images: true }, OPENAI_IMAGE_LIMITS)).toBe(OPENAI_IMAGE_LIMITS);
  expect(imageLimitsFor({ id: "llava" }, OPENAI_IMAGE_LIMITS)).toBe(OPENAI_IMAGE_LIMITS);
});

test("a JPEG whose frame comes after large metadata (an ICC profile, XMP) still has its size read, so the many-images rule holds for it", () => {
  const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const jpeg = (width: number, height: number) =>
    Buffer.from([
      0xff, 0xd8,
      ...segment(0xe1, new Array(65_000).fill(0x20)),
      ...segment(0xe2, new Array(30_000).fill(0x20)),
      ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]),
      0xff, 0xd9,
    ]).toString("base64");
  const photo = (data: string): Message => ({ role: "user", content: [{ type: "image", mime_type: "image/jpeg", data }], time });
  expect(sentImages(withinImageLimits([photo(jpeg(9000, 1800))], ANTHROPIC_IMAGE_LIMITS))).toEqual(["[an image left out of this request: it is 9000 px on a side, over the 8000 px the API takes]"]);
  expect(sentImages(withinImageLimits(Array.from({ length: 21 }, () => photo(jpeg(2500, 1800))), ANTHROPIC_IMAGE_LIMITS)).filter((b) => b === "image")).toHaveLength(11);
});
