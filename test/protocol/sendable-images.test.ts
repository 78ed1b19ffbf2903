// What a provider sends of a transcript's images: one that no model API takes stands as a text
// saying what it was, so a session holding one is not refused on every later request.
import { expect, test } from "bun:test";
import type { Message } from "../../src/protocol/messages.ts";
import { unsendableImage, withSendableImages } from "../../src/protocol/sendable-images.ts";

const time = "2026-11-27T10:00:00.000Z";
const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
const svg = Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64");

test("the four types the APIs take, with their own bytes, are sendable; another type, or bytes of another kind, are not", () => {
  expect(unsendableImage({ mime_type: "image/png", data: png })).toBeUndefined();
  expect(unsendableImage({ mime_type: "IMAGE/PNG", data: png })).toBeUndefined();
  expect(unsendableImage({ mime_type: "image/svg+xml", data: svg })).toContain("its type image/svg+xml is none the model APIs take");
  expect(unsendableImage({ mime_type: "image/jpeg", data: png })).toBe("its bytes are image/png, not the image/jpeg it is labelled");
  // A PNG cut short (no IEND chunk at its end): no API could decode it.
  expect(unsendableImage({ mime_type: "image/png", data: Buffer.from(png, "base64").subarray(0, 40).toString("base64") })).toBe("its bytes end before the image does (a file cut short)");
  // A type of any length is cut short in what is said.
  expect(unsendableImage({ mime_type: `image/${"x".repeat(500)}`, data: png })!.length).toBeLessThan(200);
});

test("an unsendable image in a prompt or a tool result becomes a text; the rest, and a transcript without one, stay as they are", () => {
  const clean: Message[] = [
    { role: "user", content: [{ type: "text", text: "look" }, { type: "image", mime_type: "image/png", data: png }], time },
  ];
  expect(withSendableImages(clean)).toBe(clean);
  const messages: Message[] = [
    ...clean,
    { role: "assistant", content: [{ type: "tool_call", id: "a", name: "shot", args: {} }], time },
    { role: "tool", content: [{ type: "tool_result", call_id: "a", is_error: false, content: [{ type: "text", text: "here" }, { type: "image", mime_type: "image/svg+xml", data: svg }] }], time },
    { role: "user", content: [{ type: "image", mime_type: "image/svg+xml", data: svg }], time },
  ];
  const sent = withSendableImages(messages);
  expect(sent[0]).toBe(messages[0]);
  expect(sent[1]).toBe(messages[1]);
  const note = { type: "text" as const, text: expect.stringContaining("[an image not sent to the model: its type image/svg+xml is none the model APIs take") as string };
  expect(sent[2]!.content).toEqual([{ type: "tool_result", call_id: "a", is_error: false, content: [{ type: "text", text: "here" }, note] }]);
  expect(sent[3]!.content).toEqual([note]);
  // The transcript itself keeps what it had.
  expect(messages[3]!.content[0]!.type).toBe("image");
});
