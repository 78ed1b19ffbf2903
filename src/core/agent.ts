// The agent loop: prompt → model stream → tool calls → … → done, emitting the event union.
// Rule: one transcript, one chain; every mode is a sink of these events and none re-implements
// the loop. The loop knows providers and tools only through their interfaces.
import { randomUUID } from "node:crypto";
import type { ErrorCode } from "../protocol/error-code.ts";
import type { AgentEvent, CompactReason, StopReason } from "../protocol/events.ts";
import { errorText } from "../protocol/error-text.ts";
import {
  type ContentBlock,
  type ImageBlock,
  type Message,
  type ToolCallBlock,
  type ToolResultBlock,
  nowIso,
  textOf,
  toWireContent,
  toWireResultContent,
} from "../protocol/messages.ts";
import { promptWithContext } from "../protocol/prompt-context.ts";
import type { ModelInfo, ReasoningLevel } from "../protocol/models.ts";
import {
  type ModelRequest,
  type Provider,
  ProviderError,
  type ProviderStopReason,
  type ToolSpec,
} from "../protocol/provider.ts";
import { type FileViews, type ProtectedPath, type Tool, type ToolOrigin, type ToolResult, textResult } from "../protocol/tool.ts";
import { addUsage, emptyUsage, type TokenUsage, type Usage } from "../protocol/usage.ts";
import { CompactError, estimateContextTokens, planCompaction, summaryMessage, summaryRequest } from "./compact.ts";
import { priceUsage } from "./cost.ts";
import { InterceptChain, type LlmResponse, type ToolArgs } from "./intercept.ts";
import type { PromptHooks } from "./prompt-hooks.ts";
import { type SideEvent, type SideExchange, sideRequest, streamSideAnswer } from "./side-question.ts";
import type { ToolStatus, ToolStep } from "./tool-step.ts";
import { waitForTool } from "./tool-wait.ts";

export interface AgentOptions {
  provider: Provider;
  model: ModelInfo;
  tools: Tool[];
  system: string;
  cwd: string;
  reasoning?: ReasoningLevel;
  /** 0 = unlimited */
  maxSteps?: number;
  /** diagnostics of the interception chain (ignored decisions, timeouts) */
  log?: (message: string) => void;
  messages?: Message[];
  cumulative?: Usage;
  /** compact automatically when the context use reaches this fraction of the model's window; 0 = never (default 0.85) */
  autoCompact?: number;
  /** start jailed: tools confined to cwd (`--jail`) */
  jailed?: boolean;
  /** what the built-in tools must not write (the trust store; while jailed, executable configuration) */
  protectedPaths?: readonly ProtectedPath[];
}

/** How a compaction ended. The events (compact_start, usage, compact_done or error) have already said it. */
export type CompactOutcome =
  | { status: "ok"; summary: string }
  | { status: "aborted" }
  | { status: "error"; message: string; code: ErrorCode };

/** A compaction that succeeded, for whoever records the transcript (the session store). */
export interface Compacted {
  reason: CompactReason;
  summary: string;
  /** the summary message, now first in the transcript */
  message: Message;
  /** messages kept verbatim after it */
  kept: number;
  messagesBefore: number;
}

/** A tool call's result, the moment it is known: the very block the step's tool message will hold. */
export interface FinishedResult {
  block: ToolResultBlock;
  time: string;
}

/** The context as of the last model call. */
export interface ContextUse {
  /**
   * input + cache read + cache write + output tokens of the last call (an estimate right after a
   * compaction, and for a transcript loaded from a session until its first call)
   */
  tokens: number;
  window: number;
  /** tokens / window */
  fraction: number;
}

export interface PromptInput {
  text: string;
  /** text that came with the prompt (piped stdin): the model gets it first, marked as stdin */
  context?: string;
  images?: { mime_type: string; data: string }[];
  /**
   * [issue 15] A command's tool_prompt: this call runs (through the chain and the gates) and goes
   * into the transcript with its result after the prompt and before the model's turn.
   */
  tool?: PromptTool;
}

/** A tool call an extension's command puts before the model's turn (tool_prompt). */
export interface PromptTool {
  name: string;
  args: Record<string, unknown>;
  /** the extension whose command asked for it */
  origin: string;
}

/** How one tool call went: what the model (or the asking extension) gets, and how it ended. */
export interface ToolRun {
  result: ToolResult;
  /** the extension that provides the tool */
  extension?: string;
  status: ToolStatus;
  /** whether the tool itself ran */
  executed: boolean;
  /** the arguments it ran with (after rewrites), or the last proposed ones */
  args: ToolArgs;
}

/** How a prompt ended. The events have already said it; this is for exit codes. */
export type PromptOutcome =
  | { status: "ok" }
  | { status: "aborted" }
  | { status: "blocked"; reason: string }
  | { status: "error"; message: string; code: ErrorCode };

/** Why a turn failed: the sentence for a person, the code for a program (the `error` and `turn_end` events carry both). */
export interface TurnFailure {
  message: string;
  code: ErrorCode;
}

type Listener<T> = (value: T) => void;

/** What one model call assembled. */
interface ModelCall {
  stop: ProviderStopReason | "error" | "aborted";
  response?: LlmResponse;
  partial: ContentBlock[];
  failure?: TurnFailure;
  /** the provider refused the request as too long for the window, before anything streamed */
  overflow?: boolean;
}

/** Thrown inside the loop when a participant ends the turn from deep within a step. */
class TurnEnded {
  constructor(
    readonly outcome: PromptOutcome,
    /** hard_abort: this prompt's messages were taken back out of the transcript */
    readonly hard: boolean,
  ) {}
}

export class Agent {
  provider: Provider;
  model: ModelInfo;
  tools: Tool[];
  system: string;
  readonly cwd: string;
  reasoning?: ReasoningLevel;
  maxSteps: number;
  readonly chain: InterceptChain;
  messages: Message[];
  cumulative: Usage;
  autoCompact: number;
  /**
   * The jail (`--jail`, the TUI's /jail and /unjail set it): every tool call gets it in its context;
   * the built-in tools then refuse paths outside cwd and confine bash. Takes effect at the next tool call.
   */
  jailed: boolean;
  /**
   * What the model last saw of each file (its reads, writes and edits), handed to every tool call:
   * edit and write refuse a file that changed since. Forgotten with the transcript (clear).
   */
  readonly views: FileViews = new Map();
  /** handed to every tool call (ToolContext.protectedPaths) */
  readonly protectedPaths: readonly ProtectedPath[];
  /** settings hooks' points outside the chain: UserPromptSubmit, Stop, PreCompact (core/prompt-hooks.ts) */
  promptHooks?: PromptHooks;
  /** tokens in the context as of the last model call */
  protected contextTokens = 0;
  private readonly eventListeners = new Set<Listener<AgentEvent>>();
  private readonly pressures = new Set<() => Promise<void> | undefined>();
  private readonly messageListeners = new Set<Listener<Message>>();
  private readonly compactedListeners = new Set<Listener<Compacted>>();
  private readonly toolStepListeners = new Set<Listener<ToolStep>>();
  private readonly resultListeners = new Set<Listener<FinishedResult>>();
  private readonly modelListeners = new Set<Listener<ModelInfo>>();
  /** a turn_start was emitted whose turn_end was not */
  private turnOpen = false;
  /** [issue 15] awaited before each prompt's first model call (extensions' before_agent_start) */
  private readonly preparers = new Set<(signal: AbortSignal) => Promise<void>>();
  /** [issue 15] told when clear() starts a new conversation */
  private readonly clearListeners = new Set<() => void>();

  constructor(options: AgentOptions) {
    this.provider = options.provider;
    this.model = options.model;
    this.tools = options.tools;
    this.system = options.system;
    this.cwd = options.cwd;
    this.reasoning = options.reasoning;
    this.maxSteps = options.maxSteps ?? 0;
    // The agent owns its chain so every decision that changed something is one of its events.
    this.chain = new InterceptChain({ emit: (event) => this.emit(event), log: options.log });
    this.messages = options.messages ?? [];
    this.contextTokens = this.estimateContext();
    this.cumulative = options.cumulative ?? emptyUsage();
    this.autoCompact = options.autoCompact ?? 0.85;
    this.jailed = options.jailed ?? false;
    this.protectedPaths = options.protectedPaths ?? [];
  }

  /** Empties the transcript (the /clear command); the cumulative usage and cost stay. */
  clear(): void {
    this.replaceTranscript([]);
    for (const listener of this.clearListeners) listener();
  }

  // ── [issue 15] what extensions' host services need of the agent ─────────────────────────────

  /** Replaces the system prompt from the next model call on (extensions' before_agent_start). */
  setSystemPrompt(text: string): void {
    this.system = text;
  }

  /**
   * Adds work awaited at the start of every prompt, before its first model call (the extensions'
   * before_agent_start pass); it must not throw. Returns the unsubscribe function.
   */
  onBeforePrompt(preparer: (signal: AbortSignal) => Promise<void>): () => void {
    this.preparers.add(preparer);
    return () => this.preparers.delete(preparer);
  }

  /** Subscribes to clear() (a new conversation in the same run); returns the unsubscribe function. */
  onClear(listener: () => void): () => void {
    this.clearListeners.add(listener);
    return () => this.clearListeners.delete(listener);
  }

  /**
   * Runs a tool call an extension asked for (call_tool) exactly as the model's calls run: the
   * tool_call stage, the approvers (the confirmation gate), the tool, after_tool; its events carry
   * origin_extension. Nothing goes into the transcript, and the model's record of the files it saw
   * stays as it was. A participant that would end the turn refuses this call instead, since it is
   * no turn's. Never throws for a failure the caller should see.
   */
  async runToolCall(call: { id: string; name: string; args: ToolArgs }, options: { origin: ToolOrigin; signal: AbortSignal }): Promise<ToolRun> {
    const block: ToolCallBlock = { type: "tool_call", ...call };
    this.emit({ type: "tool_call", ...call, origin_extension: options.origin.extension });
    let ran: ToolRun;
    try {
      ran = await this.runTool(block, options.signal, Number.POSITIVE_INFINITY, options.origin, false);
    } catch (error) {
      if (!(error instanceof TurnEnded)) throw error;
      const reason = error.outcome.status === "error" ? error.outcome.message : "the call was stopped";
      ran = { result: textResult(reason, true), status: "blocked", executed: false, args: call.args };
    }
    this.reportOutcome(block, ran, options.origin.extension);
    return ran;
  }

  /**
   * A command's tool_prompt: the extension's call, as an assistant message, and its result go into
   * the transcript before the model's turn. Undefined when the turn may go on; an outcome when the
   * call was cancelled (the call and its result stay).
   */
  private async runPromptTool(tool: PromptTool, signal: AbortSignal, promptStart: number): Promise<PromptOutcome | undefined> {
    const origin: ToolOrigin = { extension: tool.origin, chain: [tool.name] };
    const call: ToolCallBlock = { type: "tool_call", id: `call_ext_${randomUUID().replaceAll("-", "")}`, name: tool.name, args: tool.args, origin_extension: tool.origin };
    this.append({ role: "assistant", content: [call], time: nowIso() });
    this.emit({ type: "tool_call", id: call.id, name: call.name, args: call.args, origin_extension: tool.origin });
    const { results, time } = await this.runTools([call], signal, promptStart, origin);
    this.append({ role: "tool", content: results, time });
    return signal.aborted ? { status: "aborted" } : undefined;
  }

  /**
   * Puts another transcript in place (a resumed session, a fork): what is in the context is
   * estimated from it until the next call reports the real count.
   */
  replaceTranscript(messages: Message[]): void {
    this.messages = messages;
    // What the model read belongs to the conversation it read it in.
    this.views.clear();
    this.contextTokens = this.estimateContext();
  }

  /** Nothing for an empty transcript (nothing was sent yet), else the transcript's size, estimated. */
  private estimateContext(): number {
    return this.messages.length === 0 ? 0 : estimateContextTokens(this.system, this.messages, this.toolSpecs());
  }

  /** Switches the model; the caller checks it belongs to the same provider. */
  setModel(model: ModelInfo): void {
    this.model = model;
    for (const listener of this.modelListeners) listener(model);
  }

  /** Subscribes to model switches (the session records them as they happen); returns the unsubscribe function. */
  onModelChange(listener: Listener<ModelInfo>): () => void {
    this.modelListeners.add(listener);
    return () => this.modelListeners.delete(listener);
  }

  contextUse(): ContextUse {
    const window = this.model.context_window;
    return { tokens: this.contextTokens, window, fraction: window > 0 ? this.contextTokens / window : 0 };
  }

  /**
   * Manual compaction (rpc `compact`, the TUI's /compact): summarises the older part of the
   * transcript with the model into one message and keeps the recent turns verbatim. Emits
   * compact_start, usage (the summarising call), compact_done or error, then done.
   */
  async compact(signal: AbortSignal, options: { instructions?: string } = {}): Promise<CompactOutcome> {
    const outcome = await this.compactNow(signal, "manual", options.instructions);
    // Ends like a prompt, whatever the outcome: an abort is compact_start, (usage,) done, with no
    // error event, as an aborted prompt has none.
    this.emit({ type: "done" });
    return outcome;
  }

  /**
   * A side question (the TUI's /btw): answered by the model with the whole transcript as context
   * and no tools; nothing is added to the transcript. The answer streams as side_delta events and
   * ends with side_done, side_error or side_aborted; the call's usage counts (a `usage` event).
   * `history`: earlier side questions and answers, for a side chat that goes on.
   */
  ask(question: string, signal: AbortSignal, options: { history?: readonly SideExchange[] } = {}): AsyncIterable<SideEvent> {
    // The request is built now: the question is about the conversation as it is when asked.
    const request = sideRequest({ model: this.model, system: this.system, messages: this.messages, question, history: options.history });
    return streamSideAnswer(this.provider, request, signal, {
      record: (usage) => this.recordUsage(usage),
      failureText: (error) => this.failureOf(error).message,
    });
  }

  /** Subscribes to each successful compaction; returns the unsubscribe function. */
  onCompacted(listener: Listener<Compacted>): () => void {
    this.compactedListeners.add(listener);
    return () => this.compactedListeners.delete(listener);
  }

  /** Subscribes to each tool call's approval and outcome; returns the unsubscribe function. */
  onToolStep(listener: Listener<ToolStep>): () => void {
    this.toolStepListeners.add(listener);
    return () => this.toolStepListeners.delete(listener);
  }

  /**
   * Subscribes to each tool result as it is known, before the step's other calls end (the tool
   * message holding them all is appended after the last); returns the unsubscribe function.
   */
  onToolResult(listener: Listener<FinishedResult>): () => void {
    this.resultListeners.add(listener);
    return () => this.resultListeners.delete(listener);
  }

  private toolStep(step: ToolStep): void {
    for (const listener of this.toolStepListeners) listener(step);
  }

  /** Subscribes to every event; returns the unsubscribe function. */
  onEvent(listener: Listener<AgentEvent>): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Subscribes to every message appended to the transcript (full content, images included). */
  onMessage(listener: Listener<Message>): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  emit(event: AgentEvent): void {
    for (const listener of this.eventListeners) listener(event);
  }

  /**
   * A consumer of the events that cannot keep up (rpc's stdout not drained) holds the producers
   * back: `pressure` returns a promise to wait for, or undefined to go on, and while it waits the
   * model stream is not read and a tool's output is not taken. Returns what removes it.
   */
  holdBack(pressure: () => Promise<void> | undefined): () => void {
    this.pressures.add(pressure);
    return () => this.pressures.delete(pressure);
  }

  /** What the producers wait for before making more events, or undefined (the usual case). */
  private backpressure(signal: AbortSignal): Promise<void> | undefined {
    const waits: Promise<void>[] = [];
    for (const pressure of this.pressures) {
      const wait = pressure();
      if (wait) waits.push(wait);
    }
    if (waits.length === 0) return undefined;
    // An abort must never wait for a reader that may never read again.
    return untilAborted(Promise.all(waits), signal);
  }

  private append(message: Message): void {
    this.messages.push(message);
    for (const listener of this.messageListeners) listener(message);
  }

  /**
   * Adds a user message without a turn (the TUI's `!command` output): the model reads it with the
   * next prompt, and the session records it. Emits no event, since no turn starts (observers of
   * turns would see a start without an end). Call it while no prompt runs.
   */
  addContext(text: string): void {
    this.append({ role: "user", content: [{ type: "text", text }], time: nowIso() });
  }

  async prompt(input: PromptInput, signal: AbortSignal): Promise<PromptOutcome> {
    // [settings hooks] UserPromptSubmit: the prompt may be refused before it enters the transcript.
    const submitted = await this.promptHooks?.submit?.(input.text, signal);
    if (submitted && "block" in submitted) {
      this.emit({ type: "error", message: submitted.block, code: "blocked" });
      this.emit({ type: "done" });
      return { status: "blocked", reason: submitted.block };
    }
    const start = this.messages.length;
    const content: ContentBlock[] = [];
    const text = promptWithContext(input.text, input.context);
    if (text) content.push({ type: "text", text });
    for (const image of input.images ?? []) content.push({ type: "image", ...image } satisfies ImageBlock);
    for (const context of submitted?.context ?? []) content.push({ type: "text", text: context });
    const userMessage: Message = { role: "user", content, time: nowIso() };
    this.append(userMessage);
    this.emit({ type: "user_message", content: toWireContent(content), time: userMessage.time });

    let outcome: PromptOutcome;
    try {
      // [issue 15] extensions rewrite the system prompt before the first model call (before_agent_start).
      for (const prepare of this.preparers) await prepare(signal);
      const early = input.tool ? await this.runPromptTool(input.tool, signal, start) : undefined;
      outcome = early ?? (await this.loop(signal, start));
      // [settings hooks] Stop: a hook may send the agent back to work, its reason the next user message.
      let more = outcome.status === "ok" ? await this.promptHooks?.stopping?.(signal) : undefined;
      while (more !== undefined) {
        const feedback: Message = { role: "user", content: [{ type: "text", text: more }], time: nowIso() };
        this.append(feedback);
        this.emit({ type: "user_message", content: toWireContent(feedback.content), time: feedback.time });
        outcome = await this.loop(signal, start);
        more = outcome.status === "ok" ? await this.promptHooks?.stopping?.(signal) : undefined;
      }
    } catch (error) {
      if (!(error instanceof TurnEnded)) throw error;
      outcome = error.outcome;
      if (this.turnOpen) {
        this.endTurn(error.hard ? "aborted" : "error", outcome.status === "error" ? outcome : undefined);
      }
    }
    if (outcome.status === "error") this.emit({ type: "error", message: outcome.message, code: outcome.code });
    if (outcome.status === "blocked") this.emit({ type: "error", message: outcome.reason, code: "blocked" });
    this.emit({ type: "done" });
    return outcome;
  }

  /** Steps until the model stops asking for tools. */
  private async loop(signal: AbortSignal, promptStart: number): Promise<PromptOutcome> {
    // A compaction mid-prompt moves this prompt's messages (or summarises its first ones away):
    // promptStart is found again from this message after each one, for hard_abort.
    const promptFirst = this.messages[promptStart];
    for (let step = 1; ; step++) {
      if (this.maxSteps > 0 && step > this.maxSteps) {
        return { status: "error", code: "max_steps", message: `max steps (${this.maxSteps}) exceeded` };
      }
      this.emit({ type: "turn_start", step });
      this.turnOpen = true;

      const turnGate = await this.chain.run("turn_start", { step }, signal);
      if (turnGate.action === "hard_abort") return this.hardAbort(promptStart, turnGate.reason);
      if (turnGate.action !== "continue" && turnGate.action !== "respond") {
        this.endTurn("error", { message: turnGate.reason, code: "blocked" });
        return { status: "blocked", reason: `turn blocked by ${turnGate.participant}: ${turnGate.reason}` };
      }

      if (this.autoCompactDue()) {
        // A failure was reported as an error event; the call may still fit, so the turn goes on.
        const compacted = await this.compactNow(signal, "auto");
        if (compacted.status === "aborted") {
          this.endTurn("aborted");
          return { status: "aborted" };
        }
        promptStart = this.promptStartOf(promptFirst);
      }

      let request: ModelRequest = {
        model: this.model,
        system: this.system,
        messages: this.messages.slice(),
        tools: this.toolSpecs(),
        ...(this.reasoning ? { reasoning: this.reasoning } : {}),
      };
      const before = await this.chain.run("before_llm", { step, request }, signal);
      if (before.action === "hard_abort") return this.hardAbort(promptStart, before.reason);
      if (before.action !== "continue" && before.action !== "respond") return this.abortTurn(before.reason);
      request = before.payload.request;

      const { call, sent } = await this.callCompactingOnOverflow(request, signal);
      request = sent;
      promptStart = this.promptStartOf(promptFirst);
      let response = call.response;
      if (call.stop !== "error" && call.stop !== "aborted" && response) {
        const after = await this.chain.run("after_llm", { step, request, response }, signal);
        if (after.action === "hard_abort") return this.hardAbort(promptStart, after.reason);
        if (after.action !== "continue" && after.action !== "respond") return this.abortTurn(after.reason);
        response = after.payload.response;
      }

      // What the transcript keeps: on abort, text only (an unmatched tool call breaks the next request).
      let kept = response?.content ?? call.partial;
      if (call.stop === "aborted" || call.stop === "error") kept = kept.filter((b) => b.type !== "tool_call");
      const toolCalls = kept.filter((b): b is ToolCallBlock => b.type === "tool_call");
      if (kept.length > 0) {
        const message: Message = { role: "assistant", content: kept, time: nowIso() };
        this.append(message);
        await this.announceAssistant(message, signal, promptStart);
      }
      for (const tc of toolCalls) this.emit({ type: "tool_call", id: tc.id, name: tc.name, args: tc.args });

      // after_llm may have rewritten the response's tool calls, and with them its stop.
      const modelStop = call.stop === "error" || call.stop === "aborted" ? call.stop : (response?.stop ?? call.stop);
      const stop: StopReason = modelStop === "tool_use" && toolCalls.length === 0 ? "end_turn" : (modelStop as StopReason);
      this.endTurn(stop, call.failure);

      if (stop === "aborted") return { status: "aborted" };
      if (stop === "error") return { status: "error", ...(call.failure ?? { message: "provider error", code: "internal" }) };
      if (stop !== "tool_use") return { status: "ok" };

      const { results, time } = await this.runTools(toolCalls, signal, promptStart);
      this.append({ role: "tool", content: results, time });
      if (signal.aborted) return { status: "aborted" };
    }
  }

  private endTurn(stop: StopReason, failure?: TurnFailure): void {
    this.turnOpen = false;
    this.emit({ type: "turn_end", stop, ...(failure ? { error: failure.message, code: failure.code } : {}) });
  }

  private async announceAssistant(message: Message, signal: AbortSignal, promptStart: number): Promise<void> {
    const text = textOf(message.content);
    let visible = message.content;
    if (text.trim() !== "" && this.chain.has("assistant_message")) {
      const gate = await this.chain.run("assistant_message", { text, content: message.content }, signal);
      if (gate.action === "block") return;
      if (gate.action === "abort_turn") this.answerUnrun(message.content, `turn aborted: ${gate.reason}`);
      if (gate.action === "hard_abort" || gate.action === "abort_turn") this.endFromStep(gate.action, gate.reason, promptStart);
      if (gate.payload.text !== text) {
        // The user sees the rewrite; the transcript keeps what the model said.
        visible = [
          { type: "text", text: gate.payload.text },
          ...message.content.filter((b) => b.type !== "text"),
        ];
      }
    }
    this.emit({ type: "assistant_message", content: toWireContent(visible), time: message.time });
  }

  /** The turn ends before the message's tool calls run: each gets an error result, or the next request would be malformed. */
  private answerUnrun(content: ContentBlock[], reason: string): void {
    const calls = content.filter((b): b is ToolCallBlock => b.type === "tool_call");
    if (calls.length === 0) return;
    this.append({ role: "tool", content: calls.map((c) => resultBlock(c.id, textResult(reason, true))), time: nowIso() });
  }

  private hardAbort(promptStart: number, reason: string): PromptOutcome {
    this.messages.splice(promptStart);
    const failure: TurnFailure = { message: reason, code: "intercepted" };
    this.endTurn("aborted", failure);
    return { status: "error", ...failure };
  }

  /**
   * A participant ended the turn from deep within a step (after the model answered, around a
   * tool): unwinds to prompt(); hard_abort also takes this prompt's messages back out.
   */
  private endFromStep(action: "abort_turn" | "hard_abort", reason: string, promptStart: number): never {
    if (action === "hard_abort" && Number.isFinite(promptStart)) this.messages.splice(promptStart);
    throw new TurnEnded({ status: "error", code: "intercepted", message: reason }, action === "hard_abort");
  }

  private abortTurn(reason: string): PromptOutcome {
    const failure: TurnFailure = { message: reason, code: "intercepted" };
    this.endTurn("error", failure);
    return { status: "error", ...failure };
  }

  private toolSpecs(): ToolSpec[] {
    return this.tools
      // [issue 15] a deferred extension tool is not offered until a tool result activates it
      .filter((t) => t.offered?.() ?? true)
      .map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  private autoCompactDue(): boolean {
    return this.autoCompact > 0 && this.messages.length > 0 && this.contextUse().fraction >= this.autoCompact;
  }

  /** Where this prompt's messages start: its first message, or right after the summary once that was summarised away. */
  private promptStartOf(first: Message | undefined): number {
    const index = first ? this.messages.indexOf(first) : -1;
    // Everything kept after a summary is newer than the prompt's first message, so all of it is this prompt's.
    return index >= 0 ? index : 1;
  }

  /**
   * Summarises the older part of the transcript into one message and keeps the recent part. Emits
   * compact_start, the summarising call's usage, then compact_done or an error event (none for an
   * abort). On failure or abort the transcript stays as it was. An automatic compaction that finds
   * nothing to compact emits nothing at all.
   */
  private async compactNow(signal: AbortSignal, reason: CompactReason, instructions?: string): Promise<CompactOutcome> {
    const messagesBefore = this.messages.length;
    const plan = (() => {
      try {
        return planCompaction(this.messages, this.model);
      } catch (error) {
        if (error instanceof CompactError) return { nothing: error.message };
        throw error;
      }
    })();
    // Nothing to compact is no failure of a turn that never asked for it: the call goes ahead as is.
    if ("nothing" in plan && reason === "auto") return { status: "error", message: plan.nothing, code: "compaction" };
    // [settings hooks] PreCompact: a hook may refuse the compaction.
    const refused = "nothing" in plan ? undefined : await this.promptHooks?.compacting?.(reason, instructions, signal);
    if (refused !== undefined) {
      this.emit({ type: "error", message: compactionFailure(reason, refused), code: "compaction" });
      return { status: "error", message: refused, code: "compaction" };
    }
    this.emit({ type: "compact_start", reason });
    const kept = "nothing" in plan ? [] : plan.kept;
    const outcome: CompactOutcome =
      "nothing" in plan
        ? { status: "error", message: plan.nothing, code: "compaction" }
        : await this.summarise(summaryRequest(plan.older, this.model, instructions), signal);
    if (outcome.status === "error") this.emit({ type: "error", message: compactionFailure(reason, outcome.message), code: outcome.code });
    if (outcome.status !== "ok") return outcome;

    const message = summaryMessage(outcome.summary);
    // An estimate until the next call reports the real count, so the threshold does not fire again at once.
    this.replaceTranscript([message, ...kept]);
    this.emit({
      type: "compact_done",
      summary: outcome.summary,
      reason,
      messages_before: messagesBefore,
      messages_after: this.messages.length,
    });
    const compacted: Compacted = { reason, summary: outcome.summary, message, kept: kept.length, messagesBefore };
    for (const listener of this.compactedListeners) listener(compacted);
    return outcome;
  }

  /**
   * The summarising call. Its text is collected, never streamed out as text_delta (clients would
   * take it for the answer); its usage is priced and counted like any call's.
   */
  private async summarise(request: ModelRequest, signal: AbortSignal): Promise<CompactOutcome> {
    let usage: TokenUsage | undefined;
    let content: ContentBlock[] | undefined;
    let failure: TurnFailure | undefined;
    try {
      for await (const ev of this.provider.stream(request, signal)) {
        if (ev.type === "retry") this.emit(ev);
        else if (ev.type === "usage") usage = ev.usage;
        else if (ev.type === "done") content = ev.content;
      }
    } catch (error) {
      failure = this.failureOf(error);
    }
    if (usage) this.recordUsage(usage);
    if (signal.aborted) return { status: "aborted" };
    if (failure) return { status: "error", ...failure };
    if (!content) return { status: "error", ...this.noFinalMessage() };
    const summary = textOf(content).trim();
    if (!summary) return { status: "error", message: "the model returned an empty summary", code: "compaction" };
    return { status: "ok", summary };
  }

  /**
   * A model call that the provider refused as too long for the window (before anything streamed)
   * is tried once more after an overflow compaction, with the same request (system, tools and
   * reasoning as before_llm left them) over the compacted transcript. A second overflow, or a
   * failed compaction, ends the turn with the call's error. `sent` is the request last sent.
   */
  private async callCompactingOnOverflow(
    request: ModelRequest,
    signal: AbortSignal,
  ): Promise<{ call: ModelCall; sent: ModelRequest }> {
    const call = await this.callModel(request, signal);
    if (!call.overflow) return { call, sent: request };
    const compacted = await this.compactNow(signal, "overflow");
    if (compacted.status === "aborted") return { call: { stop: "aborted", partial: [] }, sent: request };
    if (compacted.status === "error") return { call, sent: request };
    const retry = { ...request, messages: this.messages.slice() };
    return { call: await this.callModel(retry, signal), sent: retry };
  }

  private recordUsage(usage: TokenUsage): void {
    const priced = priceUsage(this.model, usage);
    this.cumulative = addUsage(this.cumulative, priced);
    this.emit({ type: "usage", ...priced, cumulative: this.cumulative });
  }

  private failureOf(error: unknown): TurnFailure {
    if (error instanceof ProviderError) return { message: error.message, code: error.code };
    return { message: `${this.provider.name}: ${errorText(error)}`, code: "internal" };
  }

  /** A provider whose stream ended quietly, without its final message. */
  private noFinalMessage(): TurnFailure {
    return { message: `${this.provider.name}: the stream ended without a final message`, code: "bad_response" };
  }

  /** One model call: streams events out, returns what it assembled. */
  private async callModel(request: ModelRequest, signal: AbortSignal): Promise<ModelCall> {
    let started = false;
    let usage: TokenUsage | undefined;
    let text = "";
    const partial: ContentBlock[] = [];
    const flushText = () => {
      if (text) partial.push({ type: "text", text });
      text = "";
    };
    let result: Omit<ModelCall, "partial">;
    try {
      for await (const ev of this.provider.stream(request, signal)) {
        // A retry comes before the first byte: the call has not started, and the user hears why it waits.
        if (ev.type === "retry") {
          this.emit(ev);
          continue;
        }
        if (!started) {
          started = true;
          this.emit({ type: "assistant_start" });
        }
        const wait = this.backpressure(signal);
        if (wait) await wait;
        switch (ev.type) {
          case "text_delta":
            text += ev.delta;
            this.emit(ev);
            break;
          case "usage":
            usage = ev.usage;
            break;
          case "done":
            result = {
              stop: ev.stop,
              response: { content: ev.content, stop: ev.stop, usage: usage ?? zeroTokens() },
            };
            break;
          default:
            if (ev.type === "tool_use_start") flushText();
            this.emit(ev);
        }
      }
      result ??= signal.aborted
        ? { stop: "aborted" }
        : { stop: "error", failure: this.noFinalMessage() };
    } catch (error) {
      if (signal.aborted) result = { stop: "aborted" };
      else {
        const overflow = error instanceof ProviderError && error.code === "context_overflow" && !started;
        result = { stop: "error", failure: this.failureOf(error), ...(overflow ? { overflow } : {}) };
      }
    }
    flushText();
    if (usage) {
      this.contextTokens = usage.input + usage.cache_read + usage.cache_write + usage.output;
      this.recordUsage(usage);
    }
    return { ...result, partial };
  }

  /** Runs a step's tool calls in order; the results, and when the last one was known (the tool message's time). */
  private async runTools(
    calls: ToolCallBlock[],
    signal: AbortSignal,
    promptStart: number,
    origin?: ToolOrigin,
  ): Promise<{ results: ToolResultBlock[]; time: string }> {
    const results: ToolResultBlock[] = [];
    let time = nowIso();
    // Each result is announced the moment it is known, so a session has it even if zot dies before the step ends.
    const settle = (block: ToolResultBlock) => {
      results.push(block);
      time = nowIso();
      for (const listener of this.resultListeners) listener({ block, time });
    };
    for (const call of calls) {
      if (signal.aborted) {
        const result = textResult("aborted before running", true);
        settle(resultBlock(call.id, result));
        this.toolStep({ kind: "outcome", id: call.id, name: call.name, args: call.args, status: "cancelled", executed: false, result });
        continue;
      }
      let ran: ToolRun;
      try {
        ran = await this.runTool(call, signal, promptStart, origin, true);
      } catch (error) {
        if (error instanceof TurnEnded && !error.hard) {
          // Every tool call keeps a result, or the next request would be malformed.
          const reason = error.outcome.status === "error" ? error.outcome.message : "turn ended";
          for (const rest of calls.slice(results.length)) {
            results.push(resultBlock(rest.id, textResult(`turn aborted: ${reason}`, true)));
          }
          this.append({ role: "tool", content: results, time: nowIso() });
        }
        throw error;
      }
      settle(resultBlock(call.id, ran.result));
      this.reportOutcome(call, ran, origin?.extension);
    }
    return { results, time };
  }

  /** A call's end for observers: its tool step and its tool_result event. */
  private reportOutcome(call: ToolCallBlock, ran: ToolRun, origin: string | undefined): void {
    const { result, extension } = ran;
    const asked = origin ? { origin } : {};
    this.toolStep({ kind: "outcome", id: call.id, name: call.name, args: ran.args, status: ran.status, executed: ran.executed, result, ...(extension ? { extension } : {}), ...asked });
    this.emit({
      type: "tool_result",
      id: call.id,
      name: call.name,
      ...(extension ? { extension } : {}),
      is_error: result.is_error,
      content: toWireResultContent(result.content),
      ...(origin ? { origin_extension: origin } : {}),
      ...(ran.status === "blocked" || ran.status === "cancelled" || ran.status === "timed_out" ? { status: ran.status } : {}),
    });
  }

  /**
   * One call through the tool_call stage, the approvers, the tool and after_tool. `origin`: an
   * extension asked for it; `seen`: its result goes into the transcript, so the model's record of
   * the files it saw is kept by it (not for call_tool, whose result only the extension sees).
   */
  private async runTool(
    call: ToolCallBlock,
    signal: AbortSignal,
    promptStart: number,
    origin?: ToolOrigin,
    seen = true,
  ): Promise<ToolRun> {
    const asked = origin ? { origin: origin.extension } : {};
    const gate = await this.chain.run("tool_call", { id: call.id, name: call.name, args: call.args, ...asked }, signal);
    if (gate.action === "respond") return { result: gate.result, status: gate.result.is_error ? "failed" : "completed", executed: false, args: call.args };
    if (gate.action === "deny" || gate.action === "block") {
      const base = { id: call.id, name: call.name, args: gate.payload.args };
      this.toolStep({ kind: "approval", ...base, decision: "denied", by: gate.participant, reason: gate.reason, stage: "tool_call", ...asked });
      return { result: textResult(gate.reason, true), status: "blocked", executed: false, args: gate.payload.args };
    }
    if (gate.action === "abort_turn" || gate.action === "hard_abort") this.endFromStep(gate.action, gate.reason, promptStart);
    // A participant may have renamed the tool (a PicoClaw hook's before_tool modify).
    const { name, args } = gate.payload;
    const tool = this.tools.find((t) => t.name === name);
    if (!tool) {
      // [issue 15] only what the model is offered: a deferred tool's name costs until activated
      const names = this.tools.filter((t) => t.offered?.() ?? true).map((t) => t.name).join(", ") || "none";
      return { result: textResult(`unknown tool "${name}"; available tools: ${names}`, true), status: "failed", executed: false, args };
    }

    const approval = await this.chain.run("approve_tool", { id: call.id, name, args, ...asked }, signal);
    const extension = tool.extension;
    if (approval.action === "deny" || approval.action === "block") {
      this.toolStep({ kind: "approval", id: call.id, name, args, decision: signal.aborted ? "cancelled" : "denied", by: approval.participant, reason: approval.reason, stage: "approve_tool", ...asked });
      return { result: textResult(approval.reason, true), extension, status: signal.aborted ? "cancelled" : "blocked", executed: false, args };
    }
    if (approval.action === "abort_turn" || approval.action === "hard_abort") {
      this.endFromStep(approval.action, approval.reason, promptStart);
    }

    // Cancelled while an approver (a confirmation dialog) was deciding: the tool must not run.
    if (signal.aborted) {
      this.toolStep({ kind: "approval", id: call.id, name, args, decision: "cancelled", ...asked });
      return { result: textResult("aborted before running", true), extension, status: "cancelled", executed: false, args };
    }
    this.toolStep({ kind: "approval", id: call.id, name, args, decision: "approved", ...asked });

    const started = performance.now();
    let running: Promise<ToolResult>;
    // A tool left behind after an abort may still stream; its call is over, so that goes nowhere.
    let streaming = true;
    try {
      running = tool.execute(args, {
        cwd: this.cwd,
        jailed: this.jailed,
        ...(seen ? { views: this.views } : {}),
        protectedPaths: this.protectedPaths,
        ...(origin ? { origin } : {}),
        signal,
        onProgress: (text) => {
          if (!streaming) return undefined;
          this.emit({ type: "tool_progress", id: call.id, text });
          return this.backpressure(signal);
        },
      });
    } catch (error) {
      running = Promise.reject(error);
    }
    // Raced against the abort: a tool stuck where no signal reaches it cannot hold the turn.
    const result = await waitForTool(name, running, signal);
    streaming = false;
    const durationMs = performance.now() - started;
    const after = await this.chain.run("after_tool", { id: call.id, name, args, result, durationMs, ...asked }, signal);
    if (after.action === "abort_turn" || after.action === "hard_abort") this.endFromStep(after.action, after.reason, promptStart);
    const final = after.payload.result;
    return { result: final, extension, status: executedStatus(final, signal), executed: true, args };
  }
}

/** How a tool that ran ended: a tool may say it timed out in its result's details. */
function executedStatus(result: ToolResult, signal: AbortSignal): ToolStatus {
  if (signal.aborted) return "cancelled";
  if (!result.is_error) return "completed";
  const details = result.details as { status?: unknown } | undefined;
  return details?.status === "timed_out" ? "timed_out" : "failed";
}

/** A failed compaction, worded for what it meant to the turn. */
function compactionFailure(reason: CompactReason, message: string): string {
  if (reason === "auto") return `automatic compaction failed: ${message}; going on with the whole transcript`;
  if (reason === "overflow") return `compaction after a context overflow failed: ${message}`;
  return message;
}

function zeroTokens(): TokenUsage {
  return { input: 0, output: 0, cache_read: 0, cache_write: 0 };
}

/** Resolves when `promise` does or when `signal` aborts, whichever is first; never rejects. */
function untilAborted(promise: Promise<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
    promise.then(done, done);
  });
}

function resultBlock(callId: string, result: ToolResult): ToolResultBlock {
  return { type: "tool_result", call_id: callId, is_error: result.is_error, content: result.content };
}
