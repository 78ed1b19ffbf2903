// zot's agent events as PicoClaw hook.event notifications (string `Kind`s, Go field names in
// `Meta` and `Payload`), and the turn bookkeeping every hook request's `meta` is built from.
// Rule: one PicoClaw turn is one zot prompt (user_message … done) and one PicoClaw iteration is
// one zot step (turn_start … turn_end); a zot event with no PicoClaw counterpart yields nothing.
import type { AgentEvent } from "../protocol/events.ts";
import type { HookEventKind, HookEventParams, HookMeta } from "../protocol/hook-rpc.ts";
import { textOf } from "../protocol/messages.ts";

const NS_PER_MS = 1_000_000;

export class HookEvents {
  /** the PicoClaw SessionKey and chat_id: one per run of zot */
  readonly session: string;
  private turn = 0;
  private step = 0;
  private turnStarted = 0;
  private status: "completed" | "error" | "aborted" = "completed";
  private finalContentLen = 0;
  private stepContentLen = 0;
  private stepToolCalls = 0;
  /** the reason a participant refused the tool whose tool_result comes next */
  private skipReason: string | undefined;
  private toolMark = 0;

  constructor(session: string = crypto.randomUUID()) {
    this.session = session;
  }

  /** The `meta` of a request or event made now. */
  meta(tracePath: string): HookMeta {
    return {
      AgentID: "zot",
      TurnID: `zot-turn-${this.turn}`,
      ParentTurnID: "",
      SessionKey: this.session,
      Iteration: this.step,
      TracePath: tracePath,
      Source: "runTurn",
    };
  }

  /** Updates the bookkeeping and returns the notifications this event makes (often none). */
  translate(event: AgentEvent): HookEventParams[] {
    const now = performance.now();
    switch (event.type) {
      case "user_message":
        this.turn++;
        this.step = 0;
        this.turnStarted = now;
        this.status = "completed";
        this.finalContentLen = 0;
        return [
          this.event("turn_start", "turn.start", {
            Channel: "cli",
            ChatID: this.session,
            UserMessage: textOf(event.content),
            MediaCount: event.content.filter((b) => b.type === "image").length,
          }),
        ];
      case "turn_start":
        this.step = event.step;
        this.stepContentLen = 0;
        this.stepToolCalls = 0;
        return [this.event("llm_request", "turn.llm.request", {})];
      case "assistant_message":
        this.stepContentLen = textOf(event.content).length;
        this.finalContentLen = this.stepContentLen;
        return [];
      case "tool_call":
        this.stepToolCalls++;
        return [this.event("tool_exec_start", "turn.tool.start", { Tool: event.name, Arguments: event.args })];
      case "turn_end":
        this.toolMark = now;
        if (event.stop === "aborted") this.status = "aborted";
        return [
          this.event("llm_response", "turn.llm.response", {
            ContentLen: this.stepContentLen,
            ToolCalls: this.stepToolCalls,
            HasReasoning: false,
          }),
        ];
      case "intercept":
        if (event.action === "hard_abort") this.status = "aborted";
        if ((event.stage === "tool_call" || event.stage === "approve_tool") && (event.action === "deny" || event.action === "block")) {
          this.skipReason = event.reason ?? `denied by ${event.participant}`;
        }
        return [];
      case "tool_result":
        return [this.toolDone(event, now)];
      case "compact_done":
        return [
          this.event("context_compress", "turn.context.compress", {
            Reason: event.reason,
            DroppedMessages: Math.max(0, event.messages_before - event.messages_after),
            RemainingMessages: event.messages_after,
          }),
        ];
      case "error":
        if (this.status === "completed") this.status = "error";
        return [this.event("error", "turn.error", { Stage: "turn", Message: event.message })];
      case "done":
        return [
          this.event("turn_end", "turn.end", {
            Status: this.status,
            Iterations: this.step,
            Duration: Math.round((now - this.turnStarted) * NS_PER_MS),
            FinalContentLen: this.finalContentLen,
          }),
        ];
      default:
        return [];
    }
  }

  private toolDone(event: Extract<AgentEvent, { type: "tool_result" }>, now: number): HookEventParams {
    const tool = event.name ?? "";
    const reason = this.skipReason;
    this.skipReason = undefined;
    const duration = Math.round((now - this.toolMark) * NS_PER_MS);
    this.toolMark = now;
    if (reason !== undefined) return this.event("tool_exec_skipped", "turn.tool.skipped", { Tool: tool, Reason: reason });
    return this.event("tool_exec_end", "turn.tool.end", {
      Tool: tool,
      Duration: duration,
      ForLLMLen: textOf(event.content).length,
      ForUserLen: 0,
      IsError: event.is_error,
      Async: false,
    });
  }

  private event(kind: HookEventKind, tracePath: string, payload: Record<string, unknown>): HookEventParams {
    return { Kind: kind, Time: new Date().toISOString(), Meta: this.meta(tracePath), Payload: payload };
  }
}
