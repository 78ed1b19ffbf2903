// Why a file could not be read or written, in words a person (or the model) can act on.
// Rule: the common errno codes are a phrase ("it is a link that loops"); another code is given with
// the system's own short description ("EXDEV: cross-device link not permitted"), never with the
// path Node appends; an error with no code (zot's own, such as "it is a named pipe, not a regular
// file") by its message.
import { errorText } from "./error-text.ts";
import { ownEntry } from "./own-key.ts";

const WORDS: Record<string, string> = {
  ENOENT: "no such file",
  ENOTDIR: "a part of its path is a file, not a folder",
  EISDIR: "it is a directory",
  ELOOP: "it is a link that loops",
  ENAMETOOLONG: "the path is too long",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EIO: "an input/output error",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is used up",
  EROFS: "the file system is read-only",
  EMFILE: "too many files are open",
  ENFILE: "too many files are open",
  ENXIO: "no such device (a socket cannot be read as a file)",
  ETXTBSY: "the file is a program that is running",
};

/** The words for a failed file operation's error. */
export function errnoWords(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== "string") return errorText(error);
  const words = ownEntry(WORDS, code);
  if (words !== undefined) return words;
  // Node's message is "CODE: description, syscall 'path'": the path is already in the sentence.
  const message = errorText(error);
  return message.startsWith(`${code}: `) ? message.split(", ")[0] ?? code : code;
}
