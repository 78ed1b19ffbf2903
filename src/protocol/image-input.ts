// An image a prompt carries (rpc's `prompt`, the SDK's prompt({images})): the types the model
// APIs take and the size they accept. Rule: one check for every way in, and it is cheap for what
// it refuses: the size is checked before the base64 pattern, and a string over it is never scanned.
import * as v from "valibot";
import { contentIssue, PROMPT_IMAGE_MAX_BASE64, PROMPT_IMAGE_TYPES } from "./image-signature.ts";
import { firstIssue } from "./schema-issue.ts";

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
