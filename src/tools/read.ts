// The `read` tool: a file's lines, numbered like `cat -n`, or an image as an image block.
// Rule: every line of a file of any size is reachable by offset. The file is scanned line by line
// from the start, the offset/limit window is selected, and only then are the output caps applied
// (the original capped the bytes first, so nothing past 50 KB could ever be read). Only regular
// files are read: a FIFO, a device or a socket can block forever and is refused with a sentence.
import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { type Tool, type ToolResult, textResult } from "../protocol/tool.ts";
import { defineArgs, renameKeys, resolveToolPath } from "./args.ts";
import { loadFsPromises } from "./async-fs.ts";
import { errnoWords } from "../protocol/errno-words.ts";
import { PROMPT_IMAGE_MAX_BASE64 } from "../protocol/image-signature.ts";
import { rememberView } from "./file-views.ts";
import { sha256Hex } from "../protocol/random-hex.ts";
import { shellQuote } from "../protocol/shell-quote.ts";
import { judgePath, jailRoot, refuseOutsideJail } from "./sandbox.ts";
import { READ_MAX_LINES, readArgs } from "./builtin-args.ts";
import { builtinParameters } from "./builtin-parameters.ts" with { type: "macro" };

/** Most bytes of numbered lines one call returns (the hint lines come on top). */
export const READ_MAX_BYTES = 51_200;
/**
 * The largest image sent: Anthropic's API refuses an image over 5 MB of base64 (3.75 MB of bytes),
 * and one it refused would stay in the transcript and fail every later request of the session.
 */
export const READ_MAX_IMAGE_BYTES = (PROMPT_IMAGE_MAX_BASE64 * 3) / 4;
const BINARY_PROBE_BYTES = 8192;
const CHUNK_BYTES = 1 << 20;

const args = defineArgs("read", readArgs, builtinParameters("readArgs"));

export const readTool: Tool = {
  name: "read",
  description:
    "Read a file from the local filesystem. Text comes back with line numbers (`   12\\tcode`); the number " +
    "and tab are not part of the file, so leave them out of edit's old_text. Returns up to " +
    `${READ_MAX_LINES} lines or 50 KB per call; for longer files the result ends with the offset to continue ` +
    "from, and offset/limit can jump to any line. PNG, JPEG, GIF and WebP images come back as images. " +
    "Read a file before editing it. Use bash (ls, find, rg) to list directories or search.",
  parameters: args.jsonSchema,
  readsOnlyInside(raw, cwd) {
    const path = renameKeys(raw, { file_path: "path" }).path;
    // Judged as the jail judges it: by where the path really leads, symlinks and all.
    return typeof path === "string" && path !== "" && judgePath(jailRoot(cwd), resolveToolPath(cwd, path)).inside;
  },
  async execute(raw, ctx) {
    const parsed = args.parse(renameKeys(raw, { file_path: "path" }));
    if (!parsed.ok) return parsed.error;
    const { path, limit } = parsed.value;
    const offset = Math.max(1, parsed.value.offset ?? 1);
    const abs = resolveToolPath(ctx.cwd, path);
    const jailed = refuseOutsideJail(ctx, "read", path, abs);
    if (jailed) return jailed;

    const { open, stat } = await loadFsPromises();
    const info = await stat(abs).catch((err: NodeJS.ErrnoException) => err);
    if (info instanceof Error) {
      return textResult(info.code === "ENOENT" ? await missingFileMessage(path, abs) : `read: cannot read ${path}: ${errnoWords(info)}`, true);
    }
    if (info.isDirectory()) {
      return textResult(`read: ${path} is a directory; list it with bash (e.g. \`ls -la ${shellPath(path)}\`)`, true);
    }
    if (!info.isFile()) return notRegular(path);

    let handle: FileHandle;
    try {
      // O_NONBLOCK: should the path have become a FIFO since the stat, opening it must not wait
      // for a writer that never comes (no abort reaches a blocked open); the fstat below refuses it.
      handle = await open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (err) {
      return textResult(`read: cannot read ${path}: ${errnoWords(err)}`, true);
    }
    try {
      if (!(await handle.stat()).isFile()) return notRegular(path);
      // A size of 0 is an empty file, or a /proc or /sys file whose size is not known until read:
      // a whole chunk is asked for, so the binary probe below sees its bytes (/proc/self/cmdline's NULs).
      const first = Buffer.alloc(info.size === 0 ? CHUNK_BYTES : Math.min(CHUNK_BYTES, info.size));
      const { bytesRead } = await handle.read(first, 0, first.length, 0);
      const head = first.subarray(0, bytesRead);

      const mime = imageMimeType(head);
      if (mime) {
        const image = await readImage(handle, path, abs, mime, info.size);
        if (image.seen) rememberView(ctx, abs, { sha256: image.seen, stat: info });
        return image.result;
      }
      const unshown = notShownAsText(head);
      if (unshown === "UTF-16LE" || unshown === "UTF-16BE") {
        return textResult(
          `read: ${path} is ${unshown} text (its byte-order mark says so), which read shows as UTF-8 only; ` +
            `read it through bash: \`iconv -f ${unshown} -t UTF-8 ${shellPath(path)}\``,
          true,
          { path: abs, bytes: info.size },
        );
      }
      if (unshown === "binary") {
        return textResult(
          `read: ${path} looks binary (it has NUL bytes); refusing to read it as text. ` +
            "Inspect it with bash instead (e.g. `file`, `xxd | head`, `strings`).",
          true,
          { path: abs, bytes: info.size },
        );
      }
      const hash = new Bun.CryptoHasher("sha256");
      const window = await scanLines(handle, head, offset, limit, ctx.signal, hash);
      if (window === "aborted") return textResult("read: aborted", true);
      const result = renderWindow(window, path, abs, offset, limit);
      // What edit and write later compare the file with (src/tools/file-views.ts).
      if (!result.is_error) rememberView(ctx, abs, { sha256: hash.digest("hex"), stat: info });
      return result;
    } catch (err) {
      return textResult(`read: cannot read ${path}: ${errnoWords(err)}`, true);
    } finally {
      await handle.close().catch(() => {});
    }
  },
};

function notRegular(path: string): ToolResult {
  return textResult(
    `read: ${path} is not a regular file (a device, socket or pipe), and reading one can wait forever; ` +
      "use bash with a timeout to inspect it (e.g. `timeout 5 head -c 4096 " + shellPath(path) + "`)",
    true,
  );
}

/** By magic bytes: a PNG named `.txt` is still an image, a text file named `.png` is still text. */
export function imageMimeType(bytes: Uint8Array): string | undefined {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return "image/gif";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return undefined;
}

/**
 * Why read shows a file's bytes (its start) as no text, or undefined when it shows them: UTF-16 by
 * its byte-order mark, or binary by a NUL early on. write judges by it too: a file read cannot show
 * is no file the model could have read first.
 */
export function notShownAsText(head: Uint8Array): "UTF-16LE" | "UTF-16BE" | "binary" | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return "UTF-16LE";
  if (head[0] === 0xfe && head[1] === 0xff) return "UTF-16BE";
  return head.subarray(0, BINARY_PROBE_BYTES).includes(0) ? "binary" : undefined;
}

/** The image as a result, and the hash of what was shown (none when refused). */
async function readImage(
  handle: FileHandle,
  path: string,
  abs: string,
  mime: string,
  size: number,
): Promise<{ result: ToolResult; seen?: string }> {
  if (size > READ_MAX_IMAGE_BYTES) {
    // Two decimals at most: the limit is exactly 3.75 MB, as the README says, never rounded to 3.8.
    const mb = (n: number) => `${Number((n / 1024 / 1024).toFixed(2))} MB`;
    return {
      result: textResult(
        `read: ${path} is a ${mb(size)} image, over the ${mb(READ_MAX_IMAGE_BYTES)} limit; ` +
          `make a smaller copy with bash (e.g. ImageMagick \`convert ${shellPath(path)} -resize 2000x2000 small.png\`) and read that`,
        true,
      ),
    };
  }
  const bytes = await handle.readFile();
  const kind = mime.slice("image/".length).toUpperCase();
  // Loaded by the first image: a run that reads none does without it.
  const { cutShort, imageSize, MAX_IMAGE_SIDE, PNG_TAIL_BYTES } = await import("../protocol/image-size.ts");
  const dimensions = imageSize(bytes, mime);
  if (dimensions && cutShort(bytes, bytes.subarray(-PNG_TAIL_BYTES), bytes.byteLength, mime)) {
    return { result: textResult(`read: ${path} is a ${kind} image that ends before its image does (cut short: an interrupted download or screenshot?); make it again, or check it with bash (\`file ${shellPath(path)}\`)`, true) };
  }
  if (!dimensions) {
    return { result: textResult(`read: ${path} starts like a ${kind} image, but its header does not say its size (damaged or cut short?); check it with bash (\`file ${shellPath(path)}\`)`, true) };
  }
  if (Math.max(dimensions.width, dimensions.height) > MAX_IMAGE_SIDE) {
    return {
      result: textResult(
        `read: ${path} is ${dimensions.width}×${dimensions.height} pixels, over the ${MAX_IMAGE_SIDE} px a side the model takes; ` +
          `make a smaller copy with bash (e.g. ImageMagick \`convert ${shellPath(path)} -resize 2000x2000 small.png\`) and read that`,
        true,
      ),
    };
  }
  return {
    result: {
      content: [{ type: "image", mime_type: mime, data: bytes.toString("base64") }],
      is_error: false,
      details: { path: abs, mime_type: mime, bytes: bytes.byteLength },
    },
    seen: sha256Hex(bytes),
  };
}

interface LineWindow {
  /** rendered `cat -n` lines, each ending in "\n" */
  lines: string[];
  startLine: number;
  /** last line shown; startLine - 1 when nothing was shown */
  endLine: number;
  totalLines: number;
  /** the output caps (not the caller's limit) stopped the window early */
  truncated: boolean;
  cappedBy?: "lines" | "bytes";
  /** set when one line alone was longer than the byte cap */
  longLine?: { line: number; bytes: number; shown: number };
}

/**
 * Streams the file once: renders the lines of [offset, offset + limit) until a cap is hit, and
 * counts every newline so the caller can say how many lines there are. Memory stays bounded by the
 * caps, whatever the file size.
 */
async function scanLines(
  handle: FileHandle,
  firstChunk: Buffer,
  offset: number,
  limit: number | undefined,
  signal: AbortSignal,
  /** fed every byte of the file */
  hash: Bun.CryptoHasher,
): Promise<LineWindow | "aborted"> {
  const wanted = Math.min(limit ?? READ_MAX_LINES, READ_MAX_LINES);
  // The file's byte-order mark is no text; a U+FEFF at the start of a later line (files joined with
  // cat) is, and is shown, as edit matches it.
  const decoder = new TextDecoder("utf-8");
  const inner = new TextDecoder("utf-8", { ignoreBOM: true });
  const window: LineWindow = { lines: [], startLine: offset, endLine: offset - 1, totalLines: 0, truncated: false };
  let outBytes = 0;
  let collecting = true;
  let lineNo = 1;
  let parts: Buffer[] = [];
  let kept = 0; // bytes of the current line held in `parts` (bounded)
  let full = 0; // true length of the current line
  let lastByte = -1;

  const finishLine = () => {
    if (!collecting || lineNo < offset) return;
    let text = (lineNo === 1 ? decoder : inner).decode(Buffer.concat(parts, kept));
    if (kept === full && text.endsWith("\r")) text = text.slice(0, -1);
    const prefix = `${String(lineNo).padStart(6)}\t`;
    const size = Buffer.byteLength(prefix) + Buffer.byteLength(text) + 1;
    if (outBytes + size > READ_MAX_BYTES) {
      window.cappedBy = "bytes";
      collecting = false;
      if (window.lines.length > 0) return;
      // A single line bigger than the whole budget: show its start rather than nothing.
      const budget = READ_MAX_BYTES - Buffer.byteLength(prefix) - 1;
      const shown = cutUtf8(Buffer.from(text), budget);
      window.lines.push(`${prefix}${shown.toString()}\n`);
      window.endLine = lineNo;
      window.longLine = { line: lineNo, bytes: full, shown: shown.byteLength };
      return;
    }
    window.lines.push(`${prefix}${text}\n`);
    outBytes += size;
    window.endLine = lineNo;
    if (window.lines.length >= wanted) {
      collecting = false;
      if (limit === undefined || limit > READ_MAX_LINES) window.cappedBy = "lines";
    }
  };

  let chunk: Buffer = firstChunk;
  let position = firstChunk.length;
  const buffer = Buffer.alloc(CHUNK_BYTES);
  while (chunk.length > 0) {
    if (signal.aborted) return "aborted";
    hash.update(chunk);
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(10, pos);
      const end = nl === -1 ? chunk.length : nl;
      if (collecting && lineNo >= offset) {
        full += end - pos;
        // Keep a little over the budget so an over-long line is still detected and cut cleanly.
        const room = READ_MAX_BYTES + 8 - kept;
        if (room > 0 && end > pos) {
          const piece = Buffer.from(chunk.subarray(pos, Math.min(end, pos + room)));
          parts.push(piece);
          kept += piece.length;
        }
      }
      if (nl === -1) break;
      finishLine();
      lineNo++;
      parts = [];
      kept = 0;
      full = 0;
      pos = nl + 1;
    }
    lastByte = chunk[chunk.length - 1];
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    position += bytesRead;
    chunk = buffer.subarray(0, bytesRead);
  }
  // A last line without a trailing newline is still a line.
  if (lastByte !== -1 && lastByte !== 10) {
    finishLine();
    window.totalLines = lineNo;
  } else {
    window.totalLines = lineNo - 1;
  }
  // Capped only counts when the caps hid something the caller asked for.
  window.truncated = window.longLine !== undefined || (window.cappedBy !== undefined && window.endLine < window.totalLines);
  return window;
}

/** Cuts at most `max` bytes without splitting a UTF-8 character. */
function cutUtf8(bytes: Buffer, max: number): Buffer {
  if (bytes.length <= max) return bytes;
  let cut = max;
  while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  return bytes.subarray(0, cut);
}

function renderWindow(window: LineWindow, path: string, abs: string, offset: number, limit?: number): ToolResult {
  const details = {
    path: abs,
    total_lines: window.totalLines,
    start_line: window.startLine,
    end_line: window.endLine,
    truncated: window.truncated,
  };
  if (window.totalLines === 0) return textResult(`(${path} is empty)`, false, details);
  if (offset > window.totalLines) {
    return textResult(
      `read: offset ${offset} is past the end of ${path}, which has ${window.totalLines} lines; ` +
        `use an offset between 1 and ${window.totalLines}`,
      true,
      details,
    );
  }
  let text = window.lines.join("");
  if (window.longLine) {
    const { line, bytes, shown } = window.longLine;
    text +=
      `[line ${line} is ${bytes} bytes long; only its first ${shown} bytes are shown. ` +
      `See the rest with bash, e.g. \`sed -n ${line}p ${shellPath(path)} | cut -b ${shown + 1}-${shown + 50_000}\`]\n`;
  }
  if (window.endLine < window.totalLines) {
    const why = window.cappedBy === "bytes" ? " (output is capped at 50 KB per call)" : "";
    text +=
      `[showing lines ${window.startLine}-${window.endLine} of ${window.totalLines}${why}; ` +
      `call read with offset=${window.endLine + 1}${limit ? ` limit=${limit}` : ""} to continue]\n`;
  }
  return textResult(text, false, details);
}

async function missingFileMessage(path: string, abs: string): Promise<string> {
  const { readdir, readlink } = await loadFsPromises();
  const link = await readlink(abs).catch(() => undefined);
  if (link !== undefined) return `read: ${path} is a symbolic link to ${link}, which does not exist`;
  const dir = dirname(abs);
  const entries = await readdir(dir).catch(() => null);
  if (!entries) return `read: ${path} does not exist (nor does its directory ${dir})`;
  // Suggest names that differ only in case or extension: the usual way a guessed path is wrong.
  const stem = (name: string) => name.toLowerCase().split(".")[0];
  const want = stem(basename(abs));
  const similar = entries.filter((name) => want && stem(name) === want).slice(0, 5);
  const hint = similar.length ? `; similar names there: ${similar.join(", ")}` : "";
  return `read: ${path} does not exist${hint}`;
}

/** A path the model gave, for a bash command zot suggests: quoted, but a leading ~ left for the shell to expand. */
function shellPath(path: string): string {
  if (path === "~") return "~";
  return path.startsWith("~/") ? `~/${shellQuote(path.slice(2))}` : shellQuote(path);
}
