// The images one request may carry, by the limits of the API it goes to. Rule: applied to every
// request after withSendableImages, as the transcript is sent, never to the transcript itself
// (the session keeps every image): an image the API would refuse, or one more than a request may
// hold, would fail that request and, staying in the transcript, every later one of the session.
// The newest images are sent; an image over a side limit, and every image older than the first
// that does not fit, stands as a text saying why it was left out. That cut moves in steps of
// CUT_STEP images, so the requests of a growing conversation share their start (a provider's
// prompt cache reads it) for that many new images, not one.
import { PROMPT_IMAGE_MAX_BASE64 } from "./image-signature.ts";
import { imageSize, MAX_IMAGE_SIDE } from "./image-size.ts";
import { imagesOf, withImagesReplaced } from "./message-images.ts";
import type { ImageBlock, Message } from "./messages.ts";
import { withSendableImages } from "./sendable-images.ts";

export interface ImageLimits {
  /** images in one request */
  maxImages: number;
  /** the base64 of all images in one request (the rest of the request needs room too) */
  maxBase64Chars: number;
  /** the base64 of one image */
  maxImageBase64Chars?: number;
  /** pixels on a side of one image */
  maxSide?: number;
  /** a stricter side limit once a request holds more than `over` images */
  manyImages?: { over: number; maxSide: number };
  /** why no image goes at all (a model that takes none) */
  none?: string;
}

/** The limits for `model`: the API's, or none at all for a model that takes no images. */
export function imageLimitsFor(model: { id: string; images?: boolean }, api: ImageLimits): ImageLimits {
  return model.images === false ? { ...api, none: `${model.id} takes no images (models.json says its input is text)` } : api;
}

/**
 * The transcript's images as one request to `model` over an API with these limits carries them:
 * each the APIs refuse (sendable-images.ts), then what the request may not hold, as texts.
 */
export function requestImages(messages: readonly Message[], model: { id: string; images?: boolean }, api: ImageLimits): readonly Message[] {
  return withinImageLimits(withSendableImages(messages), imageLimitsFor(model, api));
}

/**
 * Anthropic's Messages API: 100 images a request, 5 MB of base64 each, 8000 px a side, 2000 px once
 * a request holds more than 20, 32 MB a request (24 MB of it for images).
 */
export const ANTHROPIC_IMAGE_LIMITS: ImageLimits = {
  maxImages: 100,
  maxBase64Chars: 24 * 1024 * 1024,
  maxImageBase64Chars: PROMPT_IMAGE_MAX_BASE64,
  maxSide: MAX_IMAGE_SIDE,
  manyImages: { over: 20, maxSide: 2000 },
};

/** OpenAI's APIs: 500 images a request, 50 MB a request (40 MB of it for images); it scales large images itself. */
export const OPENAI_IMAGE_LIMITS: ImageLimits = { maxImages: 500, maxBase64Chars: 40 * 1024 * 1024 };

/** Images the cut moves by at once (see the rule). */
const CUT_STEP = 10;

/** What a block's header says of its size, once read (every request sends the whole transcript again). */
const sizes = new WeakMap<ImageBlock, { width: number; height: number } | null>();

/** The base64 of a file's first 64 KB: a PNG's, GIF's or WebP's header, a JPEG's past a usual EXIF block. */
const HEADER_BASE64_CHARS = 87_384;

function sideOf(image: ImageBlock): number | undefined {
  let size = sizes.get(image);
  if (size === undefined) {
    const mime = image.mime_type === "image/jpg" ? "image/jpeg" : image.mime_type;
    size = imageSize(Buffer.from(image.data.slice(0, HEADER_BASE64_CHARS), "base64"), mime) ?? null;
    // A JPEG whose frame comes after large metadata (XMP, an ICC profile): the whole file, once.
    if (!size && image.data.length > HEADER_BASE64_CHARS) size = imageSize(Buffer.from(image.data, "base64"), mime) ?? null;
    sizes.set(image, size);
  }
  return size ? Math.max(size.width, size.height) : undefined;
}

/** The messages as one request may carry them under `limits`; the same array when nothing is left out. */
export function withinImageLimits(messages: readonly Message[], limits: ImageLimits): readonly Message[] {
  // Newest first: which images go, and why each other does not.
  const left = new Map<ImageBlock, string>();
  const keptInOrder: ImageBlock[] = [];
  let chars = 0;
  let keptLarge = false;
  let full: string | undefined;
  const many = limits.manyImages;
  let total = 0;
  for (const message of messages) total += imagesOf(message).length;
  let visited = 0;
  for (let m = messages.length - 1; m >= 0; m--) {
    const images = imagesOf(messages[m]!);
    for (let i = images.length - 1; i >= 0; i--) {
      const image = images[i]!;
      visited++;
      const why = full ?? alone(image, limits);
      if (why) {
        left.set(image, why);
        continue;
      }
      // A size the header does not say counts as large: the API may find it so.
      const side = sideOf(image);
      const large = many !== undefined && (side === undefined || side > many.maxSide);
      const kept = keptInOrder.length;
      if (kept + 1 > limits.maxImages) full = `the conversation holds more images than one request may carry (${limits.maxImages}); the newest are sent`;
      else if (chars + image.data.length > limits.maxBase64Chars) full = `the conversation's images are more than one request may carry (${megabytes(limits.maxBase64Chars)} MB of them); the newest are sent`;
      else if (many && kept + 1 > many.over && keptLarge) full = `a request with more than ${many.over} images takes none over ${many.maxSide} px a side; the newest are sent`;
      else if (many && kept + 1 > many.over && large) {
        // The newest are all small: more small ones go, this large one does not.
        left.set(image, `a request with more than ${many.over} images takes none over ${many.maxSide} px a side`);
        continue;
      }
      if (full) {
        left.set(image, full);
        // The cut moves in steps: as many more of the oldest kept go as make the count of images
        // left out from here on (this one and every older one) a multiple of the step: CUT_STEP, or
        // half of what fits when fewer fit (large photos), so the request never loses most of them.
        const step = Math.max(1, Math.min(CUT_STEP, Math.floor(keptInOrder.length / 2)));
        const cut = total - visited + 1;
        const more = (step - (cut % step)) % step;
        for (let k = 0; k < more && keptInOrder.length > 0; k++) left.set(keptInOrder.pop()!, full);
        continue;
      }
      keptInOrder.push(image);
      chars += image.data.length;
      keptLarge ||= large;
    }
  }
  if (left.size === 0) return messages;
  return messages.map((message) =>
    withImagesReplaced(message, (image) => {
      const why = left.get(image);
      return why === undefined ? image : { type: "text", text: `[an image left out of this request: ${why}]` };
    }),
  );
}

/** Why the API would refuse this image whatever else the request holds; undefined when it would not. */
function alone(image: ImageBlock, limits: ImageLimits): string | undefined {
  if (limits.none !== undefined) return limits.none;
  if (limits.maxImageBase64Chars !== undefined && image.data.length > limits.maxImageBase64Chars) {
    return `it is ${megabytes(image.data.length)} MB of base64, over the ${megabytes(limits.maxImageBase64Chars)} MB an image may be`;
  }
  const side = sideOf(image);
  if (limits.maxSide !== undefined && side !== undefined && side > limits.maxSide) return `it is ${side} px on a side, over the ${limits.maxSide} px the API takes`;
  return undefined;
}

function megabytes(chars: number): string {
  return (chars / (1024 * 1024)).toFixed(1).replace(/\.0$/, "");
}
