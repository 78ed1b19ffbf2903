// The files that keep the whole output of long bash commands (and of settings hooks whose text is
// too long to give the model whole): `$TMPDIR/zot-bash-<hex>.log`, mode 0600, named in the tool's
// result (or the hook's text) so the model can search them; the binary content MCP servers return
// is kept beside them (`zot-mcp-blob-<hex>.<ext>`, mcp/blob-files.ts). Rule: they cannot pile up.
// Each file stops growing at BASH_OUTPUT_FILE_MAX_BYTES; whenever a new one is made, files older
// than BASH_OUTPUT_MAX_AGE_MS are removed, then the oldest others until all of them together,
// with room for the new one, fit in BASH_OUTPUT_BUDGET_BYTES. Only this user's files of that exact
// name are ever touched, and none written to in the last minute (another zot may be writing it).
import { lstatSafe } from "../config/quiet-fs.ts";
import { openSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomHex } from "../protocol/random-hex.ts";

/** The name of a full-output file, in the temp directory. */
export const BASH_OUTPUT_FILE = /^zot-bash-[0-9a-f]{12}\.log$/;
/** The name of a saved MCP blob (mcp/blob-files.ts), swept with the outputs, under the same budget. */
export const MCP_BLOB_FILE = /^zot-mcp-blob-[0-9a-f]{12}\.[a-z0-9]{1,8}$/;
/** A file of either kind: what the sweep may remove, and what a jailed model may read. */
export const isSavedOutputName = (name: string): boolean => BASH_OUTPUT_FILE.test(name) || MCP_BLOB_FILE.test(name);
/** A saved output older than this is removed (a week: long enough for a resumed session to use it). */
export const BASH_OUTPUT_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** All saved outputs together stay within this. */
export const BASH_OUTPUT_BUDGET_BYTES = 1024 * 1024 * 1024;
/** One saved output stops growing here; the result's tail still shows how the command ended. */
export const BASH_OUTPUT_FILE_MAX_BYTES = 256 * 1024 * 1024;
/** A file written to this recently may still be growing in another zot: never removed for room. */
const IN_USE_MS = 60_000;

export interface SweepLimits {
  dir: string;
  maxAgeMs: number;
  budgetBytes: number;
  /** room kept free for the file about to be made */
  roomBytes: number;
  now: number;
}

/** Creates a new full-output file after making room; undefined when none can be made. */
export function createOutputFile(): { path: string; fd: number } | undefined {
  const dir = tmpdir();
  sweepOutputFiles({ dir, maxAgeMs: BASH_OUTPUT_MAX_AGE_MS, budgetBytes: BASH_OUTPUT_BUDGET_BYTES, roomBytes: BASH_OUTPUT_FILE_MAX_BYTES, now: Date.now() });
  const path = join(dir, `zot-bash-${randomHex(6)}.log`);
  try {
    return { path, fd: openSync(path, "wx", 0o600) };
  } catch {
    return undefined;
  }
}

/** Removes what is too old, then the oldest until the rest fits the budget; returns the removed paths. */
export function sweepOutputFiles(limits: SweepLimits): string[] {
  const uid = process.getuid?.();
  const files: { path: string; size: number; mtime: number }[] = [];
  let names: string[];
  try {
    names = readdirSync(limits.dir);
  } catch {
    return [];
  }
  for (const name of names) {
    if (!isSavedOutputName(name)) continue;
    const path = join(limits.dir, name);
    const info = lstatSafe(path);
    if (!info?.isFile() || (uid !== undefined && info.uid !== uid)) continue;
    files.push({ path, size: info.size, mtime: info.mtimeMs });
  }
  files.sort((a, b) => a.mtime - b.mtime);
  const removed: string[] = [];
  let total = files.reduce((sum, file) => sum + file.size, 0);
  for (const file of files) {
    const age = limits.now - file.mtime;
    const tooOld = age > limits.maxAgeMs;
    const overBudget = total + limits.roomBytes > limits.budgetBytes && age > IN_USE_MS;
    if (!tooOld && !overBudget) continue;
    try {
      rmSync(file.path, { force: true });
      removed.push(file.path);
      total -= file.size;
    } catch {
      // not ours to remove after all; the next sweep tries again
    }
  }
  return removed;
}
