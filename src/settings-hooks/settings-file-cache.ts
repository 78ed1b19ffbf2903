// What a reader of the settings files (the settings hooks, the permission rules) has read from each,
// read again only when the file changed. Rule: each version of a file is parsed once, so what its
// parser warns about is told once.
import { readFileSync, type Stats, statSync } from "node:fs";
import type { SettingsSource } from "./settings-file.ts";
import { errnoWords } from "../protocol/errno-words.ts";

/**
 * What one part of zot reads from settings files (their hooks, their permission rules), kept per
 * file and read again only when the file changed (size, time or inode). `parse` sees each version
 * of a file once, so what it warns about is told once; `problem` hears a file that cannot be read.
 */
export class SettingsFileCache<T> {
  private readonly cache = new Map<string, { stamp: string; value: T }>();

  /**
   * `problem` is told why a file that is there cannot be used, and gives what stands for it (the
   * permission rules ask about everything for a file they cannot read; the hooks run none).
   */
  constructor(
    private readonly absent: T,
    private readonly parse: (text: string, source: SettingsSource) => T,
    private readonly problem: (problem: string, source: SettingsSource, unreadable: boolean) => T | void,
  ) {}

  read(source: SettingsSource): T {
    const { info, failed } = settingsFileStat(source.file);
    const stamp = failed ? `failed:${failed.code}` : fileStamp(info);
    const cached = this.cache.get(source.file);
    if (cached && cached.stamp === stamp) return cached.value;
    let value = this.absent;
    if (failed) {
      value = this.problem(`cannot be read (${errnoWords(failed)})`, source, true) ?? this.absent;
    } else if (info) {
      try {
        if (info.isFile()) value = this.parse(readFileSync(source.file, "utf8"), source);
        else value = this.problem("is not a file", source, false) ?? this.absent;
      } catch (error) {
        value = this.problem(`cannot be read (${errnoWords(error)})`, source, true) ?? this.absent;
      }
    }
    this.cache.set(source.file, { stamp, value });
    return value;
  }
}

/**
 * A settings file's stat: `info` undefined when there is no such file, and `failed` when there is
 * one that cannot be read. A part of the path that is a file (ENOTDIR) means no such file; a loop
 * or a folder zot may not read means one that is there and cannot be read.
 */
export function settingsFileStat(file: string): { info?: Stats; failed?: NodeJS.ErrnoException } {
  try {
    const info = statSync(file, { throwIfNoEntry: false });
    return info ? { info } : {};
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOTDIR" ? {} : { failed: error as NodeJS.ErrnoException };
  }
}

/** A file's version: size, modification time and inode ("absent" when there is none). */
export function fileStamp(info: Stats | undefined): string {
  return info ? `${info.size}:${info.mtimeMs}:${info.ino}` : "absent";
}
