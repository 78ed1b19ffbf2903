// The memory files of the folders below the working directory (a monorepo package's
// packages/api/CLAUDE.md), which the start does not read (memory-files.ts reads the folders from
// the top down to the cwd): Claude Code gives them to the model when it first works in their folder,
// when it reads a file there or the user @mentions one. Given a file, these are the memory files of
// each folder strictly below the cwd down to the file's, outermost first, with the same names as the
// start reads in each folder (AGENTS.md, CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md, as
// --setting-sources lets them be read), each followed by what its `@path` lines import.
// Rule: read as the start reads them (MemoryReader: the size limit, the not-text rule, a link out of
// the folder and imports from outside it waiting for trust); a file the model already has (`given`,
// by real path) is neither read nor followed again; a file outside the cwd, or in the cwd itself,
// brings none (the system prompt has the cwd's).
import path from "node:path";
import type { SettingSourceName } from "../protocol/setting-sources.ts";
import { agentsFile, claudeFileNames, type ContextFile, MemoryReader } from "./memory-files.ts";
import { realOrSame } from "./quiet-fs.ts";

export interface NestedMemoryOptions {
  /** the user's home directory, for `@~/…` imports */
  userHome: string;
  /** whether the folder is trusted: only then are the files' imports from outside it read */
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
  const names = ["AGENTS.md", ...claudeFileNames(options.claudeSources)];
  const reader = new MemoryReader({ folder: start, userHome: options.userHome, into: "what the model is given", given: options.given });
  const files: NestedMemoryFile[] = [];
  for (const folder of folders) {
    for (const name of names) {
      // Inside the folder trust is given to: it stays in it (a link out waits for trust) and imports from there.
      reader.read(name === "AGENTS.md" ? agentsFile(folder) : path.join(folder, name), !options.projectTrusted, start);
      for (const found of reader.files.slice(files.length)) files.push({ ...found, folder });
    }
  }
  return { files, notes: reader.notes() };
}

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
