// Reads a session file back: the header, then every record that is whole. Rule: a file is never
// refused for a damaged tail or a damaged line: a record cut off mid-write (zot killed, disk full)
// is dropped and reported, an unreadable line is skipped and reported; only a file with no valid
// header, or one written in a newer format, is refused, with a sentence saying so.
import { readFileSync, statSync } from "node:fs";
import * as v from "valibot";
import { kindOfNonFile } from "../config/regular-file.ts";
import { UsageError } from "../config/usage-error.ts";
import { describeIssue } from "../protocol/schema-issue.ts";
import { SESSION_FORMAT } from "../protocol/session-format.ts";
import {
  SESSION_ENTRY_TYPES,
  SessionEntry,
  SessionHeader,
} from "../protocol/session-records.ts";
import { errnoWords } from "../protocol/errno-words.ts";

/** A session file that cannot be opened at all (missing, empty, not a session, too new). */
export class SessionFileError extends UsageError {
  constructor(message: string) {
    super(message);
    this.name = "SessionFileError";
  }
}

/**
 * A session this zot cannot open, as opposed to a file that is no session at all: one written by a
 * newer zot, or one the file system will not let it read. `--continue` stops at it rather than
 * pass over it to an older conversation.
 */
export class SessionUnopenableError extends SessionFileError {
  constructor(message: string) {
    super(message);
    this.name = "SessionUnopenableError";
  }
}

export interface SessionContent {
  file: string;
  header: SessionHeader;
  entries: SessionEntry[];
  /** what was dropped or skipped, one sentence each */
  problems: string[];
  /** bytes of whole records: where the next record goes */
  validBytes: number;
  /** the last record is whole but lost its newline */
  missingNewline: boolean;
}

const NEWLINE = 0x0a;

export function readSessionFile(file: string): SessionContent {
  let bytes: Uint8Array;
  try {
    // A FIFO would wait for a writer forever, a device (/dev/zero) never end: a session is a file.
    const stats = statSync(file);
    if (!stats.isFile()) throw new SessionFileError(`${file} is not a session file: it is ${kindOfNonFile(stats)}, not a regular file`);
    bytes = readFileSync(file);
  } catch (error) {
    if (error instanceof SessionFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new SessionFileError(`no session file ${file}`);
    throw new SessionUnopenableError(`cannot read the session file ${file}: ${errnoWords(error)}`);
  }
  return parseSessionBytes(bytes, file);
}

/** What a path that is not a regular file is, in words. */

/** Parses the bytes of a session file named `file` (for the messages). */
export function parseSessionBytes(bytes: Uint8Array, file: string): SessionContent {
  // 0x0a never occurs inside a multi-byte UTF-8 sequence, so the last one ends the last whole line.
  const end = bytes.lastIndexOf(NEWLINE) + 1;
  const decoder = new TextDecoder();
  const lines = decoder.decode(bytes.subarray(0, end)).split("\n");
  lines.pop();
  const problems: string[] = [];
  let validBytes = end;
  let missingNewline = false;
  if (end < bytes.length) {
    const tail = decoder.decode(bytes.subarray(end));
    if (parseSessionLine(tail).ok) {
      lines.push(tail);
      validBytes = bytes.length;
      missingNewline = true;
    } else {
      problems.push(`the last record was cut off mid-write (${bytes.length - end} bytes); it was dropped`);
    }
  }

  const first = lines[0];
  if (first === undefined) {
    throw new SessionFileError(
      bytes.length === 0 ? `${file} is empty, not a zot session` : `${file} holds no whole record, not even its header`,
    );
  }
  const header = parseHeader(first, file);
  const entries: SessionEntry[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const parsed = parseSessionLine(line);
    if (parsed.ok) entries.push(parsed.entry);
    else if (parsed.unknownType) problems.push(`line ${i + 1}: a "${parsed.unknownType}" record from a newer zot; skipped`);
    else problems.push(`line ${i + 1}: ${parsed.error}; skipped`);
  }
  return { file, header, entries, problems, validBytes, missingNewline };
}

function parseHeader(line: string, file: string): SessionHeader {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new SessionFileError(`${file} is not a zot session: its first line is not JSON`);
  }
  const parsed = v.safeParse(SessionHeader, value);
  if (!parsed.success) {
    throw new SessionFileError(`${file} is not a zot session: its first line is not a session header (${describeIssue(parsed.issues[0])})`);
  }
  if (parsed.output.format > SESSION_FORMAT) {
    throw new SessionUnopenableError(
      `${file} was written by a newer zot (session format ${parsed.output.format}, this zot reads up to ${SESSION_FORMAT}); upgrade zot to open it`,
    );
  }
  return parsed.output;
}

type LineResult = { ok: true; entry: SessionEntry } | { ok: false; error: string; unknownType?: string };

/** One record line read as a resume reads it (the listing reads the lines it needs with this too). */
export function parseSessionLine(line: string): LineResult {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, error: "not valid JSON" };
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type === "string" && type !== "session" && !SESSION_ENTRY_TYPES.has(type)) {
    return { ok: false, error: "unknown record", unknownType: type };
  }
  const parsed = v.safeParse(SessionEntry, value);
  if (!parsed.success) return { ok: false, error: `not a valid record (${describeIssue(parsed.issues[0])})` };
  return { ok: true, entry: parsed.output };
}
