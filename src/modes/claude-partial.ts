// `--include-partial-messages`: the model's answer as it streams, in Claude Code's `stream_event`
// lines, each wrapping an event of the Anthropic Messages stream (`message_start`,
// `content_block_start`, `content_block_delta` with `text_delta` or `thinking_delta`,
// `content_block_stop`, `message_delta`, `message_stop`), built from zot's events of one model call.
// Rule: the whole message still follows as the `assistant` line. A tool call's block opens and
// closes with the call's Claude Code name, without `input_json_delta`s: zot's arguments stream
// under zot's names, and the call's input as Claude Code names it is in the `assistant` line.
import type { ClaudeStreamEventLine } from "../protocol/claude-output.ts";
import type { AgentEvent } from "../protocol/events.ts";

type StreamEvent = ClaudeStreamEventLine["event"];

export class ClaudePartialMessages {
  /** the open content block's kind and index, or none */
  private open: "text" | "thinking" | "tool_use" | undefined;
  private index = -1;
  private calls = 0;
  private outputTokens = 0;
  private sawToolUse = false;

  constructor(
    private readonly context: {
      sessionId: string | null;
      /** the model answering the call that starts (a command's `model:` lends its prompt another) */
      answeringModel(): string;
      /** a tool's name as Claude Code's lines show it */
      claudeName(name: string): string;
    },
  ) {}

  /** The stream_event lines one event of zot's makes (none for most). */
  add(event: AgentEvent): ClaudeStreamEventLine[] {
    const events: StreamEvent[] = [];
    switch (event.type) {
      case "assistant_start":
        this.calls++;
        this.open = undefined;
        this.index = -1;
        this.outputTokens = 0;
        this.sawToolUse = false;
        events.push({
          type: "message_start",
          message: { id: `msg_${this.calls}`, type: "message", role: "assistant", model: this.context.answeringModel(), content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } },
        });
        break;
      case "text_delta":
        this.into("text", events);
        events.push({ type: "content_block_delta", index: this.index, delta: { type: "text_delta", text: event.delta } });
        break;
      case "thinking_delta":
        this.into("thinking", events);
        events.push({ type: "content_block_delta", index: this.index, delta: { type: "thinking_delta", thinking: event.delta } });
        break;
      case "tool_use_start":
        this.close(events);
        this.open = "tool_use";
        this.sawToolUse = true;
        this.index++;
        events.push({ type: "content_block_start", index: this.index, content_block: { type: "tool_use", id: event.id, name: this.context.claudeName(event.name), input: {} } });
        break;
      case "tool_use_end":
        this.close(events);
        break;
      case "usage":
        this.outputTokens = event.output;
        break;
      case "assistant_message":
        this.close(events);
        events.push(
          { type: "message_delta", delta: { stop_reason: this.sawToolUse ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: this.outputTokens } },
          { type: "message_stop" },
        );
        break;
      default:
        break;
    }
    return events.map((streamed) => ({ type: "stream_event", uuid: crypto.randomUUID(), session_id: this.context.sessionId, parent_tool_use_id: null, event: streamed }));
  }

  /** Opens a block of `kind` unless one is open. */
  private into(kind: "text" | "thinking", events: StreamEvent[]): void {
    if (this.open === kind) return;
    this.close(events);
    this.open = kind;
    this.index++;
    events.push({ type: "content_block_start", index: this.index, content_block: kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" } });
  }

  private close(events: StreamEvent[]): void {
    if (this.open === undefined) return;
    events.push({ type: "content_block_stop", index: this.index });
    this.open = undefined;
  }
}
