// Forks a session: a new session holding the conversation up to a chosen user turn, recording its
// parent and the turn it was forked after. Rule: the parent is only read, never written; the fork
// carries the parent's records up to the cut (usage, model switches, the audit trail), so it
// resumes with the model and the cost its conversation had. Turns are the user prompts a resume
// loads, numbered as `zot sessions show` numbers them; what comes before turn 1 (a compaction's
// summary, and the rest of a turn it cut into) is in every fork, and a session that has nothing
// else (a one-shot task compacted between its tool steps) forks whole, after "turn 0".
import { UsageError } from "../config/usage-error.ts";
import { type Message, userTurns } from "../protocol/messages.ts";
import type { SessionEntry } from "../protocol/session-records.ts";
import { createSession } from "./create.ts";
import { PLACEHOLDER_PREFIX } from "./paths.ts";
import { readSessionFile, SessionFileError } from "./reader.ts";
import { replay } from "./replay.ts";

export interface ForkResult {
  id: string;
  file: string;
  parent: string;
  /** the user turn the fork ends after (0: the parent has no numbered turn, and the fork holds all of it) */
  turn: number;
  /** user turns of the parent */
  turns: number;
  messages: number;
}


/** Forks the session in `source` after user turn `atTurn` (default: the last one, or all of it when it has none). */
export function forkSession(source: string, options: { home: string; atTurn?: number }): ForkResult {
  const content = readSessionFile(source);
  const { header, entries } = content;
  if (header.cwd === "" || header.cwd.startsWith(PLACEHOLDER_PREFIX)) {
    throw new SessionFileError(`${source} is an exported session; import it first (zot sessions import ${source}), then fork the import`);
  }
  const state = replay(header, entries);
  const turns = userTurns(state.messages);
  if (state.messages.length === 0) throw new UsageError(`session ${header.id} has no user turn to fork after`);
  const compacted = entries.some((e) => e.type === "compaction");
  if (turns.length === 0 && options.atTurn !== undefined) {
    throw new UsageError(
      `session ${header.id} has no numbered user turn` +
        `${compacted ? " (a compaction summed up every prompt it had; zot sessions show lists them without a number)" : ""}: ` +
        "leave out the turn number to fork all of it",
    );
  }
  const turn = options.atTurn ?? turns.length;
  if (turns.length > 0 && (!Number.isInteger(turn) || turn < 1 || turn > turns.length)) {
    throw new UsageError(
      `--at must be a user turn from 1 to ${turns.length} (session ${header.id} has ${turns.length}` +
        `${compacted ? "; the prompts before its compaction live on only in the summary, as zot sessions show lists them without a number" : ""})`,
    );
  }
  // The fork ends where user turn `turn + 1` begins.
  const cut = turn < turns.length ? turns[turn]! : state.messages.length;
  const records = recordsUpTo(entries, state.messages.slice(0, cut), cut < state.messages.length ? state.origins : undefined, cut);
  const upTo = replay(header, records);

  const { id, file } = createSession(
    options.home,
    { cwd: header.cwd, model: upTo.model, provider: upTo.provider, parent: header.id, fork_point: turn },
    records,
  );
  return { id, file, parent: header.id, turn, turns: turns.length, messages: cut };
}

/**
 * The records that replay to `kept`. Normally the parent's records before the one that added the
 * first message left out; when a later compaction reordered the transcript (its summary comes
 * first but was written after the kept messages), the messages themselves, with the usage total
 * and the audit trail of that time.
 */
function recordsUpTo(
  entries: readonly SessionEntry[],
  kept: readonly Message[],
  origins: readonly number[] | undefined,
  cut: number,
): SessionEntry[] {
  if (!origins) return entries.slice();
  const end = origins[cut]!;
  const inOrder = origins.slice(0, cut + 1).every((o, i, all) => i === 0 || all[i - 1]! < o);
  if (inOrder) return entries.slice(0, end);
  const before = entries.slice(0, end);
  const lastUsage = before.findLast((e) => e.type === "usage");
  return [
    ...kept.map((message): SessionEntry => ({ type: "message", message })),
    ...(lastUsage ? [lastUsage] : []),
    ...before.filter((e) => e.type === "intercept" || e.type === "model_change"),
  ];
}
