// The `event` notifications extensions subscribe to, built from what the agent does: its events,
// its tool steps, the confirmation gate's questions and the session's start and end.
// Rule: every notification carries session_id, cwd and a sequence number that rises across all
// notifications of this process; a tool result reaches observers bounded (256 KiB, 128 blocks);
// and a normal turn_end says `stop:"end"`, the value the original sent and published extensions
// compare against (--json and rpc keep `end_turn`).
import type { ApprovalSource, ConfirmRequest } from "../core/confirm-gate.ts";
import type { ToolStep } from "../core/tool-step.ts";
import type { AgentEvent } from "../protocol/events.ts";
import type { EventFrame, ExtBlock } from "../protocol/ext-frames.ts";
import { textOf, type ToolResultContent } from "../protocol/messages.ts";

/** Observers get at most this much of a tool's result, and at most this many blocks. */
export const OBSERVED_RESULT_BYTES = 256 * 1024;
export const OBSERVED_RESULT_BLOCKS = 128;

type EventName = EventFrame["event"];
type Fields = Omit<EventFrame, "type" | "event" | "session_id" | "cwd" | "sequence">;

/** How an approved call got through, when the confirmation gate knows (undefined: there is none, so yolo). */
export type ApprovalSourceOf = (callId: string) => ApprovalSource | undefined;

export class ExtensionEvents {
  private sequence = 0;
  private compactions = 0;
  /** the compaction under way: its id, for post_compact */
  private compacting: { id: string; messages: number; tokens: number } | undefined;

  constructor(
    private readonly send: (frame: EventFrame) => void,
    /** the working directory of the run */
    public cwd: string,
    /** the conversation's id: the recorded session's, or one made up for this run */
    public sessionId: string,
  ) {}

  /** A notification with the next sequence number, for whoever sends it. */
  frame(event: EventName, fields: Fields = {}): EventFrame {
    this.sequence += 1;
    return { type: "event", event, session_id: this.sessionId, cwd: this.cwd, sequence: this.sequence, ...fields };
  }

  /** A notification to every extension that subscribed to it. */
  emit(event: EventName, fields: Fields = {}): void {
    this.send(this.frame(event, fields));
  }

  /** An agent event; `transcript` sizes a compaction (messages and a token estimate: serialised bytes / 4). */
  fromAgent(event: AgentEvent, transcript: () => { messages: number; bytes: number }): void {
    switch (event.type) {
      case "user_message": {
        const text = event.content.filter((b) => b.type === "text").map((b) => (b as { text: string }).text).join("\n");
        const images = event.content.filter((b) => b.type === "image").length;
        return this.emit("user_prompt_submit", { ...(text ? { text } : {}), ...(images > 0 ? { image_count: images } : {}) });
      }
      case "turn_start":
        return this.emit("turn_start", { step: event.step });
      case "tool_call":
        return this.emit("tool_call", { tool_id: event.id, tool_name: event.name, tool_args: event.args, ...originOf(event.origin_extension) });
      case "assistant_message": {
        const text = textOf(event.content);
        return this.emit("assistant_message", text ? { text } : {});
      }
      case "turn_end":
        return this.emit("turn_end", { stop: event.stop === "end_turn" ? "end" : event.stop, ...(event.error ? { error: event.error } : {}) });
      case "compact_start": {
        const size = transcript();
        this.compactions += 1;
        this.compacting = { id: String(this.compactions), messages: size.messages, tokens: Math.ceil(size.bytes / 4) };
        return this.emit("pre_compact", this.compactionFields(this.compacting));
      }
      case "compact_done":
        return this.endCompaction("completed");
      case "error":
        return this.endCompaction("failed", event.message);
      case "done":
        // A compaction still open when its unit of work ends was cancelled.
        return this.endCompaction("cancelled");
    }
  }

  /** A tool call's approval (permission_decision) or outcome (tool_result). */
  fromToolStep(step: ToolStep, sourceOf: ApprovalSourceOf | undefined): void {
    const origin = originOf(step.origin);
    if (step.kind === "approval") {
      const base = { tool_id: step.id, tool_name: step.name, stage: "pre_execution" as const, ...origin };
      if (step.decision === "approved") {
        return this.emit("permission_decision", { ...base, decision: "approved", source: sourceOf?.(step.id) ?? "yolo" });
      }
      const source = step.by === "confirm" ? "user" : "policy";
      return this.emit("permission_decision", { ...base, decision: step.decision, source, ...(step.reason ? { reason: step.reason } : {}) });
    }
    this.emit("tool_result", {
      tool_id: step.id,
      tool_name: step.name,
      tool_args: step.args,
      status: step.status,
      executed: step.executed,
      result: observedResult(step.result.content, step.result.is_error),
      ...origin,
    });
  }

  /** The confirmation dialog is about to ask about this call. */
  confirmationRequested(request: ConfirmRequest): void {
    this.emit("tool_confirmation_requested", { tool_id: request.id, tool_name: request.tool, tool_preview: request.preview });
  }

  private endCompaction(status: "completed" | "failed" | "cancelled", error?: string): void {
    const open = this.compacting;
    if (!open) return;
    this.compacting = undefined;
    this.emit("post_compact", { ...this.compactionFields(open), status, ...(error ? { error } : {}) });
  }

  private compactionFields(c: { id: string; messages: number; tokens: number }): Fields {
    return { compaction_id: c.id, message_count: c.messages, token_estimate: c.tokens };
  }
}

function originOf(origin: string | undefined): { origin_extension?: string } {
  return origin ? { origin_extension: origin } : {};
}

/** A tool result as observers get it: text cut at a character boundary, big images dropped, `truncated` when anything was. */
export function observedResult(content: readonly ToolResultContent[], isError: boolean): NonNullable<EventFrame["result"]> {
  const blocks: ExtBlock[] = [];
  let left = OBSERVED_RESULT_BYTES;
  let truncated = false;
  for (const block of content) {
    if (blocks.length >= OBSERVED_RESULT_BLOCKS || left <= 0) {
      truncated = true;
      break;
    }
    if (block.type === "text") {
      const bytes = Buffer.byteLength(block.text);
      if (bytes <= left) {
        blocks.push({ type: "text", text: block.text, ...(block.format ? { format: block.format } : {}) });
        left -= bytes;
      } else {
        blocks.push({ type: "text", text: cutUtf8(block.text, left) });
        left = 0;
        truncated = true;
      }
    } else if (block.type === "image") {
      if (block.data.length <= left) {
        blocks.push({ type: "image", mime_type: block.mime_type, data: block.data });
        left -= block.data.length;
      } else truncated = true;
    } else truncated = true;
  }
  return { content: blocks, is_error: isError, ...(truncated ? { truncated: true } : {}) };
}

/** The longest prefix of text within maxBytes of UTF-8 that ends on a whole character. */
function cutUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text).subarray(0, maxBytes);
  let end = bytes.length;
  // Find the last character's lead byte (continuation bytes are 10xxxxxx); drop it if it was cut.
  let lead = end - 1;
  while (lead >= 0 && (bytes[lead] & 0xc0) === 0x80) lead -= 1;
  if (lead >= 0) {
    const b = bytes[lead];
    const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (lead + size > end) end = lead;
  }
  return bytes.subarray(0, end).toString("utf8");
}
