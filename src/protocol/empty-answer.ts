// An answer that said nothing: no text and no tool call (a refusal without words, a compatible
// server's empty reply). Rule: -p says so on stderr and the TUI in a note, so a user can tell
// "nothing to say" from "nothing arrived"; an answer an interceptor blocked is not empty.
import type { AgentEvent } from "./events.ts";

export const EMPTY_ANSWER = "the model returned an empty answer (no text, no tool call); ask again, or rephrase";

type AnswerContent = Extract<AgentEvent, { type: "assistant_message" }>["content"];

/** Whether an assistant message's content holds text or a tool call. */
export function saidSomething(content: AnswerContent): boolean {
  return content.some((block) => (block.type === "text" && block.text.trim() !== "") || block.type === "tool_call");
}
