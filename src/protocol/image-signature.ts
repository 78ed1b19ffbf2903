// The image types the model APIs take, and whether an image's bytes are the type it says (by its
// signature: PNG, JPEG, GIF, WebP). Rule: no schema library here: the providers check every image
// they send with it, on every run's path.

/**
 * The image types the model APIs take (Anthropic's and OpenAI's four; image/jpg is image/jpeg). Any
 * other would be refused by the provider on every later request while it stays in the transcript.
 */
export const PROMPT_IMAGE_TYPES = ["image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp"] as const;

/** Base64 characters an image may have: 5 MB, what Anthropic's API takes (3.75 MB of image). */
export const PROMPT_IMAGE_MAX_BASE64 = 5 * 1024 * 1024;

/**
 * Whether the bytes are the image `mime_type` says (its signature: PNG, JPEG, GIF, WebP), so text
 * or an image of another type never reaches the provider, which would refuse it on every later
 * request while it stays in the transcript.
 */
export function contentIssue(image: { mime_type: (typeof PROMPT_IMAGE_TYPES)[number]; data: string }): string | undefined {
  const type = image.mime_type === "image/jpg" ? "image/jpeg" : image.mime_type;
  const actual = signatureType(image.data);
  if (actual === type) return undefined;
  return actual ? `the bytes are ${actual}, not ${image.mime_type}; send it as ${actual}` : `the bytes are not ${image.mime_type} (no image signature at the start); send the image file's own bytes`;
}

const SIGNATURES: { type: string; test: (head: Buffer) => boolean }[] = [
  { type: "image/png", test: (head) => head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: "image/jpeg", test: (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff },
  { type: "image/gif", test: (head) => head.subarray(0, 4).toString("latin1") === "GIF8" },
  { type: "image/webp", test: (head) => head.subarray(0, 4).toString("latin1") === "RIFF" && head.subarray(8, 12).toString("latin1") === "WEBP" },
];

/** The image type the base64 data's first bytes say (PNG, JPEG, GIF, WebP), or undefined. */
export function signatureType(data: string): string | undefined {
  const head = Buffer.from(data.slice(0, 24), "base64");
  return SIGNATURES.find(({ test }) => test(head))?.type;
}
