// What a failed file operation means, in words the model (or a person) can act on, for the file
// tools' error results. Rule: the common errno codes get a plain phrase; anything else keeps
// Node's own message.

export function fileErrorText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e?.code) {
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ENOSPC":
      return "no space left on the device";
    case "EROFS":
      return "the file system is read-only";
    case "ENOTDIR":
      return "a part of the path is a file, not a directory";
    case "EISDIR":
      return "it is a directory";
    default:
      return e?.message ?? String(err);
  }
}
