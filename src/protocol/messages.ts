// Content blocks and messages: the transcript's shape, shared by the agent, sessions, rpc, --json
// and extensions. Rule: the transcript keeps image bytes (base64); the wire shows a byte count.
import * as v from "valibot";

export const TextBlock = v.object({
  type: v.literal("text"),
  text: v.string(),
  /** a display hint from an extension's tool result ("markdown"): the TUI draws it; the model gets the text as it is */
  format: v.optional(v.string()),
});
export const ImageBlock = v.object({
  type: v.literal("image"),
  mime_type: v.string(),
  /** base64 of the image bytes */
  data: v.string(),
});
export const ToolCallBlock = v.object({
  type: v.literal("tool_call"),
  id: v.string(),
  name: v.string(),
  args: v.record(v.string(), v.unknown()),
  /** the extension that made this call (a command's tool_prompt), not the model */
  origin_extension: v.optional(v.string()),
  /** the arguments as the model sent them, when they were not one JSON object (`args` is then {}): the call is not run, and the model is told why */
  unparsed_args: v.optional(v.string()),
});
export const ToolResultContent = v.variant("type", [TextBlock, ImageBlock]);
export const ToolResultBlock = v.object({
  type: v.literal("tool_result"),
  call_id: v.string(),
  is_error: v.boolean(),
  content: v.array(ToolResultContent),
});
/** Model reasoning. Kept in the transcript so providers can replay it; never sent on the wire. */
export const ThinkingBlock = v.object({
  type: v.literal("thinking"),
  text: v.string(),
  /** Anthropic: signature of a thinking block */
  signature: v.optional(v.string()),
  /** Anthropic redacted_thinking data, or OpenAI Responses encrypted_content */
  opaque: v.optional(v.string()),
  /** OpenAI Responses reasoning item id */
  reasoning_id: v.optional(v.string()),
  /** Chat Completions: the field the server streamed it in (reasoning_content is sent back with tool calls) */
  chat_field: v.optional(v.picklist(["reasoning_content", "reasoning"])),
  /** Anthropic: the model asked for it; its signature (or redacted data) is valid for that model only */
  model: v.optional(v.string()),
});

export const ContentBlock = v.variant("type", [TextBlock, ImageBlock, ToolCallBlock, ToolResultBlock, ThinkingBlock]);

export const Role = v.picklist(["user", "assistant", "tool"]);
export const Message = v.object({
  role: Role,
  content: v.array(ContentBlock),
  /** RFC 3339 */
  time: v.string(),
  /** the message a compaction's summary is (first in the transcript it left); never sent on the wire */
  summary: v.optional(v.literal(true)),
});

// The wire form (rpc, --json, extensions): images as a byte count, reasoning omitted.
export const WireImageBlock = v.object({ type: v.literal("image"), mime_type: v.string(), bytes: v.number() });
export const WireToolResultContent = v.variant("type", [TextBlock, WireImageBlock]);
export const WireToolResultBlock = v.object({
  type: v.literal("tool_result"),
  call_id: v.string(),
  is_error: v.boolean(),
  content: v.array(WireToolResultContent),
});
export const WireContentBlock = v.variant("type", [TextBlock, WireImageBlock, ToolCallBlock, WireToolResultBlock]);
export const WireMessage = v.object({ role: Role, content: v.array(WireContentBlock), time: v.string() });

export type TextBlock = v.InferOutput<typeof TextBlock>;
export type ImageBlock = v.InferOutput<typeof ImageBlock>;
export type ToolCallBlock = v.InferOutput<typeof ToolCallBlock>;
export type ToolResultContent = v.InferOutput<typeof ToolResultContent>;
export type ToolResultBlock = v.InferOutput<typeof ToolResultBlock>;
export type ThinkingBlock = v.InferOutput<typeof ThinkingBlock>;
export type ContentBlock = v.InferOutput<typeof ContentBlock>;
export type Role = v.InferOutput<typeof Role>;
export type Message = v.InferOutput<typeof Message>;
export type WireContentBlock = v.InferOutput<typeof WireContentBlock>;
export type WireToolResultContent = v.InferOutput<typeof WireToolResultContent>;
export type WireMessage = v.InferOutput<typeof WireMessage>;

/** Decoded size of a base64 string, without decoding it. */
export function base64ByteLength(b64: string): number {
  const len = b64.length;
  if (len === 0) return 0;
  const padding = b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0;
  return Math.floor((len * 3) / 4) - padding;
}

export function toWireResultContent(blocks: readonly ToolResultContent[]): WireToolResultContent[] {
  return blocks.map(wireResultContent);
}

function wireResultContent(block: ToolResultContent): WireToolResultContent {
  return block.type === "image"
    ? { type: "image", mime_type: block.mime_type, bytes: base64ByteLength(block.data) }
    : block;
}

/** Transcript blocks → wire blocks: images become byte counts, thinking is dropped. */
export function toWireContent(blocks: readonly ContentBlock[]): WireContentBlock[] {
  const out: WireContentBlock[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "thinking":
        break;
      case "image":
        out.push(wireResultContent(block));
        break;
      case "tool_result":
        out.push({ ...block, content: block.content.map(wireResultContent) });
        break;
      default:
        out.push(block);
    }
  }
  return out;
}

/** A message an earlier compaction wrote: the summary standing in for the turns it replaced. */
export function isSummaryMessage(message: Message | undefined): boolean {
  return message?.summary === true;
}

export function toWireMessage(message: Message): WireMessage {
  return { role: message.role, content: toWireContent(message.content), time: message.time };
}

export { textOf } from "./text-of.ts";

export function nowIso(): string {
  return new Date().toISOString();
}

/** Indexes of the user turns of a transcript (a compaction's summary is not one). */
export function userTurns(messages: readonly Message[]): number[] {
  const turns: number[] = [];
  messages.forEach((m, i) => {
    if (m.role === "user" && !isSummaryMessage(m)) turns.push(i);
  });
  return turns;
}
