// The stream's deltas: the model's answer in pieces as it streams. Rule: a test of an event's type
// and nothing else, in its own module, so the agent's hot path loads none of the events' schemas.
import type { AgentEvent, EventOf } from "./events.ts";

/**
 * The model's answer in pieces as it streams: tens of thousands in a long answer, and of use only
 * to a live view of it (the TUI, --json, rpc); each piece is in the assembled message that follows.
 */
export type StreamDelta = EventOf<"text_delta" | "thinking_delta" | "tool_use_args">;

export function isStreamDelta(event: AgentEvent): event is StreamDelta {
  const { type } = event;
  return type === "text_delta" || type === "thinking_delta" || type === "tool_use_args";
}
