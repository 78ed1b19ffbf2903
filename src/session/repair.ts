// Makes a transcript read back from a session safe to send: every tool call gets a result. A zot
// killed while a tool ran leaves a call with no result, and providers refuse such a request.
// Rule: a valid transcript comes back unchanged (the same array); a repair only adds error
// results that say what happened, right after the call they answer.
import { type Message, nowIso, type ToolResultBlock } from "../protocol/messages.ts";

export const MISSING_RESULT_TEXT = "the tool call was interrupted (zot stopped); no result was recorded";

/** The transcript with a result for every tool call, and how many results were added. */
export function repairToolResults(messages: Message[]): { messages: Message[]; added: number } {
  let out: Message[] | undefined;
  let added = 0;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    const callIds = message.role === "assistant" ? message.content.flatMap((b) => (b.type === "tool_call" ? [b.id] : [])) : [];
    if (callIds.length === 0) {
      out?.push(message);
      continue;
    }
    const next = messages[i + 1];
    const answered = new Set(
      next?.role === "tool" ? next.content.flatMap((b) => (b.type === "tool_result" ? [b.call_id] : [])) : [],
    );
    const missing = callIds.filter((id) => !answered.has(id)).map(stubResult);
    if (missing.length === 0) {
      out?.push(message);
      continue;
    }
    out ??= messages.slice(0, i);
    out.push(message);
    added += missing.length;
    if (next?.role === "tool") {
      out.push({ ...next, content: [...next.content, ...missing] });
      i++;
    } else {
      out.push({ role: "tool", content: missing, time: message.time || nowIso() });
    }
  }
  return { messages: out ?? messages, added };
}

function stubResult(callId: string): ToolResultBlock {
  return { type: "tool_result", call_id: callId, is_error: true, content: [{ type: "text", text: MISSING_RESULT_TEXT }] };
}
