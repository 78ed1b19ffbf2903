// Points of a prompt's life outside the interception chain's stages, where something outside the
// core may steer it: before the prompt enters the transcript, when the agent is about to stop, and
// before a compaction. Claude Code's settings hooks (src/settings-hooks) are what fills them today.
// Rule: the core only asks and obeys; what is asked, of whom, and how the answers combine is the
// implementer's business. Every point takes the prompt's signal and must settle when it aborts.
import type { CompactReason } from "../protocol/events.ts";

/** What may happen to a prompt before it enters the transcript. */
export type SubmitVerdict =
  /** the prompt is refused: it never enters the transcript; the reason is for the user */
  | { block: string }
  /** the prompt goes on, with these texts for the model beside it */
  | { context: string[] };

export interface PromptHooks {
  /** Before `text` enters the transcript (UserPromptSubmit). */
  submit?(text: string, signal: AbortSignal): Promise<SubmitVerdict | undefined>;
  /**
   * The prompt ended normally (the model stopped asking for tools), `lastAnswer` the text of its
   * last message: a string sends the agent back to work with it as the next user message;
   * undefined lets it stop (Stop).
   */
  stopping?(signal: AbortSignal, lastAnswer: string): Promise<string | undefined>;
  /** Before a compaction starts: a string refuses it, with that reason (PreCompact). */
  compacting?(reason: CompactReason, instructions: string | undefined, signal: AbortSignal): Promise<string | undefined>;
}
