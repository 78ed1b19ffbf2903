// The memory files the system prompt carries, as zot, Claude Code and Codex find them:
// $ZOT_HOME/AGENTS.md, Codex's $CODEX_HOME/AGENTS.md (default ~/.codex, as Codex reads it), pi's
// $PI_CODING_AGENT_DIR/AGENTS.md (default ~/.pi/agent), the user's ~/.claude/CLAUDE.md and ~/.claude/rules/; then, outermost first, Claude Code's
// CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md of every folder from the top of the file system
// down to the cwd (as Claude Code reads them, up to but not including /), AGENTS.md of every folder
// from the repository root down to the cwd (as Codex reads them), and the .claude/rules/**/*.md of
// every folder from the repository root down to the cwd (a monorepo package's own rules with the
// root's); each followed by the files its `@path` lines import. A file that is not text (an image
// an import names: config/text-content.ts) is left out, as Claude Code leaves it out.
// Rule: memory is data, read whether or not the folder is trusted, but what a file other than the
// user's own imports from outside the folder (the cwd, by its real path, as trust is given) is read
// only once the folder is trusted: a cloned repository's CLAUDE.md, or one in a folder above it,
// must not send `@~/.ssh/id_rsa` to the model (Claude Code asks before following such an import);
// nor may such a file be a link out of its repository (or, above it, out of its own folder). What is
// left out is said. MemoryReader is the one reading of memory files and their imports: the start's
// here, a subfolder's when the model first works in it (nested-memory-files.ts). The files are read
// synchronously: a dozen small files (most of them missing) cost a start less that way than a dozen
// trips through the thread pool (about 1 ms of a one-shot run, scripts/bench floor).
import { type SettingSourceName, sourceRead } from "../protocol/setting-sources.ts";
import { closeSync, type Dirent, lstatSync, openSync, readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { realOrSame, statSafe } from "./quiet-fs.ts";
import { isDevNull, kindOfNonFile } from "./regular-file.ts";
import { whyNotText } from "./text-content.ts";

export interface ContextFile {
  path: string;
  content: string;
  /** the context file whose `@path` brought this one in */
  importedBy?: string;
}

export interface MemoryOptions {
  /** the user's home directory (~/.claude, `@~/…` imports); default os.homedir() */
  userHome?: string;
  /** whether the folder is trusted: only then are its files' imports from outside the project read */
  projectTrusted?: boolean;
  /**
   * folders above the working directory the user trusted (real paths): a memory file of one of
   * them (its CLAUDE.md, not a subfolder's) imports from inside it, as it would started there
   */
  trustedAbove?: readonly string[];
  /** `$CODEX_HOME`, where Codex keeps the user's AGENTS.md; default `<userHome>/.codex` (Codex's default) */
  codexHome?: string;
  /** `$PI_CODING_AGENT_DIR`, where pi keeps the user's AGENTS.md; default `<userHome>/.pi/agent` (pi's default) */
  piAgentDir?: string;
  /** --setting-sources: which of Claude Code's memory files are read (config/setting-sources.ts); undefined = all */
  claudeSources?: readonly SettingSourceName[];
}

export interface FoundMemory {
  files: ContextFile[];
  /** sentences for the user: imports left out, and why */
  notes: string[];
}

/** Claude Code's memory files, in the order read in each folder. */
const CLAUDE_FILES = ["CLAUDE.md", path.join(".claude", "CLAUDE.md"), "CLAUDE.local.md"];
/** `@path` imports nest at most this deep (Claude Code's limit). */
const MAX_IMPORT_DEPTH = 5;
/** A memory file or import larger than this is left out, with a note (a stray `@node_modules/…`, a generated AGENTS.md, must not fill the prompt). */
const MAX_MEMORY_BYTES = 256 * 1024;
/** Rule files of one .claude/rules folder read at most (a stray tree must not fill the prompt). */
const MAX_RULE_FILES = 100;
/** Subfolders of a .claude/rules folder walked at most. */
const MAX_RULE_DEPTH = 5;

/** Every memory file, outermost first, each followed by its imports; a file reached twice (a symlink, home inside the repo) once. */
export function findContextFiles(cwd: string, home: string, options: MemoryOptions = {}): FoundMemory {
  const userHome = options.userHome ?? os.homedir();
  // The folder trust is given to (its real path, as the trust store keys it): what the user vouched for.
  const start = realOrSame(path.resolve(cwd));
  const project = repositoryRoot(start) ?? start;
  const ancestors: string[] = [];
  for (let dir = start; path.dirname(dir) !== dir; dir = path.dirname(dir)) ancestors.unshift(dir);
  const userRules = path.join(userHome, ".claude", "rules");
  const read = (source: SettingSourceName) => sourceRead(options.claudeSources, source);
  const own = [
    path.join(path.resolve(home), "AGENTS.md"),
    agentsFile(options.codexHome?.trim() ? path.resolve(options.codexHome.trim()) : path.join(userHome, ".codex")),
    agentsFile(options.piAgentDir?.trim() ? path.resolve(options.piAgentDir.trim()) : path.join(userHome, ".pi", "agent")),
    ...(read("user") ? [path.join(userHome, ".claude", "CLAUDE.md"), ...ruleFiles(userRules)] : []),
  ];
  const claudeFiles = claudeFileNames(options.claudeSources);

  // Each file with the folder its real path must stay in while the folder is untrusted: the folder
  // it sits in (a CLAUDE.md linked to its AGENTS.md is fine; one linked to /proc/self/environ is
  // not), which for the repository root's files and rules is the whole repository. A folder between
  // the root and the working directory vouches for nothing above it: the root may be the user's home
  // (a dotfiles repository), where an unpacked archive's CLAUDE.md must not reach ~/.ssh. A folder of
  // the repository the user trusted (its root, say) vouches for what is inside it.
  const trustedInRepository = (options.trustedAbove ?? []).filter((folder) => within(project, folder)).sort((a, b) => a.length - b.length);
  const candidates: { file: string; bound?: string; folder?: string }[] = [
    ...own.map((file) => ({ file })),
    ...ancestors.flatMap((dir) => {
      const bound = (within(project, dir) && trustedInRepository.find((folder) => within(folder, dir))) || dir;
      return [
        ...(within(project, dir) ? [agentsFile(dir)] : []),
        ...claudeFiles.map((name) => path.join(dir, name)),
        ...(within(project, dir) && read("project") ? ruleFiles(path.join(dir, ".claude", "rules")) : []),
      ].map((file) => ({ file, bound, folder: dir }));
    }),
  ];
  // The user's own files import freely; every other (the folder's, its repository's, the folders
  // above it, which anyone may have written: a tarball's parent, a shared /tmp) imports only from
  // inside the folder until the folder is trusted.
  const guarded = (file: string) => !options.projectTrusted && !own.includes(file);
  const reader = new MemoryReader({ folder: start, userHome, into: "the system prompt" });
  const trustedAbove = new Set(options.trustedAbove ?? []);
  for (const { file, bound, folder } of candidates) {
    // A cloned repository's CLAUDE.md may be a link to a file of the user's, or to /proc/self/environ.
    // A trusted folder's own memory file (the repository root's, zot started in a package of it) imports from inside that folder.
    reader.read(file, guarded(file), bound !== undefined && within(start, file) ? start : bound, folder !== undefined && trustedAbove.has(folder) ? folder : undefined);
  }
  return { files: reader.files, notes: reader.notes() };
}

/**
 * Reads memory files and the files their `@path` lines import, each once by its real path, and
 * keeps what was left out and why: the one reading of memory files, at the start (findContextFiles)
 * and for a subfolder's files later (nested-memory-files.ts).
 */
export class MemoryReader {
  readonly files: ContextFile[] = [];
  private readonly seen: Set<string>;
  private readonly leftOut: string[] = [];
  private readonly links: string[] = [];
  private readonly withheld = new Map<string, string[]>();

  constructor(
    private readonly options: {
      /** the folder trust is given to (its real path): a guarded file imports only from inside it */
      folder: string;
      /** the user's home directory, for `@~/…` imports */
      userHome: string;
      /** what the files go into, for the notes ("the system prompt") */
      into: string;
      /** real paths the model already has: neither read nor followed again */
      given?: Iterable<string>;
      /** what an import withheld is said to be, after the file and its imports (default: waiting for trust) */
      withheld?: string;
      /** what a link out of its folder is said to be, after where it leads (default: waiting for trust) */
      linkedOut?: string;
    },
  ) {
    this.seen = new Set(options.given ?? []);
  }

  /**
   * Reads `file` and its imports. `guarded`: its imports from outside the folder (or from outside
   * `reach`, a trusted folder it is a memory file of) wait for trust, and so does the file itself
   * when it is a link out of `keep` (the folder its real path must stay in).
   */
  read(file: string, guarded: boolean, keep?: string, reach?: string): void {
    if (guarded && keep !== undefined && readTextFile(file) !== undefined && !within(keep, realOrSame(file))) {
      const why = this.options.linkedOut ?? "so it is not read until the folder is trusted (zot trust, or --trust for one run)";
      this.links.push(`${file} is a link to ${realOrSame(file)}, outside ${keep === this.options.folder ? "this folder" : keep}, ${why}`);
      return;
    }
    this.add(file, undefined, 0, guarded ? (reach ?? this.options.folder) : undefined);
  }

  /** Sentences for the user: the files left out (too big, unreadable, not text), the links not followed, the imports withheld. */
  notes(): string[] {
    return [
      ...this.leftOut,
      ...this.links,
      ...[...this.withheld].map(
        ([file, targets]) =>
          `${file} imports ${targets.map((target) => `@${target}`).join(", ")}, ${this.options.withheld ?? "outside this folder; imports from outside an untrusted folder are not read (zot trust, or --trust for one run, reads them)"}`,
      ),
    ];
  }

  /** `reach`: the folder the file's imports must stay in while it is guarded; undefined: anywhere. */
  private add(file: string, importedBy: string | undefined, depth: number, reach: string | undefined): void {
    const { into } = this.options;
    const size = statSafe(file)?.size ?? 0;
    if (size > MAX_MEMORY_BYTES) {
      this.leftOut.push(`${file} is ${Math.round(size / 1024)} KB, over the ${MAX_MEMORY_BYTES / 1024} KB a memory file may be; it is left out of ${into}`);
      return;
    }
    const bytes = readFileBytes(file);
    if (bytes === undefined) {
      // There but not readable: the user's instructions would be missing without a word.
      const why = whyUnreadable(file);
      if (why) this.leftOut.push(`${file} cannot be read (${why}); it is left out of ${into}`);
      return;
    }
    const real = realOrSame(file);
    if (this.seen.has(real)) return;
    this.seen.add(real);
    // An image or archive (`@docs/diagram.png`) would be tens of thousands of replacement characters in every request.
    const notText = whyNotText(bytes);
    if (notText) {
      this.leftOut.push(`${file}${importedBy ? `, imported by ${importedBy},` : ""} is not text (${notText}); it is left out of ${into}`);
      return;
    }
    const raw = bytes.toString("utf8");
    if (!raw.trim()) return;
    const content = isRuleFile(file) ? ruleText(raw) : raw;
    this.files.push({ path: file, content, ...(importedBy ? { importedBy } : {}) });
    if (depth >= MAX_IMPORT_DEPTH) return;
    const targets = importsOf(content, path.dirname(file), this.options.userHome);
    // One already read (through a file allowed to import it) is not withheld.
    const outside =
      reach !== undefined ? targets.filter((target) => !within(reach, realOrSame(target)) && !this.seen.has(realOrSame(target)) && readTextFile(target) !== undefined) : [];
    if (outside.length > 0) this.withheld.set(file, outside);
    for (const target of targets) if (!outside.includes(target)) this.add(target, file, depth + 1, reach);
  }
}

/** Whether `file` is `dir` or inside it. */
function within(dir: string, file: string): boolean {
  return file === dir || file.startsWith(`${dir}${path.sep}`);
}

/**
 * The files a memory file imports: `@path` words (`@docs/style.md`, `@~/notes.md`, `@/abs/x.md`)
 * outside code spans and fenced blocks, relative to the importing file. A word that names no file
 * (an e-mail address, a package scope) is simply not an import.
 */
export function importsOf(content: string, dir: string, userHome: string): string[] {
  const targets: string[] = [];
  let fenced = false;
  for (const line of content.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/(?:^|\s)@((?:~\/|\.{1,2}\/|\/)?[\w.\-/]+[\w\-/])/g)) {
      const raw = match[1];
      const target = raw.startsWith("~/") ? path.join(userHome, raw.slice(2)) : path.resolve(dir, raw);
      if (!targets.includes(target)) targets.push(target);
    }
  }
  return targets;
}

/** The names of a folder's Claude Code memory files --setting-sources lets be read: CLAUDE.local.md is `local`'s, the others `project`'s. */
export function claudeFileNames(only: readonly SettingSourceName[] | undefined): string[] {
  return CLAUDE_FILES.filter((name) => sourceRead(only, name === "CLAUDE.local.md" ? "local" : "project"));
}

/** A folder's AGENTS.md, or its AGENTS.override.md in its place, as Codex reads them. */
export function agentsFile(dir: string): string {
  const override = path.join(dir, "AGENTS.override.md");
  return statSafe(override)?.isFile() ? override : path.join(dir, "AGENTS.md");
}

/** The `.md` files of a .claude/rules folder and its subfolders, by path; a linked folder is not walked (a loop, a link to /). */
function ruleFiles(dir: string, depth = 0): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && depth < MAX_RULE_DEPTH) out.push(...ruleFiles(full, depth + 1));
    else if (entry.name.endsWith(".md") && (entry.isFile() || (entry.isSymbolicLink() && statSafe(full)?.isFile()))) out.push(full);
    if (out.length >= MAX_RULE_FILES) break;
  }
  return out.slice(0, MAX_RULE_FILES);
}

function isRuleFile(file: string): boolean {
  return file.includes(`${path.sep}.claude${path.sep}rules${path.sep}`);
}

/**
 * A rule file's text: its frontmatter taken off; a rule scoped to some files (`paths:`, which
 * Claude Code applies only while it works on them) says so in its first line, so the model applies it there.
 */
function ruleText(raw: string): string {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(raw);
  if (!match) return raw;
  const body = raw.slice(match[0].length);
  const paths = rulePaths(match[1]!);
  return paths.length > 0 ? `(These rules apply when working with files matching ${paths.join(", ")}.)\n\n${body}` : body;
}

/** The `paths:` of a rule's frontmatter: a list (`- "src/**"`) or one line (`src/**, lib/**`). */
function rulePaths(frontmatter: string): string[] {
  const lines = frontmatter.split(/\r?\n/);
  const at = lines.findIndex((line) => /^paths\s*:/.test(line));
  if (at === -1) return [];
  const unquote = (value: string) => value.trim().replace(/^["']|["']$/g, "");
  const inline = lines[at]!.replace(/^paths\s*:/, "").trim();
  if (inline) return inline.replace(/^\[|\]$/g, "").split(",").map(unquote).filter(Boolean);
  const items: string[] = [];
  for (const line of lines.slice(at + 1)) {
    const item = /^\s+-\s*(.+)$/.exec(line);
    if (!item) break;
    items.push(unquote(item[1]!));
  }
  return items.filter(Boolean);
}

export function repositoryRoot(start: string): string | undefined {
  for (let dir = start; ; ) {
    // `.git` is a directory in a clone and a file in worktrees and submodules.
    if (statSafe(path.join(dir, ".git")) !== undefined) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Why a file that is there cannot be read: a link that loops, a permission, a named pipe or a
 * device; undefined when it is not there (a link to nothing, too), is a folder, or reads.
 */
export function whyUnreadable(file: string): string | undefined {
  try {
    // Most candidates are not there: asked without an exception.
    if (!lstatSync(file, { throwIfNoEntry: false })) return undefined;
  } catch (error) {
    // A folder on the way zot may not enter (~/.claude left to root by a `sudo claude`) hides what is in it.
    const code = (error as NodeJS.ErrnoException).code;
    return code === "EACCES" || code === "EPERM" ? "permission denied on a folder of its path" : undefined;
  }
  try {
    // Asked, not read: a named pipe would wait for a writer forever, a device (/dev/zero) never end.
    const stats = statSync(file);
    if (stats.isDirectory() || isDevNull(stats)) return undefined;
    if (!stats.isFile()) return `it is ${kindOfNonFile(stats)}, not a regular file`;
    closeSync(openSync(file, "r"));
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return "it is a link that loops";
    if (code === "EACCES" || code === "EPERM") return "permission denied";
    if (code === "EIO") return "an input/output error";
    return undefined;
  }
}

/** A regular file's bytes, or undefined when it is missing, not a file or unreadable. */
function readFileBytes(file: string): Buffer | undefined {
  try {
    return statSafe(file)?.isFile() ? readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/** A file's text, or undefined when it is missing, not a file, unreadable or over `maxBytes`. */
export function readTextFile(file: string, maxBytes?: number): string | undefined {
  try {
    const stat = statSafe(file);
    if (!stat?.isFile()) return undefined;
    if (maxBytes !== undefined && stat.size > maxBytes) return undefined;
    return readFileSync(file, "utf8");
  } catch {
    // Missing or unreadable: context files are optional, and a prompt without one still works.
    return undefined;
  }
}
