// Where sessions live and what they are called: $ZOT_HOME/sessions/<cwd hash>/<id>.jsonl.
// Rule: the directory depends only on the resolved cwd string, and an id sorts by creation time
// (UTC date and time, then random hex), so names alone tell old from new.
import path from "node:path";
import { zotPaths } from "../config/home.ts";
import { randomHex, sha256Hex } from "../protocol/random-hex.ts";

export const SESSION_FILE_EXT = ".jsonl";
export const EXPORT_FILE_EXT = ".zotsession";

/** What an exported session holds in place of its working directory and of the user's home. */
export const CWD_PLACEHOLDER = "<zot:cwd>";
export const HOME_PLACEHOLDER = "<zot:home>";
export const PLACEHOLDER_PREFIX = "<zot:";

/** 16 hex characters of the SHA-256 of the working directory, as resolved. */
export function cwdKey(cwd: string): string {
  return sha256Hex(cwd).slice(0, 16);
}

/** The directory holding every session of one working directory. */
export function sessionDir(home: string, cwd: string): string {
  return path.join(zotPaths(home).sessionsDir, cwdKey(cwd));
}

export function sessionPath(home: string, cwd: string, id: string): string {
  return path.join(sessionDir(home, cwd), `${id}${SESSION_FILE_EXT}`);
}

/**
 * One word shaped as a session's id (`20261123-032914-9f3c2a1b`), its start (`20261123-1015`), or
 * a near miss of one (`20261127-9999`): what `-r` takes as the session to resume, never as a prompt.
 */
export const SESSION_ID_SHAPE = /^\d{8}(-[\w-]*)?$/;

/** `20261123-032914-9f3c2a1b`: creation time (UTC), then 8 random hex digits. */
export function newSessionId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomHex(4)}`;
}

/** The id a session file is named by. */
export function idOfPath(file: string): string {
  return path.basename(file).replace(/\.(jsonl|zotsession)$/, "");
}
