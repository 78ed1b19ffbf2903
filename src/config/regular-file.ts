// A file zot did not write, read whole only when it is a regular file. A named pipe waits for a
// writer forever (one that is a terminal takes the user's keystrokes as the file), a device such as
// /dev/zero never ends, and a cloned repository can ship a link to either as its AGENTS.md or
// .mcp.json, read before the folder is trusted. Rule: every read of such a file goes through here
// (or checks isFile() itself); one that is no regular file is an error in words, as a missing one
// is. Two exceptions: /dev/null reads as empty (a link to it is how a file is blanked), and a pipe
// the user named on the command line (`--mcp-config <(jq …)`) is read, as asked.
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats, statSync } from "node:fs";

/** What a path that is no regular file is, in words. */
export function kindOfNonFile(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a file";
}

export interface RegularFileOptions {
  /** a pipe is read too (blocking): for a path the user named on the command line */
  pipes?: boolean;
}

/**
 * The file's bytes (or text), read only when it is a regular file; otherwise an error whose
 * message says what it is ("it is a named pipe, not a regular file"), with code EISDIR for a
 * directory as a plain read gives. Nothing that is no regular file is opened (opening a device
 * can act), and what is opened is checked again, in case the path changed in between.
 */
export function readRegularFile(file: string, encoding?: undefined, options?: RegularFileOptions): Buffer;
export function readRegularFile(file: string, encoding: "utf8" | "latin1", options?: RegularFileOptions): string;
export function readRegularFile(file: string, encoding?: "utf8" | "latin1", options: RegularFileOptions = {}): Buffer | string {
  const pipe = (stats: Stats) => options.pipes === true && stats.isFIFO();
  const before = statSync(file);
  if (isDevNull(before)) return encoding ? "" : Buffer.alloc(0);
  if (!before.isFile() && !pipe(before)) throw notRegular(before);
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOCTTY | (pipe(before) ? 0 : constants.O_NONBLOCK));
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() && !pipe(stats)) throw notRegular(stats);
    return encoding ? readFileSync(fd, encoding) : readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

function notRegular(stats: Stats): Error {
  const error: Error & { code?: string } = new Error(`it is ${kindOfNonFile(stats)}, not a regular file`);
  if (stats.isDirectory()) error.code = "EISDIR";
  return error;
}

let devNull: Stats | undefined;

/** Whether `stats` are /dev/null's (a file blanked by a link to it reads as empty). */
export function isDevNull(stats: Stats): boolean {
  if (!stats.isCharacterDevice()) return false;
  try {
    devNull ??= statSync("/dev/null");
  } catch {
    return false;
  }
  return stats.rdev === devNull.rdev;
}
