// Server-sent events from the bytes of a streaming response, for every wire API: the stream
// driver reads the response body itself rather than through the SDKs' stream classes, whose
// byte-at-a-time line splitting (and, for Chat Completions, an extra generator per chunk) cost
// more than the rest of a long answer's path.
// Rule: the SSE format as the spec and the SDKs read it: \n, \r\n or \r end a line, a blank line
// ends an event, `data:` lines join with \n, `:` lines are comments, bytes split anywhere (inside
// a UTF-8 sequence, a line, a CRLF) decode as if they had come whole; an event left without its
// blank line at the end of the stream still counts, as the SDKs count it.
import { noFTL } from "bun:jsc";

export interface SseEvent {
  /** the `event:` field; undefined when the event had none */
  event: string | undefined;
  data: string;
}

export class SseDecoder {
  private readonly text = new TextDecoder();
  /** decoded text not yet ended by a blank line */
  private rest = "";

  /** The events a chunk of the body completes, in order. */
  push(chunk: Uint8Array): SseEvent[] {
    let buffer = this.rest + this.text.decode(chunk, { stream: true });
    if (buffer.includes("\r")) buffer = normalizeLineEnds(buffer);
    const events: SseEvent[] = [];
    let start = 0;
    for (let end = buffer.indexOf("\n\n", start); end !== -1; end = buffer.indexOf("\n\n", start)) {
      const event = parseEvent(buffer, start, end);
      if (event) events.push(event);
      start = end + 2;
    }
    this.rest = start === 0 ? buffer : buffer.slice(start);
    return events;
  }

  /** The event still open when the body ended, if it has data. */
  end(): SseEvent[] {
    const buffer = (this.rest + this.text.decode()).replace(/\r\n?/g, "\n").replace(/\n+$/, "");
    this.rest = "";
    const event = buffer ? parseEvent(buffer, 0, buffer.length) : undefined;
    return event ? [event] : [];
  }
}

/**
 * \r\n and \r → \n. A \r at the very end stays as it is: its \n may be the next chunk's first
 * byte, and the pair must not read as two line ends.
 */
function normalizeLineEnds(text: string): string {
  if (!text.endsWith("\r")) return text.replace(/\r\n?/g, "\n");
  return `${text.slice(0, -1).replace(/\r\n?/g, "\n")}\r`;
}

/** One event's lines, text[start, end); undefined for an event without data (comments, a bare `event:`). */
function parseEvent(text: string, start: number, end: number): SseEvent | undefined {
  let event: string | undefined;
  let data: string | undefined;
  while (start < end) {
    let lineEnd = text.indexOf("\n", start);
    if (lineEnd === -1 || lineEnd > end) lineEnd = end;
    // The common line first: `data: {…}` without slicing out the field name.
    if (text.startsWith("data:", start)) {
      const value = fieldValue(text, start + 5, lineEnd);
      data = data === undefined ? value : `${data}\n${value}`;
    } else if (text.startsWith("event:", start)) {
      event = fieldValue(text, start + 6, lineEnd);
    } else if (text.startsWith("data", start) && lineEnd === start + 4) {
      // A field name alone is the field with an empty value.
      data = data === undefined ? "" : `${data}\n`;
    }
    // id:, retry:, comments and unknown fields mean nothing to a model stream.
    start = lineEnd + 1;
  }
  return data === undefined ? undefined : { event, data };
}

/** A field's value: the rest of the line, without the one space the format allows after the colon. */
function fieldValue(text: string, from: number, lineEnd: number): string {
  return text.slice(text.charCodeAt(from) === 32 ? from + 1 : from, lineEnd);
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(SseDecoder.prototype.push);
noFTL(parseEvent);
noFTL(fieldValue);
