// The prompts typed in the TUI, kept across runs per folder, so ↑ in a new run walks back through
// what was asked there before (as a shell's history and Claude Code's do). Rule: a convenience
// only: one JSON line per prompt in $ZOT_HOME/prompts.jsonl, the folder's last ones read at the
// start; a file that cannot be read or written costs the history, never the run. A run that
// records no session (--no-session) leaves none here either (the caller's rule).
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Past this size the file is cut to its newer half when written. */
const MAX_BYTES = 1024 * 1024;

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

/** Adds a prompt typed in `cwd`. */
export function appendPromptLog(home: string, cwd: string, text: string): void {
  const file = logFile(home);
  try {
    mkdirSync(home, { recursive: true });
    appendFileSync(file, `${JSON.stringify({ cwd, text })}\n`, { mode: 0o600 });
    if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > MAX_BYTES) {
      const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
      writeFileSync(file, `${lines.slice(Math.floor(lines.length / 2)).join("\n")}\n`, { mode: 0o600 });
    }
  } catch {
    // the history is a convenience: a home that cannot be written loses it, nothing else
  }
}
