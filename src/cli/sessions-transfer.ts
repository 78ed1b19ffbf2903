// `zot sessions export|import|fork`: a session out to a portable file, a file into this
// directory's sessions, and a branch of a session up to a user turn. Rule: each prints one line
// saying what it made and how to use it; the source session is only read.
import { UsageError } from "../config/usage-error.ts";
import { printable } from "../protocol/printable.ts";
import { findSession } from "../session/find.ts";
import { type ForkResult, forkSession } from "../session/fork.ts";
import { exportSession, importSession } from "../session/portable.ts";
import { EXIT } from "./router.ts";
import { onePositional, type SessionsCommand } from "./sessions.ts";

function reportProblems(problems: string[]): void {
  // A problem quotes the file, which someone else may have written: no escape of it reaches the terminal.
  for (const problem of problems) console.error(`zot: ${printable(problem)}`);
}

export const EXPORT: SessionsCommand = {
  usage: "export <id> [file|dir]",
  description: "Write a session to a portable .zotsession file: its working directory and your home become placeholders",
  args: { force: { type: "boolean", description: "Overwrite the file if it exists" } },
  async run(flags, positionals, ctx) {
    if (positionals.length === 0) throw new UsageError("zot sessions export <id> [file|dir]: pass the session's id (zot sessions list shows them)");
    if (positionals.length > 2) throw new UsageError(`zot sessions export <id> [file|dir]: unexpected "${positionals[2]}"`);
    const [ref, dest] = positionals as [string, string | undefined];
    const { file } = findSession(ctx.home, ctx.cwd, ref);
    const result = exportSession(file, { dest, here: ctx.here, userHome: ctx.userHome, force: flags.force === true });
    reportProblems(result.problems);
    console.log(`exported to ${result.file}`);
    return EXIT.ok;
  },
};

export const IMPORT: SessionsCommand = {
  usage: "import <file>",
  description: "Add a .zotsession file (or a session file) to this directory's sessions, under a fresh id, re-homed here",
  args: {},
  async run(_flags, positionals, ctx) {
    const source = onePositional(positionals, ".zotsession file", "import <file>")!;
    const result = importSession(source, { home: ctx.home, cwd: ctx.cwd, userHome: ctx.userHome });
    reportProblems(result.problems);
    console.log(`imported as ${result.id}; resume it with: ${resumeHint(result.id)}`);
    return EXIT.ok;
  },
};

export const FORK: SessionsCommand = {
  usage: "fork <id> [--at <turn>]",
  description: "Make a new session holding a session's conversation up to user turn n (default: all of it); the original is untouched",
  args: { at: { type: "string", description: "The user turn the fork ends after (1 = the first prompt and its answer)", valueHint: "n" } },
  async run(flags, positionals, ctx) {
    const ref = onePositional(positionals, "session's id (zot sessions list shows them)", "fork <id>")!;
    const at = typeof flags.at === "string" ? parseTurn(flags.at) : undefined;
    const { file } = findSession(ctx.home, ctx.cwd, ref);
    const fork = forkSession(file, { home: ctx.home, atTurn: at });
    console.log(
      `forked ${printable(fork.parent)} ${forkPoint(fork)} as ${fork.id} (${fork.messages} messages); resume it with: ${resumeHint(fork.id)}`,
    );
    return EXIT.ok;
  },
};

/** Where the fork was cut: after a turn, or (a parent with no numbered turn) nowhere. */
function forkPoint(fork: ForkResult): string {
  return fork.turns === 0 ? "whole (it has no numbered user turn)" : `after turn ${fork.turn} of ${fork.turns}`;
}

/** How to go on with a session: the TUI first (what most people run), then a one-shot prompt. */
function resumeHint(id: string): string {
  return `zot --session ${id} (or /sessions in zot; zot --session ${id} -p "…" for one prompt)`;
}

function parseTurn(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < 1) throw new UsageError(`--at takes a user turn number, 1 or more (got "${value}")`);
  return n;
}
