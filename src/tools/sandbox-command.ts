// The jail for bash: how a jailed command runs (under bubblewrap, see sandbox.ts), and the static
// check of its text for when bubblewrap cannot confine it.
// Rule of the static check: refuse a command whose text names a path outside the working
// directory: an absolute path anywhere in it (quoted code included), `~` and $HOME, a `..` that
// climbs out, a word that is a symlink leading out, and a `cd` out. It is a best-effort guard
// against a model wandering off, not a security boundary: a path the command builds at run time
// (variables, `$(…)`, printf escapes, base64, a script or program that opens files itself) is
// invisible to it.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { ProtectedPath } from "../protocol/tool.ts";
import { protectedBinds, protectedBy } from "./protected-paths.ts";
import { bwrapArgs, type Confinement, isWithin, jailConfinement, jailRoot, judgePath, realPathOf } from "./sandbox.ts";
import { lstatSafe, statSafe } from "../config/quiet-fs.ts";

/** Devices any command may use. */
const ALLOWED_DEVICES = /^\/dev\/(null|zero|u?random|stdin|stdout|stderr|tty|fd\/\d+)$/;
/** Where a system program may be named by its absolute path (in command position or a shebang). */
const PROGRAM_DIRS = ["/usr/", "/bin/", "/sbin/", "/opt/"];

/**
 * An absolute path in the raw text: a `/` that starts a word (not inside `a/b`, `~/x`, `$HOME/x`,
 * `../x` or a URL's `//`) and the path characters after it, up to quotes, operators and globs.
 */
const ABSOLUTE = /(?<![\w.~\-+@%/:\]})$])\/[^\s'"`;|&<>(){}\[\]*?!,:$\\]*/g;
/** A run of path characters inside a word; those with a `..` component are checked. */
const PATH_RUN = /[^\s'"`;|&<>(){}\[\]*?,=:$]+/g;
/** Words naming the home directory some other way. */
const HOME_VARS = /\$\{?(HOME|OLDPWD)\b/;

/** How a jailed command runs: refused by the static check, or run (under bubblewrap when `prefix` is set). */
export type JailedBash =
  | { refusal: string; confinement: "static" }
  | { prefix: string[]; confinement: Confinement; root: string };

/**
 * Prepares a jailed bash command in `cwd`: under bubblewrap when it works here, else the static
 * check. A jail rooted at `/` confines nothing, so the command runs as it is.
 */
export async function jailBash(
  cwd: string,
  command: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  protectedPaths: readonly ProtectedPath[] = [],
): Promise<JailedBash> {
  const root = jailRoot(cwd);
  if (root === "/") return { prefix: [], confinement: "static", root };
  const confinement = await jailConfinement(env);
  if (confinement === "bwrap") {
    return { prefix: [Bun.which("bwrap")!, ...bwrapArgs(root, env, protectedBinds(protectedPaths, root))], confinement, root };
  }
  const refusal = checkCommand(command, root, root) ?? checkProtected(command, root, protectedPaths);
  // Said as it is: bubblewrap may well work here, and the user turned it off.
  const why = env.ZOT_JAIL_CONFINEMENT === "static" ? refusal?.replace(NO_BWRAP, "ZOT_JAIL_CONFINEMENT=static turns bubblewrap off") : refusal;
  return why ? { refusal: why, confinement } : { prefix: [], confinement, root };
}

/** Why the static check runs, as the refusals say it unless ZOT_JAIL_CONFINEMENT=static chose it. */
const NO_BWRAP = "Bubblewrap (bwrap) does not confine commands here";

/**
 * Why a jailed command is refused for naming a protected path (protected-paths.ts) or a directory
 * holding one (`mv .zot elsewhere`), or undefined. Reading them is refused too: the text does not
 * say which a command does.
 */
export function checkProtected(command: string, root: string, everything: readonly ProtectedPath[]): string | undefined {
  const paths = everything.filter((entry) => !entry.undoneOnly);
  if (paths.length === 0) return undefined;
  const inside = paths.map((entry) => ({ entry, real: realPathOf(entry.path) })).filter(({ real }) => real !== root && isWithin(root, real));
  if (inside.length === 0) return undefined;
  // A command that moves or renames things (mv, git mv): a submodule's folder named in it is moved.
  const moves = /(?:^|[\s;&|(])(?:git\s+(?:-C\s+\S+\s+)?mv|mv|rename)\s/.test(command);
  for (const word of shellWords(command)) {
    for (const [run] of word.text.matchAll(PATH_RUN)) {
      if (run.startsWith("-") || run.startsWith("~")) continue;
      const real = realPathOf(resolve(root, run));
      if (real === root || !isWithin(root, real)) continue;
      // A folder holding one (`mv .zot x`), unless it is a working tree of its own (a submodule's
      // folder, whose .git it holds): moving that moves the repository, and what the command puts
      // in its place is undone afterwards (ProtectedSnapshot).
      // A submodule's own folder is named by `git -C sub …` and `cd sub` too: refused only when moved.
      const named = protectedBy(paths, real, true);
      const workingTree = isWorkingTree(real) && !moves;
      const hit = (named?.identityOnly && workingTree ? undefined : named) ?? (workingTree ? undefined : inside.find(({ real: target }) => isWithin(real, target))?.entry);
      if (hit) {
        return (
          `bash: the command names ${run}, ${hit.what}, which a jailed command may not change: code there would run ` +
          `outside the jail the next time zot starts. ${NO_BWRAP}, so zot checks ` +
          "the command text instead; leave it as it is, ask the user to make this change, or to lift the jail with /unjail."
        );
      }
    }
  }
  return undefined;
}

function isWorkingTree(dir: string): boolean {
  return lstatSafe(join(dir, ".git")) !== undefined;
}

/** A shell word with where it sits. */
interface Word {
  text: string;
  /** first word of a simple command (after VAR=value assignments) */
  command: boolean;
  /** how many `( … )` subshells it is in */
  depth: number;
}

/**
 * Why a jailed command is refused, or undefined when its text names nothing outside `root`
 * (resolved). `cwd` is where it runs (the root itself, in zot).
 */
export function checkCommand(command: string, root: string, cwd = root): string | undefined {
  const outside = findOutside(command, root, cwd);
  if (!outside) return undefined;
  return (
    `bash: ${outside}; zot is jailed to ${root}. ${NO_BWRAP}, so zot checks ` +
    "the command text instead, and a jailed command may only name paths inside the working directory: " +
    "use relative paths inside it, or ask the user to lift the jail with /unjail."
  );
}

function findOutside(command: string, root: string, cwd: string): string | undefined {
  if (HOME_VARS.test(command)) return `the command uses ${command.match(HOME_VARS)![0]}, which is outside the working directory`;
  for (const match of command.matchAll(ABSOLUTE)) {
    const path = match[0];
    if (path.length < 2 || ALLOWED_DEVICES.test(path)) continue;
    if (isProgram(path) && inCommandPosition(command, match.index)) continue;
    const abs = resolve(path);
    const verdict = judgePath(root, abs);
    // A lone `/` or `//` in code (a division, a comment) is not a path; `cd /` is caught below.
    if (!verdict.inside && abs !== "/") return named(path, abs, verdict.real);
  }

  // Where the shell is at each word: `cd` moves it, a `( … )` subshell's cd ends with the subshell.
  // Arithmetic (`$((10 / 2))`) holds no paths, and its `/` is a division.
  const words = shellWords(command.replace(/\$\(\([^()]*\)\)/g, "0"));
  const dirs = [cwd];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    dirs.length = Math.min(dirs.length, word.depth + 1);
    while (dirs.length < word.depth + 1) dirs.push(dirs.at(-1)!);
    if (word.command && (word.text === "cd" || word.text === "pushd")) {
      const next = words[i + 1];
      const target = next && !next.command && next.depth === word.depth ? next.text : undefined;
      const dir = target === undefined ? homedir() : target.startsWith("~") ? expandTilde(target) : resolve(dirs.at(-1)!, target);
      if (dir === undefined || target === "-") return `\`cd ${target ?? ""}\` leaves the working directory`;
      const verdict = judgePath(root, dir);
      if (!verdict.inside) return `\`cd ${target}\` leaves the working directory (to ${verdict.real})`;
      dirs[dirs.length - 1] = dir;
      i++;
      continue;
    }
    const problem = checkWord(word.text, root, dirs.at(-1)!);
    if (problem) return problem;
  }
  return undefined;
}

/** A word is checked as a path from the directory the shell is in by then. */
function checkWord(text: string, root: string, dir: string): string | undefined {
  if (text === "/") return "the command names / (the root directory), which is outside the working directory";
  if (text.startsWith("~")) {
    const abs = expandTilde(text);
    if (abs === undefined) return `the command names ${text}, another user's home directory`;
    const verdict = judgePath(root, abs);
    return verdict.inside ? undefined : named(text, abs, verdict.real);
  }
  if (text.startsWith("/")) return undefined; // the raw-text scan judged it
  for (const part of [text, ...(text.includes("=") ? [text.slice(text.indexOf("=") + 1)] : [])]) {
    if (part === "" || part.startsWith("-")) continue;
    const problem = checkRelative(part, root, dir);
    if (problem) return problem;
  }
  // `..` inside code in a word (`python3 -c "open('../x')"`), from where the word runs.
  for (const [run] of text.matchAll(PATH_RUN)) {
    const problem = run.split("/").includes("..") ? checkRelative(run, root, dir) : undefined;
    if (problem) return problem;
  }
  return undefined;
}

function checkRelative(path: string, root: string, dir: string): string | undefined {
  if (path.startsWith("/") || path.startsWith("~")) return undefined;
  const abs = resolve(dir, path);
  const verdict = judgePath(root, abs);
  return verdict.inside ? undefined : named(path, abs, verdict.real);
}

/** `~` and `~/x` as the shell expands them; undefined for `~user`. */
function expandTilde(text: string): string | undefined {
  if (text === "~") return homedir();
  return text.startsWith("~/") ? resolve(homedir(), text.slice(2)) : undefined;
}

function named(path: string, abs: string, real: string): string {
  return `the command names ${path}, which ${real === abs ? "is" : `leads to ${real},`} outside the working directory`;
}

function isProgram(path: string): boolean {
  if (!PROGRAM_DIRS.some((dir) => path.startsWith(dir))) return false;
  const info = statSafe(path);
  return info !== undefined && info.isFile() && (info.mode & 0o111) !== 0;
}

/** The text before `index` ends a command (start, `;`, `&`, `|`, `(`, a newline) or a shebang's `#!`. */
function inCommandPosition(command: string, index: number): boolean {
  const before = command.slice(0, index);
  return /(^|[;&|(\n`!]|\$\(|#!|\b(env|exec|command|time|nohup|xargs))\s*$/.test(before);
}

/**
 * The command's words, quotes removed, split at blanks and shell operators; enough to find command
 * positions and `cd` targets. Not a shell parser: expansions are left as they are written.
 */
export function shellWords(command: string): Word[] {
  const words: Word[] = [];
  let current = "";
  let inWord = false;
  let commandNext = true;
  let depth = 0;
  const finish = () => {
    if (!inWord) return;
    const isAssignment = commandNext && /^[A-Za-z_][A-Za-z0-9_]*=/.test(current);
    words.push({ text: current, command: commandNext && !isAssignment, depth });
    if (!isAssignment) commandNext = false;
    current = "";
    inWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      const stop = end === -1 ? command.length : end;
      current += command.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (c === "\\" && i + 1 < command.length) {
      current += command[++i];
      inWord = true;
    } else if (c === " " || c === "\t") {
      finish();
    } else if (";&|()\n".includes(c)) {
      finish();
      commandNext = true;
      if (c === "(") depth++;
      if (c === ")") depth = Math.max(0, depth - 1);
    } else if (c === "<" || c === ">") {
      // A redirection's target is a word in argument position.
      finish();
    } else {
      current += c;
      inWord = true;
    }
  }
  finish();
  return words;
}
