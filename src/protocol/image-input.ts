// An image a prompt carries (rpc's `prompt`, the SDK's prompt({images})): the types the model
// APIs take and the size they accept. Rule: one check for every way in, and it is cheap for what
// it refuses: the size is checked before the base64 pattern, and a string over it is never scanned.
import * as v from "valibot";
import { firstIssue } from "./schema-issue.ts";

/**
 * The image types the model APIs take (Anthropic's and OpenAI's four; image/jpg is image/jpeg). Any
 * other would be refused by the provider on every later request while it stays in the transcript.
 */
export const PROMPT_IMAGE_TYPES = ["image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp"] as const;

/** Base64 characters an image may have: 5 MB, what Anthropic's API takes (3.75 MB of image). */
export const PROMPT_IMAGE_MAX_BASE64 = 5 * 1024 * 1024;

// The pipe stops at its first failed check (valibot runs the later ones by default), so an
// over-long string is never scanned by the base64 pattern; v.config keeps the JSON Schema as it is.
const ImageData = v.config(
  v.pipe(
    v.string(),
    v.minLength(1, "data is empty: an image must have its bytes"),
    v.maxLength(PROMPT_IMAGE_MAX_BASE64, "data must be at most 5 MB of base64 (3.75 MB of image), what the model APIs take"),
    v.base64("data must be standard base64"),
  ),
  { abortPipeEarly: true },
);

export const ImageInput = v.object({
  mime_type: v.picklist(PROMPT_IMAGE_TYPES, "mime_type must be image/png, image/jpeg, image/gif or image/webp, the types the model APIs take"),
  /** standard base64 of the image bytes */
  data: ImageData,
});
export type ImageInput = v.InferOutput<typeof ImageInput>;

const ImageInputs = v.array(ImageInput);

/** What is wrong with a prompt's images, as `field "images[0].data": …`; undefined when nothing is. */
export function imagesIssue(images: unknown): string | undefined {
  const checked = v.safeParse(ImageInputs, images);
  if (!checked.success) {
    const { path, message } = firstIssue(checked.issues, "images");
    return `field "${path}": ${message}`;
  }
  for (const [i, image] of checked.output.entries()) {
    const issue = contentIssue(image);
    if (issue) return `field "images[${i}].data": ${issue}`;
  }
  return undefined;
}

/**
 * Whether the bytes are the image `mime_type` says (its signature: PNG, JPEG, GIF, WebP), so text
 * or an image of another type never reaches the provider, which would refuse it on every later
 * request while it stays in the transcript.
 */
export function contentIssue(image: ImageInput): string | undefined {
  const head = Buffer.from(image.data.slice(0, 24), "base64");
  const type = image.mime_type === "image/jpg" ? "image/jpeg" : image.mime_type;
  const actual = SIGNATURES.find(({ test }) => test(head))?.type;
  if (actual === type) return undefined;
  return actual ? `the bytes are ${actual}, not ${image.mime_type}; send it as ${actual}` : `the bytes are not ${image.mime_type} (no image signature at the start); send the image file's own bytes`;
}

const SIGNATURES: { type: string; test: (head: Buffer) => boolean }[] = [
  { type: "image/png", test: (head) => head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: "image/jpeg", test: (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff },
  { type: "image/gif", test: (head) => head.subarray(0, 4).toString("latin1") === "GIF8" },
  { type: "image/webp", test: (head) => head.subarray(0, 4).toString("latin1") === "RIFF" && head.subarray(8, 12).toString("latin1") === "WEBP" },
];
