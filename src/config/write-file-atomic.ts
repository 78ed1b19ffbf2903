// Writing a small file of zot's own state (auth.json, trust.json, mcp.json, .mcp.json) so that a
// reader never sees half of it. Rule: a temporary file beside the target, its mode set explicitly,
// then renamed over the target; a failure leaves the target as it was and no temporary behind.
// A target that is a symbolic link (a dotfiles repository's mcp.json linked into ~/.zot) is
// written where it leads, so the link stays and the file it names is the one that changes.
import fs from "node:fs";
import path from "node:path";

export function writeFileAtomic(file: string, content: string, mode: number): void {
  const target = whereWritten(file);
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  try {
    fs.writeFileSync(tmp, content, { mode });
    // writeFileSync's mode passes through the umask and is ignored when the file exists.
    fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, target);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}

/** The file a write to `file` changes: itself, or the file its links lead to. */
function whereWritten(file: string): string {
  if (!fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) return file;
  try {
    return fs.realpathSync(file);
  } catch {
    throw new Error(`${file} is a link to ${fs.readlinkSync(file)}, which is not there; nothing was written (make the file it names, or remove the link)`);
  }
}
