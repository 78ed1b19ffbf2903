// `zot ext install <path|git-url> [--force]`: copies a directory (or a shallow clone of a git
// repository) into $ZOT_HOME/extensions/<manifest name>/.
// Rule: all or nothing. The copy is assembled and validated in a hidden sibling of its destination
// and only then renamed into place (an existing copy, with --force, is swapped out the same way);
// any failure, an interrupt included, leaves the extensions directory as it was.
import type { ArgsDef } from "citty";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { childEnv } from "../config/child-env.ts";
import { zotPaths } from "../config/home.ts";
import { UsageError } from "../config/usage-error.ts";
import { loadManifest, resolveExec } from "../extensions/manifest.ts";
import { errorText } from "../protocol/error-text.ts";
import { DEBUG_ARG, type ExtCommand, type ExtContext } from "./ext.ts";
import { parseFlags } from "./parse-flags.ts";
import { EXIT } from "./router.ts";

const ARGS = {
  source: { type: "positional", required: true, description: "A directory containing extension.json, or a git URL" },
  force: { type: "boolean", description: "Replace an installed extension of the same name" },
  debug: DEBUG_ARG,
} satisfies ArgsDef;

export const INSTALL: ExtCommand = {
  usage: "install <path|git-url> [--force]",
  description: "Install an extension into $ZOT_HOME/extensions/<name>/ from a directory or a git URL",
  args: ARGS,
  async run(argv: string[], ctx: ExtContext): Promise<number> {
    const { values, positionals } = parseFlags(ARGS, argv, undefined, "zot ext install");
    if (positionals.length !== 1 || positionals[0] === "") {
      throw new UsageError("zot ext install takes one source: a directory containing extension.json, or a git URL");
    }
    const installed = await installExtension(positionals[0], { ...ctx, force: values.force === true });
    const version = installed.version ? ` ${installed.version}` : "";
    console.log(`installed ${installed.name}${version} → ${installed.dir}${installed.replaced ? " (replaced the previous copy)" : ""}`);
    if (!installed.enabled) console.error(`zot: ${installed.name} is disabled in its extension.json; zot ext enable ${installed.name} turns it on`);
    return EXIT.ok;
  },
};

export interface InstallOptions {
  home: string;
  cwd: string;
  env: Record<string, string | undefined>;
  force: boolean;
}

export interface Installed {
  name: string;
  version?: string;
  enabled: boolean;
  dir: string;
  replaced: boolean;
}

/** `https://…`, `http://…`, `ssh://…`, `git://…`, `file://…`, `user@host:path`, or anything ending in `.git`. */
export function isGitUrl(source: string): boolean {
  return isRemoteUrl(source) || /\.git\/?$/.test(source);
}

/** A URL with a scheme or git's `user@host:path`: never a local path, even if one is spelled so. */
function isRemoteUrl(source: string): boolean {
  return /^(https?|ssh|git|file):\/\//.test(source) || /^[\w.-]+@[\w.-]+:/.test(source);
}

export async function installExtension(source: string, options: InstallOptions): Promise<Installed> {
  const extensionsDir = zotPaths(options.home).extensionsDir;
  const scratch: string[] = [];
  let createdDir: string | undefined;
  const cleanUp = () => {
    for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
    if (createdDir) removeEmptyDirs(extensionsDir, createdDir);
  };
  // Ctrl+C during a clone or a copy must not leave half an extension behind.
  const onSignal = () => {
    cleanUp();
    process.exit(EXIT.interrupted);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const local = path.resolve(options.cwd, source);
    let sourceDir: string;
    let isClone = false;
    // A URL is cloned, whatever the folder holds: a repository that carries a directory spelled
    // `https:/host/x.git` or `git@host:x.git` must not get itself installed in the URL's place.
    // A bare repository on disk (`repo.git`: HEAD, objects, refs, no extension.json) is cloned, as its URL would be.
    const bareRepository = (dir: string) =>
      !existsSync(path.join(dir, "extension.json")) && existsSync(path.join(dir, "HEAD")) && existsSync(path.join(dir, "objects")) && existsSync(path.join(dir, "refs"));
    if (!isRemoteUrl(source) && existsSync(local) && !(statSync(local).isDirectory() && bareRepository(local))) {
      if (!statSync(local).isDirectory()) throw new Error(`${local} is not a directory; give the directory that contains extension.json`);
      sourceDir = local;
    } else if (isGitUrl(source) || (existsSync(local) && bareRepository(local))) {
      const cloneRoot = mkdtempSync(path.join(os.tmpdir(), "zot-ext-clone-"));
      scratch.push(cloneRoot);
      sourceDir = path.join(cloneRoot, "repo");
      isClone = true;
      // A repository on disk by its path: as a file:// URL, so the clone is as shallow as a remote one.
      await gitClone(!isRemoteUrl(source) && existsSync(local) ? pathToFileURL(local).href : source, sourceDir, options.env);
    } else {
      throw new Error(`no directory at ${local}; give a directory that contains extension.json, or a git URL (https://…, git@…, file://…)`);
    }

    const manifest = validManifest(sourceDir, source);
    const name = manifest.name;
    // The manifest schema keeps separators out of names; a leading dot would make the installed
    // directory hidden, and discovery skips hidden directories.
    if (name.startsWith(".")) {
      throw new Error(`${path.join(sourceDir, "extension.json")}: "name" may not start with "." (got "${name}"); nothing was installed`);
    }
    const dest = path.join(extensionsDir, name);
    const exists = existsSync(dest);
    if (exists && !options.force) {
      throw new Error(`"${name}" is already installed at ${dest}; pass --force to replace it, or zot ext remove ${name} first`);
    }
    if (isInside(extensionsDir, sourceDir)) {
      throw new Error(`${sourceDir} contains zot's extensions directory; give the extension's own directory`);
    }

    createdDir = mkdirSync(extensionsDir, { recursive: true });
    // Hidden siblings on the same filesystem, so the final step is a rename and discovery (which
    // skips dot-directories) never sees a half-copied extension.
    const suffix = `${process.pid}-${Date.now().toString(36)}`;
    const staging = path.join(extensionsDir, `.${name}.installing-${suffix}`);
    scratch.push(staging);
    try {
      cpSync(sourceDir, staging, {
        recursive: true,
        // Relative links inside the extension keep pointing inside it, not back at the source.
        verbatimSymlinks: true,
        filter: (file) => path.basename(file) !== ".git",
      });
    } catch (error) {
      throw new Error(`copying ${sourceDir} to ${extensionsDir} failed: ${errorText(error)}`);
    }
    // Validated again where it will run: exec paths resolve relative to the installed copy.
    const staged = validManifest(staging, source);
    // A bundle with nothing to run (skills, a theme) is installed as it is: the loader never starts it.
    const exec = staged.exec === undefined ? undefined : resolveExec(staged, staging, { zotBinary: process.execPath, env: options.env });
    if (exec && "error" in exec) {
      // The staging copy is gone once this fails; point at the files the user can fix.
      const fixable = exec.error.replaceAll(staging, isClone ? source : sourceDir);
      throw new Error(`"${name}" cannot be started: ${fixable}; nothing was installed`);
    }

    if (exists) {
      const previous = path.join(extensionsDir, `.${name}.replaced-${suffix}`);
      renameSync(dest, previous);
      try {
        renameSync(staging, dest);
      } catch (error) {
        renameSync(previous, dest);
        throw new Error(`replacing ${dest} failed: ${errorText(error)}; the installed copy was kept`);
      }
      scratch.push(previous);
    } else {
      try {
        renameSync(staging, dest);
      } catch (error) {
        // Another `zot ext install` of it finished between the look above and this rename.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOTEMPTY" || code === "EEXIST") {
          throw new Error(`"${name}" was installed at ${dest} by another zot meanwhile; pass --force to replace it, or zot ext remove ${name} first`);
        }
        throw error;
      }
    }
    scratch.splice(scratch.indexOf(staging), 1);
    createdDir = undefined;
    cleanUp();
    return { name, version: staged.version, enabled: staged.enabled !== false, dir: dest, replaced: exists };
  } catch (error) {
    cleanUp();
    throw error;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

function validManifest(dir: string, source: string) {
  const loaded = loadManifest(dir);
  if (loaded.ok) return loaded.manifest;
  // A clone lives in a temp directory the user never saw; name what they typed instead.
  if (!existsSync(loaded.file)) throw new Error(`${source} has no extension.json at its top level; nothing was installed`);
  throw new Error(`${loaded.error}; nothing was installed`);
}

async function gitClone(url: string, into: string, env: Record<string, string | undefined>): Promise<void> {
  let proc: Bun.Subprocess<"ignore", "ignore", "pipe">;
  try {
    proc = Bun.spawn(["git", "clone", "--depth", "1", "--quiet", "--", url, into], {
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
      // Never stop to ask for a password: a private or mistyped URL fails instead of hanging.
      env: { ...childEnv(env), GIT_TERMINAL_PROMPT: "0" },
    });
  } catch {
    throw new Error("git is not installed (or not on PATH); install git, or clone the repository yourself and run zot ext install <dir>");
  }
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) {
    const reason = stderr
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => line.replace(/^(fatal|error):\s*/, "").replace(/\.$/, ""))
      .join("; ");
    throw new Error(`git clone ${url} failed${reason ? `: ${reason}` : ` (exit ${code})`}; nothing was installed`);
  }
}

/** Removes `dir` and its parents up to `top` (the first directory this run created), if empty. */
function removeEmptyDirs(dir: string, top: string): void {
  for (let current = dir; ; current = path.dirname(current)) {
    try {
      if (readdirSync(current).length > 0) return;
      rmdirSync(current);
    } catch {
      return;
    }
    if (current === top || path.dirname(current) === current) return;
  }
}

function isInside(child: string, parent: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  const relative = path.relative(real(parent), real(child));
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
