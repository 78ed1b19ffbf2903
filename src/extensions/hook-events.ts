// zot's agent events as PicoClaw observer notifications, in both generations: hook.event (string
// `Kind`s, Go field names in `Meta` and `Payload`) and HEAD's hook.runtime_event; and the turn
// bookkeeping every hook request's `meta` is built from.
// Rule: one PicoClaw turn is one zot prompt (user_message … done) and one PicoClaw iteration is
// one zot step (turn_start … turn_end); a zot event with no PicoClaw counterpart yields nothing.
import type { AgentEvent } from "../protocol/events.ts";
import type { HookEventKind, HookEventParams, HookMeta, RuntimeEventParams } from "../protocol/hook-rpc.ts";
import { textOf } from "../protocol/messages.ts";
import { toRuntimeEvent } from "./hook-runtime-event.ts";

const NS_PER_MS = 1_000_000;
/** HEAD's toolErrorSummary: the error text, trimmed, cut to 200 characters with "..." when longer. */
function errorSummary(text: string): string {
  const chars = [...text.trim()];
  return chars.length <= 200 ? chars.join("") : `${chars.slice(0, 197).join("")}...`;
}

/** One observer event, spelled for each generation of hooks. */
export interface HookNotice {
  kind: HookEventKind;
  /** hook.event's params (the protocol document's form) */
  event: HookEventParams;
  /** hook.runtime_event's params (PicoClaw HEAD's form) */
  runtime: RuntimeEventParams;
}

/** A tool run as HEAD's turn_end payload lists it (ToolExecutionRecord, lowercase JSON keys). */
interface ToolExecution {
  name: string;
  success: boolean;
  error_summary?: string;
}

export class HookEvents {
  /** the PicoClaw SessionKey and chat_id: one per run of zot */
  readonly session: string;
  /** HEAD's turn_end `Workspace`: where zot runs */
  private readonly workspace: string;
  private eventCount = 0;
  private turn = 0;
  private step = 0;
  private turnStarted = 0;
  private status: "completed" | "error" | "aborted" = "completed";
  private finalContentLen = 0;
  private stepContentLen = 0;
  private stepToolCalls = 0;
  /**
   * The model's tool calls of the step in progress, told after its llm_response as PicoClaw tells
   * them (zot's stream names each call before the model call's turn_end); undefined between steps.
   */
  private pendingStarts: { name: string; args: unknown }[] | undefined;
  /** the reason a participant refused the tool whose tool_result comes next */
  private skipReason: string | undefined;
  private toolMark = 0;
  // What only HEAD's turn_end carries.
  private userMessage = "";
  private finalContent = "";
  private toolExecutions: ToolExecution[] = [];

  constructor(session: string = crypto.randomUUID(), workspace = "") {
    this.session = session;
    this.workspace = workspace;
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
  translate(event: AgentEvent): HookNotice[] {
    const now = performance.now();
    switch (event.type) {
      case "user_message": {
        this.turn++;
        this.step = 0;
        this.turnStarted = now;
        this.status = "completed";
        this.finalContentLen = 0;
        this.userMessage = textOf(event.content);
        this.finalContent = "";
        this.toolExecutions = [];
        const media = event.content.filter((b) => b.type === "image").length;
        // HEAD moved the channel and chat into the envelope's scope.
        return [
          this.event(
            "turn_start",
            "turn.start",
            { Channel: "cli", ChatID: this.session, UserMessage: this.userMessage, MediaCount: media },
            { UserMessage: this.userMessage, MediaCount: media },
          ),
        ];
      }
      case "turn_start":
        this.step = event.step;
        this.stepContentLen = 0;
        this.stepToolCalls = 0;
        this.pendingStarts = [];
        return [this.event("llm_request", "turn.llm.request", {})];
      case "assistant_message":
        this.finalContent = textOf(event.content);
        this.stepContentLen = this.finalContent.length;
        this.finalContentLen = this.stepContentLen;
        return [];
      case "tool_call":
        // An extension's call (call_tool) starts now; the model's wait for their step's llm_response.
        if (event.origin_extension !== undefined || !this.pendingStarts) return [this.toolStart(event.name, event.args)];
        this.stepToolCalls++;
        this.pendingStarts.push({ name: event.name, args: event.args });
        return [];
      case "turn_end": {
        this.toolMark = now;
        if (event.stop === "aborted") this.status = "aborted";
        const starts = this.pendingStarts ?? [];
        this.pendingStarts = undefined;
        return [
          this.event("llm_response", "turn.llm.response", {
            ContentLen: this.stepContentLen,
            ToolCalls: this.stepToolCalls,
            HasReasoning: false,
          }),
          ...starts.map((call) => this.toolStart(call.name, call.args)),
        ];
      }
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
      case "done": {
        const common = {
          Status: this.status,
          Iterations: this.step,
          Duration: Math.round((now - this.turnStarted) * NS_PER_MS),
          FinalContentLen: this.finalContentLen,
        };
        return [this.event("turn_end", "turn.end", common, this.headTurnEnd(common))];
      }
      default:
        return [];
    }
  }

  /**
   * HEAD's TurnEndPayload, in its field order. zot has no skill tracking of PicoClaw's kind, so
   * the skill fields are null, as Go writes an empty list; so are ToolKinds and ToolExecutions
   * when no tool ran.
   */
  private headTurnEnd(common: { Status: string; Iterations: number; Duration: number; FinalContentLen: number }): Record<string, unknown> {
    const kinds = [...new Set(this.toolExecutions.map((run) => run.name))];
    return {
      Status: common.Status,
      Workspace: this.workspace,
      Iterations: common.Iterations,
      Duration: common.Duration,
      FinalContentLen: common.FinalContentLen,
      UserMessage: this.userMessage,
      FinalContent: this.finalContent,
      ActiveSkills: null,
      AttemptedSkills: null,
      FinalSuccessfulPath: null,
      SkillContextSnapshots: null,
      ToolKinds: kinds.length > 0 ? kinds : null,
      ToolExecutions: this.toolExecutions.length > 0 ? [...this.toolExecutions] : null,
    };
  }

  private toolDone(event: Extract<AgentEvent, { type: "tool_result" }>, now: number): HookNotice {
    const tool = event.name ?? "";
    const reason = this.skipReason;
    this.skipReason = undefined;
    const duration = Math.round((now - this.toolMark) * NS_PER_MS);
    this.toolMark = now;
    if (reason !== undefined) return this.event("tool_exec_skipped", "turn.tool.skipped", { Tool: tool, Reason: reason });
    const text = textOf(event.content);
    if (tool !== "") {
      const summary = event.is_error ? errorSummary(text) : "";
      this.toolExecutions.push({ name: tool, success: !event.is_error, ...(summary && { error_summary: summary }) });
    }
    return this.event("tool_exec_end", "turn.tool.end", {
      Tool: tool,
      Duration: duration,
      ForLLMLen: text.length,
      ForUserLen: 0,
      IsError: event.is_error,
      Async: false,
    });
  }

  /** A call's tool_exec_start. */
  private toolStart(name: string, args: unknown): HookNotice {
    return this.event("tool_exec_start", "turn.tool.start", { Tool: name, Arguments: args });
  }

  /** One notice: hook.event's params, and HEAD's spelling of them (with HEAD's payload where it differs). */
  private event(kind: HookEventKind, tracePath: string, payload: Record<string, unknown>, headPayload?: Record<string, unknown>): HookNotice {
    const event: HookEventParams = { Kind: kind, Time: new Date().toISOString(), Meta: this.meta(tracePath), Payload: payload };
    const id = `evt-${++this.eventCount}`;
    return { kind, event, runtime: toRuntimeEvent({ event, id, payload: headPayload, channel: "cli", chatId: this.session }) };
  }
}
