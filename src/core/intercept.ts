// The one interception chain. Every participant (zot extensions, JSON-RPC hooks, the TUI's
// confirmation gate, SDK code) decides through it. Rule: participants run serially in a fixed
// order (priority ascending, then name); each sees the previous one's rewrite; the first
// block/deny/respond/abort ends the stage; an empty answer never erases an earlier rewrite.
import type { AgentEvent, InterceptAction, InterceptStage } from "../protocol/events.ts";
import { errorText } from "../protocol/error-text.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import type { ContentBlock } from "../protocol/messages.ts";
import type { ModelRequest, ProviderStopReason } from "../protocol/provider.ts";
import type { ToolResult } from "../protocol/tool.ts";
import type { TokenUsage } from "../protocol/usage.ts";
import { timerDelay } from "../protocol/timer-delay.ts";
import { type Change, describeModify, describeRespond } from "./intercept-change.ts";

export interface LlmResponse {
  content: ContentBlock[];
  stop: ProviderStopReason;
  usage: TokenUsage;
}

export type ToolArgs = Record<string, unknown>;

/** What each stage shows a participant. */
export interface StagePayloads {
  turn_start: { step: number };
  before_llm: { step: number; request: ModelRequest };
  after_llm: { step: number; request: ModelRequest; response: LlmResponse };
  /** `origin`: the extension that asked for the call (call_tool, tool_prompt); absent for the model's */
  tool_call: { id: string; name: string; args: ToolArgs; origin?: string };
  approve_tool: { id: string; name: string; args: ToolArgs; origin?: string };
  after_tool: { id: string; name: string; args: ToolArgs; result: ToolResult; durationMs: number; origin?: string };
  assistant_message: { text: string; content: ContentBlock[] };
}

/** What a `modify` decision rewrites at each stage (never = the stage cannot be rewritten). */
export interface StageValues {
  turn_start: never;
  before_llm: ModelRequest;
  after_llm: LlmResponse;
  tool_call: ToolArgs;
  approve_tool: never;
  after_tool: ToolResult;
  assistant_message: string;
}

const MODIFY_FIELD = {
  before_llm: "request",
  after_llm: "response",
  tool_call: "args",
  after_tool: "result",
  assistant_message: "text",
} as const satisfies Partial<Record<InterceptStage, string>>;

export type Decision<S extends InterceptStage = InterceptStage> =
  | { action: "continue" }
  | {
      action: "modify";
      value: StageValues[S] | undefined;
      reason?: string;
      /** tool_call only: run this tool instead of the one the model named (PicoClaw's rename) */
      tool?: string;
    }
  /** a tool result given without running the tool (tool_call only) */
  | { action: "respond"; result: ToolResult; reason?: string }
  /** the tool does not run; the reason is the tool error the model sees */
  | { action: "deny"; reason: string }
  /** turn_start: the turn ends; assistant_message: the message is hidden */
  | { action: "block"; reason: string }
  | { action: "abort_turn"; reason: string }
  /** the turn is cancelled and its messages are taken back out of the transcript */
  | { action: "hard_abort"; reason: string };

export type FailureRule = "allow" | "deny" | "skip";

export interface Participant {
  name: string;
  /**
   * zot's own (the confirmation gate, permission rules, settings hooks, deferred tools): an
   * extension's or a hook's participant that takes the same name sits beside it, never in its place.
   */
  builtin?: boolean;
  priority: number;
  stages: readonly InterceptStage[];
  /** per call; a number for every stage, or per stage */
  timeoutMs: number | Partial<Record<InterceptStage, number>>;
  /** what an error or a timeout counts as: allow/skip = continue, deny = the tool is denied */
  onFailure: FailureRule;
  decide<S extends InterceptStage>(stage: S, payload: StagePayloads[S], signal: AbortSignal): Promise<Decision<S>>;
}

export type ChainOutcome<S extends InterceptStage> =
  | { action: "continue"; payload: StagePayloads[S] }
  | { action: "respond"; payload: StagePayloads[S]; result: ToolResult; participant: string }
  | {
      action: "deny" | "block" | "abort_turn" | "hard_abort";
      payload: StagePayloads[S];
      reason: string;
      participant: string;
    };

export interface InterceptChainOptions {
  /** receives an `intercept` event for every decision that changed something */
  emit?: (event: AgentEvent) => void;
  /** diagnostics a user may want to see in a log (ignored decisions, timeouts) */
  log?: (message: string) => void;
}

const TERMINAL: ReadonlySet<string> = new Set(["deny", "block", "abort_turn", "hard_abort"]);

/** Which stages accept which ending decisions; anything else is ignored and logged. */
const ALLOWED_ENDINGS: Record<InterceptStage, ReadonlySet<string>> = {
  turn_start: new Set(["block", "abort_turn", "hard_abort"]),
  before_llm: new Set(["abort_turn", "hard_abort"]),
  after_llm: new Set(["abort_turn", "hard_abort"]),
  tool_call: new Set(["respond", "deny", "block", "abort_turn", "hard_abort"]),
  approve_tool: new Set(["deny", "block", "abort_turn", "hard_abort"]),
  after_tool: new Set(["abort_turn", "hard_abort"]),
  assistant_message: new Set(["block", "abort_turn", "hard_abort"]),
};

class ParticipantTimeout extends Error {}

/** The extension that asked for a tool call, for the audit trail; undefined for the model's calls and other stages. */
function originOf(payload: unknown): string | undefined {
  const origin = (payload as { origin?: unknown }).origin;
  return typeof origin === "string" ? origin : undefined;
}

export class InterceptChain {
  private participants: Participant[] = [];
  private readonly emit: (event: AgentEvent) => void;
  private readonly log: (message: string) => void;

  constructor(options: InterceptChainOptions = {}) {
    this.emit = options.emit ?? (() => {});
    this.log = options.log ?? (() => {});
  }

  /**
   * Adds a participant; one of the same name and the same kind (zot's own, or not) is replaced.
   * Rule: a name from a user's configuration never takes zot's own participant out of the chain.
   */
  add(participant: Participant): void {
    const builtin = participant.builtin === true;
    this.participants = this.participants.filter((p) => p.name !== participant.name || (p.builtin === true) !== builtin);
    this.participants.push(participant);
    this.participants.sort(
      (a, b) => a.priority - b.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || Number(b.builtin === true) - Number(a.builtin === true),
    );
  }

  /** Takes the participant of that name out; zot's own of the same name stays (it goes only with removeWhere, by identity). */
  remove(name: string): void {
    this.participants = this.participants.filter((p) => p.name !== name || p.builtin === true);
  }

  /** Removes every participant for which `match` is true (used when extensions reload). */
  removeWhere(match: (p: Participant) => boolean): void {
    this.participants = this.participants.filter((p) => !match(p));
  }

  list(): readonly Participant[] {
    return this.participants;
  }

  has(stage: InterceptStage): boolean {
    return this.participants.some((p) => p.stages.includes(stage));
  }

  async run<S extends InterceptStage>(stage: S, payload: StagePayloads[S], signal: AbortSignal): Promise<ChainOutcome<S>> {
    let current = payload;
    for (const participant of this.participants) {
      if (!participant.stages.includes(stage)) continue;
      if (signal.aborted) break;
      const decision = await this.ask(participant, stage, current, signal);
      if (decision.action === "continue") continue;

      if (decision.action === "modify") {
        const next = this.applyModify(participant, stage, current, decision.value, decision.tool);
        if (next === current) continue;
        const change = describeModify(stage, current, next);
        current = next;
        this.report(participant.name, stage, "modify", decision.reason, change, originOf(current));
        continue;
      }

      if (!ALLOWED_ENDINGS[stage].has(decision.action)) {
        this.log(`${participant.name}: "${decision.action}" is not a valid answer at ${stage}; ignored`);
        continue;
      }
      if (decision.action === "respond") {
        const change = describeRespond(current as StagePayloads["tool_call"], decision.result);
        this.report(participant.name, stage, "respond", decision.reason, change, originOf(current));
        return { action: "respond", payload: current, result: decision.result, participant: participant.name };
      }
      if (TERMINAL.has(decision.action)) {
        const reason = decision.reason || `${decision.action} by ${participant.name}`;
        this.report(participant.name, stage, decision.action, reason, undefined, originOf(current));
        return { action: decision.action, payload: current, reason, participant: participant.name };
      }
    }
    return { action: "continue", payload: current };
  }

  private applyModify<S extends InterceptStage>(
    participant: Participant,
    stage: S,
    current: StagePayloads[S],
    value: unknown,
    tool?: string,
  ): StagePayloads[S] {
    const field = (MODIFY_FIELD as Partial<Record<InterceptStage, string>>)[stage];
    if (!field) {
      this.log(`${participant.name}: ${stage} cannot be modified; ignored`);
      return current;
    }
    if (stage === "tool_call" && tool && tool !== (current as StagePayloads["tool_call"]).name) {
      const renamed = { ...current, name: tool };
      return value === undefined || value === null ? renamed : this.applyModify(participant, stage, renamed, value);
    }
    if (value === undefined || value === null) return current;
    if (stage === "tool_call" && !isJsonObject(value)) {
      this.log(`${participant.name}: modified args must be a JSON object; ignored`);
      return current;
    }
    if (stage === "assistant_message" && typeof value !== "string") {
      this.log(`${participant.name}: replacement text must be a string; ignored`);
      return current;
    }
    return { ...current, [field]: value };
  }

  private report(participant: string, stage: InterceptStage, action: InterceptAction, reason?: string, change?: Change, origin?: string): void {
    this.emit({ type: "intercept", participant, stage, action, ...(reason ? { reason } : {}), ...change, ...(origin ? { origin_extension: origin } : {}) });
  }

  private async ask<S extends InterceptStage>(
    participant: Participant,
    stage: S,
    payload: StagePayloads[S],
    signal: AbortSignal,
  ): Promise<Decision<S>> {
    const timeoutMs =
      typeof participant.timeoutMs === "number" ? participant.timeoutMs : (participant.timeoutMs[stage] ?? 5000);
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort(new ParticipantTimeout());
          reject(new ParticipantTimeout());
        }, timerDelay(timeoutMs));
      });
      const aborted = new Promise<never>((_, reject) => {
        controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
      });
      return await Promise.race([participant.decide(stage, payload, controller.signal), timeout, aborted]);
    } catch (error) {
      if (signal.aborted) return { action: "continue" };
      const what =
        error instanceof ParticipantTimeout
          ? `did not answer ${stage} within ${timeoutMs} ms`
          : `failed at ${stage}: ${errorText(error)}`;
      return this.failure(participant, stage, `${participant.name} ${what}`);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
  }

  private failure<S extends InterceptStage>(participant: Participant, stage: S, message: string): Decision<S> {
    if (participant.onFailure === "deny" && (stage === "approve_tool" || stage === "tool_call")) {
      this.log(`${message}; denying`);
      return { action: "deny", reason: message };
    }
    this.log(`${message}; ${participant.onFailure === "skip" ? "skipped" : "allowed"}`);
    return { action: "continue" };
  }
}
