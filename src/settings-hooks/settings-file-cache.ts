// What a reader of the settings files (the settings hooks, the permission rules) has read from each,
// read again only when the file changed. Rule: each version of a file is parsed once, so what its
// parser warns about is told once.
import { statSafe } from "../config/quiet-fs.ts";
import { readFileSync, type Stats } from "node:fs";
import type { SettingsSource } from "./settings-file.ts";

/**
 * What one part of zot reads from settings files (their hooks, their permission rules), kept per
 * file and read again only when the file changed (size, time or inode). `parse` sees each version
 * of a file once, so what it warns about is told once; `problem` hears a file that cannot be read.
 */
export class SettingsFileCache<T> {
  private readonly cache = new Map<string, { stamp: string; value: T }>();

  constructor(
    private readonly absent: T,
    private readonly parse: (text: string, source: SettingsSource) => T,
    private readonly problem: (problem: string, source: SettingsSource) => void,
  ) {}

  read(source: SettingsSource): T {
    const info = statSafe(source.file);
    const stamp = fileStamp(info);
    const cached = this.cache.get(source.file);
    if (cached && cached.stamp === stamp) return cached.value;
    let value = this.absent;
    if (info) {
      try {
        if (info.isFile()) value = this.parse(readFileSync(source.file, "utf8"), source);
        else this.problem("is not a file", source);
      } catch (error) {
        this.problem(`cannot be read (${(error as Error).message})`, source);
      }
    }
    this.cache.set(source.file, { stamp, value });
    return value;
  }
}

/** A file's version: size, modification time and inode ("absent" when there is none). */
export function fileStamp(info: Stats | undefined): string {
  return info ? `${info.size}:${info.mtimeMs}:${info.ino}` : "absent";
}
