// `zot sessions list` and `zot sessions tree`: this directory's sessions, newest first, as rows
// (id, time, model, messages, cost, first prompt), or as a forest of forks under their parents.
// Rule: a file that is not a session is reported on stderr and the rest are still listed; the
// session `zot -c` would resume is marked in the tree.
import { UsageError } from "../config/usage-error.ts";
import { forestRows, formatRows } from "../modes/session-rows.ts";
import { listSessions, type SessionSummary } from "../session/list.ts";
import { sessionForest } from "../session/tree.ts";
import { EXIT } from "./router.ts";
import type { SessionsCommand, SessionsContext } from "./sessions.ts";
import { printable } from "../protocol/printable.ts";

function load(ctx: SessionsContext): SessionSummary[] {
  const { sessions, problems } = listSessions(ctx.home, ctx.cwd);
  for (const problem of problems) console.error(`zot: ${problem}; skipped`);
  return sessions;
}

function noneYet(ctx: SessionsContext): number {
  console.error(`no sessions in ${ctx.cwd} yet; every zot run there records one (the TUI, -p and --json; not --no-session)`);
  return EXIT.ok;
}

export const LIST: SessionsCommand = {
  usage: "list [--json]",
  description: "List this directory's sessions, newest first: id, time, model, messages, cost, first prompt",
  args: { json: { type: "boolean", description: "Print a JSON array instead of a table" } },
  async run(flags, positionals, ctx) {
    if (positionals.length > 0) throw new UsageError(`zot sessions list takes no arguments (got "${positionals[0]}")`);
    const sessions = load(ctx);
    if (flags.json) {
      console.log(JSON.stringify(sessions, null, 2));
      return EXIT.ok;
    }
    if (sessions.length === 0) return noneYet(ctx);
    const ids = sessions.map((s) => (s.locked_by ? `${s.id} (in use, pid ${s.locked_by})` : s.id));
    // Prompts are what was typed or pasted: shown as text, never as escapes.
    console.log(printable(formatRows(sessions, ids, ctx.width).join("\n")));
    return EXIT.ok;
  },
};

export const TREE: SessionsCommand = {
  usage: "tree",
  description: "Show this directory's sessions with each fork under the session it was forked from; * marks the one zot -c resumes",
  args: {},
  async run(_flags, positionals, ctx) {
    if (positionals.length > 0) throw new UsageError(`zot sessions tree takes no arguments (got "${positionals[0]}")`);
    const sessions = load(ctx);
    if (sessions.length === 0) return noneYet(ctx);
    console.log(printable(forestRows(sessionForest(sessions), sessions[0]!.id, ctx.width).join("\n")));
    return EXIT.ok;
  },
};
