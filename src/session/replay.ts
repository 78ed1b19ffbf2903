// Rebuilds what a session's records describe: the transcript, the model it ended on and the
// cumulative usage. Rule: records apply in file order, exactly as the agent lived them (a
// compaction replaces the transcript with its summary and the kept tail, a rewind cuts it back,
// a run of tool_result records is one tool message), so a resumed agent starts with the
// transcript the last one had; a file that ends in the middle of a step keeps every result that
// was known.
import type { Message, ToolResultBlock } from "../protocol/messages.ts";
import type { SessionEntry, SessionHeader } from "../protocol/session-records.ts";
import { emptyUsage, type Usage } from "../protocol/usage.ts";

export interface ReplayState {
  messages: Message[];
  model: string;
  provider: string;
  cumulative: Usage;
  /** for each message of the transcript, the index (in entries) of the record that put it there */
  origins: number[];
}

export interface ReplayProblem {
  entry: number;
  message: string;
}

/** Replays `entries` over the header; what could not apply as written goes to `problems`. */
export function replay(header: SessionHeader, entries: readonly SessionEntry[], problems: ReplayProblem[] = []): ReplayState {
  const state: ReplayState = {
    messages: [],
    model: header.model,
    provider: header.provider,
    cumulative: emptyUsage(),
    origins: [],
  };
  const results: PendingResults = { blocks: [], time: "", origin: -1 };
  entries.forEach((entry, index) => {
    if (entry.type === "tool_result") {
      if (results.blocks.length === 0) results.origin = index;
      results.blocks.push(entry.result);
      results.time = entry.time;
      return;
    }
    if (entry.type === "message" || entry.type === "compaction" || entry.type === "rewind") flush(state, results);
    apply(state, entry, index, problems);
  });
  flush(state, results);
  return state;
}

/**
 * An assistant message recorded before zot named the model on its signed thinking: named now, by
 * the model the session was on then, so a later switch leaves it out as it does the newer ones.
 */
function withThinkingModel(message: Message, state: ReplayState): Message {
  if (message.role !== "assistant" || state.provider !== "anthropic") return message;
  const unnamed = (block: Message["content"][number]) => block.type === "thinking" && block.model === undefined && (block.signature !== undefined || block.opaque !== undefined) && block.reasoning_id === undefined;
  if (!message.content.some(unnamed)) return message;
  return { ...message, content: message.content.map((block) => (unnamed(block) ? { ...block, model: state.model } : block)) };
}

/** tool_result records not yet made a message: the step's results so far. */
interface PendingResults {
  blocks: ToolResultBlock[];
  time: string;
  /** the index of the first of them */
  origin: number;
}

function flush(state: ReplayState, results: PendingResults): void {
  if (results.blocks.length === 0) return;
  state.messages.push({ role: "tool", content: results.blocks, time: results.time });
  state.origins.push(results.origin);
  results.blocks = [];
}

function apply(state: ReplayState, entry: Exclude<SessionEntry, { type: "tool_result" }>, index: number, problems: ReplayProblem[]): void {
  switch (entry.type) {
    case "message":
      state.messages.push(withThinkingModel(entry.message, state));
      state.origins.push(index);
      return;
    case "model_change":
      state.model = entry.model;
      state.provider = entry.provider;
      return;
    case "usage":
      state.cumulative = entry.cumulative;
      return;
    case "compaction": {
      if (entry.kept > state.messages.length) {
        problems.push({
          entry: index,
          message: `a compaction keeps ${entry.kept} messages but the transcript had ${state.messages.length}; kept them all`,
        });
      }
      const from = Math.max(0, state.messages.length - entry.kept);
      // The summary is marked as one whatever wrote the record (files from before the mark was kept).
      state.messages = [{ ...entry.message, summary: true }, ...state.messages.slice(from)];
      state.origins = [index, ...state.origins.slice(from)];
      return;
    }
    case "rewind":
      state.messages.length = Math.min(state.messages.length, entry.to);
      state.origins.length = state.messages.length;
      return;
    case "intercept":
      return;
  }
}
