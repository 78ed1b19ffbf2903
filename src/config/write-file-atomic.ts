// Writing a small file of zot's own state (auth.json, trust.json, mcp.json, .mcp.json) so that a
// reader never sees half of it. Rule: a temporary file beside the target, its mode set explicitly,
// then renamed over the target; a failure leaves the target as it was and no temporary behind.
import fs from "node:fs";
import path from "node:path";

export function writeFileAtomic(file: string, content: string, mode: number): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    fs.writeFileSync(tmp, content, { mode });
    // writeFileSync's mode passes through the umask and is ignored when the file exists.
    fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}
