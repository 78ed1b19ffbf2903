// The transcript as a provider may send it: an image none of the model APIs takes (its type, or
// bytes that are not that type) stands as a text saying what it was and why it was not sent. Rule:
// applied to every request, not where images come in: one such image in a transcript (a tool's
// result, a session written before a check existed) would fail every later request of the session.
import { PROMPT_IMAGE_TYPES, signatureType } from "./image-signature.ts";
import { cutShort, PNG_TAIL_BYTES } from "./image-size.ts";
import { withImagesReplaced } from "./message-images.ts";
import type { ImageBlock, Message, TextBlock } from "./messages.ts";

/**
 * Why a model API would refuse this image (a type none takes, bytes that are not the image its
 * type says); undefined when it is one they take. Cheap: the type, then 24 characters of data.
 */
export function unsendableImage(image: { mime_type: string; data: string }): string | undefined {
  const mime = image.mime_type.toLowerCase();
  if (!(PROMPT_IMAGE_TYPES as readonly string[]).includes(mime)) {
    return `its type ${shortType(image.mime_type)} is none the model APIs take (image/png, image/jpeg, image/gif, image/webp)`;
  }
  const actual = signatureType(image.data);
  if (actual === (mime === "image/jpg" ? "image/jpeg" : mime)) return cutShortBase64(image.data, actual) ? "its bytes end before the image does (a file cut short)" : undefined;
  // Said as what it is, with no advice: the model reading it cannot send it again.
  return actual ? `its bytes are ${actual}, not the ${mime} it is labelled` : `its bytes are no image (no PNG, JPEG, GIF or WebP signature at the start)`;
}

/** Base64 characters enough for a PNG's last PNG_TAIL_BYTES. */
const TAIL_CHARS = Math.ceil(PNG_TAIL_BYTES / 3) * 4 + 4;

/**
 * Whether base64 data ends before its image does (image-size.ts cutShort), from its first and last
 * bytes. Data that is not plain padded base64 (line breaks in it, no padding) is not judged: where
 * its last bytes are cannot be told without decoding it all.
 */
function cutShortBase64(data: string, mime: string): boolean {
  if (data.length % 4 !== 0 || /[^A-Za-z0-9+/=]/.test(data.slice(-TAIL_CHARS))) return false;
  const head = Buffer.from(data.slice(0, 16), "base64");
  const tail = Buffer.from(data.slice(Math.max(0, data.length - TAIL_CHARS)), "base64");
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return cutShort(head, tail, (data.length / 4) * 3 - padding, mime);
}

/** A type as given, cut short: an extension's or a session's string, of any length. */
function shortType(mime: string): string {
  return mime.length > 60 ? `${mime.slice(0, 60)}…` : mime;
}

/** Messages already found to send as they are (every request sends the whole transcript again). */
const sendableAsIs = new WeakSet<Message>();

/**
 * The messages as a provider may send them: each image the APIs would refuse stands as a text that
 * says what it was and why it was not sent. One such image left in a transcript (a tool's result,
 * a session written before this check) would fail every later request of the session. The same
 * array when there is none.
 */
export function withSendableImages(messages: readonly Message[]): readonly Message[] {
  let changed = false;
  const out = messages.map((message) => {
    if (sendableAsIs.has(message)) return message;
    const sent = withImagesReplaced(message, sendable);
    if (sent === message) sendableAsIs.add(message);
    else changed = true;
    return sent;
  });
  return changed ? out : messages;
}

function sendable<B extends ImageBlock>(image: B): B | TextBlock {
  const why = unsendableImage(image);
  return why === undefined ? image : { type: "text", text: `[an image not sent to the model: ${why}]` };
}
