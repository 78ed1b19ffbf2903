// What git reads configuration and hooks from, for the repository git finds from a folder: the
// places where a command written there runs at the user's next `git status` or commit outside zot
// (core.fsmonitor, aliases, filters, hooks). workspace-trust.ts adds them to what the jailed tools
// may not write.
// Rule: everything that decides which configuration git reads is kept, not only the config file:
// the `.git` entry itself (a directory stays that directory, a `.git` file stays as it is), the
// gitdir's `config`, `config.worktree`, `commondir` and `hooks/`, the common directory it names, each
// submodule's git directory under `modules/` (and a new one there is undone), each linked worktree's
// `config.worktree`, `commondir` and `gitdir`, and the `.git` of each submodule `.gitmodules` names.
// Objects, refs, the index, HEAD and logs stay writable, so `git add`, `commit`, `checkout` and
// `stash` work in the jail.
import os from "node:os";
import path from "node:path";
import type { ProtectedPath } from "../protocol/tool.ts";
import { lstatSafe, readSafe, readdirSafe, realOrSame } from "./quiet-fs.ts";

/** How deep submodules in submodules (and `modules/` folders of names with a `/`) are followed. */
const MAX_DEPTH = 6;

/**
 * The protected paths of the repository git would find from `dir` (resolved): its `.git` and what
 * it leads to. When `dir` has no `.git` of its own but lies inside a repository, a `.git` created
 * at `dir` would take the user's git in that folder over from the enclosing one, so that path is
 * protected too (a new one is removed).
 */
export function gitRepositoryPaths(dir: string): ProtectedPath[] {
  const out: ProtectedPath[] = [];
  if (lstatSafe(path.join(dir, ".git"))) {
    worktreePaths(dir, dir, out, 0);
    out.push(bareHead(dir, dir));
    return out;
  }
  const outer = enclosingRepository(dir);
  if (outer) {
    out.push({
      path: path.join(dir, ".git"),
      what: `a new git repository (.git) that would take git in this folder over from the repository at ${outer}`,
      whileJailed: true,
    });
    // ...or a bare one (a HEAD here); and what of the repository above lies in this folder: the hooks
    // a hooks path names here (a package's .husky), its submodules here (only those inside count).
    out.push(bareHead(dir, dir));
    worktreePaths(dir, outer, out, 0);
  }
  return out;
}

/** The working tree at `tree`: its `.git` entry, the git directory behind it, and its submodules' `.git`. */
function worktreePaths(dir: string, tree: string, out: ProtectedPath[], depth: number): void {
  const dotGit = path.join(tree, ".git");
  const info = lstatSafe(dotGit);
  const label = shown(dir, dotGit);
  if (!info) {
    // a submodule not checked out yet: the .git `git submodule update` would make goes with the
    // git directory under .git/modules it names, which is removed as new (no link left dangling)
    if (depth > 0) out.push({ path: dotGit, what: `a new submodule's git link (${label})`, whileJailed: true });
    return;
  }
  // A submodule's folder stays where it is (`git mv sub sub2` would leave the repository half moved,
  // the submodule's configuration naming the old place): bound onto itself under bubblewrap, so the
  // move fails before git changes anything; moved back under the static check.
  if (depth > 0) out.push({ path: tree, identityOnly: true, what: `a submodule's folder (${shown(dir, tree)}), which its git configuration names`, whileJailed: true });
  let gitDir: string | undefined;
  if (info.isDirectory()) {
    out.push({ path: dotGit, identityOnly: true, what: `this folder's git directory (${label})`, whileJailed: true });
    gitDir = dotGit;
  } else {
    // a file (a linked worktree's or an absorbed submodule's `gitdir: …`), or a link: kept as it is
    out.push({ path: dotGit, what: `this folder's git link (${label}), naming the repository git uses`, whileJailed: true });
    gitDir = info.isFile() ? gitDirOfFile(dotGit) : undefined;
  }
  if (gitDir) {
    gitDirPaths(dir, gitDir, out, depth);
    hooksPathEntries(dir, gitDir, tree, out);
  }
  if (depth >= MAX_DEPTH) return;
  for (const sub of submodulePaths(tree)) worktreePaths(dir, path.join(tree, sub), out, depth + 1);
}

/** A git directory: what in it says which configuration and hooks git uses, and its common directory's. */
function gitDirPaths(dir: string, gitDir: string, out: ProtectedPath[], depth: number): void {
  const add = (file: string, what: (label: string) => string) => out.push({ path: file, what: what(shown(dir, file)), whileJailed: true });
  const configuration = (label: string) => `the repository's git configuration (${label})`;
  const hooks = (label: string) => `the repository's git hooks (${label})`;
  add(path.join(gitDir, "config"), configuration);
  add(path.join(gitDir, "config.worktree"), configuration);
  add(path.join(gitDir, "commondir"), (label) => `the repository's link to its git configuration (${label})`);
  hooksFolder(out, path.join(gitDir, "hooks"), hooks(shown(dir, path.join(gitDir, "hooks"))));
  const common = commonDirOf(gitDir);
  if (common !== gitDir) {
    add(path.join(common, "config"), configuration);
    hooksFolder(out, path.join(common, "hooks"), hooks(shown(dir, path.join(common, "hooks"))));
  }
  if (depth >= MAX_DEPTH) return;
  modulesPaths(dir, path.join(common, "modules"), out, depth + 1);
  for (const name of readdirSafe(path.join(common, "worktrees"))) {
    const worktree = path.join(common, "worktrees", name);
    if (!lstatSafe(worktree)?.isDirectory()) continue;
    // `git worktree remove` (and prune) deletes the folder whole: that may happen. A change in place
    // may not. A folder put in its place stays only as git's own (`git worktree remove`, then `add`
    // under the same name): its commondir exactly `../..` (isLinkedWorktreeGitDir), so git reads this
    // repository's configuration and hooks; what else it holds that git would read goes by the entries
    // below. Any other (with no commondir it would be a repository of its own, hooks and all) goes whole.
    const removable = (at: string, what: string, extra: Partial<ProtectedPath> = {}) =>
      out.push({ path: at, what: `${what} (${shown(dir, at)})`, whileJailed: true, removable: true, ...extra });
    const madeByGit = { linkedWorktree: { gitDir: worktree, common } };
    removable(worktree, "a linked worktree's git directory", madeByGit);
    for (const file of ["config.worktree", "config"]) removable(path.join(worktree, file), "a linked worktree's git configuration");
    // (its `gitdir` only says where the worktree is, for `git worktree prune`: `git worktree move` rewrites it)
    removable(path.join(worktree, "commondir"), "a linked worktree's link to its git configuration", madeByGit);
    // Not bound, so a hooks folder is kept entry by entry: a new hook is removed, a changed one put back.
    const EVERY = /^/;
    removable(path.join(worktree, "hooks"), "a linked worktree's git hooks", { names: EVERY });
    // The submodules of a linked worktree have their git directories here: as the repository's own.
    const modules: ProtectedPath[] = [];
    modulesPaths(dir, path.join(worktree, "modules"), modules, depth + 1);
    for (const entry of modules) out.push({ ...entry, removable: true, ...(path.basename(entry.path) === "hooks" && !entry.names ? { names: EVERY } : {}) });
    // The worktree's own `.git` file (inside the folder when the worktree is), which names this
    // folder: one naming a linked worktree of this repository is git's own (`worktree add`).
    const link = readSafe(path.join(worktree, "gitdir"))?.trim();
    if (!link) continue;
    const dotGit = path.resolve(worktree, link);
    removable(dotGit, "a linked worktree's git link", { gitLinkTo: { admin: worktree, common } });
    // Its top, as a main tree's (a HEAD there), the hooks a relative hooks path names from it, and
    // the submodules checked out in it, as the main tree's.
    const tree = path.dirname(dotGit);
    out.push(bareHead(dir, tree));
    hooksPathEntries(dir, worktree, tree, out);
    if (depth >= MAX_DEPTH) continue;
    for (const sub of submodulePaths(tree)) worktreePaths(dir, path.join(tree, sub), out, depth + 1);
  }
}

/** core.hooksPath (.githooks, husky's .husky/_): the hooks git runs in `tree` are there, not in the git directory. */
function hooksPathEntries(dir: string, gitDir: string, tree: string, out: ProtectedPath[]): void {
  for (const hooks of hooksPaths(gitDir, tree)) {
    hooksFolder(out, hooks, `the repository's git hooks (core.hooksPath, ${shown(dir, hooks)})`);
    // husky's hooks in .husky/_ run the scripts beside them in .husky
    if (path.basename(hooks) === "_" && path.basename(path.dirname(hooks)) === ".husky") hooksFolder(out, path.dirname(hooks), `the repository's git hooks (husky, ${shown(dir, path.dirname(hooks))})`);
  }
}

/**
 * A folder of hooks: read-only under bubblewrap as a whole, and also kept entry by entry, so that
 * under the static check (where the folder stays writable) a new hook is removed and a changed one
 * put back after the command.
 */
function hooksFolder(out: ProtectedPath[], folder: string, what: string): void {
  out.push({ path: folder, what, whileJailed: true });
  out.push({ path: folder, names: /^/, removable: true, what, whileJailed: true });
}

/**
 * A HEAD at the top of a working tree: with one there (and `objects`, `refs` and a `config` beside
 * it), git takes the folder for a bare repository of its own once its `.git` fails git's test (a
 * broken `.git/HEAD`, a `.git` file removed), and runs that config's fsmonitor. A new one is removed.
 */
function bareHead(dir: string, tree: string): ProtectedPath {
  // Not refused in a command's text (`git diff HEAD` names it): one the command makes is removed after it.
  return { path: tree, names: /^HEAD$/, undoneOnly: true, what: `a HEAD at the top of a working tree (${shown(dir, path.join(tree, "HEAD"))}), which would make git take the folder for a repository of its own`, whileJailed: true };
}

/**
 * A `modules/` folder: each submodule's git directory there is protected as a git directory, and
 * a new entry is removed (a git directory the command made, whose configuration git would run).
 * A submodule named `libs/x` sits at `modules/libs/x`: a folder without HEAD is followed down.
 */
function modulesPaths(dir: string, modules: string, out: ProtectedPath[], depth: number): void {
  const existing = readdirSafe(modules);
  out.push({ path: modules, names: namesOtherThan(existing), what: `a new submodule's git directory (under ${shown(dir, modules)})`, whileJailed: true });
  if (depth >= MAX_DEPTH) return;
  for (const name of existing) {
    const entry = path.join(modules, name);
    if (!lstatSafe(entry)?.isDirectory()) continue;
    if (lstatSafe(path.join(entry, "HEAD"))) gitDirPaths(dir, entry, out, depth + 1);
    else modulesPaths(dir, entry, out, depth + 1);
  }
}

/** A name pattern that matches every name but `names`: what is new in a folder. */
function namesOtherThan(names: readonly string[]): RegExp {
  if (names.length === 0) return /^/;
  return new RegExp(`^(?!(?:${names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$)`);
}

/** The git directory a `.git` file names (`gitdir: <path>`, relative to the file's folder). */
/**
 * The folders core.hooksPath names for the repository at `gitDir` (its own configuration, the common
 * directory's, the user's global files): absolute, a relative one taken from the working tree `tree`
 * as git takes it.
 */
function hooksPaths(gitDir: string, tree: string): string[] {
  const common = commonDirOf(gitDir);
  const home = os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, ".config");
  const files = [path.join(home, ".gitconfig"), path.join(xdg, "git", "config"), path.join(common, "config"), path.join(gitDir, "config"), path.join(gitDir, "config.worktree")];
  const found = new Set<string>();
  for (const file of new Set(files)) {
    const value = coreHooksPath(readSafe(file));
    if (value === undefined || value === "") continue;
    const expanded = value === "~" || value.startsWith("~/") ? path.join(home, value.slice(1)) : value;
    found.add(path.resolve(tree, expanded));
  }
  return [...found];
}

/** `[core] hooksPath = …` of a git configuration file's text (the last one written counts, as in git). */
function coreHooksPath(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let inCore = false;
  let value: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (section) inCore = section[1]!.toLowerCase() === "core" && !/"/.test(line);
    const entry = inCore ? /^(?:\[[^\]]*\]\s*)?hookspath\s*=\s*(.*)$/i.exec(line) : null;
    if (!entry) continue;
    // A quoted value first (a # inside it is its own), then a comment after an unquoted one.
    const written = entry[1]!.trim();
    const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(written);
    value = quoted ? quoted[1]!.replace(/\\(.)/g, "$1") : written.replace(/\s*[#;].*$/, "").trim();
  }
  return value;
}

/**
 * The git directory a `.git` file names, read as git reads it: `gitdir: `, then the path to the end
 * of the file less its line end, relative to the file's folder. Nothing else is trimmed: git keeps
 * a space at the end, and so a trimmed reading would name another folder than the one git uses.
 */
function gitDirOfFile(file: string): string | undefined {
  const text = readSafe(file);
  if (!text?.startsWith("gitdir: ")) return undefined;
  const named = text.slice("gitdir: ".length).replace(/[\r\n]+$/, "");
  return named ? path.resolve(path.dirname(file), named) : undefined;
}

/**
 * Whether `file` is a linked worktree's `.git` file as git writes it: a file (not a link, which could
 * be turned later) naming exactly `admin`, that worktree's own git directory, itself git's own
 * (isLinkedWorktreeGitDir). Not any folder in .git/worktrees: one the command made could hold a
 * config.worktree git reads.
 */
export function namesOwnWorktree(file: string, admin: string, common: string): boolean {
  if (lstatSafe(file)?.isFile() !== true) return false;
  // Exactly the absolute path git writes: a relative one can climb through a link (`x/..` with `x` a link).
  const named = readSafe(file)?.replace(/\r?\n$/, "");
  if (named !== `gitdir: ${admin}` && named !== `gitdir: ${realOrSame(admin)}`) return false;
  return isLinkedWorktreeGitDir(admin, common);
}

/**
 * Whether `gitDir` is a folder (not a link to one) two levels below `common` whose `commondir` is
 * exactly what `git worktree add` writes: `../..`. Nothing else is read as leading there, however it
 * resolves: git walks a path part by part through links (`x/../../..` with `x` a link climbs from
 * the link's target, where a lexical reading cancels it), and keeps spaces and tabs a trimmed
 * reading drops; a link on the way (`../../../link` to .git) can be turned to a planted repository
 * once checked, and so can a `commondir` that is itself a link.
 */
export function isLinkedWorktreeGitDir(gitDir: string, common: string): boolean {
  if (lstatSafe(gitDir)?.isDirectory() !== true) return false;
  const file = path.join(gitDir, "commondir");
  if (lstatSafe(file)?.isFile() !== true) return false;
  const written = readSafe(file);
  if (written !== "../..\n" && written !== "../..") return false;
  return path.dirname(path.dirname(realOrSame(gitDir))) === realOrSame(common);
}

/** The common directory (`commondir`, relative to the git directory), or the git directory itself. */
function commonDirOf(gitDir: string): string {
  const named = readSafe(path.join(gitDir, "commondir"))?.trim();
  return named ? path.resolve(gitDir, named) : gitDir;
}

/** The submodule paths `.gitmodules` names, inside the tree. */
function submodulePaths(tree: string): string[] {
  const text = readSafe(path.join(tree, ".gitmodules"));
  if (!text) return [];
  const paths: string[] = [];
  for (const [, value] of text.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)) {
    const sub = value!.replace(/^"(.*)"$/, "$1");
    const abs = path.resolve(tree, sub);
    if (abs !== tree && abs.startsWith(tree + path.sep)) paths.push(sub);
  }
  return paths;
}

/** The nearest folder above `dir` that holds a `.git`, as git's own search finds it. */
function enclosingRepository(dir: string): string | undefined {
  for (let up = path.dirname(dir); ; up = path.dirname(up)) {
    if (lstatSafe(path.join(up, ".git"))) return up;
    if (path.dirname(up) === up) return undefined;
  }
}

function shown(dir: string, file: string): string {
  const rel = path.relative(dir, file);
  return rel.startsWith("..") ? file : rel;
}
