// How a prompt ends before its model stops asking for tools (a participant's block or abort, an
// abort, max steps, a failure), as one value every part of a turn returns up to the loop.
// Rule: a turn ends one way: nothing throws to end it; the loop hands the ending to finish(), which
// takes a hard_abort's messages back out, closes the open turn with this turn_end and gives the
// prompt its outcome.
import type { StopReason } from "../protocol/events.ts";
import type { PromptOutcome, TurnFailure } from "./outcomes.ts";

export interface TurnEnding {
  outcome: PromptOutcome;
  /** the turn_end of a turn still open when it ended */
  stop: StopReason;
  failure?: TurnFailure;
  /** hard_abort: this prompt's messages are taken back out of the transcript */
  hard: boolean;
}

/** A participant ended the turn (abort_turn; hard_abort also takes the prompt back out). */
export function intercepted(action: "abort_turn" | "hard_abort", reason: string): TurnEnding {
  const failure: TurnFailure = { message: reason, code: "intercepted" };
  const hard = action === "hard_abort";
  return { outcome: { status: "error", ...failure }, stop: hard ? "aborted" : "error", failure, hard };
}

/** The run was aborted (the abort command, Esc, a signal). */
export const ABORTED: TurnEnding = { outcome: { status: "aborted" }, stop: "aborted", hard: false };
