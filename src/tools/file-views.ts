// Keeps the agent's record of what the model last saw of each file (ToolContext.views): read
// notes what it showed, write and edit what they wrote, a prompt's @file what it attached; a
// compaction keeps the record, a new conversation (/clear, a resumed or forked session) starts
// without one. Rule: edit and write never act on a file that changed since the model last saw it;
// they say so and tell the model to read it again, as Claude Code's edit does. write refuses to
// replace a file the model has no record of (neverSeen); edit, which must match the file's text,
// acts on one.
import { realpathSync } from "node:fs";
import type { Stats } from "node:fs";
import type { FileView, ToolContext } from "../protocol/tool.ts";
import { sha256Hex } from "../protocol/random-hex.ts";

/** Records are by real path, so `./a`, `a` and a symlink to it are one file. */
function keyOf(abs: string): string {
  try {
    return realpathSync.native(abs);
  } catch {
    return abs;
  }
}

/** Notes that the model has now seen `abs` as `sha256` (after a read, write or edit). */
export function rememberView(ctx: ToolContext, abs: string, view: { sha256: string; stat: Pick<Stats, "size" | "mtimeMs"> }): void {
  ctx.views?.set(keyOf(abs), { size: view.stat.size, mtimeMs: view.stat.mtimeMs, sha256: view.sha256 });
}

/**
 * Whether the model's calls keep a record of what they saw (the model's own calls do; an
 * extension's call_tool does not) and `abs` has none: the model never read or wrote it here.
 */
export function neverSeen(ctx: ToolContext, abs: string): boolean {
  return ctx.views !== undefined && !ctx.views.has(keyOf(abs));
}

/**
 * Why `current` (what `abs` holds now) is not what the model last saw, as the refusal's middle
 * sentence; undefined when it is, or when the model never saw the file through zot.
 */
export function changedSinceSeen(ctx: ToolContext, abs: string, current: Buffer): string | undefined {
  const seen: FileView | undefined = ctx.views?.get(keyOf(abs));
  if (!seen || sha256Hex(current) === seen.sha256) return undefined;
  const delta = current.length - seen.size;
  const size =
    delta === 0 ? "the same size, different content" : `${Math.abs(delta)} bytes ${delta > 0 ? "longer" : "shorter"}`;
  return `it changed since you last read it (${size}): the user, a formatter or another program (or a command you ran) wrote to it`;
}
