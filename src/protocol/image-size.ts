// An image file's width and height, read from its header (PNG, JPEG, GIF, WebP), without decoding
// it. Rule: the read tool sends an image only when its header says how big it is and the size is
// one the APIs take; an image the API refuses would stay in the transcript and fail every later
// request of the session.

export interface ImageSize {
  width: number;
  height: number;
}

/** The longest side the APIs take (Anthropic refuses an image over 8000 px on a side). */
export const MAX_IMAGE_SIDE = 8000;

/** PNG's last chunk, IEND with its CRC: a file without it was cut short. */
const PNG_END = [0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

/** How far from its end a PNG's IEND chunk may be: tools append bytes after it (a signature, padding). */
export const PNG_TAIL_BYTES = 1024;

/**
 * Whether the file ends before its image does (an interrupted download or screenshot): a PNG
 * with no IEND chunk among its last PNG_TAIL_BYTES, a WebP shorter than its RIFF header says. The
 * APIs cannot decode one, and it would fail every later request. JPEG and GIF are not judged:
 * trailing bytes are common. `tail`: the file's last PNG_TAIL_BYTES (or all of it); `length`: its size.
 */
export function cutShort(head: Uint8Array, tail: Uint8Array, length: number, mime: string): boolean {
  if (mime === "image/png") return Buffer.from(tail.buffer, tail.byteOffset, tail.byteLength).indexOf(Buffer.from(PNG_END)) === -1;
  if (mime === "image/webp" && head.length >= 8) return (head[4]! | (head[5]! << 8) | (head[6]! << 16)) + (head[7]! << 24) + 8 > length;
  return false;
}

/** The size the header gives, or undefined when it cannot be read (a damaged or truncated file). */
export function imageSize(bytes: Uint8Array, mime: string): ImageSize | undefined {
  const size = sizeOf(bytes, mime);
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}

function sizeOf(b: Uint8Array, mime: string): ImageSize | undefined {
  const at = (i: number) => b[i] ?? -1;
  const be16 = (i: number) => (at(i) << 8) | at(i + 1);
  const le16 = (i: number) => at(i) | (at(i + 1) << 8);
  const text = (i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));
  if (b.length < 10) return undefined;
  switch (mime) {
    case "image/png":
      // The IHDR chunk comes first: width and height as 32-bit big-endian numbers.
      if (b.length < 24 || text(12, 4) !== "IHDR") return undefined;
      return { width: be16(16) * 65536 + be16(18), height: be16(20) * 65536 + be16(22) };
    case "image/gif":
      return { width: le16(6), height: le16(8) };
    case "image/webp": {
      const kind = text(12, 4);
      if (kind === "VP8 " && b.length >= 30) return { width: le16(26) & 0x3fff, height: le16(28) & 0x3fff };
      if (kind === "VP8L" && b.length >= 25) {
        return { width: 1 + (((at(22) & 0x3f) << 8) | at(21)), height: 1 + (((at(24) & 0xf) << 10) | (at(23) << 2) | ((at(22) & 0xc0) >> 6)) };
      }
      if (kind === "VP8X" && b.length >= 30) return { width: 1 + (at(24) | (at(25) << 8) | (at(26) << 16)), height: 1 + (at(27) | (at(28) << 8) | (at(29) << 16)) };
      return undefined;
    }
    case "image/jpeg": {
      // Segments after SOI, each FF xx with a length, until a start-of-frame gives the size.
      let i = 2;
      while (i + 9 < b.length) {
        if (at(i) !== 0xff) return undefined;
        const marker = at(i + 1);
        if (marker === 0xff) {
          i++;
          continue;
        }
        if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
          i += 2;
          continue;
        }
        const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
        if (frame) return { height: be16(i + 5), width: be16(i + 7) };
        i += 2 + be16(i + 2);
      }
      return undefined;
    }
  }
  return undefined;
}
