// Export and import: a session as a portable .zotsession file, and back into a working directory.
// Rule: an export holds no path of the machine it came from: the session's working directory and
// the user's home become placeholders wherever they occur (image bytes aside); an import puts the
// importing directory and home in their place, under a fresh id, so the import resumes, forks and
// shows like a session recorded here.
import { existsSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../config/usage-error.ts";
import { errorText } from "../protocol/error-text.ts";
import { createSession } from "./create.ts";
import { CWD_PLACEHOLDER, EXPORT_FILE_EXT, HOME_PLACEHOLDER, SESSION_ID_SHAPE } from "./paths.ts";
import { readSessionFile } from "./reader.ts";

export interface ExportResult {
  file: string;
  /** what the reader dropped from the source, one sentence each */
  problems: string[];
}

/**
 * Writes the session in `source` to `dest`: a file (".zotsession" added when missing), an existing
 * directory (the file named after the session), or, when undefined, `<id>.zotsession` in `here`.
 * An existing file is kept unless `force`.
 */
export function exportSession(
  source: string,
  options: { dest?: string; here: string; userHome: string; force?: boolean },
): ExportResult {
  const content = readSessionFile(source);
  const { header } = content;
  const file = exportTarget(header.id, options.dest, options.here);
  const strip = replacer([
    [header.cwd, CWD_PLACEHOLDER],
    [options.userHome, HOME_PLACEHOLDER],
  ]);
  const lines = [{ ...mapStrings(header, strip), cwd: CWD_PLACEHOLDER }, ...content.entries.map((e) => mapStrings(e, strip))];
  try {
    writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""), { flag: options.force ? "w" : "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new UsageError(`${file} already exists; pass --force to overwrite it, or name another file`);
    }
    throw new Error(`could not write ${file}: ${errorText(error)}`);
  }
  return { file, problems: content.problems };
}

export interface ImportResult {
  id: string;
  file: string;
  problems: string[];
}

/** Copies the session in `source` into `cwd`'s sessions under a fresh id, re-homed to `cwd` and `userHome`. */
export function importSession(source: string, options: { home: string; cwd: string; userHome: string }): ImportResult {
  const content = readSessionFile(source);
  const { header } = content;
  // A plain session file (not exported) is re-homed from the directory it names.
  const pairs: [string, string][] = [
    [CWD_PLACEHOLDER, options.cwd],
    [HOME_PLACEHOLDER, options.userHome],
  ];
  if (header.cwd !== CWD_PLACEHOLDER && header.cwd !== "") pairs.push([header.cwd, options.cwd]);
  const rehome = replacer(pairs);
  const records = content.entries.map((entry) => mapStrings(entry, rehome));
  const { id, file } = createSession(options.home, { cwd: options.cwd, model: header.model, provider: header.provider }, records);
  return { id, file, problems: content.problems };
}

function exportTarget(id: string, dest: string | undefined, here: string): string {
  // The id comes from the file, which someone else may have written: one that is no id (`../x`) names no file.
  const name = `${SESSION_ID_SHAPE.test(id) ? id : "session"}${EXPORT_FILE_EXT}`;
  if (dest === undefined) return path.join(here, name);
  const resolved = path.resolve(here, dest);
  if (existsSync(resolved) && statSync(resolved).isDirectory()) return path.join(resolved, name);
  return resolved.endsWith(EXPORT_FILE_EXT) ? resolved : `${resolved}${EXPORT_FILE_EXT}`;
}

type Replace = (text: string) => string;

/**
 * Where a path may start: not inside a longer one (`/x/home/al`, `~/home/al`), except right after a
 * URL's `scheme://` (`file:///home/al/…`, a stack trace's) or a one-letter option (`-I/home/al/include`).
 */
const PATH_START = String.raw`(?:(?<![\w.~/\\-])|(?<=[A-Za-z][\w+.-]*://)|(?<=(?:^|[\s"'(=])-[A-Za-z]))`;
/** Where it may end: not inside a longer name (`/home/alice`, `/tmp/p.old`); a sentence's full stop ends it. */
const PATH_END = String.raw`(?![\w-]|\.[\w-])`;

/**
 * Replaces each path where it stands as a whole path or the start of one (not inside a longer
 * name: `/home/al` is not replaced in `/home/alice`). Empty paths and "/" are left alone.
 */
function replacer(pairs: [string, string][]): Replace {
  const used = pairs.filter(([from]) => from !== "" && from !== "/" && from !== path.sep);
  const patterns = used.map(([from, to]) => {
    const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return [from, new RegExp(`${PATH_START}${escaped}${PATH_END}`, "g"), to] as const;
  });
  return (text) => patterns.reduce((t, [from, re, to]) => (t.includes(from) ? t.replace(re, () => to) : t), text);
}

/**
 * Every string of a record through `f`, except image bytes (base64 can spell a path by chance) and
 * reasoning its provider signed or encrypted (a `thinking` block with a signature or opaque data):
 * the API refuses such a block changed in any way, so it travels byte for byte, paths and all.
 */
function mapStrings<T>(value: T, f: Replace): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return f(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") {
      if (sealedReasoning(v)) return v;
      const image = (v as { type?: unknown }).type === "image";
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, image && k === "data" ? x : walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}

function sealedReasoning(v: object): boolean {
  const block = v as { type?: unknown; signature?: unknown; opaque?: unknown };
  return block.type === "thinking" && (typeof block.signature === "string" || typeof block.opaque === "string");
}
