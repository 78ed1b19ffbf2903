// The workspace trust store, $ZOT_HOME/trust.json: which folders the user trusts to run their
// executable configuration, and which they said no to.
// Rule: a folder is its real path (symlinks resolved), so two spellings of one folder are one
// answer; the file is only ever written whole, atomically, 0600; a store that cannot be read trusts
// nothing and is never overwritten (the user's answers in it are not lost to a rewrite).
import { underUpdateLock } from "./file-update-lock.ts";
import { writeFileAtomic } from "./write-file-atomic.ts";
import { firstIssue } from "../protocol/schema-issue.ts";
import fs from "node:fs";
import path from "node:path";
import * as v from "valibot";
import { ConfigError } from "./home.ts";
import { readRegularFile } from "./regular-file.ts";
import { ownEntry } from "../protocol/own-key.ts";
import { errnoWords } from "../protocol/errno-words.ts";

export const TRUST_FILE = "trust.json";

// Loose: fields a newer zot writes (at the top, or in an answer) survive this one's rewrite.
const FolderAnswer = v.looseObject({
  trusted: v.boolean(),
  /** when the user answered, ISO 8601 */
  decided: v.string(),
});
const TrustFile = v.looseObject({
  folders: v.record(v.string(), FolderAnswer),
});
export type FolderAnswer = v.InferOutput<typeof FolderAnswer>;
type TrustFile = v.InferOutput<typeof TrustFile>;

export interface TrustStore {
  file: string;
  /** real path → the answer */
  folders: Record<string, FolderAnswer>;
  /** set when the file exists but cannot be used: a sentence naming it; nothing is trusted then */
  problem?: string;
  /** the file's other top-level fields, written back as they were */
  others?: Record<string, unknown>;
}

export function trustStoreFile(home: string): string {
  return path.join(home, TRUST_FILE);
}

/** The folder as the store knows it: its real path (a folder that does not exist: its absolute path). */
export function folderKey(dir: string): string {
  const abs = path.resolve(dir);
  try {
    return fs.realpathSync(abs);
  } catch {
    return abs;
  }
}

/** Reads the store; a missing file is an empty store, a broken one an empty store with a problem. */
export function readTrustStore(home: string): TrustStore {
  const file = trustStoreFile(home);
  let text: string;
  try {
    text = readRegularFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { file, folders: {} };
    return { file, folders: {}, problem: `cannot read ${file} (${errnoWords(error)}); no folder is trusted until it can be read` };
  }
  if (!text.trim()) return { file, folders: {} };
  let data: unknown;
  try {
    // A byte order mark (Windows editors write one) is not the JSON's.
    data = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return { file, folders: {}, problem: `${file} is not valid JSON (${(error as Error).message}); no folder is trusted until it is fixed or deleted` };
  }
  const parsed = v.safeParse(TrustFile, data);
  if (!parsed.success) {
    const { path, message } = firstIssue(parsed.issues);
    return {
      file,
      folders: {},
      problem: `${file} is malformed at ${path ? `"${path}"` : "the top level"}: ${message} (expected {"folders": {"/path": {"trusted": true, "decided": "…"}}}); no folder is trusted until it is fixed or deleted`,
    };
  }
  const { folders, ...others } = parsed.output;
  return { file, folders, ...(Object.keys(others).length > 0 ? { others } : {}) };
}

/**
 * The store as the last read of this process left it while the file is unchanged (its inode, size and
 * time): a start asks it several times, and a store of thousands of answers took milliseconds to
 * check each time. Only for reading (the questions below, the start's decision; never to change
 * and write back: rememberFolder reads afresh under its lock); a change reads it afresh.
 */
let lastRead: { file: string; stamp: string; store: TrustStore } | undefined;

export function readTrustStoreOnce(home: string): TrustStore {
  const file = trustStoreFile(home);
  let stamp: string;
  try {
    const info = fs.statSync(file);
    stamp = `${info.ino}:${info.size}:${info.mtimeMs}`;
  } catch {
    return readTrustStore(home);
  }
  if (lastRead?.file === file && lastRead.stamp === stamp) return lastRead.store;
  const store = readTrustStore(home);
  lastRead = { file, stamp, store };
  return store;
}

/** The remembered answer for `dir`, if there is one (a broken store remembers none). */
export function folderAnswer(home: string, dir: string): FolderAnswer | undefined {
  const store = readTrustStoreOnce(home);
  const key = folderKey(dir);
  return ownEntry(store.folders, key);
}

/** Of `dirs` (real paths, as the store keys them), those the user trusted; the store is read once. */
export function trustedAmong(home: string, dirs: readonly string[]): string[] {
  const { folders } = readTrustStoreOnce(home);
  return dirs.filter((dir) => ownEntry(folders, dir)?.trusted === true);
}

/** Remembers the user's answer for `dir`. Throws ConfigError when the store is broken (it is left as it is). */
export function rememberFolder(home: string, dir: string, trusted: boolean, now = new Date()): string {
  const key = folderKey(dir);
  return updateStore(home, (folders) => {
    folders[key] = { trusted, decided: now.toISOString() };
  }, key);
}

/** Forgets `dir`'s answer (the TUI asks again). Returns whether there was one. Throws ConfigError on a broken store. */
export function forgetFolder(home: string, dir: string): boolean {
  const key = folderKey(dir);
  let had = false;
  updateStore(home, (folders) => {
    had = Object.hasOwn(folders, key);
    delete folders[key];
  }, key);
  return had;
}

function updateStore(home: string, change: (folders: Record<string, FolderAnswer>) => void, key: string): string {
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  // Another zot's answer (a TUI's question, `zot trust` in another pane) is read and kept, not overwritten.
  return underUpdateLock(trustStoreFile(home), () => {
    const store = readTrustStore(home);
    if (store.problem) throw new ConfigError(`${store.problem}; nothing was changed`);
    const folders = { ...store.folders };
    change(folders);
    const sorted: TrustFile = { folders: Object.fromEntries(Object.entries(folders).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), ...store.others };
    writeFileAtomic(store.file, `${JSON.stringify(sorted, null, 2)}\n`, 0o600);
    return key;
  });
}
