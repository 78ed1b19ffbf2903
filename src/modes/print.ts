// `zot -p`: runs one input (a prompt, or an extension's `/command`) and prints the final answer on
// stdout. Rule: stdout holds only the answer (what the user was shown, after any replace_text), the
// command's displayed text, or a panel's first render as text; everything else (extension notes,
// errors, a provider's retry while the user waits) goes to stderr.
import type { Conversation, ConversationPrompt, UnitOutcome } from "../conversation/conversation.ts";
import { PrintedAnswer } from "../protocol/printed-answer.ts";
import { retryText } from "../protocol/retry-text.ts";
import { submitOnce } from "./submit-once.ts";

export async function runPrintMode(conversation: Conversation, input: ConversationPrompt, signal: AbortSignal): Promise<UnitOutcome> {
  const printed = new PrintedAnswer();
  /** the last model call stopped at the output limit: the answer printed is cut */
  let cut = false;
  // The answer is printed whole, from assistant_message: the deltas are not this listener's.
  const off = conversation.onEvent(
    (event) => {
      printed.add(event);
      if (event.type === "turn_end") cut = event.stop === "length";
      if (event.type === "retry") console.error(`zot: ${retryText(event)}`);
      else if (event.type === "ext_notify") console.error(`[${event.extension}] ${event.level}: ${event.message}`);
    },
    { deltas: false },
  );
  try {
    const outcome = await submitOnce(conversation, input, signal);
    if (outcome.status === "ok") {
      const out = printed.text();
      if (out) await Bun.write(Bun.stdout, out.endsWith("\n") ? out : `${out}\n`);
      // Said on stderr, so a script can tell a whole answer from one the limit cut.
      if (cut) console.error(`zot: the answer was cut off at ${conversation.model.id}'s output limit (${conversation.model.max_output} tokens); ask for less, or continue with zot -c`);
    }
    return outcome;
  } finally {
    off();
  }
}
