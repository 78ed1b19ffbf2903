// The jail (`--jail`, `/jail`, `/unjail`): built-in tools confined to the working directory.
// Rule: a path is judged by where it really leads (after `..`, symlinks, and for a file that does
// not exist yet, its nearest existing parent), never by how it is spelled; the file tools refuse a
// path outside with an error the model can act on. bash runs under bubblewrap when it works here
// (a real confinement) and otherwise gets a static check of its command text (sandbox-command.ts).
import { readdirSync, readlinkSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, isAbsolute, join, resolve, sep } from "node:path";
import { type ToolContext, type ToolResult, textResult } from "../protocol/tool.ts";
import { isSavedOutputName } from "./bash-output-files.ts";
import { statSafe, lstatSafe } from "../config/quiet-fs.ts";

/** How jailed bash commands are confined. */
export type Confinement = "bwrap" | "static";

/** Where a path leads, or why it is refused. */
export type JailVerdict = { inside: true; real: string } | { inside: false; real: string };

/** Symlinks followed in one path before giving up (the kernel's own limit). */
const MAX_LINKS = 40;

/** The jail's root: the working directory as the file system knows it. */
export function jailRoot(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return resolve(cwd);
  }
}

/**
 * Where `abs` really leads: every symlink on the way resolved, including a dangling one (its
 * target counts) and the parents of a file that does not exist yet.
 */
export function realPathOf(abs: string, links = 0): string {
  try {
    return realpathSync(abs);
  } catch {}
  if (links > MAX_LINKS) return abs;
  let target: string | undefined;
  try {
    target = readlinkSync(abs);
  } catch {}
  // A dangling symlink: where it would create or open is its target.
  if (target !== undefined) return realPathOf(resolve(dirname(abs), target), links + 1);
  const parent = dirname(abs);
  if (parent === abs) return abs;
  return join(realPathOf(parent, links + 1), basename(abs));
}

/** Whether `real` (already resolved) is the root or inside it. */
export function isWithin(root: string, real: string): boolean {
  return root === sep || real === root || real.startsWith(root + sep);
}

/** Judges an absolute path against the jail rooted at `root` (already resolved). */
export function judgePath(root: string, abs: string): JailVerdict {
  const real = realPathOf(abs);
  return { inside: isWithin(root, real), real };
}

/**
 * The file tools' check: undefined when the tool may go on (not jailed, or the path is inside),
 * else the error result. `path` is what the model wrote, `abs` what the tool would open.
 */
export function refuseOutsideJail(ctx: ToolContext, tool: string, path: string, abs: string): ToolResult | undefined {
  if (!ctx.jailed) return undefined;
  const root = jailRoot(ctx.cwd);
  const verdict = judgePath(root, abs);
  if (verdict.inside || (tool === "read" && isBashOutputFile(verdict.real))) return undefined;
  const via = verdict.real !== abs ? ` (it leads to ${verdict.real})` : "";
  return textResult(
    `${tool}: ${path} is outside the working directory ${root}${via}. zot is jailed to that directory, so ` +
      "tools may only use paths inside it; use a path inside it, or ask the user to lift the jail with /unjail.",
    true,
    { jailed: true, path: abs, real: verdict.real, root },
  );
}

/**
 * A jailed bash command's long output (and an MCP server's binary content) is saved whole outside
 * the working directory, and its result tells the model to read it: that file (ours: the right name, in the temp directory,
 * owned by this user) stays readable.
 */
function isBashOutputFile(real: string): boolean {
  if (!isSavedOutputName(basename(real)) || dirname(real) !== jailRoot(tmpdir())) return false;
  const info = lstatSafe(real);
  return info !== undefined && info.isFile() && info.uid === process.getuid?.();
}

let probed: Promise<string[] | undefined> | undefined;
/** The user-namespace arguments the probe found working; bwrapArgs uses them. */
let bwrapUserNamespace: string[] | undefined;

/**
 * Which confinement jailed bash gets: bubblewrap when `bwrap` is on PATH and can set up its
 * namespaces here (it needs unprivileged user namespaces, or root), else the static check.
 * ZOT_JAIL_CONFINEMENT=static forces the static check (for a system where bubblewrap misbehaves).
 */
export async function jailConfinement(env: Readonly<Record<string, string | undefined>> = process.env): Promise<Confinement> {
  if (env.ZOT_JAIL_CONFINEMENT === "static") return "static";
  probed ??= probeBwrap();
  return (await probed) !== undefined ? "bwrap" : "static";
}

/**
 * The user-namespace arguments this bwrap takes, strongest first: a user namespace of its own (so
 * no capability the command might regain counts outside it) that cannot create further ones
 * (`--disable-userns`, bwrap 0.8), else one that can (an older bwrap), else none (root on a system
 * without user namespaces; the capabilities are still dropped and /proc still read-only).
 */
const USER_NAMESPACE_LADDER = [["--unshare-user", "--disable-userns"], ["--unshare-user"], []];

async function probeBwrap(): Promise<string[] | undefined> {
  const bwrap = Bun.which("bwrap");
  if (!bwrap) return undefined;
  for (const userns of USER_NAMESPACE_LADDER) {
    try {
      const proc = Bun.spawn([bwrap, ...userns, ...BASE_BWRAP_ARGS, ...kernelProcArgs(), "--ro-bind", "/", "/", "true"], {
        stdin: "ignore",
        stdout: "ignore",
        stderr: "ignore",
      });
      if ((await proc.exited) === 0) {
        bwrapUserNamespace = userns;
        return userns;
      }
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** New pid namespace (so /proc shows no process outside), no capabilities, gone when zot is. */
const BASE_BWRAP_ARGS = [
  "--die-with-parent",
  "--unshare-pid",
  "--unshare-ipc",
  "--cap-drop",
  "ALL",
  "--proc",
  "/proc",
  "--dev",
  "/dev",
  "--tmpfs",
  "/tmp",
];

/** Entries of /proc that belong to processes (the jail's own, in its pid namespace). */
const PROCESS_ENTRY = /^(\d+|self|thread-self)$/;

/**
 * The kernel's settings and switches in /proc, read-only: every top-level entry that is not a
 * process's and is a directory (/proc/sys, /proc/irq, /proc/bus, /proc/fs, /proc/acpi, …) or a
 * writable file (/proc/sysrq-trigger, /proc/mtrr, …). A root inside the jail still owns them, with
 * or without capabilities, and writing kernel.core_pattern runs a program of its choice on the
 * host; bubblewrap covers some of these itself, but not /proc/sys when zot runs as root. Mounted
 * over the jail's /proc, they also keep a nested /proc from being mounted where they would show.
 */
export function kernelProcArgs(proc = "/proc"): string[] {
  let names: string[];
  try {
    names = readdirSync(proc);
  } catch {
    return [];
  }
  const args: string[] = [];
  for (const name of names.sort()) {
    if (PROCESS_ENTRY.test(name)) continue;
    const path = join(proc, name);
    const info = lstatSafe(path);
    if (!info || info.isSymbolicLink()) continue;
    if (info.isDirectory() || (info.mode & 0o222) !== 0) args.push("--ro-bind-try", path, join("/proc", name));
  }
  return args;
}

/** Read-only system directories (or their merged-/usr symlinks): what any program needs to run. */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"];

/** Files in /etc that only root should read; hidden even from a jailed root. */
const MASKED_FILES = ["/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers"];
const MASKED_DIRS = ["/etc/ssh", "/etc/ssl/private", "/etc/sudoers.d"];

/**
 * The bubblewrap arguments that confine a command to `root` (resolved): the system directories
 * read-only, the directories on PATH read-only (toolchains installed in a home directory keep
 * working), an empty throwaway home and /tmp, a private /proc (the kernel's settings in it
 * read-only) and /dev, and `root` itself read-write with `overRoot` on top (binds inside it: the
 * protected paths, read-only); no capabilities, even for root. Everything else (the real home,
 * other projects, /var, /run, /mnt …) does not exist. The network is left as it is.
 */
export function bwrapArgs(root: string, env: Readonly<Record<string, string | undefined>> = process.env, overRoot: string[] = []): string[] {
  const args = [...(bwrapUserNamespace ?? []), ...BASE_BWRAP_ARGS, ...kernelProcArgs()];
  for (const dir of SYSTEM_DIRS) {
    const info = lstatSafe(dir);
    if (info?.isSymbolicLink()) args.push("--symlink", readlinkSync(dir), dir);
    else if (info?.isDirectory()) args.push("--ro-bind", dir, dir);
  }
  for (const file of MASKED_FILES) if (statSafe(file)) args.push("--ro-bind", "/dev/null", file);
  for (const dir of MASKED_DIRS) if (statSafe(dir)?.isDirectory()) args.push("--tmpfs", dir);
  // /etc/resolv.conf often points into /run (systemd-resolved): keep name resolution working.
  const resolv = realPathOf("/etc/resolv.conf");
  if (resolv !== "/etc/resolv.conf" && !resolv.startsWith("/etc/")) args.push("--ro-bind-try", resolv, resolv);

  const home = env.HOME && isAbsolute(env.HOME) && env.HOME !== sep ? jailRoot(env.HOME) : undefined;
  if (home && !isWithin(root, home)) args.push("--tmpfs", home);
  for (const dir of pathDirs(env.PATH ?? "")) {
    // A PATH entry holding the whole home (or `/`) would show everything the jail hides.
    if (dir === sep || (home && isWithin(dir, home))) continue;
    if (!isWithin(root, dir) && !SYSTEM_DIRS.some((system) => isWithin(system, dir))) args.push("--ro-bind", dir, dir);
  }
  args.push("--bind", root, root, ...overRoot, "--chdir", root);
  return args;
}

/** The existing directories on PATH, resolved, each once. */
function pathDirs(path: string): string[] {
  const dirs: string[] = [];
  for (const entry of path.split(delimiter)) {
    if (!isAbsolute(entry)) continue;
    const real = jailRoot(entry);
    if (statSafe(real)?.isDirectory() && !dirs.includes(real)) dirs.push(real);
  }
  return dirs;
}

/** Appended to a failed jailed command's result, so the model knows why a path may be missing. */
export function bwrapNote(root: string): string {
  return (
    `[jailed: this command ran under bubblewrap; only ${root} (writable), the system directories ` +
    "(read-only), the PATH directories (read-only) and an empty /tmp and home exist, and inside it the extensions, " +
    "hooks and settings a later run would start (.zot/extensions, .zot/hooks.json, .mcp.json, .claude/settings*.json) " +
    "are read-only, and so are the git repository's configuration and hooks (.git/config, .git/hooks, a submodule's " +
    "under .git/modules): a git command that writes them (git config, git remote add, git branch -u, git push -u, " +
    "git submodule init or update, git init) fails with \"Device or resource busy\" or saves nothing; ask the user to " +
    "run that one outside the jail (in zot's TUI, as !git …). A missing or read-only path there is the jail; ask the " +
    "user to /unjail if the task needs it]"
  );
}
