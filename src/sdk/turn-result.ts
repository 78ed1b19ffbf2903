// What one prompt or compaction came to, read from its events: the answer as `zot -p` prints it,
// how it ended, and a compaction's summary. Both SDKs report a finished turn through it.
// Rule: no valibot at run time (the RPC client is bundled for Node from this file), and
// nothing here but reading events: the events already said everything.
import { commandErrorMessage } from "../protocol/slash-command.ts";
import type { AgentEvent } from "../protocol/events.ts";
import { PrintedAnswer } from "../protocol/printed-answer.ts";

/** ok; aborted (the abort command, or stdin closed); error (the provider, max steps, a block, a failed command) */
export type TurnOutcome = "ok" | "aborted" | "error";

export interface TurnResult {
  /** every event of the turn, from the first after it started to `done` */
  events: AgentEvent[];
  /**
   * What `zot -p` prints: the text an extension command displayed, a panel's first render, then the
   * last assistant message that had text (after any replace_text). Empty when the model said nothing.
   */
  text: string;
  outcome: TurnOutcome;
  /** the error's words when outcome is "error" */
  error?: string;
  /** the summary, when the turn compacted the transcript (a compact, or an automatic compaction) */
  summary?: string;
}

export function turnResult(events: AgentEvent[]): TurnResult {
  const printed = new PrintedAnswer();
  let error: string | undefined;
  /** an error event's words, until a turn that ends well after it shows it did not end the prompt */
  let eventError: string | undefined;
  let aborted = false;
  let compacting = false;
  let summary: string | undefined;
  for (const event of events) {
    printed.add(event);
    switch (event.type) {
      case "command_result":
        if (event.aborted) aborted = true;
        else if (event.action === "error") {
          const { command, extension, text = "the command failed" } = event;
          error ??= commandErrorMessage({ command, extension, text });
        }
        break;
      case "error":
        // The last one is what ended the prompt (a compaction's failure, then the model call's).
        eventError = event.message;
        // A compaction under way when an error came failed (it was not aborted).
        compacting = false;
        break;
      case "turn_end":
        if (event.stop === "aborted") aborted = true;
        // The turn went on after an error (an automatic compaction's failure: "going on with the
        // whole transcript") and ended well: that error did not end the prompt.
        else if (event.stop !== "error") eventError = undefined;
        break;
      // An abort while the model's tools run ends with their results cancelled, then done (no model call to end).
      case "tool_result":
        if (event.status === "cancelled" && event.origin_extension === undefined) aborted = true;
        break;
      case "compact_start":
        compacting = true;
        break;
      case "compact_done":
        compacting = false;
        summary = event.summary;
        break;
    }
  }
  error ??= eventError;
  // A compaction that neither finished nor failed was aborted.
  if (compacting && error === undefined) aborted = true;
  const outcome: TurnOutcome = error !== undefined ? "error" : aborted ? "aborted" : "ok";
  return {
    events,
    text: printed.text(),
    outcome,
    ...(error !== undefined ? { error } : {}),
    ...(summary !== undefined ? { summary } : {}),
  };
}
