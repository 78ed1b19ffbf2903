// `zot -p --output-format json|stream-json`: one input, answered in Claude Code's headless formats
// (claude-messages.ts), for scripts and orchestrators written for `claude -p`: `json` prints the
// closing `result` object alone, `stream-json` prints the `system` init line, each assistant and
// tool-result message as it completes, and the `result` last, one JSON object per line.
// Rule: stdout holds only those lines; extension notes and a provider's retry go to stderr, as
// with -p; a reader that falls behind holds the model and the tools back, as with --json.
import type { Conversation, ConversationPrompt, UnitOutcome } from "../conversation/conversation.ts";
import { type ClaudeNaming, claudeInit, followClaudeRun } from "./claude-follow.ts";
import { NdjsonWriter } from "./ndjson-writer.ts";
import { submitOnce } from "./submit-once.ts";

export type ClaudeOutputFormat = "json" | "stream-json";

export interface ClaudeOutputOptions extends ClaudeNaming {
  format: ClaudeOutputFormat;
  /** Claude Code's name for how this run confirms tool calls (the init line's permissionMode) */
  permissionMode: string;
  /** `--include-partial-messages` (stream-json only): the answer as it streams, as stream_event lines */
  partial?: boolean;
}

export async function runClaudeOutputMode(
  conversation: Conversation,
  input: ConversationPrompt,
  signal: AbortSignal,
  options: ClaudeOutputOptions,
): Promise<UnitOutcome> {
  const writer = new NdjsonWriter();
  const streaming = options.format === "stream-json";
  const { run, off } = followClaudeRun(conversation, { ...options, partial: streaming && options.partial === true, ...(streaming ? { write: (line) => writer.write(line) } : {}) });
  if (streaming) writer.write(claudeInit(conversation, run, options.toolNames, options.permissionMode));
  const release = streaming ? conversation.holdBack(() => writer.pressure()) : () => {};
  let outcome: UnitOutcome;
  try {
    outcome = await submitOnce(conversation, input, signal);
    if (streaming) for (const line of run.unanswered()) writer.write(line);
    writer.write(run.result(outcome));
  } finally {
    off();
    release();
    await writer.close();
  }
  // A full disk is no reader done with the output: the run failed (ndjson-writer.ts).
  if (writer.failure) throw writer.failure;
  return outcome;
}
