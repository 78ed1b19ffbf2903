// The prompts typed in the TUI, kept across runs per folder, so ↑ in a new run walks back through
// what was asked there before (as a shell's history and Claude Code's do). Rule: a convenience
// only: one JSON line per prompt in $ZOT_HOME/prompts.jsonl, the folder's last ones read at the
// start; a file that cannot be read or written costs the history, never the run. A run that
// records no session (--no-session) leaves none here either (the caller's rule).
import { statSafe } from "../config/quiet-fs.ts";
import { appendFileSync, chmodSync, closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { underUpdateLock } from "../config/file-update-lock.ts";

/** Past this size the file is cut, by bytes, to the newer lines that fill half of it, when written. */
const MAX_BYTES = 1024 * 1024;
/**
 * A prompt longer than this (a pasted log, a file) is not kept across runs: ↑ in this run still has
 * it, and the file's room stays for many folders' prompts instead of one paste that would cut
 * them all away.
 */
const MAX_PROMPT_BYTES = 64 * 1024;

function logFile(home: string): string {
  return path.join(home, "prompts.jsonl");
}

/** The prompts typed in `cwd`, oldest first, at most `limit`. */
export function readPromptLog(home: string, cwd: string, limit = 200): string[] {
  let text: string;
  try {
    text = readFileSync(logFile(home), "utf8");
  } catch {
    return [];
  }
  const prompts: string[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      const entry = JSON.parse(line) as { cwd?: unknown; text?: unknown };
      if (entry.cwd === cwd && typeof entry.text === "string") prompts.push(entry.text);
    } catch {
      // a torn line (two runs writing at once): skipped
    }
  }
  return prompts.slice(-limit);
}

/**
 * Adds a prompt typed in `cwd`. A line a crash left torn is closed first, so it costs only itself;
 * the file is the user's alone (0600, whoever made it); cut, it is replaced whole (a new file
 * renamed over it), so a zot starting meanwhile reads the old one or the new, never half.
 */
export function appendPromptLog(home: string, cwd: string, text: string): void {
  const file = logFile(home);
  const line = `${JSON.stringify({ cwd, text })}\n`;
  if (Buffer.byteLength(line) > MAX_PROMPT_BYTES) return;
  try {
    mkdirSync(home, { recursive: true });
    // Under the lock the cut takes too: a line another TUI adds while one cuts the file is kept.
    underUpdateLock(file, () => {
      const before = statSafe(file);
      const torn = before !== undefined && before.size > 0 && !endsWithNewline(file, before.size);
      appendFileSync(file, `${torn ? "\n" : ""}${line}`, { mode: 0o600 });
      if (before && (before.mode & 0o077) !== 0) chmodSync(file, 0o600);
      if ((statSafe(file)?.size ?? 0) > MAX_BYTES) {
        const next = `${file}.${process.pid}.tmp`;
        writeFileSync(next, newestLines(readFileSync(file, "utf8"), MAX_BYTES / 2), { mode: 0o600 });
        renameSync(next, file);
      }
    });
  } catch {
    // the history is a convenience: a home that cannot be written loses it, nothing else
  }
}

/**
 * The newest whole lines of `text` that fit in `room` bytes, each ending in a newline; a line too
 * long to be kept at all (an older zot's paste) is dropped first, not the history before it.
 */
function newestLines(text: string, room: number): string {
  const lines = text.split("\n").filter((line) => line !== "" && Buffer.byteLength(line) < MAX_PROMPT_BYTES);
  let used = 0;
  let first = lines.length;
  while (first > 0) {
    const size = Buffer.byteLength(lines[first - 1]!) + 1;
    if (used + size > room) break;
    used += size;
    first--;
  }
  return lines.slice(first).map((l) => `${l}\n`).join("");
}

/** Whether the file's last byte is a newline. */
function endsWithNewline(file: string, size: number): boolean {
  const fd = openSync(file, "r");
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}
