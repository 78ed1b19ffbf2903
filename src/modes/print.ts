// `zot -p`: runs one input (a prompt, or an extension's `/command`) and prints the final answer on
// stdout. Rule: stdout holds only the answer (what the user was shown, after any replace_text), the
// command's displayed text, or a panel's first render as text; everything else (extension notes,
// errors, a provider's retry while the user waits) goes to stderr.
import type { Conversation, ConversationPrompt, UnitOutcome } from "../conversation/conversation.ts";
import { PrintedAnswer } from "../protocol/printed-answer.ts";
import { retryText } from "../protocol/retry-text.ts";

export async function runPrintMode(conversation: Conversation, input: ConversationPrompt, signal: AbortSignal): Promise<UnitOutcome> {
  const printed = new PrintedAnswer();
  // The answer is printed whole, from assistant_message: the deltas are not this listener's.
  const off = conversation.onEvent(
    (event) => {
      printed.add(event);
      if (event.type === "retry") console.error(`zot: ${retryText(event)}`);
      else if (event.type === "ext_notify") console.error(`[${event.extension}] ${event.level}: ${event.message}`);
    },
    { deltas: false },
  );
  const onAbort = () => conversation.abort("interrupted");
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const running = conversation.submit(input);
    if (signal.aborted) onAbort();
    const outcome = await running;
    if (outcome.status === "ok") {
      const out = printed.text();
      if (out) await Bun.write(Bun.stdout, out.endsWith("\n") ? out : `${out}\n`);
    }
    return outcome;
  } finally {
    signal.removeEventListener("abort", onAbort);
    off();
  }
}
