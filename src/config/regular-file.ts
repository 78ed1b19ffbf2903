// A file zot did not write, read whole only when it is a regular file. A named pipe waits for a
// writer forever (one that is a terminal takes the user's keystrokes as the file), a device such as
// /dev/zero never ends, and a cloned repository can ship a link to either as its AGENTS.md or
// .mcp.json, read before the folder is trusted. Rule: every read of such a file goes through here
// (or checks isFile() itself); one that is no regular file is an error in words, as a missing one is.
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from "node:fs";

/** What a path that is no regular file is, in words. */
export function kindOfNonFile(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a file";
}

/**
 * The file's bytes (or text), read only when it is a regular file; otherwise an error whose
 * message says what it is ("it is a named pipe, not a regular file"), with code EISDIR for a
 * directory as a plain read gives. Opening never waits: a pipe is opened without blocking.
 */
export function readRegularFile(file: string): Buffer;
export function readRegularFile(file: string, encoding: "utf8" | "latin1"): string;
export function readRegularFile(file: string, encoding?: "utf8" | "latin1"): Buffer | string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      const error: Error & { code?: string } = new Error(`it is ${kindOfNonFile(stats)}, not a regular file`);
      if (stats.isDirectory()) error.code = "EISDIR";
      throw error;
    }
    return encoding ? readFileSync(fd, encoding) : readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
