// Unified diffs of exact-text replacements, as the `edit` tool returns them and the TUI colours
// (also a write's, before it runs, for the --no-yolo question). Rule: built from the replacements
// themselves, so the cost follows the size of the change, not of the file; capped at 2,000 lines / 50 KB.
import { isAbsolute, relative } from "node:path";
import { wholeCharacterCut } from "../protocol/whole-characters.ts";

/** One replacement in a file's LF-normalised text. */
export interface Replacement {
  /** range in the normalised (LF) text */
  start: number;
  end: number;
  /** LF text */
  text: string;
  edit: number;
}

const CONTEXT = 3;
const DIFF_MAX_LINES = 2000;
const DIFF_MAX_BYTES = 51_200;

/** Lines with their "\n" kept, so a change of the final newline is a visible change. */
function splitKeep(text: string): string[] {
  return text ? text.split(/(?<=\n)/) : [];
}

interface Block {
  /** first old line of the block (0-based) and one past its last */
  oldStart: number;
  oldEnd: number;
  newStart: number;
  ops: [" " | "-" | "+", string][];
}

/** git's `a/` and `b/` prefixes for a file under the working directory; the plain path otherwise. */
export function diffPaths(cwd: string, abs: string): [string, string] {
  const rel = relative(cwd, abs);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? [`a/${rel}`, `b/${rel}`] : [abs, abs];
}

/**
 * A unified diff built from the replacements themselves rather than by diffing whole files: the
 * cost follows the size of the change, not of the file. Replacements touching the same lines form
 * one block; each block is the changed lines only (a small LCS keeps unchanged lines inside it).
 */
export function unifiedDiff(oldText: string, newText: string, reps: Replacement[], [from, to]: [string, string]): string {
  const oldLines = splitKeep(oldText);
  const starts: number[] = [];
  for (let i = 0, at = 0; i < oldLines.length; at += oldLines[i].length, i++) starts.push(at);
  const lineOf = (pos: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const lineEnd = (line: number) => (line + 1 < starts.length ? starts[line + 1] : oldText.length);

  const blocks: Block[] = [];
  let delta = 0; // new line index minus old line index, after the blocks so far
  for (let i = 0; i < reps.length; ) {
    const lastLineOf = (r: Replacement) => lineOf(Math.max(r.start, r.end - 1));
    const first = lineOf(reps[i].start);
    let last = lastLineOf(reps[i]);
    let j = i + 1;
    let span = "";
    for (;;) {
      // Replacements on the same or neighbouring lines read best as one block.
      for (; j < reps.length && lineOf(reps[j].start) <= last + 1; j++) last = Math.max(last, lastLineOf(reps[j]));
      span = applyWithin(oldText, starts[first], lineEnd(last), reps.slice(i, j));
      // If the new text no longer ends its last line, the next line joins it: include that line.
      if (span && !span.endsWith("\n") && last + 1 < oldLines.length) {
        last++;
        continue;
      }
      break;
    }
    const before = oldLines.slice(first, last + 1);
    const after = splitKeep(span);
    const ops = lineOps(before, after);
    // Trim the unchanged edges so the block starts and ends on a change.
    let lead = 0;
    while (lead < ops.length && ops[lead][0] === " ") lead++;
    let trail = 0;
    while (trail < ops.length - lead && ops[ops.length - 1 - trail][0] === " ") trail++;
    if (lead < ops.length) {
      const oldStart = first + lead;
      const oldCount = ops.slice(lead, ops.length - trail).filter((op) => op[0] !== "+").length;
      blocks.push({ oldStart, oldEnd: oldStart + oldCount, newStart: oldStart + delta, ops: ops.slice(lead, ops.length - trail) });
    }
    delta += after.length - before.length;
    i = j;
  }
  if (blocks.length === 0) return "(no textual change)";

  const out = [`--- ${from}`, `+++ ${to}`];
  const emit = (sign: string, line: string) => {
    out.push(sign + (line.endsWith("\n") ? line.slice(0, -1) : line));
    if (!line.endsWith("\n")) out.push("\\ No newline at end of file");
  };
  for (let b = 0; b < blocks.length; ) {
    let e = b;
    while (e + 1 < blocks.length && blocks[e + 1].oldStart - blocks[e].oldEnd <= 2 * CONTEXT) e++;
    const from = Math.max(0, blocks[b].oldStart - CONTEXT);
    const to = Math.min(oldLines.length, blocks[e].oldEnd + CONTEXT);
    const body: [string, string][] = [];
    for (let k = from; k < blocks[b].oldStart; k++) body.push([" ", oldLines[k]]);
    for (let k = b; k <= e; k++) {
      // A loop, not a spread: a replace_all over 600,000 lines is more arguments than a call may take.
      for (const op of blocks[k].ops) body.push(op);
      const gapEnd = k < e ? blocks[k + 1].oldStart : to;
      for (let line = blocks[k].oldEnd; line < gapEnd; line++) body.push([" ", oldLines[line]]);
    }
    const oldCount = body.filter(([s]) => s !== "+").length;
    const newCount = body.filter(([s]) => s !== "-").length;
    const newFrom = blocks[b].newStart - (blocks[b].oldStart - from);
    const range = (start: number, count: number) => `${count === 0 ? start : start + 1},${count}`;
    out.push(`@@ -${range(from, oldCount)} +${range(newFrom, newCount)} @@`);
    for (const [sign, line] of body) emit(sign, line);
    b = e + 1;
  }
  return out.join("\n");
}

function applyWithin(text: string, from: number, to: number, reps: Replacement[]): string {
  let out = "";
  let at = from;
  for (const r of reps) {
    out += text.slice(at, r.start) + r.text;
    at = r.end;
  }
  return out + text.slice(at, to);
}

/** Line ops by LCS when the block is small; all-removed-then-added when it is too big to bother. */
function lineOps(a: string[], b: string[]): [" " | "-" | "+", string][] {
  if (a.length * b.length > 250_000) {
    return [...a.map((l): [" " | "-" | "+", string] => ["-", l]), ...b.map((l): [" " | "-" | "+", string] => ["+", l])];
  }
  const n = a.length;
  const m = b.length;
  // lcs[i][j] = LCS length of a[i..] and b[j..], in one flat array
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] =
        a[i] === b[j] ? lcs[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
    }
  }
  const ops: [" " | "-" | "+", string][] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push([" ", a[i++]]);
      j++;
    } else if (i < n && (j === m || lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1])) {
      // Removals before additions, as diff(1) prints a changed line.
      ops.push(["-", a[i++]]);
    } else {
      ops.push(["+", b[j++]]);
    }
  }
  return ops;
}

/**
 * The diff of replacing a whole text (a write over an existing file, or a new one from nothing):
 * the lines both share at the start and the end are left out of the replacement, so a small change
 * in a big file reads as that change.
 */
export function wholeTextDiff(oldText: string, newText: string, paths: [string, string]): string {
  const oldLines = splitKeep(oldText);
  const newLines = splitKeep(newText);
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (
    tail < oldLines.length - head &&
    tail < newLines.length - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  ) {
    tail++;
  }
  const start = oldLines.slice(0, head).join("").length;
  const end = oldText.length - oldLines.slice(oldLines.length - tail).join("").length;
  const text = newLines.slice(head, newLines.length - tail).join("");
  if (start === end && text === "") return "(no textual change)";
  return unifiedDiff(oldText, newText, [{ start, end, text, edit: 0 }], paths);
}

/** The diff goes to the model: a replace_all over a big file must not flood the context. */
export function capDiff(diff: string): string {
  const lines = clipLongLines(diff.split("\n"));
  let bytes = 0;
  for (let i = 0; i < lines.length; i++) {
    bytes += Buffer.byteLength(lines[i]) + 1;
    if (i >= DIFF_MAX_LINES || bytes > DIFF_MAX_BYTES) {
      return `${lines.slice(0, i).join("\n")}\n[diff truncated: ${lines.length - i} more lines; read the file to see the result]`;
    }
  }
  return lines.join("\n");
}

/**
 * Lines over this many characters are shown in part (a minified file's one line would otherwise
 * fill the whole budget and leave a diff of headers only).
 */
const LONG_LINE = 2_000;
/** Characters kept on each side of where a long line changed. */
const AROUND_CHANGE = 200;

/**
 * The diff's lines with each long one cut down: a line removed and the line added in its place
 * show where they differ, with AROUND_CHANGE characters each side; any other long line its start.
 * What is left out is said in the line (`[… N characters]`). The headers are never cut.
 */
function clipLongLines(lines: string[]): string[] {
  const firstHunk = lines.findIndex((line) => line.startsWith("@@"));
  if (firstHunk < 0 || !lines.some((line) => line.length > LONG_LINE)) return lines;
  const out = lines.slice(0, firstHunk);
  // `\ No newline at end of file` may follow either side of a change: it is passed over when pairing.
  const marker = (at: number) => lines[at]?.startsWith("\\") === true;
  for (let i = firstHunk; i < lines.length; i++) {
    const line = lines[i];
    const at = marker(i + 1) ? i + 2 : i + 1;
    const next = lines[at];
    const after = marker(at + 1) ? at + 2 : at + 1;
    // One line replaced by one: a "-" after no other "-", then a "+" followed by no other "+".
    const replaced = line.startsWith("-") && next?.startsWith("+") && !lines[i - 1]?.startsWith("-") && !lines[after]?.startsWith("+");
    if (replaced && (line.length > LONG_LINE || next.length > LONG_LINE)) {
      const [removed, added] = aroundChange(line, next);
      out.push(removed, ...lines.slice(i + 1, at), added, ...lines.slice(at + 1, after));
      i = after - 1;
    } else if (line.length > LONG_LINE) {
      const end = wholeCharacterCut(line, LONG_LINE);
      out.push(`${line.slice(0, end)} ${elided(line.length - end)}`);
    } else {
      out.push(line);
    }
  }
  return out;
}

/** A replaced long line and its replacement, each shown from a little before to a little after where they differ. */
function aroundChange(removed: string, added: string): [string, string] {
  const a = removed.slice(1);
  const b = added.slice(1);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const start = wholeCharacterCut(a, Math.max(0, prefix - AROUND_CHANGE));
  const show = (text: string, sign: string) => {
    const end = wholeCharacterCut(text, Math.min(text.length, text.length - suffix + AROUND_CHANGE, start + LONG_LINE));
    return `${sign}${start > 0 ? `${elided(start)} ` : ""}${text.slice(start, end)}${end < text.length ? ` ${elided(text.length - end)}` : ""}`;
  };
  return [show(a, "-"), show(b, "+")];
}

function elided(characters: number): string {
  return `[… ${characters} characters]`;
}
