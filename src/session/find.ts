// Finds the session a user names: a path to a file, a full id, or the start of one (as git takes
// a short hash). Rule: the working directory's sessions are searched first, then every other
// directory's; an ambiguous prefix is an error listing the matches, never a guess.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { zotPaths } from "../config/home.ts";
import { statSafe } from "../config/quiet-fs.ts";
import { EXPORT_FILE_EXT, idOfPath, SESSION_FILE_EXT, sessionDir } from "./paths.ts";
import { SessionFileError } from "./reader.ts";
import { sessionFiles } from "./list.ts";

export interface FoundSession {
  file: string;
  /** the file lies in another working directory's sessions */
  elsewhere: boolean;
}

/** True when `ref` reads as a file path rather than an id. */
export function looksLikePath(ref: string): boolean {
  return ref.includes("/") || ref.includes(path.sep) || ref.endsWith(SESSION_FILE_EXT) || ref.endsWith(EXPORT_FILE_EXT);
}

export function findSession(home: string, cwd: string, ref: string): FoundSession {
  const wanted = ref.trim();
  if (wanted === "") throw new SessionFileError("no session named: pass an id (zot sessions list shows them) or a path");
  if (looksLikePath(wanted)) {
    const file = path.resolve(wanted);
    if (!existsSync(file)) throw new SessionFileError(`no session file ${file}; \`zot sessions list\` shows this directory's sessions`);
    return { file, elsewhere: false };
  }
  const here = sessionDir(home, cwd);
  const local = matchIn(here, wanted);
  if (local) return { file: local, elsewhere: false };
  // Elsewhere, every directory is looked in: a prefix one session in each of two matches is as
  // ambiguous as two in one (an exact id still wins).
  const found: string[] = [];
  for (const dir of otherDirs(home, here)) {
    const file = matchIn(dir, wanted);
    if (file && idOfPath(file) === wanted) return { file, elsewhere: true };
    if (file) found.push(file);
  }
  if (found.length === 1) return { file: found[0]!, elsewhere: true };
  if (found.length > 1) {
    const ids = found.slice(0, 5).map((file) => idOfPath(file));
    throw new SessionFileError(`"${wanted}" matches ${found.length} sessions of other directories (${ids.join(", ")}${found.length > 5 ? ", …" : ""}); give more of the id`);
  }
  throw new SessionFileError(`no session "${wanted}" in ${cwd} or elsewhere; \`zot sessions list\` shows this directory's sessions`);
}

/** The file in `dir` whose id is `wanted` or the only one starting with it. */
function matchIn(dir: string, wanted: string): string | undefined {
  const exact = path.join(dir, `${wanted}${SESSION_FILE_EXT}`);
  if (existsSync(exact)) return exact;
  const matches = sessionFiles(dir).filter((f) => idOfPath(f.file).startsWith(wanted));
  if (matches.length > 1) {
    const ids = matches.slice(0, 5).map((f) => idOfPath(f.file));
    throw new SessionFileError(
      `"${wanted}" matches ${matches.length} sessions (${ids.join(", ")}${matches.length > 5 ? ", …" : ""}); give more of the id`,
    );
  }
  return matches[0]?.file;
}

function otherDirs(home: string, except: string): string[] {
  const root = zotPaths(home).sessionsDir;
  try {
    return readdirSync(root, { withFileTypes: true })
      // A folder moved away and linked back (to keep a project's history) is a folder too.
      .filter((d) => d.isDirectory() || (d.isSymbolicLink() && statSafe(path.join(root, d.name))?.isDirectory() === true))
      .map((d) => path.join(root, d.name))
      .filter((dir) => dir !== except);
  } catch {
    return [];
  }
}
