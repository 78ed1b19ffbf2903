// One prompt's life: the UserPromptSubmit point (a settings hook may refuse the prompt or add
// context), the user message, the extensions' preparation (before_agent_start), its turns
// (turn-loop.ts), the Stop point that may send the agent back to work, and the error that says how
// it failed. Rule: it never rejects: a hook or a preparer that throws ends the prompt in order, as
// an internal error; the agent then ends it with its one `done`.
import { errorText } from "../protocol/error-text.ts";
import { type ContentBlock, type ImageBlock, type Message, nowIso, toWireContent } from "../protocol/messages.ts";
import { promptWithContext } from "../protocol/prompt-context.ts";
import type { AgentOutlets, AgentState } from "./agent-state.ts";
import type { PromptInput, PromptOutcome, TurnFailure } from "./outcomes.ts";
import { promptAnchor, runTurns } from "./turn-loop.ts";

/** Work awaited at the start of every prompt, before its first model call; it must not throw. */
export type Preparer = (signal: AbortSignal) => Promise<void>;

export async function runPrompt(
  state: AgentState,
  out: AgentOutlets,
  input: PromptInput,
  signal: AbortSignal,
  preparers: Iterable<Preparer>,
): Promise<PromptOutcome> {
  // [settings hooks] UserPromptSubmit: the prompt may be refused before it enters the transcript.
  const submitted = await hookAnswer(() => state.promptHooks?.submit?.(input.text, signal));
  if (submitted && "failure" in submitted) return failed(out, submitted.failure);
  if (submitted && "block" in submitted) return failed(out, { status: "blocked", reason: submitted.block });
  const start = state.messages.length;
  const content: ContentBlock[] = [];
  // A lone UTF-16 surrogate (a client's broken `\ud800`) is no text: the APIs refuse the request, and
  // the session would send it again at every resume. It becomes U+FFFD, as bad UTF-8 in argv does.
  const text = promptWithContext(input.text, input.context).toWellFormed();
  if (text) content.push({ type: "text", text });
  for (const image of input.images ?? []) content.push({ type: "image", ...image } satisfies ImageBlock);
  for (const memory of input.memory ?? []) content.push({ type: "text", text: memory });
  for (const context of submitted?.context ?? []) content.push({ type: "text", text: context });
  userMessage(out, content);

  // Extensions rewrite the system prompt before the first model call (before_agent_start).
  for (const prepare of preparers) {
    const broke = await hookAnswer(() => prepare(signal));
    if (broke) return failed(out, broke.failure);
  }
  // Every loop of this prompt finds its start from its first message (a compaction may move it).
  const anchor = promptAnchor(state, start);
  let outcome = await runTurns(state, out, signal, anchor, input.tool);
  // [settings hooks] Stop: a hook may send the agent back to work, its reason the next user message.
  for (;;) {
    const more = outcome.status === "ok" ? await hookAnswer(() => state.promptHooks?.stopping?.(signal, lastAnswerText(state.messages))) : undefined;
    if (more === undefined) break;
    if (typeof more !== "string") {
      outcome = { status: "error", ...more.failure };
      break;
    }
    userMessage(out, [{ type: "text", text: more }]);
    outcome = await runTurns(state, out, signal, anchor);
  }
  return failed(out, outcome);
}

/** The text of the transcript's last assistant message ("" when it has none). */
function lastAnswerText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "assistant") return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
  }
  return "";
}

function userMessage(out: AgentOutlets, content: ContentBlock[]): void {
  const message: Message = { role: "user", content, time: nowIso() };
  out.append(message);
  out.emit({ type: "user_message", content: toWireContent(content), time: message.time });
}

/** What a hook or preparer answered, or the failure of one that threw. */
async function hookAnswer<T>(ask: () => Promise<T> | undefined): Promise<T | { failure: TurnFailure } | undefined> {
  try {
    return await ask();
  } catch (error) {
    return { failure: { message: errorText(error), code: "internal" } };
  }
}

/** The outcome, with the `error` event that says how it failed or was blocked. */
function failed(out: AgentOutlets, ended: PromptOutcome | TurnFailure): PromptOutcome {
  const outcome: PromptOutcome = "status" in ended ? ended : { status: "error", ...ended };
  if (outcome.status === "error") out.emit({ type: "error", message: outcome.message, code: outcome.code });
  if (outcome.status === "blocked") out.emit({ type: "error", message: outcome.reason, code: "blocked" });
  return outcome;
}
