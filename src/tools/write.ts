// The `write` tool: create or replace a whole file. Rule: a file is never seen half-written; bytes
// go to a temp file in the same directory and are renamed over the target, keeping its mode.
import { randomBytes } from "node:crypto";
import { chmod, lstat, mkdir, open, realpath, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import * as v from "valibot";
import { type Tool, textResult } from "../protocol/tool.ts";
import { defineArgs, renameKeys, resolveToolPath } from "./args.ts";
import { fileErrorText } from "./file-error-text.ts";
import { refuseProtected } from "./protected-paths.ts";
import { refuseOutsideJail } from "./sandbox.ts";

const WriteArgs = v.object({
  path: v.pipe(
    v.string(),
    v.minLength(1),
    v.description("File to write, relative to the working directory (or absolute)."),
  ),
  content: v.pipe(v.string(), v.description("The complete new content of the file.")),
});

const args = defineArgs("write", WriteArgs);

export const writeTool: Tool = {
  name: "write",
  description:
    "Create a new file, or replace an existing file's entire content. Parent directories are created. " +
    "To change part of an existing file use edit instead: it is cheaper and cannot drop unrelated lines. " +
    "If you overwrite an existing file, read it first. Paths are relative to the working directory.",
  parameters: args.jsonSchema,
  async execute(raw, ctx) {
    const parsed = args.parse(renameKeys(raw, { file_path: "path", text: "content" }));
    if (!parsed.ok) return parsed.error;
    const { path, content } = parsed.value;
    const abs = resolveToolPath(ctx.cwd, path);
    const refused = refuseOutsideJail(ctx, "write", path, abs) ?? refuseProtected(ctx, "write", path, abs);
    if (refused) return refused;
    const existing = await stat(abs).catch(() => null);
    if (existing?.isDirectory()) {
      return textResult(`write: ${path} is a directory; give a file path inside it`, true);
    }
    const bytes = Buffer.from(content, "utf8");
    try {
      await mkdir(dirname(abs), { recursive: true });
      await writeFileAtomic(abs, bytes);
    } catch (err) {
      return textResult(`write: could not write ${path}: ${fileErrorText(err)}`, true);
    }
    const how = existing ? "overwrote the existing file" : "created a new file";
    return textResult(`wrote ${bytes.byteLength} bytes to ${path} (${how})`, false, {
      path: abs,
      bytes: bytes.byteLength,
      created: !existing,
    });
  },
};

/**
 * Writes `bytes` to `path` by temp file + rename in the same directory, so readers see the old or
 * the new content, never a mix. An existing file keeps its mode; a symlink keeps pointing at the
 * same file (we write to its target rather than replacing the link with a regular file).
 */
export async function writeFileAtomic(path: string, bytes: Uint8Array): Promise<void> {
  const target = (await lstat(path).catch(() => null))?.isSymbolicLink() ? await realpath(path) : path;
  const mode = (await stat(target).catch(() => null))?.mode;
  const temp = join(dirname(target), `.${basename(target)}.zot-${randomBytes(6).toString("hex")}.tmp`);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(temp, "wx", 0o666);
    await handle.writeFile(bytes);
    // fsync before rename, so a crash cannot leave the new name pointing at empty content.
    await handle.sync();
    await handle.close();
    handle = undefined;
    if (mode !== undefined) await chmod(temp, mode & 0o7777);
    await rename(temp, target);
  } catch (err) {
    await handle?.close().catch(() => {});
    await rm(temp, { force: true }).catch(() => {});
    throw err;
  }
}
