// File-system lookups that answer "not there" rather than throw: a path that is missing, cannot be
// looked at (EACCES), or lies under a part that became a file (ENOTDIR, which Bun's lstatSync and
// statSync throw even with throwIfNoEntry: false) is absent to the caller, who decides what absence
// means. Rule: only for lookups where absence is an answer; a read whose failure must be reported
// keeps its own try.
import { fstatSync, lstatSync, readdirSync, readlinkSync, realpathSync, type Stats, statSync } from "node:fs";
import { resolve } from "node:path";
import { readRegularFile } from "./regular-file.ts";

/** lstat, or undefined. */
export function lstatSafe(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** stat (through links), or undefined. */
export function statSafe(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** fstat of a descriptor, or undefined when it is closed. */
export function fstatSafe(fd: number): Stats | undefined {
  try {
    return fstatSync(fd);
  } catch {
    return undefined;
  }
}

/** Where a symbolic link leads, as written in it, or undefined. */
export function readlinkSafe(link: string): string | undefined {
  try {
    return readlinkSync(link);
  } catch {
    return undefined;
  }
}

/** What readSafe reads at most: git's small files (a .gitmodules, a config, a commondir). */
const READ_SAFE_MAX_BYTES = 1024 * 1024;

/**
 * The file's text, or undefined; also when it is no regular file (a named pipe would wait forever,
 * a link to /dev/zero never end: a folder may hold either where git's files are looked for) or is
 * larger than `maxBytes` (a sparse 3 GB .gitmodules read whole took seconds and gigabytes).
 */
export function readSafe(file: string, maxBytes = READ_SAFE_MAX_BYTES): string | undefined {
  try {
    if ((statSync(file).size ?? 0) > maxBytes) return undefined;
    return readRegularFile(file, "utf8");
  } catch {
    return undefined;
  }
}

/** The folder's entry names, sorted, or none. */
export function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Where the path really leads, or the path itself (resolved) when it cannot be followed. */
export function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
