// Finds the extensions a run of zot would load: `--ext` paths, then the project's
// `.zot/extensions/`, then `$ZOT_HOME/extensions/`, each read through its manifest.
// Rule: the answer is deterministic and complete; a project the user has not trusted gives its
// entries marked untrusted (workspace trust: they are listed, never run). The order is fixed (precedence, then directory
// name); nothing is skipped silently: a directory without a usable manifest comes back broken,
// and a name already taken comes back marked with who shadows it. Spawning is someone else's job.
import { readdirSync } from "node:fs";
import path from "node:path";
import { zotPaths } from "../config/home.ts";
import type { LoadedManifest, Manifest } from "./manifest.ts";
import { realOrSame, statSafe } from "../config/quiet-fs.ts";
import { errnoWords } from "../protocol/errno-words.ts";

export type ExtensionSource = "flag" | "project" | "global";

export interface DiscoveredExtension {
  source: ExtensionSource;
  /** the extension's directory (absolute): its working directory and the base of a relative exec */
  dir: string;
  manifestFile: string;
  /** present when the manifest loaded; a disabled one is still returned (the caller decides) */
  manifest?: Manifest;
  /** why it cannot be loaded: a sentence naming the file */
  error?: string;
  /** the directory of the extension with the same name that wins; the loader skips this one */
  shadowedBy?: string;
  /** a project extension of a folder the user has not trusted; the loader skips it */
  untrusted?: true;
}

export interface DiscoverOptions {
  cwd: string;
  home: string;
  /** `--ext` paths: a directory holding extension.json, or the manifest file itself */
  explicit: string[];
  /** `--no-ext`: skip the project and global directories, keep the explicit paths */
  noDiscovery: boolean;
  /**
   * Workspace trust (config/workspace-trust.ts): false returns the project's extensions marked
   * `untrusted`, and they take no name from a global one (they are not run; the global one is)
   */
  projectTrusted: boolean;
}

/** The two directories discovery scans, in precedence order. */
export function extensionSearchDirs(options: { cwd: string; home: string }): { project: string; global: string } {
  return {
    project: path.resolve(options.cwd, ".zot", "extensions"),
    global: path.resolve(options.cwd, zotPaths(options.home).extensionsDir),
  };
}

/** The search directories' subdirectories (none with --no-ext), or why one cannot be read. */
function scanSearchDirs(options: Pick<DiscoverOptions, "cwd" | "home" | "noDiscovery">) {
  if (options.noDiscovery) return [];
  const dirs = extensionSearchDirs(options);
  return ([
    ["project", dirs.project],
    ["global", dirs.global],
  ] as const).map(([source, root]) => ({ source, root, scanned: subdirectories(root) }));
}

function foundNothing(explicit: readonly string[], scans: ReturnType<typeof scanSearchDirs>): boolean {
  return explicit.length === 0 && scans.every(({ scanned }) => "dirs" in scanned && scanned.dirs.length === 0);
}

/**
 * Whether discovery would come back empty: no `--ext` path, and no directory (nor an unreadable
 * search directory) to report. Reads directory listings only, not a manifest.
 */
export function nothingToDiscover(options: Pick<DiscoverOptions, "cwd" | "home" | "explicit" | "noDiscovery">): boolean {
  return foundNothing(options.explicit, scanSearchDirs(options));
}

export async function discoverExtensions(options: DiscoverOptions): Promise<DiscoveredExtension[]> {
  const scans = scanSearchDirs(options);
  // Manifests (and the hook schemas they are checked with) load only when there is one to read.
  if (foundNothing(options.explicit, scans)) return [];
  const { loadManifest, loadManifestFile, MANIFEST_FILE } = await import("./manifest.ts");
  const found: DiscoveredExtension[] = [];
  // The same directory reached twice (`--ext` pointing into the project dir, or ZOT_HOME inside
  // the project) is one extension, not a conflict with itself.
  const seenDirs = new Set<string>();
  const add = (source: ExtensionSource, loaded: LoadedManifest) => {
    const key = realOrSame(loaded.dir);
    if (seenDirs.has(key)) return;
    // An untrusted project's copy of a global directory (ZOT_HOME inside the project) is the global one.
    const untrusted = source === "project" && !options.projectTrusted;
    if (!untrusted) seenDirs.add(key);
    const entry: DiscoveredExtension = loaded.ok
      ? { source, dir: loaded.dir, manifestFile: loaded.file, manifest: loaded.manifest }
      : { source, dir: loaded.dir, manifestFile: loaded.file, error: loaded.error };
    found.push(untrusted ? { ...entry, untrusted: true } : entry);
  };

  for (const given of options.explicit) add("flag", loadExplicit(given, options.cwd, { loadManifest, loadManifestFile, MANIFEST_FILE }));
  for (const { source, root, scanned } of scans) {
    if ("error" in scanned) {
      found.push({ source, dir: root, manifestFile: path.join(root, MANIFEST_FILE), error: scanned.error });
      continue;
    }
    for (const dir of scanned.dirs) add(source, loadManifest(dir));
  }

  // First in precedence wins a name. A disabled winner still holds it: disabling the project's
  // copy must not quietly bring back the global one. Broken entries have no name to hold.
  const winners = new Map<string, string>();
  for (const entry of found) {
    if (!entry.manifest || entry.untrusted) continue;
    const winner = winners.get(entry.manifest.name);
    if (winner === undefined) winners.set(entry.manifest.name, entry.dir);
    else entry.shadowedBy = winner;
  }
  return found;
}

function loadExplicit(given: string, cwd: string, manifests: Pick<typeof import("./manifest.ts"), "loadManifest" | "loadManifestFile" | "MANIFEST_FILE">): LoadedManifest {
  const { loadManifest, loadManifestFile, MANIFEST_FILE } = manifests;
  const target = path.resolve(cwd, given);
  const stats = statSafe(target);
  if (!stats) {
    return { ok: false, dir: target, file: path.join(target, MANIFEST_FILE), error: `--ext ${given}: ${target} does not exist` };
  }
  if (stats.isDirectory()) return loadManifest(target);
  if (path.extname(target) === ".json") return loadManifestFile(target);
  return {
    ok: false,
    dir: path.dirname(target),
    file: target,
    error: `--ext ${given}: ${target} is not a directory or a manifest; give the extension's directory (with ${MANIFEST_FILE} in it) or its ${MANIFEST_FILE}`,
  };
}

/** The subdirectories of root sorted by name; a missing root is simply empty. */
function subdirectories(root: string): { dirs: string[] } | { error: string } {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === "ENOENT") return { dirs: [] };
    if (code === "ENOTDIR") return { error: `${root} is a file; extensions live in subdirectories of a directory there` };
    return { error: `cannot read ${root} (${errnoWords(err)})` };
  }
  return {
    dirs: names
      // Hidden directories are not extensions: `zot ext install` stages its copies as `.name.installing-…`.
      .filter((name) => !name.startsWith("."))
      // Code-unit order, not the locale's: the same on every machine.
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((name) => path.join(root, name))
      // statSync follows symlinks, so a linked extension directory counts; an empty one is no extension
      // (nothing to warn about on every run, as the original zot skipped it).
      .filter((dir) => statSafe(dir)?.isDirectory() === true && !isEmptyDir(dir)),
  };
}

function isEmptyDir(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}
