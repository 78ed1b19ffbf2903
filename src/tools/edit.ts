// The `edit` tool: exact-text replacements in an existing file, answered with a unified diff.
// Rule: all or nothing. Every edit is matched against the content the file holds when it is
// written and checked before a byte is written; any failure leaves the file untouched and says how
// to fix the call. The file is changed in place (src/tools/rewrite-in-place.ts says why), and a
// file that changed since the model last read it is refused (src/tools/file-views.ts).
import * as v from "valibot";
import { type Tool, textResult } from "../protocol/tool.ts";
import { defineArgs, renameKeys, resolveToolPath } from "./args.ts";
import { lookalikeHint } from "./lookalike-characters.ts";
import { capDiff, diffPaths, type Replacement, unifiedDiff } from "./unified-diff.ts";
import { loadFsPromises } from "./async-fs.ts";
import { errnoWords } from "../protocol/errno-words.ts";
import { refuseProtected } from "./protected-paths.ts";
import { refuseOutsideJail } from "./sandbox.ts";
import { changedSinceSeen, rememberView } from "./file-views.ts";
import { sha256Hex } from "../protocol/random-hex.ts";
import { appendedNote, type Rewritten, rewriteInPlace } from "./rewrite-in-place.ts";
import { editArgs, editItem } from "./builtin-args.ts";
import { builtinParameters } from "./builtin-parameters.ts" with { type: "macro" };
import { errorText } from "../protocol/error-text.ts";

const args = defineArgs("edit", editArgs, builtinParameters("editArgs"));

/** Other harnesses' key names, so models trained on them succeed on the first try. */
const ITEM_ALIASES = {
  oldText: "old_text",
  old_string: "old_text",
  old_str: "old_text",
  newText: "new_text",
  new_string: "new_text",
  new_str: "new_text",
  replaceAll: "replace_all",
};

export const editTool: Tool = {
  name: "edit",
  description:
    "Change an existing file by exact text replacement. Each old_text must match the file exactly " +
    "(whitespace included) and exactly once, so include enough surrounding lines to make it unique, or set " +
    "replace_all. Several edits to one file go in one call; they are matched against the current content and " +
    "applied together, or not at all. Read the file first; copy text without read's line-number prefixes. " +
    "Returns a unified diff. Prefer this over write for changing existing files; it never creates files.",
  parameters: args.jsonSchema,
  async preview(raw, cwd) {
    // What the call would change, for a person asked to allow it; nothing is written.
    if (conflictingArgs(raw)) return undefined;
    const parsed = args.parse(normaliseArgs(raw));
    if (!parsed.ok) return undefined;
    const abs = resolveToolPath(cwd, parsed.value.path);
    const { readFile } = await loadFsPromises();
    const bytes = await readFile(abs).catch(() => undefined);
    if (!bytes) return undefined;
    const doc = documentOf(bytes, parsed.value.path);
    if (typeof doc === "string") return undefined;
    const plan = planEdits(doc, parsed.value.edits, parsed.value.path);
    if (typeof plan === "string") return undefined;
    return capDiff(unifiedDiff(doc.text, doc.apply(plan), plan, diffPaths(cwd, abs)));
  },
  async execute(raw, ctx) {
    const conflict = conflictingArgs(raw);
    if (conflict) return textResult(conflict, true);
    const parsed = args.parse(normaliseArgs(raw));
    if (!parsed.ok) return parsed.error;
    const { path, edits } = parsed.value;
    const abs = resolveToolPath(ctx.cwd, path);
    const refused = refuseOutsideJail(ctx, "edit", path, abs) ?? refuseProtected(ctx, "edit", path, abs);
    if (refused) return refused;

    const { stat } = await loadFsPromises();
    const info = await stat(abs).catch((err: NodeJS.ErrnoException) => err);
    if (info instanceof Error) {
      return textResult(
        info.code === "ENOENT"
          ? `edit: ${path} does not exist; edit only changes existing files (use write to create one)`
          : `edit: cannot read ${path}: ${errnoWords(info)}`,
        true,
      );
    }
    if (!info.isFile()) return textResult(`edit: ${path} is not a regular file`, true);

    // Worked out on what the file holds at the moment of writing: if another program changed it
    // since, the edits are matched again on its new content (or refused, saying why).
    let planned: { doc: Document; plan: Replacement[] } | undefined;
    let written: Rewritten;
    try {
      written = rewriteInPlace(abs, (bytes) => {
        const changed = changedSinceSeen(ctx, abs, bytes);
        if (changed) return { refuse: `edit: ${path}: ${changed}. Read it again, then redo the edit.\nNo changes were made to ${path}.` };
        const doc = documentOf(bytes, path);
        if (typeof doc === "string") return { refuse: doc };
        const plan = planEdits(doc, edits, path);
        if (typeof plan === "string") return { refuse: plan };
        planned = { doc, plan };
        return Buffer.from(doc.restore(plan), "utf8");
      });
    } catch (err) {
      return textResult(`edit: could not write ${path}: ${errnoWords(err)}`, true);
    }
    if (!written.ok) {
      return textResult(written.refuse.startsWith("edit: ") ? written.refuse : `edit: ${path}: ${written.refuse}; read it again`, true);
    }
    rememberView(ctx, abs, { sha256: sha256Hex(written.after), stat: { size: written.after.length, mtimeMs: written.stat.mtimeMs } });
    const { doc, plan } = planned!;
    const replacements = plan.length;
    const newText = doc.apply(plan);
    // The file is written: nothing from here on may make the call read as failed (a retry would find its old_text gone).
    let diff: string;
    try {
      diff = capDiff(unifiedDiff(doc.text, newText, plan, diffPaths(ctx.cwd, abs)));
    } catch (err) {
      diff = `[the diff could not be shown (${errorText(err)}); read the file to see the result]`;
    }
    const summary =
      `edited ${path}: ${edits.length} ${edits.length === 1 ? "edit" : "edits"}` +
      (replacements !== edits.length ? ` (${replacements} replacements)` : "");
    const appended = written.appended > 0 ? `\n${appendedNote(path, written.appended)}` : "";
    return textResult(`${summary}\n${diff}${appended}`, false, {
      path: abs,
      edits: edits.length,
      replacements,
      diff,
      ...(written.appended > 0 ? { appended_by_others: written.appended } : {}),
    });
  },
};

/** The file as text to match edits in, or why it cannot be edited as text. */
function documentOf(bytes: Buffer, path: string): Document | string {
  if (bytes.subarray(0, 8192).includes(0)) return `edit: ${path} looks binary; edit only changes text files`;
  try {
    return new Document(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch {
    return `edit: ${path} is not valid UTF-8, and rewriting it would corrupt it; change it with bash (e.g. sed) instead`;
  }
}

/**
 * A field given under two of its spellings with different values (`oldText` and `old_string`):
 * which one is meant is a guess, and a PreToolUse hook may have judged the other, so the call is
 * refused. The same value twice is no conflict.
 */
function spelledTwice(item: unknown, where: string): string | undefined {
  if (!item || typeof item !== "object" || Array.isArray(item)) return undefined;
  for (const field of ["old_text", "new_text", "replace_all"]) {
    const keys = [field, ...Object.entries(ITEM_ALIASES).filter(([, to]) => to === field).map(([alias]) => alias)].filter((key) => Object.hasOwn(item, key));
    const values = new Set(keys.map((key) => JSON.stringify((item as Record<string, unknown>)[key])));
    if (values.size > 1) return `edit: ${where}${keys.join(" and ")} are the same field (${field}) with different values; give it once. Nothing was changed.`;
  }
  return undefined;
}

/** The first field the call gives twice with different values, said; undefined when there is none. */
function conflictingArgs(raw: Record<string, unknown>): string | undefined {
  let edits = raw.edits;
  if (typeof edits === "string") {
    try {
      edits = JSON.parse(edits);
    } catch {
      return undefined;
    }
  }
  if (edits === undefined) return spelledTwice(raw, "");
  if (!Array.isArray(edits)) return undefined;
  for (const [index, item] of edits.entries()) {
    const said = spelledTwice(item, `in edits[${index}], `);
    if (said) return said;
  }
  return undefined;
}

function normaliseArgs(raw: Record<string, unknown>): Record<string, unknown> {
  const out = renameKeys(raw, { file_path: "path" });
  if (typeof out.edits === "string") {
    try {
      out.edits = JSON.parse(out.edits);
    } catch {
      // left as is: validation will name the field
    }
  }
  // A single edit given at the top level, as some harnesses' edit tools take it.
  if (out.edits === undefined) {
    const single = renameKeys(out, ITEM_ALIASES);
    if ("old_text" in single || "new_text" in single) {
      out.edits = [{ old_text: single.old_text, new_text: single.new_text, replace_all: single.replace_all }];
    }
  }
  if (Array.isArray(out.edits)) {
    out.edits = out.edits.map((item) => {
      if (!item || typeof item !== "object") return item;
      const renamed = renameKeys(item as Record<string, unknown>, ITEM_ALIASES);
      if (renamed.replace_all === "true" || renamed.replace_all === "false") renamed.replace_all = renamed.replace_all === "true";
      if (renamed.replace_all === undefined) delete renamed.replace_all;
      return renamed;
    });
  }
  return out;
}

/**
 * The file as matched: BOM removed and CRLF normalised to LF. Keeps where each removed CR was, so
 * edits can be written back into the original bytes: untouched regions stay byte-identical and new
 * text takes the file's dominant line ending.
 */
class Document {
  readonly text: string;
  private readonly bom: string;
  private readonly eol: string;
  /** normalised positions of the "\n" whose "\r" was removed, ascending */
  private readonly crAt: number[] = [];
  private readonly original: string;
  readonly lineStarts: number[] = [0];

  constructor(decoded: string) {
    this.bom = decoded.startsWith("\uFEFF") ? "\uFEFF" : "";
    this.original = decoded.slice(this.bom.length);
    let crlf = 0;
    let lf = 0;
    const parts: string[] = [];
    let from = 0;
    for (let i = this.original.indexOf("\n"); i !== -1; i = this.original.indexOf("\n", i + 1)) {
      if (i > 0 && this.original[i - 1] === "\r") {
        parts.push(this.original.slice(from, i - 1));
        from = i;
        this.crAt.push(i - 1 - crlf);
        crlf++;
      } else {
        lf++;
      }
    }
    parts.push(this.original.slice(from));
    this.text = parts.join("");
    this.eol = crlf > lf ? "\r\n" : "\n";
    for (let i = this.text.indexOf("\n"); i !== -1; i = this.text.indexOf("\n", i + 1)) this.lineStarts.push(i + 1);
  }

  /** 0-based line index of a position in the normalised text. */
  lineOf(pos: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  lines(): string[] {
    return this.text.split("\n");
  }

  /** The new normalised text. */
  apply(reps: Replacement[]): string {
    let out = "";
    let at = 0;
    for (const r of reps) {
      out += this.text.slice(at, r.start) + r.text;
      at = r.end;
    }
    return out + this.text.slice(at);
  }

  /** The new file content, in the file's own encoding details. */
  restore(reps: Replacement[]): string {
    let out = this.bom;
    let at = 0;
    for (const r of reps) {
      const start = this.toOriginal(r.start);
      out += this.original.slice(at, start) + (this.eol === "\n" ? r.text : r.text.replaceAll("\n", this.eol));
      at = this.toOriginal(r.end);
    }
    return out + this.original.slice(at);
  }

  /** A normalised position → the original's: every removed "\r" before it shifts it by one. */
  private toOriginal(pos: number): number {
    let lo = 0;
    let hi = this.crAt.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.crAt[mid] < pos) lo = mid + 1;
      else hi = mid;
    }
    return pos + lo;
  }
}

type EditItem = v.InferOutput<ReturnType<typeof editItem>>;

/** The lines the matches are on, each once: "at lines 3, 9", "all on line 1", up to 10 lines named. */
function whereFound(doc: Document, found: readonly number[]): string {
  const lines: number[] = [];
  let more = false;
  for (const pos of found) {
    const line = doc.lineOf(pos) + 1;
    if (lines.at(-1) === line) continue;
    if (lines.length === 10) {
      more = true;
      break;
    }
    lines.push(line);
  }
  if (lines.length === 1) return `all on line ${lines[0]}`;
  return `at lines ${lines.join(", ")}${more ? ", …" : ""}`;
}

/** Matches every edit against the original; the replacements sorted by position, or the error sentence. */
function planEdits(doc: Document, edits: EditItem[], path: string): Replacement[] | string {
  const problems: string[] = [];
  const planned: Replacement[][] = [];
  edits.forEach((edit, index) => {
    const name = edits.length === 1 ? "old_text" : `edits[${index}].old_text`;
    // A byte-order mark copied from the file's start is not the text's: the document has it apart (and keeps it).
    const bomCopied = edit.old_text.startsWith("\uFEFF");
    const oldText = edit.old_text.replaceAll("\r\n", "\n").replace(/^\uFEFF/, "");
    const newText = (bomCopied ? edit.new_text.replace(/^\uFEFF/, "") : edit.new_text).replaceAll("\r\n", "\n");
    planned.push([]);
    if (oldText === "") {
      problems.push(`${name} is empty; copy the exact text to replace from the file (to create a file, use write)`);
      return;
    }
    if (oldText === newText) {
      // Texts that differ only in their line endings: edit writes the file's own, so such a change is bash's.
      const endings = edit.old_text.replace(/^\uFEFF/, "") !== (bomCopied ? edit.new_text.replace(/^\uFEFF/, "") : edit.new_text);
      // old_text with the mark and new_text without: a try at removing it, which edit does not do.
      const bomDropped = bomCopied && !edit.new_text.startsWith("\uFEFF");
      problems.push(
        endings
          ? `${name} and new_text differ only in line endings, and edit keeps the file's own (it writes every line as the file ends its lines), so this edit would change nothing; change line endings with bash (perl -pi -e 's/\\r$//' FILE for LF, perl -pi -e 's/\\r?$/\\r/' FILE for CRLF)`
          : bomDropped
            ? `${name} and new_text differ only in the byte-order mark (U+FEFF) at the start, and edit and write keep a file's mark, so this edit would change nothing; remove it with bash (perl -pi -e 's/^\\xEF\\xBB\\xBF// if $. == 1' FILE)`
            : `${name} and new_text are identical, so this edit would change nothing`,
      );
      return;
    }
    const found = occurrences(doc.text, oldText, edit.replace_all === true);
    // Claude Code's MultiEdit applies its edits in turn; zot's are all matched against the file as it was.
    // Only where the other edit, applied to the file, really makes the text this one looks for.
    const madeBy = edits.findIndex((other, at) => {
      if (at === index) return false;
      const otherOld = other.old_text.replaceAll("\r\n", "\n").replace(/^\uFEFF/, "");
      return otherOld !== "" && doc.text.includes(otherOld) && doc.text.replace(otherOld, other.new_text.replaceAll("\r\n", "\n")).includes(oldText);
    });
    if (found.length === 0 && madeBy !== -1) {
      problems.push(
        `${name} was not found in ${path}: it is in the text edits[${madeBy}] puts in, but every edit of a call is matched against the file as it was before the call; fold the two into one edit, or make the second in another call`,
      );
    } else if (found.length === 0) {
      problems.push(`${name} was not found in ${path}. ${notFoundHint(doc, oldText)}`);
    } else if (found.length > 1 && !edit.replace_all) {
      problems.push(
        `${name} matches ${found.length} times in ${path} (${whereFound(doc, found)}); ` +
          "include more surrounding lines so it matches exactly once, or set replace_all: true to change every occurrence",
      );
    } else {
      planned[index] = found.map((start) => ({ start, end: start + oldText.length, text: newText, edit: index }));
    }
  });
  if (problems.length === 0) {
    const all = planned.flat().sort((a, b) => a.start - b.start);
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1], all[i]];
      if (b.start < a.end) {
        const [x, y] = [Math.min(a.edit, b.edit), Math.max(a.edit, b.edit)];
        problems.push(
          `edits[${x}] and edits[${y}] overlap (near line ${doc.lineOf(b.start) + 1}); merge them into one edit`,
        );
        break;
      }
    }
    if (problems.length === 0) return all;
  }
  const head = problems.length === 1 ? problems[0] : problems.map((p) => `\n- ${p}`).join("");
  return `edit: ${head}\nNo changes were made to ${path}.`;
}

/** Start positions; overlapping ones count when uniqueness is checked ("aa" in "aaa" is ambiguous). */
function occurrences(text: string, needle: string, disjoint: boolean): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + (disjoint ? needle.length : 1))) {
    found.push(i);
  }
  return found;
}

/** Why an old_text did not match, in the words most likely to fix the next call. */
function notFoundHint(doc: Document, oldText: string): string {
  const fileLines = doc.lines();
  const wanted = oldText.split("\n");
  const written = wanted.filter((l) => l.trim());
  if (written.length > 0 && written.every((l) => /^\s*\d+(\t|→)/.test(l))) {
    return "It seems to include read's line-number prefixes (`  12\\t`); leave those out and copy only the file's text.";
  }
  // The file's last line has no newline after it (read does not show that): the text is there without its final one.
  if (oldText.length > 1 && oldText.endsWith("\n") && doc.text !== "" && !doc.text.endsWith("\n") && doc.text.endsWith(oldText.slice(0, -1))) {
    return "The file has no newline at its end, and old_text ends with one: leave the final newline out of old_text (and out of new_text, unless you mean to add one).";
  }
  const lookalike = lookalikeHint(doc.text, oldText);
  if (lookalike) return lookalike;
  const show = (from: number, count: number) =>
    fileLines
      .slice(from, from + Math.min(count, 8))
      .map((line, i) => `${String(from + i + 1).padStart(6)}\t${line}`)
      .join("\n");
  // Trim only the edges: blank first/last lines are a common copy slip.
  const core = trimBlankEdges(wanted);
  const firstLine = core[0]?.trim() ?? "";
  let best = { at: -1, matched: 0 };
  for (let i = 0; i < fileLines.length && firstLine; i++) {
    if (fileLines[i].trim() !== firstLine) continue;
    let matched = 1;
    while (matched < core.length && fileLines[i + matched]?.trim() === core[matched].trim()) matched++;
    if (matched > best.matched) best = { at: i, matched };
  }
  if (best.at >= 0 && best.matched === core.length) {
    return (
      `It matches ${lineRange(best.at + 1, best.at + core.length)} if whitespace is ignored, so check indentation ` +
      `(tabs vs spaces) and trailing spaces. The file has:\n${show(best.at, core.length)}`
    );
  }
  if (best.at >= 0) {
    const diverge = best.at + best.matched;
    return (
      `Its first ${best.matched} line(s) match from line ${best.at + 1}, but its next line ` +
      `(${JSON.stringify(core[best.matched])}) differs from the file's line ${diverge + 1}. The file has:\n` +
      show(best.at, best.matched + 2)
    );
  }
  const target = firstLine || oldText.trim();
  let closest = { at: -1, score: 0 };
  for (let i = 0; i < fileLines.length; i++) {
    const line = fileLines[i].trim();
    if (!line || line.length > 1000) continue;
    const score = similarity(target, line);
    if (score > closest.score) closest = { at: i, score };
  }
  if (closest.score >= 0.5) {
    return `The most similar line is ${closest.at + 1}:\n${show(closest.at, 1)}\nRead the file again and copy the text exactly.`;
  }
  return "Nothing similar is in the file; read it again to see its current content.";
}

function lineRange(from: number, to: number): string {
  return from === to ? `line ${from}` : `lines ${from}-${to}`;
}

function trimBlankEdges(lines: string[]): string[] {
  let from = 0;
  let to = lines.length;
  while (from < to && !lines[from].trim()) from++;
  while (to > from && !lines[to - 1].trim()) to--;
  return lines.slice(from, to);
}

/** Dice coefficient over character bigrams: cheap, and good at "same line, small typo". */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) grams.set(a.slice(i, i + 2), (grams.get(a.slice(i, i + 2)) ?? 0) + 1);
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      grams.set(g, n - 1);
      shared++;
    }
  }
  return (2 * shared) / (a.length + b.length - 2);
}
