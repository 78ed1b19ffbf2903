// The path of a Read(…) or Edit(…) permission rule, as Claude Code reads it: gitignore-style
// patterns anchored where the rule says. `//etc/passwd` is absolute, `~/.ssh/**` is under the
// home folder, `/src/**` is under the project (zot's working directory), `./.env` and `.env` are
// relative to the working directory. `*` matches within one folder's name, `**` any number of
// folders, `?` one character, `[…]` one of a set; a pattern ending in `/` is a folder and
// everything in it.
// Rule: a pattern that names a folder covers everything inside it (as gitignore does), so
// `Read(./secrets)` keeps `secrets/key.pem` out as well.
import path from "node:path";
import { realPathOf } from "../tools/sandbox.ts";

export interface PathAnchors {
  /** zot's working directory: the project root and the current directory of the rules */
  cwd: string;
  /** the user's home folder (~) */
  userHome: string;
}

/** A compiled path pattern: true when an absolute path (or a folder it is in) matches. */
export type PathTest = (absolute: string) => boolean;

/** The pattern compiled, or why it cannot be (a `[…]` set that is not one). */
export function compilePathPattern(pattern: string, anchors: PathAnchors): PathTest | { error: string } {
  const folder = pattern.endsWith("/");
  const body = folder ? pattern.replace(/\/+$/, "") : pattern;
  const full = anchored(body, anchors);
  // Also where the pattern's fixed folders really are, so a rule on a link (~/.aws → /data/aws)
  // holds on what the link leads to.
  const wild = full.search(/[*?[]/);
  // Without wildcards the whole path is fixed (a link to a file or a folder is followed); with
  // them, the folders before the first.
  const fixed = wild === -1 ? full : full.slice(0, wild).replace(/\/[^/]*$/, "");
  const real = fixed === "" ? fixed : realPathOf(fixed);
  const forms = real === fixed ? [full] : [full, real + full.slice(fixed.length)];
  let matchers: RegExp[];
  try {
    matchers = forms.map((form) => new RegExp(`^${globToRegExp(form)}${folder ? "/.+" : ""}$`));
  } catch (error) {
    return { error: `is not a path pattern zot can read (${(error as Error).message})` };
  }
  return (absolute) => {
    // The path itself, then each folder it is in: a rule on a folder covers what is inside it.
    for (let at = path.resolve(absolute); ; at = path.dirname(at)) {
      if (matchers.some((matcher) => matcher.test(at))) return true;
      if (path.dirname(at) === at) return false;
    }
  };
}

/** The pattern as an absolute one (still with its wildcards). */
function anchored(pattern: string, { cwd, userHome }: PathAnchors): string {
  if (pattern.startsWith("//")) return normalize(pattern.slice(1));
  if (pattern === "~" || pattern.startsWith("~/")) return normalize(join(userHome, pattern.slice(2)));
  if (pattern.startsWith("/")) return normalize(join(cwd, pattern.slice(1)));
  return normalize(join(cwd, pattern.startsWith("./") ? pattern.slice(2) : pattern));
}

/** Joins without resolving `..` across a wildcard (path.join would fold `**` /.. away). */
function join(base: string, rest: string): string {
  return rest === "" ? base : `${base.replace(/\/+$/, "")}/${rest}`;
}

/** Folds `.` and `..` and repeated slashes, leaving wildcards where they are. */
function normalize(pattern: string): string {
  const out: string[] = [];
  for (const part of pattern.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

function globToRegExp(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        // `/**/` is any number of folders (none too), a trailing `/**` anything below.
        const slashBefore = i === 0 || glob[i - 1] === "/";
        const slashAfter = glob[i + 2] === "/";
        if (slashBefore && slashAfter) {
          out += "(?:[^/]*/)*";
          i += 2;
        } else if (slashBefore && i + 2 === glob.length) {
          out = out.replace(/\/$/, "");
          out += "(?:/.*)?";
          i += 1;
        } else {
          out += ".*";
          i += 1;
        }
      } else {
        out += "[^/]*";
      }
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end === -1) {
        out += "\\[";
      } else {
        const set = glob.slice(i + 1, end).replace(/\\/g, "\\\\");
        out += `[${set.startsWith("!") ? `^${set.slice(1)}` : set}]`;
        i = end;
      }
    } else {
      out += c.replace(/[.+^${}()|\\]/g, "\\$&");
    }
  }
  return out;
}
