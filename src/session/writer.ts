// Appends records to a session file. Rule: a record is one line written with one write at the end
// of the file (O_APPEND), never a rewrite of what is there; a write that fails half-way is cut back
// off, so the file holds each record whole or not at all.
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { errorText } from "../protocol/error-text.ts";
import type { SessionEntry, SessionHeader } from "../protocol/session-records.ts";

export class SessionWriter {
  /** bytes of whole records in the file */
  private size: number;
  private fd: number | undefined;

  private constructor(
    readonly file: string,
    fd: number,
    size: number,
  ) {
    this.fd = fd;
    this.size = size;
  }

  /** A new session file holding only `header`; fails if the file exists. */
  static create(file: string, header: SessionHeader): SessionWriter {
    mkdirSync(path.dirname(file), { recursive: true });
    const fd = openSync(file, "wx", 0o600);
    const writer = new SessionWriter(file, fd, 0);
    try {
      writer.write(header);
    } catch (error) {
      // A header that could not be written (a full disk) leaves no empty file for every later list to warn about.
      writer.close();
      rmSync(file, { force: true });
      throw error;
    }
    return writer;
  }

  /**
   * An existing session file, for appending: anything after `validBytes` (a record cut off
   * mid-write) is dropped first, and a last record that lost only its newline gets it back.
   */
  static reopen(file: string, validBytes: number, missingNewline: boolean): SessionWriter {
    const fd = openSync(file, "a");
    const writer = new SessionWriter(file, fd, validBytes);
    try {
      if (fstatSync(fd).size !== validBytes) ftruncateSync(fd, validBytes);
      if (missingNewline) writer.writeLine("\n");
    } catch (error) {
      writer.close();
      throw error;
    }
    return writer;
  }

  /** Appends one record; returns the bytes written. */
  write(record: SessionHeader | SessionEntry): number {
    return this.writeLine(`${JSON.stringify(record)}\n`);
  }

  private writeLine(line: string): number {
    if (this.fd === undefined) throw new Error(`${this.file} is closed`);
    const bytes = Buffer.from(line);
    try {
      let done = 0;
      while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done);
    } catch (error) {
      // Disk full or the like: take the partial record back out so the file stays whole.
      try {
        ftruncateSync(this.fd, this.size);
      } catch {}
      throw new Error(`could not write to ${this.file}: ${errorText(error)}`);
    }
    this.size += bytes.length;
    return bytes.length;
  }

  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }
}
