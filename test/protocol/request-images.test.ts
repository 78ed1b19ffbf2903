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

test("Anthropic: 21 screenshots over 2000 px: the newest 20 are sent, the oldest stands as a text; the transcript keeps it", () => {
  const messages = reads(Array.from({ length: 21 }, () => png(2880, 1800)));
  const sent = sentImages(withinImageLimits(messages, ANTHROPIC_IMAGE_LIMITS));
  expect(sent.filter((b) => b === "image")).toHaveLength(20);
  expect(sent[0]).toBe("[an image left out of this request: a request with more than 20 images takes none over 2000 px a side; the newest 20 are sent]");
  expect(sentImages(messages).filter((b) => b === "image")).toHaveLength(21);
  // small ones: up to 100
  const small = sentImages(withinImageLimits(reads(Array.from({ length: 101 }, () => png(64, 64))), ANTHROPIC_IMAGE_LIMITS));
  expect(small.filter((b) => b === "image")).toHaveLength(100);
  expect(small[0]).toBe("[an image left out of this request: the conversation holds more images than one request may carry (100); the newest are sent]");
  // OpenAI takes them all
  expect(withinImageLimits(messages, OPENAI_IMAGE_LIMITS)).toBe(messages);
});

test("the images' bytes: past what one request may carry the older stand as texts; one image over an API's own limits always does", () => {
  const photos = reads(Array.from({ length: 7 }, () => png(3000, 2000, 3_600_000)));
  const sent = sentImages(withinImageLimits(photos, ANTHROPIC_IMAGE_LIMITS));
  expect(sent.filter((b) => b === "image")).toHaveLength(5);
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
