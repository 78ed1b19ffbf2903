// What the built-in tools may not write (ToolContext.protectedPaths): the file that grants
// workspace trust, always; and while jailed, the executable configuration that would run outside the
// jail later (a folder's .zot/extensions, .zot/hooks.json, .mcp.json, .claude/settings*.json,
// $ZOT_HOME, and what git reads configuration and hooks from: config/git-repository-paths.ts).
// Rule: judged by where a path really leads, as the jail judges (sandbox.ts); the file tools refuse
// such a path before writing; a jailed bash command sees the existing ones read-only (bubblewrap;
// a directory that must stay itself, .git, is a mount point there, which cannot be moved), and
// whatever it created or swapped in at such a path is removed when it ends, so the next run (or
// git command) never finds code the jail wrote.
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { type ProtectedPath, type ToolContext, type ToolResult, textResult } from "../protocol/tool.ts";
import { isLinkedWorktreeGitDir, namesOwnWorktree } from "../config/git-repository-paths.ts";
import { isWithin, jailRoot, realPathOf } from "./sandbox.ts";
import { lstatSafe, readdirSafe, statSafe } from "../config/quiet-fs.ts";
import { inFlightBaseline } from "./jail-baselines.ts";

/**
 * Whether names are compared without case, as the file systems macOS and Windows use by default
 * read them: there a new `.MCP.json` is the `.mcp.json` the next run reads. (A false match only refuses or asks.)
 */
const FOLDS_CASE = process.platform === "darwin" || process.platform === "win32";

/** The protected path `real` (already resolved) falls under, if any. */
export function protectedBy(paths: readonly ProtectedPath[], real: string, jailed: boolean, foldsCase = FOLDS_CASE): ProtectedPath | undefined {
  const fold = (path: string) => (foldsCase ? path.toLowerCase() : path);
  const file = fold(real);
  for (const entry of paths) {
    if (entry.whileJailed && !jailed) continue;
    const target = fold(realPathOf(entry.path));
    if (entry.identityOnly) {
      if (file === target) return entry;
    } else if (entry.names) {
      // an entry of the folder with a matching name, or anything under one
      if (!file.startsWith(target + sep)) continue;
      const name = real.slice(target.length + 1).split(sep)[0]!;
      if (entry.names.test(name) || (foldsCase && entry.names.test(fold(name)))) return entry;
    } else if (file === target || file.startsWith(target + sep)) {
      return entry;
    }
  }
  return undefined;
}

/**
 * The write and edit tools' check: undefined when the tool may go on, else the error result.
 * `path` is what the model wrote, `abs` what the tool would open.
 */
export function refuseProtected(ctx: ToolContext, tool: string, path: string, abs: string): ToolResult | undefined {
  const paths = ctx.protectedPaths ?? [];
  if (paths.length === 0) return undefined;
  const real = realPathOf(abs);
  // A file with other names (a hard link, `ln .git/config notes.txt`) is changed under all of them,
  // and nothing tells where the others are: jailed, a write tool may not change it.
  const links = ctx.jailed ? lstatSafe(real) : undefined;
  if (links?.isFile() && links.nlink > 1) {
    return textResult(
      `${tool}: ${path} is a file with ${links.nlink} names (hard links), and one may be executable configuration that would run outside the jail; a jailed ${tool} may not change it. Ask the user to make this change, or to lift the jail with /unjail.`,
      true,
      { protected: true, path: abs, real },
    );
  }
  const entry = protectedBy(paths, real, ctx.jailed ?? false);
  if (!entry) return undefined;
  const why = entry.whileJailed
    ? "zot is jailed, and code written there would run outside the jail later (the next time zot starts, or at the user's next git command); ask the user to make this change, or to lift the jail with /unjail"
    : "no tool may write it; only the user grants trust (zot trust)";
  return textResult(`${tool}: ${path} is ${entry.what}, which ${tool} may not change: ${why}.`, true, {
    protected: true,
    path: abs,
    real,
  });
}

/**
 * The protected paths inside `root` that a jailed command could reach: each entry's path as it is
 * spelled (where zot will look for it) and, when a symlink leads elsewhere, where it leads.
 */
function pathsInside(paths: readonly ProtectedPath[], root: string): Inside[] {
  const out: Inside[] = [];
  const seen = new Set<string>();
  const add = (inside: Inside) => {
    if (seen.has(`${inside.path}\u0000${inside.names ?? ""}`)) return;
    seen.add(`${inside.path}\u0000${inside.names ?? ""}`);
    out.push(inside);
  };
  for (const entry of paths) {
    for (const path of new Set([entry.path, realPathOf(entry.path)])) {
      // the jail's root itself only for some of what is in it (a HEAD at its top)
      if (isWithin(root, path) && (path !== root || entry.names !== undefined)) {
        add({
          path,
          what: entry.what,
          ...(entry.names && { names: entry.names }),
          ...(entry.identityOnly && { identityOnly: true }),
          ...(entry.removable && { removable: true }),
          ...(entry.gitLinkTo && { gitLinkTo: entry.gitLinkTo }),
          ...(entry.linkedWorktree && { linkedWorktree: entry.linkedWorktree }),
        });
      }
    }
    // An entry of a protected folder, inside the jail or not, that is a link
    // (`.git/hooks/pre-commit -> ../../scripts/pre-commit`, `.zot/extensions/lint -> ../../tools/lint`,
    // `~/.claude/settings.json -> ~/dotfiles/claude/settings.json` with the jail in ~/dotfiles): what it
    // leads to, inside the jail, is what runs, and is protected as the entry is; the link itself,
    // inside the jail, is kept with where its chain ends, so a hop re-pointed on the way is seen.
    // (A protected path that is itself a link into the jail, `~/.gitconfig -> ~/dotfiles/gitconfig`,
    // is one above: as it leads.) A whole folder is looked into two levels deep
    // (`$ZOT_HOME/extensions/lint -> ~/dotfiles/zot/lint`); one kept by names, one level.
    if (!entry.identityOnly && lstatSafe(entry.path)?.isDirectory() === true) linkedEntries(entry, root, add);
  }
  return out;
}

/** The folders of a whole protected folder whose entries are what runs (`$ZOT_HOME/extensions/<name>`): looked into too. */
const RUN_FOLDERS = new Set(["extensions", "skills", "commands", "agents"]);

/** The links among a protected folder's entries (and in its RUN_FOLDERS), and what they lead to inside the jail. */
function linkedEntries(entry: ProtectedPath, root: string, add: (inside: Inside) => void): void {
  const look = (dir: string, names: RegExp, depth: number) => {
    for (const file of matching(dir, names)) {
      const info = lstatSafe(file);
      if (info?.isDirectory() && depth > 1 && RUN_FOLDERS.has(basename(file))) look(file, /^/, depth - 1);
      if (info?.isSymbolicLink() !== true) continue;
      if (isWithin(root, file) && !entry.names) add({ path: file, what: entry.what });
      const real = realPathOf(file);
      if (isWithin(root, real) && real !== root) add({ path: real, what: entry.what });
    }
  };
  look(entry.path, entry.names ?? /^/, entry.names ? 1 : 2);
}

/** A protected path inside the jail, as the snapshot and the binds use it. */
interface Inside {
  path: string;
  what: string;
  names?: RegExp;
  identityOnly?: boolean;
  removable?: boolean;
  gitLinkTo?: { admin: string; common: string };
  linkedWorktree?: { gitDir: string; common: string };
}

/** bubblewrap arguments that show the existing protected paths inside `root` read-only. */
export function protectedBinds(paths: readonly ProtectedPath[], root: string): string[] {
  const args: string[] = [];
  const inside = pathsInside(paths, root);
  // A directory that must stay itself is bound onto itself, writable: a mount point cannot be
  // renamed or removed. Bound first (outer before inner), so the read-only binds inside it stay on top.
  const kept = inside.filter((entry) => entry.identityOnly && lstatSafe(entry.path)?.isDirectory() === true && !lstatSafe(entry.path)?.isSymbolicLink());
  for (const entry of kept.sort((a, b) => a.path.length - b.path.length)) args.push("--bind", entry.path, entry.path);
  for (const entry of inside) {
    // what may go with its folder is not bound (a bound file cannot be removed); restore undoes a change
    if (entry.identityOnly || entry.removable) continue;
    const targets = entry.names ? matching(entry.path, entry.names) : [entry.path];
    // a symlink is not bound (its target, listed too, is); the snapshot sees it replaced
    // one that leads outside the jail (a folder linked to the user's dotfiles) is not there to bind
    for (const target of targets) if (lstatSafe(target)?.isSymbolicLink() === false && isWithin(root, realPathOf(target))) args.push("--ro-bind", target, target);
  }
  return args;
}

/** What a path is, to tell a new or swapped-in file from the one that was there. */
type Identity = string;

function identity(path: string): Identity | undefined {
  const info = lstatSafe(path);
  if (!info) return undefined;
  if (!info.isSymbolicLink()) return `${info.dev}:${info.ino}:${info.mode & 0o170000}`;
  // A link is where it leads: one made anew often gets the old one's inode number, and one made
  // again to the same place is the same link.
  try {
    return `${info.dev}:${LINK}${readlinkSync(path)}`;
  } catch {
    return `${info.dev}:${info.ino}:${LINK}`;
  }
}

const LINK = "link:";
/** Between a link's identity and where it leads in the end, in a way identity (no link holds a NUL). */
const REAL = "\u0000";

/**
 * A folder (or protected path) on the way, as the snapshot knows it: its identity, and for a link
 * also where it leads in the end, so a link further on that the command changed
 * (`.claude -> dotfiles/.claude`, then `dotfiles` pointed at the user's home) changes it too.
 */
function wayIdentity(path: string): Identity | undefined {
  const id = identity(path);
  if (id === undefined || !id.includes(`:${LINK}`)) return id;
  // a chain that leads nowhere is said so, not guessed from its text (`a/b/../cfg` with `a/b` re-pointed)
  try {
    return `${id}${REAL}${realpathSync(path)}`;
  } catch {
    return `${id}${REAL}`;
  }
}

/** Where a link that `id` (identity's or wayIdentity's form) names led, if it is a link's. */
function linkTarget(id: Identity | undefined): string | undefined {
  const at = id?.indexOf(`:${LINK}`) ?? -1;
  if (at === -1) return undefined;
  const rest = id!.slice(at + 1 + LINK.length);
  const end = rest.indexOf(REAL);
  return (end === -1 ? rest : rest.slice(0, end)) || undefined;
}

/** Files up to this size are kept whole before a command, to be put back if it changes them. */
const KEEP_BYTES = 1024 * 1024;

/** A protected path as it was before the command. */
interface Before {
  identity?: Identity;
  /** a regular file's bytes and mode */
  file?: { bytes: Buffer; mode: number };
  /** a symbolic link's target (the user's own link, put back as it was) */
  link?: string;
}

function capture(path: string): Before {
  const info = lstatSafe(path);
  if (!info) return {};
  // a link by where its chain ends too: a hook linked through two hops is changed by its middle one
  const before: Before = { identity: wayIdentity(path) };
  if (info.isSymbolicLink()) {
    try {
      before.link = readlinkSync(path);
    } catch {}
  }
  if (info.isFile() && info.size <= KEEP_BYTES) {
    try {
      before.file = { bytes: readFileSync(path), mode: info.mode & 0o7777 };
    } catch {}
  }
  return before;
}

/** What `restore` did, relative to the jail: paths removed and files (or a moved .git) put back, and what they are. */
export interface Restored {
  removed: string[];
  restored: string[];
  /** what could not be undone (a folder the command made read-only, say): the user must see to it */
  failed: string[];
  /** what the protected paths concerned are ("the git configuration .git/config, whose commands git runs") */
  what: string[];
  /** where the files removed or replaced were copied ($ZOT_HOME/undone/…): a change someone else made meanwhile is not lost */
  keptIn?: string;
  /** how many were copied there, and how many were not (over the limits, sparse, or the copy failed) */
  kept?: { files: number; bytes: number; skipped: number };
}

/**
 * The protected paths inside a jail before a command runs (each file's bytes, the directories on
 * the way); after it, `restore` undoes what the command did to them: a path it created (or a
 * directory on the way it swapped in) is removed, a file it changed or deleted gets its bytes back.
 * Under bubblewrap only creation and swapping are possible (what existed is read-only). Under the
 * static check, a change inside an existing protected directory (a new extension in an existing
 * .zot/extensions) is not seen here, but for git's hooks folders, which are kept entry by entry: zot may write in $ZOT_HOME during the command, and telling its
 * writes from the command's is not possible; the static check's refusal of such commands is all.
 */
export class ProtectedSnapshot {
  private constructor(
    private readonly root: string,
    private readonly entries: Inside[],
    private readonly steps: Map<string, Identity | undefined>,
    private readonly before: Map<string, Before>,
    /** ends this command's record among the baselines in flight (jail-baselines.ts) */
    readonly release: () => void,
    /** $ZOT_HOME, when it is there: the files undone are copied under its undone/ first */
    private readonly home: string | undefined,
  ) {}

  /** links of the folder's own that led nowhere when made again: tried once more at the end of the restore */
  private readonly unmade: [string, Identity | undefined, string][] = [];

  /**
   * Before a jailed command in `cwd`: each protected path as it is, or, while another zot's jailed
   * command runs on the same jail root, as it was when the oldest of those began (jail-baselines.ts).
   * Call release() once the last restore is done.
   */
  static take(paths: readonly ProtectedPath[], cwd: string): ProtectedSnapshot {
    const root = jailRoot(cwd);
    const entries = pathsInside(paths, root);
    // Only in a $ZOT_HOME that is there: one inside the jail made now would be writable to the command
    // (bubblewrap binds what exists read-only), and its records could then be forged.
    const home = paths.find((entry) => entry.zotHome)?.path;
    const records = home !== undefined && statSafe(home)?.isDirectory() === true ? join(home, "run", "jail") : undefined;
    const stepIds = new Map<string, Identity | undefined>();
    const own = new Map<string, Before>();
    for (const entry of entries) {
      for (const step of steps(root, entry.path)) stepIds.set(step, wayIdentity(step));
      if (entry.names) for (const file of matching(entry.path, entry.names)) own.set(file, capture(file));
      else own.set(entry.path, capture(entry.path));
    }
    const covers = entries.map((entry) => ({ path: entry.path, entries: entry.names !== undefined }));
    const { baseline, release } = inFlightBaseline(records, root, { steps: stepIds, before: own, covers });
    return new ProtectedSnapshot(root, entries, baseline.steps, baseline.before, release, records ? home : undefined);
  }

  restore(): Restored {
    this.reopen();
    const done: Restored = { removed: [], restored: [], failed: [], what: [] };
    this.unlinkNewWays(done);
    // The directories that must stay themselves (.git): with one gone, a lone file put back under it is no repository.
    const kept = new Set(this.entries.filter((entry) => entry.identityOnly).map((entry) => entry.path));
    for (const entry of this.entries) {
      const count = done.removed.length + done.restored.length + done.failed.length;
      const remove = (path: string) => {
        // git's own link to one of its linked worktrees (`git worktree add`) is not the command's plant
        if (entry.gitLinkTo && path === entry.path && namesOwnWorktree(path, entry.gitLinkTo.admin, entry.gitLinkTo.common)) return;
        // A linked worktree's git directory made again under its old name (`git worktree remove`, then
        // `add`, which may make .git/worktrees anew too), or its commondir: the entry's own path,
        // never a directory on the way, and only where every directory on the way is one, not a link.
        const made = entry.linkedWorktree;
        if (made && path === entry.path && this.directoriesAbove(made.gitDir) && isLinkedWorktreeGitDir(made.gitDir, made.common)) return;
        if (!this.safeWay(path)) {
          done.failed.push(relative(this.root, path));
          return;
        }
        this.keepCopy(path, done);
        if (forceRemove(path)) done.removed.push(relative(this.root, path));
        else done.failed.push(relative(this.root, path));
      };
      // A directory on the way that is new or swapped in: everything under it is the command's.
      let fresh = false;
      let gone = false;
      let blocked = false;
      for (const step of steps(this.root, entry.path).slice(0, -1)) {
        const info = lstatSafe(step);
        if (info === undefined) {
          gone = !kept.has(step);
          blocked = !gone;
          break;
        }
        if (fresh || wayIdentity(step) !== this.steps.get(step)) {
          // a symlink goes itself, not what it leads to
          if (info.isSymbolicLink()) {
            remove(step);
            gone = true;
            break;
          }
          if (!info.isDirectory()) {
            // A file where a directory was (`rm -rf .zot && touch .zot`): nothing can be under it.
            // In place of one that was there, it goes, and the files that were there come back.
            if (!fresh && this.steps.get(step) !== undefined) {
              remove(step);
              gone = true;
            } else {
              blocked = true;
            }
            break;
          }
          fresh = true;
        }
      }
      if (gone && !fresh) {
        // the way there was removed or moved: put back the files that were there (not what may go
        // with its folder: a worktree `git worktree remove` deleted stays deleted)
        if (!entry.removable) for (const [path, was] of this.before) if (isWithin(entry.path, path) && was.file) this.putBack(path, was.file, done);
      } else if (!gone && !blocked) {
        const paths = entry.names ? [...new Set([...matching(entry.path, entry.names), ...this.knownUnder(entry.path, entry.names)])] : [entry.path];
        for (const path of paths) this.settle(path, fresh ? {} : (this.before.get(path) ?? {}), done, remove, entry.identityOnly === true);
      }
      if (done.removed.length + done.restored.length + done.failed.length > count && !done.what.includes(entry.what)) done.what.push(entry.what);
    }
    // A link of the folder's own that led nowhere while what it leads to was gone (`git mv config conf`
    // with `.mcp.json -> config/mcp.json`): made again now that the files are back, if it then leads where it led.
    for (const [path, was, target] of this.unmade.splice(0)) this.remakeLink(path, was, done, target, true);
    // A path listed twice (as spelled and as it leads) is said once.
    done.removed = [...new Set(done.removed)];
    done.restored = [...new Set(done.restored)];
    done.failed = [...new Set(done.failed)];
    return done;
  }

  /**
   * The folders on the way to each protected path, and those themselves, searchable and readable
   * by their owner again, outer before inner: a command that took the bits off (`chmod 000 .`) made
   * every lookup under them fail as if nothing were there, while the user's git (the folder's owner,
   * and able to chmod it back) would find what it planted. A link is never followed here.
   */
  private reopen(): void {
    makeWritable(this.root);
    for (const entry of this.entries) {
      for (const step of steps(this.root, entry.path)) {
        // a link is not followed (one the command made goes next: unlinkNewWays), nor is what is under it
        if (lstatSafe(step)?.isDirectory() !== true) break;
        makeWritable(step);
      }
    }
  }

  /** Whether everything on the way to `path` (not `path` itself) is a directory, none a link to one. */
  private directoriesAbove(path: string): boolean {
    return steps(this.root, path)
      .slice(0, -1)
      .every((step) => lstatSafe(step)?.isDirectory() === true);
  }

  /** The paths right under `dir` whose names match `names` that were there before (another entry may know others there). */
  private knownUnder(dir: string, names: RegExp): string[] {
    return [...this.before.keys()].filter((path) => dirname(path) === dir && names.test(path.slice(dir.length + 1)));
  }

  /** One protected path after the command, against how it was. */
  private settle(path: string, was: Before, done: Restored, remove: (path: string) => void, keepsItself: boolean): void {
    const now = wayIdentity(path);
    if (was.identity === undefined) {
      if (now !== undefined) remove(path);
      return;
    }
    if (was.file) {
      const same = now === was.identity && sameBytes(path, was.file.bytes);
      if (!same) this.putBack(path, was.file, done);
      return;
    }
    if (now === was.identity) return;
    // a directory swapped in: the new one goes; the original is wherever the command moved it
    if (now !== undefined) remove(path);
    if (keepsItself) this.moveBack(path, was.identity, done);
    // the user's own link, replaced or pointed elsewhere: made again as it was
    else if (lstatSafe(path) === undefined && this.safeWay(path)) this.remakeLink(path, was.identity, done, was.link);
  }

  /**
   * A link of the folder's own (as `was`, a way identity, knew it) that the command removed or
   * pointed elsewhere, made again with its target, if it then leads where it led: not when a link
   * further on was changed too (it stays removed then, and what was under it comes back in a folder).
   */
  private remakeLink(path: string, was: Identity | undefined, done: Restored, target = linkTarget(was), last = false): void {
    if (target === undefined || lstatSafe(path) !== undefined) return;
    try {
      symlinkSync(target, path);
    } catch {
      done.failed.push(relative(this.root, path));
      return;
    }
    const now = was?.includes(REAL) ? wayIdentity(path) : identity(path);
    if (now === was) {
      done.restored.push(relative(this.root, path));
      done.removed = done.removed.filter((removed) => removed !== relative(this.root, path));
      return;
    }
    forceRemove(path);
    // leading nowhere yet: what it leads to may be put back below (tried again at the end of the restore)
    if (!last && now?.endsWith(REAL)) this.unmade.push([path, was, target]);
  }

  /**
   * Whether every folder between the jail's top and `path` is a folder, or the very link that was
   * there before the command: checked again right before each removal or write, so a command still
   * running (another zot's) that swaps a folder for a link meanwhile does not lead one outside.
   */
  private safeWay(path: string): boolean {
    for (const step of steps(this.root, dirname(path))) {
      const info = lstatSafe(step);
      if (info === undefined) return true; // made below, as a folder
      if (info.isDirectory()) continue;
      if (!info.isSymbolicLink() || wayIdentity(step) !== this.steps.get(step)) return false;
    }
    return true;
  }

  /**
   * A regular file about to be removed or replaced, copied first under $ZOT_HOME/undone/<when>/ by
   * its path in the jail: what is undone is the command's doing, or a change someone else made
   * meanwhile (the user's `git config` in another terminal, which zot cannot tell from it), and
   * that is not lost. Copies are 0600 and run nothing; folders older than UNDONE_DAYS go. A restore
   * keeps at most KEEP_FILES files and KEEP_TOTAL_BYTES (a command's thousands of planted files, or
   * sparse ones, cost it nothing and would cost the user's disk): what is not kept is counted.
   */
  private keepCopy(path: string, done: Restored): void {
    if (this.home === undefined) return;
    const info = lstatSafe(path);
    if (!info?.isFile()) return;
    const inJail = relative(this.root, path);
    const sparse = info.blocks * 512 < info.size;
    const kept = done.kept ?? { files: 0, bytes: 0, skipped: 0 };
    done.kept = kept;
    if (inJail.startsWith("..") || sparse || info.size > KEEP_BYTES || kept.files >= KEEP_FILES || kept.bytes + info.size > KEEP_TOTAL_BYTES) {
      kept.skipped++;
      return;
    }
    try {
      if (done.keptIn === undefined) {
        const undone = join(this.home, "undone");
        // zot's own folder or none: a link there (planted by a command that could write $ZOT_HOME) is not followed
        if (!ownFolder(undone, true)) throw new Error("undone/ is not zot's folder");
        pruneUndone(undone);
        const folder = join(undone, `${new Date().toISOString().replaceAll(":", "-")}-${process.pid}-${randomSuffix()}`);
        mkdirSync(folder, { mode: 0o700 });
        done.keptIn = folder;
      }
      const copy = join(done.keptIn, inJail);
      if (lstatSafe(copy) !== undefined) return; // kept already (a path listed twice, as spelled and as it leads)
      mkdirSync(dirname(copy), { recursive: true, mode: 0o700 });
      writeFileSync(copy, readFileSync(path), { mode: 0o600, flag: "wx" });
      kept.files++;
      kept.bytes += info.size;
    } catch {
      // a copy that cannot be made does not stop the undo
      kept.skipped++;
    }
  }

  /**
   * Before anything is read, removed or written: a link the command put on the way to a protected
   * path, or in place of a folder kept entry by entry (`ln -s ~/.claude .claude`, `ln -s ~
   * .git/modules`), goes itself, so nothing below reaches through it to a folder outside the jail.
   * A link that was there before the command (the user's own) stays.
   */
  private unlinkNewWays(done: Restored): void {
    for (const entry of this.entries) {
      for (const step of steps(this.root, entry.path)) {
        const info = lstatSafe(step);
        if (!info || (!info.isSymbolicLink() && !info.isDirectory())) break;
        if (!info.isSymbolicLink()) continue;
        // the very link that was there, leading where it led: the user's own, not followed here
        if (wayIdentity(step) === this.steps.get(step)) break;
        if (forceRemove(step)) done.removed.push(relative(this.root, step));
        else done.failed.push(relative(this.root, step));
        this.remakeLink(step, this.steps.get(step), done);
        if (!done.what.includes(entry.what)) done.what.push(entry.what);
        break;
      }
    }
  }

  /**
   * A directory that must stay itself (.git) and was moved: found by its identity beside where it
   * was or at the top of the jail (`mv .git .git-real`), it is moved back.
   */
  private moveBack(path: string, was: Identity, done: Restored): void {
    if (lstatSafe(path)) return;
    for (const dir of new Set([dirname(path), this.root])) {
      for (const name of readdirSafe(dir)) {
        const candidate = join(dir, name);
        if (identity(candidate) !== was) continue;
        try {
          renameSync(candidate, path);
          done.restored.push(`${relative(this.root, path)} (moved back from ${relative(this.root, candidate)})`);
        } catch {}
        return;
      }
    }
  }

  private putBack(path: string, file: { bytes: Buffer; mode: number }, done: Restored): void {
    if (!this.safeWay(path)) {
      done.failed.push(relative(this.root, path));
      return;
    }
    this.keepCopy(path, done);
    try {
      if (!forceRemove(path)) throw new Error("cannot remove");
      mkdirSync(dirname(path), { recursive: true });
      makeWritable(dirname(path));
      writeFileSync(path, file.bytes, { mode: file.mode });
      chmodSync(path, file.mode);
      done.restored.push(relative(this.root, path));
    } catch {
      done.failed.push(relative(this.root, path));
    }
  }
}

/** How long the copies of what was undone are kept. */
const UNDONE_DAYS = 30;
/** What one restore copies at most. */
const KEEP_FILES = 64;
const KEEP_TOTAL_BYTES = 8 * 1024 * 1024;

/** `dir` is a folder of this user's and no link (made, 0700, when `make` and it is not there). */
function ownFolder(dir: string, make: boolean): boolean {
  if (make && lstatSafe(dir) === undefined) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch {
      return false;
    }
  }
  const info = lstatSafe(dir);
  return info?.isDirectory() === true && (process.getuid === undefined || info.uid === process.getuid());
}

function randomSuffix(): string {
  return Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, "0");
}

/** Removes the folders of undone/ older than UNDONE_DAYS. */
function pruneUndone(undone: string): void {
  const before = Date.now() - UNDONE_DAYS * 24 * 60 * 60 * 1000;
  for (const name of readdirSafe(undone)) {
    const info = lstatSafe(join(undone, name));
    if (info && info.mtimeMs < before) rmSync(join(undone, name), { recursive: true, force: true });
  }
}

/** What the model is told when its jailed command's changes to protected paths were undone. */
export function undoneNote(undone: Restored): string {
  const what = [
    undone.removed.length > 0 ? `removed ${listed(undone.removed)}` : "",
    undone.restored.length > 0 ? `put back ${listed(undone.restored)} as it was` : "",
    undone.failed.length > 0
      ? `COULD NOT UNDO ${listed(undone.failed)} (tell the user: they must remove or restore it before running git or zot in this folder)`
      : "",
  ].filter(Boolean);
  const concerned = undone.what.length > 0 ? ` (${undone.what.join("; ")})` : "";
  return (
    `[jailed: this command changed executable configuration${concerned}, which would run outside the jail later: ` +
    "the next time zot starts, or, for a git repository's configuration and hooks, at the user's next git command. " +
    `A jailed command may not change it, so zot ${what.join(" and ")}. Ask the user to make such a change (a git ` +
    "command that writes a repository's configuration is the user's to run, outside the jail), or to lift the jail with /unjail." +
    (undone.keptIn
      ? ` The files undone, as they were when zot undid them, are in ${undone.keptIn}${undone.kept?.skipped ? ` (${undone.kept.skipped} not kept: over the limits)` : ""}: tell the user, for a change of theirs made while the command ran; each may hold the command's change too, so they should read it before they copy anything back]`
      : "]")
  );
}

/** Paths named in a note: the first NOTE_PATHS, then how many more (a command's 20,000 planted names are no 4 MB result). */
function listed(paths: string[]): string {
  if (paths.length <= NOTE_PATHS) return paths.join(", ");
  return `${paths.slice(0, NOTE_PATHS).join(", ")} and ${paths.length - NOTE_PATHS} more`;
}

const NOTE_PATHS = 20;

/**
 * Removes `path` (a folder whole), making it and its parent writable first when the command took
 * that away (`chmod 555`): whether it is gone.
 */
function forceRemove(path: string): boolean {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    makeWritable(dirname(path));
    makeWritableTree(path);
    // As root (the static check in a container), a command could mark it immutable or append-only (`chattr +i`).
    if (process.getuid?.() === 0 && Bun.which("chattr")) Bun.spawnSync(["chattr", "-R", "-i", "-a", path], { stdout: "ignore", stderr: "ignore" });
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {}
  }
  return lstatSafe(path) === undefined;
}

function makeWritable(dir: string): void {
  try {
    const info = lstatSync(dir);
    if (info.isDirectory() && (info.mode & 0o700) !== 0o700) chmodSync(dir, (info.mode & 0o7777) | 0o700);
  } catch {}
}

function makeWritableTree(path: string): void {
  const info = lstatSafe(path);
  if (!info?.isDirectory()) return;
  makeWritable(path);
  for (const name of readdirSafe(path)) makeWritableTree(join(path, name));
}

function sameBytes(path: string, bytes: Buffer): boolean {
  try {
    return readFileSync(path).equals(bytes);
  } catch {
    return false;
  }
}

/** The directories from just below `root` down to `path`, and `path` itself. */
function steps(root: string, path: string): string[] {
  const parts = relative(root, path).split(sep).filter(Boolean);
  return parts.map((_, i) => join(root, ...parts.slice(0, i + 1)));
}

/**
 * The entries of `dir` whose names match. A folder the command made unreadable (`chmod 311 .`: git
 * still opens HEAD and config in it by name) is made readable again first, so what is in it is seen.
 */
function matching(dir: string, names: RegExp): string[] {
  const list = () =>
    readdirSync(dir)
      .filter((name) => names.test(name))
      .map((name) => join(dir, name));
  try {
    return list();
  } catch {
    makeWritable(dir);
    try {
      return list();
    } catch {
      return [];
    }
  }
}
