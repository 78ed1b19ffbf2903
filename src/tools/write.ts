// The `write` tool: create or replace a whole file. Rule: nothing is written over what the model
// has not seen: an existing file it never read in this conversation is refused (as Claude Code's
// Write refuses it), so is a file that changed since the model last read it, and a file another
// program creates in the meantime is not overwritten. A replaced file keeps its line endings (CRLF)
// and its byte-order mark, as edit keeps them. A new file appears whole (written aside,
// then linked into place); an existing one is rewritten in place, keeping its inode, hard links,
// mode and owner, and any bytes another process appends meanwhile (src/tools/rewrite-in-place.ts).
import { closeSync, fstatSync, fsyncSync, linkSync, openSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { type Tool, textResult } from "../protocol/tool.ts";
import { defineArgs, renameKeys, resolveToolPath } from "./args.ts";
import { loadFsPromises } from "./async-fs.ts";
import { errnoWords } from "../protocol/errno-words.ts";
import { changedSinceSeen, neverSeen, rememberView } from "./file-views.ts";
import { appendedNote, rewriteInPlace } from "./rewrite-in-place.ts";
import { capDiff, diffPaths, wholeTextDiff } from "./unified-diff.ts";
import { refuseProtected } from "./protected-paths.ts";
import { notShownAsText } from "./read.ts";
import { isWithin, refuseOutsideJail } from "./sandbox.ts";
import { randomHex, sha256Hex } from "../protocol/random-hex.ts";
import { writeArgs } from "./builtin-args.ts";
import { lstatSafe, readlinkSafe, statSafe } from "../config/quiet-fs.ts";
import { builtinParameters } from "./builtin-parameters.ts" with { type: "macro" };
import { kindOfNonFile } from "../config/regular-file.ts";

const args = defineArgs("write", writeArgs, builtinParameters("writeArgs"));
/** A file bigger than this is not diffed for a preview (the diff would not be read anyway). */
const PREVIEW_MAX_BYTES = 1 << 20;

export const writeTool: Tool = {
  name: "write",
  description:
    "Create a new file, or replace an existing file's entire content. Parent directories are created. " +
    "To change part of an existing file use edit instead: it is cheaper and cannot drop unrelated lines. " +
    "If you overwrite an existing file, read it first. Paths are relative to the working directory.",
  parameters: args.jsonSchema,
  async preview(raw, cwd) {
    // What the call would change, for a person asked to allow it; nothing is written.
    const parsed = args.parse(renameKeys(raw, { file_path: "path", text: "content" }));
    if (!parsed.ok) return undefined;
    const abs = resolveToolPath(cwd, parsed.value.path);
    const { readFile, stat } = await loadFsPromises();
    const existing = await stat(abs).catch(() => null);
    if (existing && (!existing.isFile() || existing.size > PREVIEW_MAX_BYTES)) return undefined;
    const before = existing ? await readFile(abs).catch(() => undefined) : Buffer.alloc(0);
    if (!before || before.subarray(0, 8192).includes(0)) return undefined;
    const lf = (text: string) => text.replaceAll("\r\n", "\n");
    const [from, to] = diffPaths(cwd, abs);
    return capDiff(wholeTextDiff(lf(before.toString("utf8")), lf(parsed.value.content), [existing ? from : "/dev/null", to]));
  },
  async execute(raw, ctx) {
    const parsed = args.parse(renameKeys(raw, { file_path: "path", text: "content" }));
    if (!parsed.ok) return parsed.error;
    const { path, content } = parsed.value;
    if (/[\\/]$/.test(path)) return textResult(`write: ${path} ends in a slash, so it names a directory; give the path of a file`, true);
    const abs = resolveToolPath(ctx.cwd, path);
    const refused = refuseOutsideJail(ctx, "write", path, abs) ?? refuseProtected(ctx, "write", path, abs);
    if (refused) return refused;
    const { lstat, mkdir, readlink, stat } = await loadFsPromises();
    let statError: unknown;
    const existing = await stat(abs).catch((error: unknown) => {
      statError = error;
      return null;
    });
    // A link that loops (or a folder zot may not enter) is said as that, not as a file to create.
    const statCode = (statError as NodeJS.ErrnoException | undefined)?.code;
    if (statCode !== undefined && statCode !== "ENOENT" && statCode !== "ENOTDIR") {
      return textResult(`write: cannot write ${path}: ${errnoWords(statError)}; nothing was written`, true);
    }
    if (existing?.isDirectory()) {
      return textResult(`write: ${path} is a directory; give a file path inside it`, true);
    }
    // A device or a pipe: /dev/zero would be read without end to compare, a pipe cannot be rewritten in place.
    if (existing && !existing.isFile()) {
      return textResult(`write: ${path} is ${kindOfNonFile(existing)}, not a regular file; zot writes files only, nothing was written`, true);
    }
    let bytes: Buffer = Buffer.from(content, "utf8");
    let appended = 0;
    try {
      if (existing) {
        const written = rewriteInPlace(abs, (current) => {
          // An extension's call (a command's tool_prompt) is the extension's word, not the model's guess.
          if (current.length > 0 && !ctx.origin && notShownAsText(current) === undefined && neverSeen(ctx, abs)) {
            return { refuse: `write: ${path} exists and you have not read it since this session was opened (a read from before a resume or a /clear does not count); read it first (or change part of it with edit), so its content is not replaced unseen; nothing was written.` };
          }
          const changed = changedSinceSeen(ctx, abs, current);
          if (changed) return { refuse: `write: ${path}: ${changed}. Read it again before replacing it; nothing was written.` };
          bytes = inStyleOf(current, content);
          return bytes;
        });
        if (!written.ok) return textResult(written.refuse.startsWith("write: ") ? written.refuse : `write: ${path}: ${written.refuse}`, true);
        appended = written.appended;
        rememberView(ctx, abs, { sha256: sha256Hex(bytes), stat: { size: bytes.length, mtimeMs: written.stat.mtimeMs } });
      } else {
        if ((await lstat(abs).catch(() => null))?.isSymbolicLink()) {
          const target = await readlink(abs).catch(() => "?");
          return textResult(`write: ${path} is a symbolic link to ${target}, which does not exist; write that path instead`, true);
        }
        const blocker = blockerAmongParents(dirname(abs));
        if (blocker) return textResult(`write: cannot create ${path}: ${blocker}; nothing was written`, true);
        // A working directory deleted during the run stays deleted: creating its folders would bring
        // back what the user removed (bash refuses to start in it, too).
        if (isWithin(ctx.cwd, abs) && !statSafe(ctx.cwd)?.isDirectory()) {
          return textResult(`write: the working directory ${ctx.cwd} does not exist any more; nothing was written (it is not created again)`, true);
        }
        await mkdir(dirname(abs), { recursive: true });
        const created = createFile(abs, bytes);
        if (created === "exists") {
          return textResult(
            `write: ${path} was created by another program while zot was writing it; nothing was written. Read it, then decide whether to replace it.`,
            true,
          );
        }
        rememberView(ctx, abs, { sha256: sha256Hex(bytes), stat: { size: bytes.length, mtimeMs: created.mtimeMs } });
      }
    } catch (err) {
      return textResult(`write: could not write ${path}: ${errnoWords(err)}`, true);
    }
    const how = existing ? "overwrote the existing file" : "created a new file";
    const note = appended > 0 ? `\n${appendedNote(path, appended)}` : "";
    return textResult(`wrote ${bytes.byteLength} bytes to ${path} (${how})${note}`, false, {
      path: abs,
      bytes: bytes.byteLength,
      created: !existing,
      ...(appended > 0 ? { appended_by_others: appended } : {}),
    });
  },
};

/**
 * What stops the folders of a new file from being made: the nearest existing parent is a file, or
 * a symbolic link to nothing (mkdir would say only EEXIST or ENOENT). undefined when none does.
 */
function blockerAmongParents(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const found = statSafe(at);
    if (found) return found.isDirectory() ? undefined : `${at} is a file, not a directory`;
    if (lstatSafe(at)?.isSymbolicLink()) return `${at} is a symbolic link to ${readlinkSafe(at) ?? "?"}, which does not exist`;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * `content` as the file it replaces writes text: CRLF line ends where the file used them (more CRLF
 * than lone LF), and its UTF-8 byte-order mark.
 */
function inStyleOf(current: Buffer, content: string): Buffer {
  const text = current.toString("utf8");
  const crlf = text.split("\r\n").length - 1;
  const lf = text.split("\n").length - 1 - crlf;
  let out = content;
  if (crlf > lf && !content.includes("\r\n")) out = content.replaceAll("\n", "\r\n");
  if (text.startsWith("\uFEFF") && !out.startsWith("\uFEFF")) out = `\uFEFF${out}`;
  return Buffer.from(out, "utf8");
}

/**
 * Creates `path` holding `bytes`, never over a file that exists: written to a temp file beside it
 * and hard-linked into place, so no one sees it half-written; where the file system has no hard
 * links, created exclusively and written. "exists" when another program created it first.
 */
export function createFile(path: string, bytes: Uint8Array): { mtimeMs: number } | "exists" {
  const temp = join(dirname(path), `.${basename(path)}.zot-${randomHex(6)}.tmp`);
  let fd = openSync(temp, "wx", 0o666);
  try {
    writeAll(fd, bytes);
    // Durable before it has its name, so a crash cannot leave the name pointing at empty content.
    fsyncSync(fd);
    const { mtimeMs } = fstatSync(fd);
    closeSync(fd);
    fd = -1;
    try {
      linkSync(temp, path);
      return { mtimeMs };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return "exists";
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "EMLINK" && code !== "EXDEV") throw error;
    }
    // No hard links here (some FUSE and network file systems): create it exclusively instead.
    try {
      fd = openSync(path, "wx", 0o666);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return "exists";
      throw error;
    }
    writeAll(fd, bytes);
    fsyncSync(fd);
    return { mtimeMs: fstatSync(fd).mtimeMs };
  } finally {
    if (fd >= 0) closeSync(fd);
    rmSync(temp, { force: true });
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}
