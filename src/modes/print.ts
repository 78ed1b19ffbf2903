// `zot -p`: runs one input (a prompt, an extension's `/command`, or `/compact`) and prints the final
// answer (or the compaction's summary) on stdout. Rule: stdout holds only the answer (what the user was shown, after any replace_text), the
// command's displayed text, or a panel's first render as text; everything else (extension notes,
// errors, a provider's retry while the user waits) goes to stderr.
import type { Conversation, ConversationPrompt, UnitOutcome } from "../conversation/conversation.ts";
import type { ModelInfo } from "../protocol/models.ts";
import { EMPTY_ANSWER, PrintedAnswer, saidSomething } from "../protocol/printed-answer.ts";
import { retryText } from "../protocol/retry-text.ts";
import { printable } from "../protocol/printable.ts";
import { submitOnce } from "./submit-once.ts";

export async function runPrintMode(conversation: Conversation, input: ConversationPrompt, signal: AbortSignal): Promise<UnitOutcome> {
  const printed = new PrintedAnswer();
  /** the last model call stopped at the output limit: the answer printed is cut, by this model (a command's `model:` may have chosen it) */
  let cut: ModelInfo | undefined;
  /** the last model call said nothing: no text and no tool call (a refusal without words, a server's empty answer) */
  let said = false;
  let silent = false;
  /** `/compact` ran: its summary is what this run printed */
  let summary: string | undefined;
  // The answer is printed whole, from assistant_message: the deltas are not this listener's.
  const off = conversation.onEvent(
    (event) => {
      printed.add(event);
      if (event.type === "turn_start") said = false;
      if (event.type === "assistant_message") said ||= saidSomething(event.content);
      if (event.type === "intercept" && event.stage === "assistant_message") said = true;
      if (event.type === "turn_end") {
        cut = event.stop === "length" ? conversation.answeringModel : undefined;
        silent = event.stop === "end_turn" && !said;
      }
      // Only the /compact this run was asked for: an automatic one is no answer.
      if (event.type === "compact_done" && event.reason === "manual") summary = event.summary;
      if (event.type === "retry") console.error(`zot: ${printable(retryText(event))}`);
      // An extension's words (often relayed from elsewhere) to a terminal: no escape of them written.
      else if (event.type === "ext_notify") console.error(printable(`[${event.extension}] ${event.level}: ${event.message}`));
    },
    { deltas: false },
  );
  try {
    const outcome = await submitOnce(conversation, input, signal);
    if (outcome.status === "ok") {
      const out = printed.text() || (summary ?? "");
      if (out) await Bun.write(Bun.stdout, out.endsWith("\n") ? out : `${out}\n`);
      // Said on stderr, so a script can tell a whole answer from one the limit cut, or from none.
      if (cut) console.error(`zot: ${cutNote(cut, conversation.session !== undefined)}`);
      if (silent) console.error(`zot: ${EMPTY_ANSWER}`);
    }
    return outcome;
  } finally {
    off();
  }
}

/** What the user reads when the output limit cut the answer; `zot -c` only when there is a session to continue. */
export function cutNote(model: ModelInfo, recorded: boolean): string {
  const limit = `the answer was cut off at ${model.id}'s output limit (${model.max_output} tokens)`;
  return recorded ? `${limit}; ask for less, or continue with zot -c` : `${limit}; ask for less (this run kept no session, so zot -c cannot continue it)`;
}
