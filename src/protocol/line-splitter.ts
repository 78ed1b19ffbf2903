// Splits a byte stream into lines: the NDJSON framing of a child's stdout (LineChild), of `zot rpc`'s
// stdin and of the rpc client's view of zot's stdout. Rule: bounded memory whatever the other side
// writes; an over-long line is counted and discarded, never buffered.
/**
 * Splits a byte stream into lines. Bytes are kept until a newline, so a UTF-8 character cut
 * across chunks is decoded whole (0x0A never occurs inside a multi-byte sequence). A line over the
 * limit is discarded as it streams in, never held in memory, and reported once with its size.
 */
/** How much of an over-long line is kept to say what it was. */
const HEAD_BYTES = 512;

export class LineSplitter {
  private parts: Uint8Array[] = [];
  private size = 0;
  /** bytes of the over-long line being skipped, or -1 when not skipping */
  private dropping = -1;
  /** the first HEAD_BYTES of the line being skipped: enough to read which call it answered */
  private head: Uint8Array | undefined;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    /** an over-long line was skipped: its size, and its first bytes decoded (where a frame's type and id usually are) */
    private readonly onDrop: (bytes: number, head: string) => void,
  ) {}

  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      if (newline === -1) {
        // The stream may reuse its buffer; keep a copy of the unfinished tail.
        this.take(chunk.slice(start));
        return;
      }
      this.take(chunk.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
  }

  /** End of stream: a last line without a newline still counts. */
  end(): void {
    if (this.size > 0 || this.dropping >= 0) this.endLine();
  }

  private take(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.dropping >= 0) {
      this.dropping += bytes.length;
      return;
    }
    if (this.size + bytes.length > this.maxBytes) {
      this.dropping = this.size + bytes.length;
      this.head = headOf([...this.parts, bytes]);
      this.parts = [];
      this.size = 0;
      return;
    }
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  private endLine(): void {
    if (this.dropping >= 0) {
      const dropped = this.dropping;
      const head = this.head ? new TextDecoder().decode(this.head) : "";
      this.dropping = -1;
      this.head = undefined;
      this.onDrop(dropped, head);
      return;
    }
    const bytes = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    this.parts = [];
    this.size = 0;
    let line = bytes ? this.decoder.decode(bytes) : "";
    if (line.endsWith("\r")) line = line.slice(0, -1);
    this.onLine(line);
  }
}

/** The first HEAD_BYTES of these pieces, copied (the stream may reuse its buffers). */
function headOf(pieces: Uint8Array[]): Uint8Array {
  const taken: Uint8Array[] = [];
  let size = 0;
  for (const piece of pieces) {
    if (size >= HEAD_BYTES) break;
    const part = piece.subarray(0, HEAD_BYTES - size);
    taken.push(part);
    size += part.length;
  }
  return Uint8Array.from(Buffer.concat(taken));
}
