// The memory files of the folders below the working directory (a monorepo package's
// packages/api/CLAUDE.md), which the start does not read (memory-files.ts reads the folders from
// the top down to the cwd): Claude Code gives them to the model when it first works in their folder,
// when it reads a file there or the user @mentions one. Given a file, these are Claude Code's memory
// files (CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md, as --setting-sources lets them be read) of
// each folder strictly below the cwd down to the file's, outermost first, each followed by what its
// `@path` lines import. AGENTS.md is not among them: Codex reads it from the root down to the
// working directory only, and a subfolder's (a dependency's) is not the project's word.
// Rule: what is below the cwd is not what the user vouched for by trusting it (a clone under a
// trusted home, a dependency's folder): every such file is read guarded, trusted folder or not. Its
// imports, and the file itself when it is a link, stay in its own folder, or in the cwd when the
// cwd is the root of the repository it is in (a package importing the monorepo's shared docs),
// never the user's home; nothing under a dependency folder (node_modules, vendor, .venv,
// site-packages …) is read. Otherwise as the start reads them (MemoryReader: the size limit, the
// not-text rule); a file the model already has (`given`, by real path) is neither read nor
// followed again; a file outside the cwd, or in the cwd itself, brings none.
import path from "node:path";
import type { SettingSourceName } from "../protocol/setting-sources.ts";
import { claudeFileNames, type ContextFile, MemoryReader, repositoryRoot } from "./memory-files.ts";
import { realOrSame } from "./quiet-fs.ts";

export interface NestedMemoryOptions {
  /** the user's home directory, for `@~/…` imports */
  userHome: string;
  /** whether the folder is trusted (it does not widen what a subfolder's files import: see the rule above) */
  projectTrusted: boolean;
  /** --setting-sources: which of Claude Code's memory files are read; undefined = all */
  claudeSources?: readonly SettingSourceName[];
  /** real paths of the memory files the model already has (the system prompt's, those given since) */
  given: Iterable<string>;
}

export interface NestedMemoryFile extends ContextFile {
  /** the folder whose files the instructions are for (an import's: its importer's) */
  folder: string;
}

export interface FoundNestedMemory {
  files: NestedMemoryFile[];
  /** sentences for the user: files and imports left out, and why */
  notes: string[];
}

/** The memory files the model should have before it works on `file` (absolute, or relative to `cwd`), outermost first. */
export function findNestedMemory(file: string, cwd: string, options: NestedMemoryOptions): FoundNestedMemory {
  const folders = foldersBelow(cwd, path.dirname(path.resolve(cwd, file)));
  if (folders.length === 0) return { files: [], notes: [] };
  const start = realOrSame(path.resolve(cwd));
  const names = claudeFileNames(options.claudeSources);
  const reader = new MemoryReader({
    folder: start,
    userHome: options.userHome,
    into: "what the model is given",
    given: options.given,
    withheld: "outside its own folder; a subfolder's memory file imports only from inside it (or from the repository the working directory is the root of), trusted or not",
    linkedOut: "so it is not read: a subfolder's memory file is read only from inside its own folder (or the repository the working directory is the root of), trusted or not",
  });
  // The cwd is where imports may come from when it is the root of the repository a folder is in (and not the user's home).
  const home = realOrSame(path.resolve(options.userHome));
  const reachOf = (folder: string) => (start !== home && repositoryRoot(folder) === start ? start : folder);
  const files: NestedMemoryFile[] = [];
  for (const folder of folders) {
    if (folder.split(path.sep).some((part) => DEPENDENCY_FOLDERS.has(part))) break;
    const reach = reachOf(folder);
    for (const name of names) {
      // The file itself is held where its imports are: a clone's CLAUDE.md linked to the project's .env is not read.
      reader.read(path.join(folder, name), true, reach, reach);
      for (const found of reader.files.slice(files.length)) files.push({ ...found, folder });
    }
  }
  return { files, notes: reader.notes() };
}

/** Folders that hold other people's code (packages, vendored copies, a virtual environment): their memory files are not the project's. */
const DEPENDENCY_FOLDERS: ReadonlySet<string> = new Set(["node_modules", "bower_components", "vendor", "third_party", ".venv", "venv", "site-packages", "__pypackages__", ".git"]);

/**
 * The folders strictly below the cwd down to `dir`, outermost first, by the cwd's real path; none
 * when `dir` is the cwd or outside it (by the path as written, or else by where it really leads).
 */
function foldersBelow(cwd: string, dir: string): string[] {
  const start = realOrSame(path.resolve(cwd));
  const relative = [path.relative(path.resolve(cwd), dir), path.relative(start, realOrSame(dir))].find(
    (rel) => rel !== "" && rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel),
  );
  if (relative === undefined) return [];
  const parts = relative.split(path.sep);
  return parts.map((_, i) => path.join(start, ...parts.slice(0, i + 1)));
}
