// The one check of a prompt's images (rpc's prompt and the SDK's): types, size, base64, in an
// order that never scans an over-long string with the base64 pattern.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { ImageInput, imagesIssue } from "../../src/protocol/image-input.ts";
import { PROMPT_IMAGE_MAX_BASE64 } from "../../src/protocol/image-signature.ts";
import { PromptCommand } from "../../src/protocol/rpc-frames.ts";

test("a string over the size is refused for its size alone: the base64 pattern never runs on it", () => {
  const huge = { mime_type: "image/png", data: "!".repeat(PROMPT_IMAGE_MAX_BASE64 + 1) };
  const checked = v.safeParse(ImageInput, huge);
  expect(checked.success).toBe(false);
  expect(checked.issues?.map((issue) => issue.message)).toEqual(["data must be at most 5 MB of base64 (3.75 MB of image), what the model APIs take"]);
  expect(imagesIssue([huge])).toBe('field "images[0].data": data must be at most 5 MB of base64 (3.75 MB of image), what the model APIs take');
});

test("rpc's prompt and imagesIssue agree: type, base64, a good image", () => {
  const cases = [
    [{ mime_type: "image/bmp", data: "AAAA" }, 'field "images[0].mime_type": mime_type must be image/png, image/jpeg, image/gif or image/webp, the types the model APIs take'],
    [{ mime_type: "image/png", data: "not base64!" }, 'field "images[0].data": data must be standard base64'],
    [{ mime_type: "image/webp", data: "UklGRiQAAABXRUJQVlA4IA==" }, undefined],
  ] as const;
  for (const [image, issue] of cases) {
    expect(imagesIssue([image])).toBe(issue);
    expect(v.safeParse(PromptCommand, { type: "prompt", message: "x", images: [image] }).success).toBe(issue === undefined);
  }
});

test("empty data, or bytes that are not the image the type says, are refused naming what they are", () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString("base64");
  expect(imagesIssue([{ mime_type: "image/png", data: "" }])).toBe('field "images[0].data": data is empty: an image must have its bytes');
  expect(imagesIssue([{ mime_type: "image/png", data: Buffer.from("hello world").toString("base64") }])).toBe(
    'field "images[0].data": the bytes are not image/png (no image signature at the start); send the image file\'s own bytes',
  );
  expect(imagesIssue([{ mime_type: "image/png", data: png }, { mime_type: "image/jpeg", data: png }])).toBe('field "images[1].data": the bytes are image/png, not image/jpeg; send it as image/png');
  expect(imagesIssue([{ mime_type: "image/jpg", data: "/9j/4AAQ" }, { mime_type: "image/gif", data: Buffer.from("GIF89a").toString("base64") }])).toBeUndefined();
});
