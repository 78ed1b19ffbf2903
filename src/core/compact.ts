// Compaction: what the agent does when the transcript grows too long for the model's window.
// The older part is summarised by the model into one user message; the most recent messages stay
// verbatim. Pure functions, no I/O: choosing the cut, serialising the older part for the
// summariser, the summarising request, and the transcript that results.
// Rule: a cut never separates an assistant message's tool calls from the tool message holding
// their results, so the compacted transcript is always a valid request.
import { base64ByteLength, type ContentBlock, isSummaryMessage, type Message, nowIso, type ToolResultContent } from "../protocol/messages.ts";
import type { ModelInfo } from "../protocol/models.ts";
import type { ModelRequest, ToolSpec } from "../protocol/provider.ts";

/** The first text of the message that replaces the summarised part. */
export const SUMMARY_HEADING = "## Context summary (compacted)\n\n";
/** Tokens of recent messages kept verbatim (at most a quarter of the model's window). */
export const KEEP_RECENT_TOKENS = 20_000;
/** The summary's own length limit, below the model's max output. */
export const MAX_SUMMARY_TOKENS = 8192;
/** A tool result longer than this is cut in the middle for the summariser. */
export const MAX_RESULT_CHARS = 2_000;
/** The rough size of one image in a request, whatever its bytes. */
const IMAGE_TOKENS = 1_600;
/** For estimates of what is in the transcript. */
const CHARS_PER_TOKEN = 4;
/** For the cap on the summariser's input: code and JSON tokenise denser than prose, so stay on the safe side. */
const SAFE_CHARS_PER_TOKEN = 3;
export const OMITTED_MARKER = "[earlier conversation omitted]";

/** A compaction that cannot be done, worded for the user (never a bug). */
export class CompactError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CompactError";
  }
}

export const SUMMARISER_SYSTEM = [
  "You summarise a conversation between a user and a coding agent, so that the agent can continue the work",
  "with only your summary and the most recent messages.",
  "Read the conversation; do not continue it, do not answer questions asked in it, do not call tools.",
  "Output only the structured summary.",
].join(" ");

export const SUMMARY_INSTRUCTION = `Summarise the conversation above for the agent that will continue it. Use exactly these sections:

## Goal
What the user wants to achieve overall.

## Constraints & Preferences
Requirements, rules and preferences the user stated.

## Progress
### Done
- [x] finished work
### In Progress
- [ ] work started and not finished
### Blocked
Anything waiting on something, and on what.

## Key Decisions
- **Decision**: rationale

## Next Steps
1. what to do next, in order

## Critical Context
Anything else needed to continue: data, findings, file contents that matter, commands that work.

Be concise. Keep exact file paths, function, type and variable names, commands and error messages.
Write "(none)" under a section that has nothing in it. If the conversation begins with an earlier
context summary, merge it into yours: keep what still holds and update the progress.`;

export interface CompactionPlan {
  /** the messages to summarise (at least one) */
  older: Message[];
  /** the newest messages, kept verbatim after the summary */
  kept: Message[];
}

/** How a plan reads the transcript's size. */
export interface CutSizing {
  /** tokens the provider counts per estimated token (context-count.ts: 1 until a call reported, at most 8) */
  scale: number;
  /**
   * The provider said the context is full (an overflow), or it reached the automatic compaction's
   * share of the window: a transcript that looks short by the estimate is not "short enough to
   * keep verbatim" then, and a single turn gives up its older steps.
   */
  full: boolean;
}

const AS_ESTIMATED: CutSizing = { scale: 1, full: false };

/** Splits the transcript into the part to summarise and the recent part to keep. */
export function planCompaction(messages: readonly Message[], model: ModelInfo, sizing: CutSizing = AS_ESTIMATED, keepTokens = KEEP_RECENT_TOKENS): CompactionPlan {
  const cut = chooseCut(messages, model.context_window, keepTokens, sizing);
  return { older: messages.slice(0, cut), kept: messages.slice(cut) };
}

/**
 * The index of the first message kept verbatim. Keeps the newest messages within the budget
 * (at least the newest one), then moves the cut to a valid boundary: a message that holds no tool
 * results. It prefers the first user message at or after the budget's cut, as long as what it keeps
 * is at least half of what the budget kept (a cut between turns reads best, but not at the price
 * of dropping most of the recent work); else the first valid boundary there; else the nearest one
 * before (keeping more than the budget, because a tool result cannot be kept without its call).
 * When the whole transcript fits the budget (a /compact early on), the turns before the last one
 * are summarised: the cut is the last user message, and a single turn is nothing to compact,
 * unless the context is full (sizing.full): then its steps before the last one go.
 * Message sizes are the estimate times sizing.scale. A full context whose newest step alone is
 * more than the window, even by the uncalibrated estimate, or which would summarise only an
 * earlier summary, is nothing a compaction can help.
 */
export function chooseCut(messages: readonly Message[], window: number, keepTokens = KEEP_RECENT_TOKENS, sizing: CutSizing = AS_ESTIMATED): number {
  if (messages.length === 0) throw new CompactError("nothing to compact: the transcript is empty");
  const budget = Math.min(keepTokens, Math.floor(window / 4));
  const estimated = messages.map(estimateMessageTokens);
  const tokens = estimated.map((t) => t * sizing.scale);
  let start = messages.length - 1;
  let keptTokens = tokens[start]!;
  while (start > 0 && keptTokens + tokens[start - 1]! <= budget) keptTokens += tokens[--start]!;
  if (start === 0) {
    const lastPrompt = messages.findLastIndex((m, i) => i > 0 && m.role === "user" && canStartKept(m));
    if (lastPrompt > 0 && !messages.slice(0, lastPrompt).every((m) => m.summary)) return lastPrompt;
    // Only an earlier summary before the last prompt, or a turn whose prompt a compaction already
    // summarised (it runs on after the summary): summarising the summary alone frees nothing (the
    // provider counts a full window where this estimate sees little: dense tokens). The turn's own
    // steps go too, then, up to its last step. So do they in a full context: the provider's count
    // outweighs an estimate that finds the turn short.
    const from = lastPrompt > 0 ? lastPrompt : messages[0]!.summary || sizing.full ? 1 : messages.length;
    for (let i = messages.length - 1; i > from; i--) if (canStartKept(messages[i]!)) return i;
    throw new CompactError(
      sizing.full
        ? "nothing to compact: the transcript is one turn with no earlier step to summarise"
        : "nothing to compact: the transcript is a single turn, short enough to keep verbatim",
    );
  }

  const tail = (from: number) => tokens.slice(from).reduce((a, b) => a + b, 0);
  const cut = (() => {
    for (let i = start; i < messages.length; i++) {
      if (messages[i]!.role === "user" && canStartKept(messages[i]!) && tail(i) * 2 >= keptTokens) return i;
    }
    for (let i = start; i < messages.length; i++) if (canStartKept(messages[i]!)) return i;
    for (let i = start - 1; i > 0; i--) if (canStartKept(messages[i]!)) return i;
    throw new CompactError("nothing to compact: the recent turn cannot be split from the rest of the transcript");
  })();
  if (!sizing.full) return cut;
  const keptAtLeast = estimated.slice(cut).reduce((a, b) => a + b, 0);
  if (window > 0 && keptAtLeast >= window) throw new CompactError(tooBigToKeep(messages.slice(cut), keptAtLeast, window));
  // A summary summarised again alone frees nothing of a full window: the rest is the step kept.
  if (messages.slice(0, cut).every((m) => m.summary)) {
    throw new CompactError("nothing to compact: only the earlier summary comes before the latest step, and summarising it again frees nothing");
  }
  return cut;
}

/** What stays verbatim is more than the window by itself: said so the user knows what to send less of. */
function tooBigToKeep(kept: readonly Message[], tokens: number, window: number): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const size = `about ${n(tokens)} tokens, more than the whole window (${n(window)} tokens)`;
  return kept.some((m) => m.role === "tool")
    ? `nothing to compact that would help: the latest step's tool results alone take ${size}, and they stay verbatim with their call`
    : `nothing to compact that would help: the latest prompt alone takes ${size}`;
}

/** A kept part may start here: the message carries no tool results that would lose their call. */
function canStartKept(message: Message): boolean {
  return message.role !== "tool" && !message.content.some((b) => b.type === "tool_result");
}

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/**
 * Each message's estimate, once: a call estimates the whole transcript, and a long run has many
 * calls. Keyed by the message: a transcript's messages are not changed once appended (a change of
 * their number of blocks is still seen).
 */
const estimated = new WeakMap<Message, { blocks: number; tokens: number }>();

/** About how many tokens a message takes in a request. */
export function estimateMessageTokens(message: Message): number {
  const known = estimated.get(message);
  if (known !== undefined && known.blocks === message.content.length) return known.tokens;
  const tokens = countMessageTokens(message);
  estimated.set(message, { blocks: message.content.length, tokens });
  return tokens;
}

function countMessageTokens(message: Message): number {
  let chars = 0;
  let images = 0;
  const count = (blocks: readonly (ContentBlock | ToolResultContent)[]) => {
    for (const block of blocks) {
      if (block.type === "text" || block.type === "thinking") chars += block.text.length;
      else if (block.type === "image") images++;
      else if (block.type === "tool_call") chars += block.name.length + JSON.stringify(block.args).length;
      else count(block.content);
    }
  };
  count(message.content);
  return estimateTokens(chars) + images * IMAGE_TOKENS;
}

/** About how many tokens a request of this system prompt, transcript and tools takes. */
export function estimateContextTokens(system: string, messages: readonly Message[], tools: readonly ToolSpec[] = []): number {
  const fixed = estimateTokens(system.length + (tools.length > 0 ? JSON.stringify(tools).length : 0));
  return messages.reduce((sum, m) => sum + estimateMessageTokens(m), fixed);
}

/**
 * The older part as plain text for the summariser: a header per message, text as it is, images
 * and tool calls in one line each, long tool results cut in the middle, reasoning left out.
 * Over `maxChars`, the oldest messages go first (an earlier summary at the start stays while it
 * takes at most half the room) and a marker says so.
 */
export function serialiseMessages(messages: readonly Message[], maxChars = Number.POSITIVE_INFINITY): string {
  const names = new Map<string, string>();
  const chunks = messages.map((m) => serialiseMessage(m, names));
  const total = chunks.reduce((sum, c) => sum + c.length + 1, 0);
  if (total <= maxChars) return chunks.join("\n");

  const head = isSummaryMessage(messages[0]) && chunks[0]!.length <= maxChars / 2 ? [chunks[0]!] : [];
  let room = maxChars - OMITTED_MARKER.length - 1 - head.reduce((sum, c) => sum + c.length + 1, 0);
  const recent: string[] = [];
  for (let i = chunks.length - 1; i >= head.length && room > 0; i--) {
    const chunk = chunks[i]!;
    // A message that does not fit whole gives its end, the part nearest the kept messages.
    recent.unshift(chunk.length + 1 <= room ? chunk : chunk.slice(chunk.length - Math.max(0, room - 1)));
    room -= chunk.length + 1;
  }
  return [...head, OMITTED_MARKER, ...recent].join("\n");
}

function serialiseMessage(message: Message, callNames: Map<string, string>): string {
  const lines = [`--- ${message.role} ---`];
  for (const block of message.content) {
    switch (block.type) {
      case "text":
        lines.push(block.text);
        break;
      case "image":
        lines.push(imageLine(block.mime_type, block.data));
        break;
      case "tool_call":
        callNames.set(block.id, block.name);
        lines.push(`[tool call ${block.name} ${JSON.stringify(block.args)}]`);
        break;
      case "tool_result": {
        const name = callNames.get(block.call_id) ?? block.call_id;
        lines.push(`[tool result ${name}${block.is_error ? " (error)" : ""}]`);
        for (const part of block.content) {
          lines.push(part.type === "text" ? truncateResult(part.text) : imageLine(part.mime_type, part.data));
        }
        break;
      }
      case "thinking":
        break;
    }
  }
  return `${lines.join("\n")}\n`;
}

function imageLine(mime: string, data: string): string {
  return `[image: ${mime}, ${base64ByteLength(data)} bytes]`;
}

/** Keeps the start and the end of a long result (the end is where errors and summaries usually are). */
export function truncateResult(text: string, max = MAX_RESULT_CHARS): string {
  if (text.length <= max) return text;
  const headLength = Math.floor(max * 0.75);
  const tailLength = max - headLength;
  const omitted = text.length - headLength - tailLength;
  return `${text.slice(0, headLength)}\n[… ${omitted} characters of this result omitted …]\n${text.slice(text.length - tailLength)}`;
}

/**
 * The summarising call: the same model, no tools, no reasoning, the summariser's system prompt and
 * one user message holding the serialised older part and the instruction (plus the caller's own
 * instructions). The serialisation is capped so that the request fits the model's window.
 */
export function summaryRequest(older: readonly Message[], model: ModelInfo, instructions?: string): ModelRequest {
  // At most a quarter of the window: a small one (8K) would otherwise leave the older part no room at all.
  const maxTokens = Math.min(MAX_SUMMARY_TOKENS, model.max_output > 0 ? model.max_output : MAX_SUMMARY_TOKENS, model.context_window > 0 ? Math.floor(model.context_window / 4) : MAX_SUMMARY_TOKENS);
  const extra = instructions?.trim() ? `\n\nAdditional instructions for this summary:\n${instructions.trim()}` : "";
  const instruction = `${SUMMARY_INSTRUCTION}${extra}`;
  const overhead = SUMMARISER_SYSTEM.length + instruction.length + 64;
  const maxChars = Math.max(0, (model.context_window - maxTokens) * SAFE_CHARS_PER_TOKEN - overhead);
  const text = `<conversation>\n${serialiseMessages(older, maxChars)}</conversation>\n\n${instruction}`;
  return {
    model,
    system: SUMMARISER_SYSTEM,
    messages: [{ role: "user", content: [{ type: "text", text }], time: nowIso() }],
    tools: [],
    maxTokens,
  };
}

/** The message that stands for the summarised part, first in the compacted transcript (marked as such, not recognised by its words). */
export function summaryMessage(summary: string): Message {
  return { role: "user", content: [{ type: "text", text: `${SUMMARY_HEADING}${summary.trim()}` }], time: nowIso(), summary: true };
}
