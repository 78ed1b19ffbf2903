// The one input of `-p`, `--json` and `--output-format`: submitted to the conversation, and
// aborted when the run's signal says so (Ctrl+C, SIGTERM), before or after it started.
import type { Conversation, ConversationPrompt, UnitOutcome } from "../conversation/conversation.ts";

export async function submitOnce(conversation: Conversation, input: ConversationPrompt, signal: AbortSignal): Promise<UnitOutcome> {
  const onAbort = () => conversation.abort("interrupted");
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    // A prompt's @files and @server:uri resources go with it, as in the TUI (and Claude Code's -p).
    const running = conversation.submit(input, { mentions: "typed" });
    if (signal.aborted) onAbort();
    return await running;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
