// Makes a transcript read back from a session safe to send to any provider. A zot killed while a
// tool ran leaves a call with no result; a damaged record can take away the assistant message that
// made a call (leaving its results answering nothing) or the user's first prompt; providers
// refuse the whole request for any of these, so every later turn of the session would fail.
// Rule: a valid transcript comes back unchanged (the same array). A repaired one holds, in order:
// a user message first; after each assistant message with tool calls, one tool message answering
// every call exactly once (a call with no result gets an error result saying it was interrupted);
// no tool result that answers nothing (one whose call was lost is kept as text in a user message
// in its place, so the model loses nothing the file still has); no empty message; no tool call id
// twice (a hook's rewrite could repeat one: a repeat and its result get a new id, `<id>_2`).
import { type ContentBlock, type Message, nowIso, type ToolResultBlock } from "../protocol/messages.ts";
import { freshCallId, withCallIds } from "../protocol/unique-call-ids.ts";

export const MISSING_RESULT_TEXT = "no result was recorded for this tool call (zot stopped, or could not save it): it may have run in part, in full, or not at all; check before running it again";
export const LOST_START_TEXT = "(zot: the start of this conversation was lost from a damaged session file)";

export interface TranscriptRepair {
  messages: Message[];
  /** tool calls that had no result, now answered as interrupted */
  interrupted: number;
  /** results whose call was lost, now kept as text in a user message */
  orphaned: number;
  /** the first message was not the user's; a note now stands before it */
  lostStart: boolean;
  /** tool calls whose id an earlier call had, now renamed with their results */
  renamed: number;
}

export function repairTranscript(messages: Message[]): TranscriptRepair {
  const out: Message[] = [];
  let interrupted = 0;
  let orphaned = 0;
  let renamedCount = 0;
  let changed = false;
  const seen = new Set<string>();
  for (let i = 0; i < messages.length; ) {
    const message = messages[i]!;
    if (message.content.length === 0) {
      changed = true;
      i++;
      continue;
    }
    if (message.role === "user") {
      out.push(message);
      i++;
      continue;
    }
    // An assistant message and the tool messages right after it (normally one), or tool messages
    // with no assistant message before them: every result of those answers nothing.
    const original = message.role === "assistant" ? callIdsOf(message) : [];
    const calls = original.map((id) => freshCallId(id, seen));
    const renamed = calls.filter((id, k) => id !== original[k]).length;
    if (renamed > 0) {
      changed = true;
      renamedCount += renamed;
    }
    if (message.role === "assistant") out.push(renamed > 0 ? { ...message, content: withCallIds(message.content, calls) } : message);
    const start = message.role === "assistant" ? i + 1 : i;
    let end = start;
    while (messages[end]?.role === "tool") end++;
    const group = messages.slice(start, end);
    i = end;
    if (calls.length === 0 && group.length === 0) continue;

    const answered = new Map<string, ToolResultBlock>();
    const orphans: ToolResultBlock[] = [];
    for (const block of group.flatMap((m) => m.content)) {
      if (block.type !== "tool_result") continue;
      // Results answer the calls of their id in order: the second "dup" result the second "dup" call.
      const k = original.findIndex((id, at) => id === block.call_id && !answered.has(calls[at]!));
      if (k >= 0) answered.set(calls[k]!, calls[k] === block.call_id ? block : { ...block, call_id: calls[k]! });
      else orphans.push(block);
    }
    const missing = calls.filter((id) => !answered.has(id));
    const untouched =
      renamed === 0 && group.length === 1 && orphans.length === 0 && missing.length === 0 && group[0]!.content.every((b) => b.type === "tool_result");
    if (untouched) {
      out.push(group[0]!);
      continue;
    }
    changed = true;
    interrupted += missing.length;
    orphaned += orphans.length;
    const time = group[0]?.time || message.time || nowIso();
    if (calls.length > 0) out.push({ role: "tool", content: [...answered.values(), ...missing.map(interruptedResult)], time });
    if (orphans.length > 0) out.push({ role: "user", content: orphans.flatMap(orphanText), time });
  }
  const lostStart = out.length > 0 && out[0]!.role !== "user";
  if (lostStart) {
    changed = true;
    out.unshift({ role: "user", content: [{ type: "text", text: LOST_START_TEXT }], time: out[0]!.time });
  }
  return { messages: changed ? out : messages, interrupted, orphaned, lostStart, renamed: renamedCount };
}

function callIdsOf(message: Message): string[] {
  return message.content.flatMap((b) => (b.type === "tool_call" ? [b.id] : []));
}

function interruptedResult(callId: string): ToolResultBlock {
  return { type: "tool_result", call_id: callId, is_error: true, content: [{ type: "text", text: MISSING_RESULT_TEXT }] };
}

/** A result whose call is gone, as user content: what it was, then what it said. */
function orphanText(result: ToolResultBlock): ContentBlock[] {
  const kind = result.is_error ? "an error result" : "the result";
  return [
    { type: "text", text: `(zot: ${kind} of tool call ${result.call_id}, whose request was lost from a damaged session file:)` },
    ...result.content,
  ];
}
