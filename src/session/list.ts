// The sessions of a working directory, newest first, each summed up for a listing (time, model,
// message count, cost, first prompt). Rule: a listing reads each file once and parses only the
// lines it needs (the header, the first user message, the last usage and model change), each
// checked as a resume checks it, so a damaged record is passed over as a resume skips it; a file
// that is not a session is reported, never a reason to fail the whole list. A file unchanged since
// the last listing is not read again (summary-cache.ts).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { errorText } from "../protocol/error-text.ts";
import { typedPart } from "../protocol/attached-prompt.ts";
import { textOf } from "../protocol/messages.ts";
import { oneLine } from "../protocol/text-of.ts";
import type { SessionEntry } from "../protocol/session-records.ts";
import { lockOwner } from "./lock.ts";
import { SESSION_FILE_EXT, sessionDir } from "./paths.ts";
import { SummaryCache } from "./summary-cache.ts";
import { parseSessionBytes, parseSessionLine, SessionFileError } from "./reader.ts";

export interface SessionFileInfo {
  file: string;
  /** last write */
  mtimeMs: number;
  /** with the inode, what tells a changed file from the one a cached summary was made of */
  size?: number;
  ino?: number;
}

export interface SessionSummary {
  id: string;
  file: string;
  cwd: string;
  created: string;
  /** last write (RFC 3339) */
  updated: string;
  model: string;
  provider: string;
  /** messages a resume loads */
  messages: number;
  cost_usd: number;
  /** the first user prompt, on one line */
  first_prompt: string;
  parent?: string;
  fork_point?: number;
  /** pid of the live zot writing it */
  locked_by?: number;
}

/** The session files of one directory, newest first (last write, then id). */
export function sessionFiles(dir: string): SessionFileInfo[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const files: SessionFileInfo[] = [];
  for (const name of names) {
    if (!name.endsWith(SESSION_FILE_EXT)) continue;
    const file = path.join(dir, name);
    try {
      // A named pipe or a device named like a session would hang or never end a read: not a session.
      const stats = statSync(file);
      if (stats.isFile()) files.push({ file, mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino });
    } catch {}
  }
  return files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.file < b.file ? 1 : a.file > b.file ? -1 : 0));
}

/**
 * Every session of `cwd`, newest first, and a note for each file that could not be read. A session
 * unchanged since a listing summed it up comes from the cache (summary-cache.ts): thousands of
 * sessions, hundreds of MB, cost a stat each instead of a read.
 */
export function listSessions(home: string, cwd: string): { sessions: SessionSummary[]; problems: string[] } {
  const sessions: SessionSummary[] = [];
  const problems: string[] = [];
  const dir = sessionDir(home, cwd);
  const cache = SummaryCache.open(home, dir);
  for (const info of sessionFiles(dir)) {
    const stamp = info.size !== undefined && info.ino !== undefined ? { file: info.file, mtimeMs: info.mtimeMs, size: info.size, ino: info.ino } : undefined;
    const kept = stamp ? cache.get(stamp) : undefined;
    if (kept) {
      const owner = lockOwner(info.file);
      sessions.push(owner ? { ...kept, locked_by: owner.pid } : kept);
      continue;
    }
    try {
      const summary = summarizeSession(info);
      if (stamp) cache.set(stamp, summary);
      sessions.push(summary);
    } catch (error) {
      problems.push(error instanceof SessionFileError ? error.message : `${info.file}: ${errorText(error)}`);
    }
  }
  cache.save();
  return { sessions, problems };
}

/** One session summed up; throws SessionFileError for a file that is not a session. */
export function summarizeSession(info: SessionFileInfo): SessionSummary {
  const bytes = readFileSync(info.file);
  // Only the header needs a full parse; the other lines are told apart by their leading type.
  const firstLineEnd = bytes.indexOf(0x0a);
  const head = parseSessionBytes(bytes.subarray(0, firstLineEnd < 0 ? bytes.length : firstLineEnd + 1), info.file).header;
  const lines = new TextDecoder().decode(bytes).split("\n");
  let messages = 0;
  let firstPrompt: string | undefined;
  const usageLines: string[] = [];
  const modelLines: string[] = [];
  // A run of tool_result records is one message (as replay makes it), however many results it has.
  let inResults = false;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    // A last line without its newline counts only if it is whole (not cut off mid-write).
    if (i === lines.length - 1 && line !== "" && !parseEntry(line)) continue;
    if (line === "") continue;
    // The other records are told apart by their leading type; the messages are read whole, so the
    // count is what a resume loads (a damaged one it skips is not counted), and a record written
    // with `type` elsewhere (by hand) is read whole too.
    let type = TYPE_PREFIX.exec(line)?.[1];
    if (type === undefined || type === "message" || type === "tool_result") type = parseEntry(line)?.type;
    if (type === "tool_result") {
      if (!inResults) messages++;
      inResults = true;
      continue;
    }
    if (type === "message" || type === "compaction" || type === "rewind") inResults = false;
    if (type === "message") {
      messages++;
      // zot writes `"role":"user"`; a record written by hand (or by another JSON writer) may space it.
      if (firstPrompt === undefined && (line.includes('"role":"user"') || /"role"\s*:\s*"user"/.test(line))) firstPrompt = promptOf(line);
    } else if (type === "usage") usageLines.push(line);
    else if (type === "model_change") modelLines.push(line);
    else if (type === "compaction" || type === "rewind") {
      messages = countAfter(line, messages);
      // Rewound to nothing (a /clear): the first prompt is the next one, as a resume loads it.
      if (messages === 0) firstPrompt = undefined;
    }
  }
  const usage = lastEntry(usageLines, "usage");
  const model = lastEntry(modelLines, "model_change");
  const owner = lockOwner(info.file);
  return {
    id: head.id,
    file: info.file,
    cwd: head.cwd,
    created: head.created,
    updated: new Date(info.mtimeMs).toISOString(),
    model: model?.model ?? head.model,
    provider: model?.provider ?? head.provider,
    messages,
    cost_usd: usage?.cumulative.cost_usd ?? 0,
    first_prompt: firstPrompt ?? "",
    ...(head.parent !== undefined ? { parent: head.parent } : {}),
    ...(head.fork_point !== undefined ? { fork_point: head.fork_point } : {}),
    ...(owner ? { locked_by: owner.pid } : {}),
  };
}

/** Records are written with `type` first; a line written otherwise (by hand) is read whole instead. */
const TYPE_PREFIX = /^\{"type":"([a-z_]+)"/;

function parseEntry(line: string): SessionEntry | undefined {
  const parsed = parseSessionLine(line);
  return parsed.ok ? parsed.entry : undefined;
}

/** The last whole record of `type` among `lines`, passing over damaged ones as a resume does. */
function lastEntry<T extends SessionEntry["type"]>(lines: readonly string[], type: T): Extract<SessionEntry, { type: T }> | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const entry = parseEntry(lines[i]!);
    if (entry?.type === type) return entry as Extract<SessionEntry, { type: T }>;
  }
  return undefined;
}

function promptOf(line: string): string | undefined {
  const entry = parseEntry(line);
  if (entry?.type !== "message" || entry.message.role !== "user") return undefined;
  return oneLine(typedPart(textOf(entry.message.content))) || undefined;
}

function countAfter(line: string, count: number): number {
  const entry = parseEntry(line);
  if (entry?.type === "compaction") return 1 + Math.min(entry.kept, count);
  if (entry?.type === "rewind") return Math.min(entry.to, count);
  return count;
}
