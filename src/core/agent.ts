// The agent loop: prompt → model stream → tool calls → … → done, emitting the event union.
// Rule: one transcript, one chain; every mode is a sink of these events and none re-implements
// the loop. The loop knows providers and tools only through their interfaces.
import type { AgentEvent, StopReason } from "../protocol/events.ts";
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
import type { ModelInfo, ReasoningLevel } from "../protocol/models.ts";
import { type ModelRequest, type Provider, ProviderError, type ProviderStopReason } from "../protocol/provider.ts";
import { type Tool, type ToolResult, textResult } from "../protocol/tool.ts";
import { addUsage, emptyUsage, type TokenUsage, type Usage } from "../protocol/usage.ts";
import { priceUsage } from "./cost.ts";
import { InterceptChain, type LlmResponse, type ToolArgs } from "./intercept.ts";

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
}

/** How a compaction ended. The events (compact_start, usage, compact_done or error) have already said it. */
export type CompactOutcome =
  | { status: "ok"; summary: string }
  | { status: "aborted" }
  | { status: "error"; message: string };

/** The context as of the last model call. */
export interface ContextUse {
  /** input + cache read + cache write + output tokens of the last call (an estimate right after a compaction) */
  tokens: number;
  window: number;
  /** tokens / window */
  fraction: number;
}

export interface PromptInput {
  text: string;
  images?: { mime_type: string; data: string }[];
}

/** How a prompt ended. The events have already said it; this is for exit codes. */
export type PromptOutcome =
  | { status: "ok" }
  | { status: "aborted" }
  | { status: "blocked"; reason: string }
  | { status: "error"; message: string; kind: "provider" | "max_steps" | "intercept" };

type Listener<T> = (value: T) => void;

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
  /** tokens in the context as of the last model call */
  protected contextTokens = 0;
  private readonly eventListeners = new Set<Listener<AgentEvent>>();
  private readonly messageListeners = new Set<Listener<Message>>();
  /** a turn_start was emitted whose turn_end was not */
  private turnOpen = false;

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
    this.cumulative = options.cumulative ?? emptyUsage();
    this.autoCompact = options.autoCompact ?? 0.85;
  }

  /** Empties the transcript (the /clear command); the cumulative usage and cost stay. */
  clear(): void {
    this.messages = [];
    this.contextTokens = 0;
  }

  /** Switches the model; the caller checks it belongs to the same provider. */
  setModel(model: ModelInfo): void {
    this.model = model;
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
    void signal;
    void options;
    throw new Error("compaction is not implemented yet");
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

  private append(message: Message): void {
    this.messages.push(message);
    for (const listener of this.messageListeners) listener(message);
  }

  async prompt(input: PromptInput, signal: AbortSignal): Promise<PromptOutcome> {
    const start = this.messages.length;
    const content: ContentBlock[] = [];
    if (input.text) content.push({ type: "text", text: input.text });
    for (const image of input.images ?? []) content.push({ type: "image", ...image } satisfies ImageBlock);
    const userMessage: Message = { role: "user", content, time: nowIso() };
    this.append(userMessage);
    this.emit({ type: "user_message", content: toWireContent(content), time: userMessage.time });

    let outcome: PromptOutcome;
    try {
      outcome = await this.loop(signal, start);
    } catch (error) {
      if (!(error instanceof TurnEnded)) throw error;
      outcome = error.outcome;
      if (this.turnOpen) {
        this.endTurn(error.hard ? "aborted" : "error", outcome.status === "error" ? outcome.message : undefined);
      }
    }
    if (outcome.status === "error") this.emit({ type: "error", message: outcome.message });
    if (outcome.status === "blocked") this.emit({ type: "error", message: outcome.reason });
    this.emit({ type: "done" });
    return outcome;
  }

  /** Steps until the model stops asking for tools. */
  private async loop(signal: AbortSignal, promptStart: number): Promise<PromptOutcome> {
    for (let step = 1; ; step++) {
      if (this.maxSteps > 0 && step > this.maxSteps) {
        return { status: "error", kind: "max_steps", message: `max steps (${this.maxSteps}) exceeded` };
      }
      this.emit({ type: "turn_start", step });
      this.turnOpen = true;

      const turnGate = await this.chain.run("turn_start", { step }, signal);
      if (turnGate.action === "hard_abort") return this.hardAbort(promptStart, turnGate.reason);
      if (turnGate.action !== "continue" && turnGate.action !== "respond") {
        this.endTurn("error", turnGate.reason);
        return { status: "blocked", reason: `turn blocked by ${turnGate.participant}: ${turnGate.reason}` };
      }

      let request: ModelRequest = {
        model: this.model,
        system: this.system,
        messages: this.messages.slice(),
        tools: this.tools
          .map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
        ...(this.reasoning ? { reasoning: this.reasoning } : {}),
      };
      const before = await this.chain.run("before_llm", { step, request }, signal);
      if (before.action === "hard_abort") return this.hardAbort(promptStart, before.reason);
      if (before.action !== "continue" && before.action !== "respond") return this.abortTurn(before.reason);
      request = before.payload.request;

      const call = await this.callModel(request, signal);
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

      const stop: StopReason =
        call.stop === "tool_use" && toolCalls.length === 0 ? "end_turn" : (call.stop as StopReason);
      this.endTurn(stop, call.error);

      if (stop === "aborted") return { status: "aborted" };
      if (stop === "error") return { status: "error", kind: "provider", message: call.error ?? "provider error" };
      if (stop !== "tool_use") return { status: "ok" };

      const results = await this.runTools(toolCalls, signal, promptStart);
      this.append({ role: "tool", content: results, time: nowIso() });
      if (signal.aborted) return { status: "aborted" };
    }
  }

  private endTurn(stop: StopReason, error?: string): void {
    this.turnOpen = false;
    this.emit({ type: "turn_end", stop, ...(error ? { error } : {}) });
  }

  private async announceAssistant(message: Message, signal: AbortSignal, promptStart: number): Promise<void> {
    const text = textOf(message.content);
    let visible = message.content;
    if (text.trim() !== "" && this.chain.has("assistant_message")) {
      const gate = await this.chain.run("assistant_message", { text, content: message.content }, signal);
      if (gate.action === "block") return;
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

  private hardAbort(promptStart: number, reason: string): PromptOutcome {
    this.messages.splice(promptStart);
    this.endTurn("aborted", reason);
    return { status: "error", kind: "intercept", message: reason };
  }

  /**
   * A participant ended the turn from deep within a step (after the model answered, around a
   * tool): unwinds to prompt(); hard_abort also takes this prompt's messages back out.
   */
  private endFromStep(action: "abort_turn" | "hard_abort", reason: string, promptStart: number): never {
    if (action === "hard_abort") this.messages.splice(promptStart);
    throw new TurnEnded({ status: "error", kind: "intercept", message: reason }, action === "hard_abort");
  }

  private abortTurn(reason: string): PromptOutcome {
    this.endTurn("error", reason);
    return { status: "error", kind: "intercept", message: reason };
  }

  /** One model call: streams events out, returns what it assembled. */
  private async callModel(
    request: ModelRequest,
    signal: AbortSignal,
  ): Promise<{
    stop: ProviderStopReason | "error" | "aborted";
    response?: LlmResponse;
    partial: ContentBlock[];
    error?: string;
  }> {
    let started = false;
    let usage: TokenUsage | undefined;
    let text = "";
    const partial: ContentBlock[] = [];
    const flushText = () => {
      if (text) partial.push({ type: "text", text });
      text = "";
    };
    let result: { stop: ProviderStopReason | "error" | "aborted"; response?: LlmResponse; error?: string };
    try {
      for await (const ev of this.provider.stream(request, signal)) {
        if (!started) {
          started = true;
          this.emit({ type: "assistant_start" });
        }
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
        : { stop: "error", error: `${this.provider.name}: the stream ended without a final message` };
    } catch (error) {
      if (signal.aborted) result = { stop: "aborted" };
      else if (error instanceof ProviderError) result = { stop: "error", error: error.message };
      else result = { stop: "error", error: `${this.provider.name}: ${errorText(error)}` };
    }
    flushText();
    if (usage) {
      this.contextTokens = usage.input + usage.cache_read + usage.cache_write + usage.output;
      const priced = priceUsage(this.model, usage);
      this.cumulative = addUsage(this.cumulative, priced);
      this.emit({ type: "usage", ...priced, cumulative: this.cumulative });
    }
    return { ...result, partial };
  }

  private async runTools(calls: ToolCallBlock[], signal: AbortSignal, promptStart: number): Promise<ToolResultBlock[]> {
    const results: ToolResultBlock[] = [];
    for (const call of calls) {
      if (signal.aborted) {
        results.push(resultBlock(call.id, textResult("aborted before running", true)));
        continue;
      }
      let ran: { result: ToolResult; extension?: string };
      try {
        ran = await this.runTool(call, signal, promptStart);
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
      const { result, extension } = ran;
      results.push(resultBlock(call.id, result));
      this.emit({
        type: "tool_result",
        id: call.id,
        name: call.name,
        ...(extension ? { extension } : {}),
        is_error: result.is_error,
        content: toWireResultContent(result.content),
      });
    }
    return results;
  }

  private async runTool(
    call: ToolCallBlock,
    signal: AbortSignal,
    promptStart: number,
  ): Promise<{ result: ToolResult; extension?: string }> {
    const tool = this.tools.find((t) => t.name === call.name);
    const gate = await this.chain.run("tool_call", { id: call.id, name: call.name, args: call.args }, signal);
    if (gate.action === "respond") return { result: gate.result };
    if (gate.action === "deny" || gate.action === "block") return { result: textResult(gate.reason, true) };
    if (gate.action === "abort_turn" || gate.action === "hard_abort") this.endFromStep(gate.action, gate.reason, promptStart);
    const args: ToolArgs = gate.payload.args;
    if (!tool) {
      const names = this.tools.map((t) => t.name).join(", ") || "none";
      return { result: textResult(`unknown tool "${call.name}"; available tools: ${names}`, true) };
    }

    const approval = await this.chain.run("approve_tool", { id: call.id, name: call.name, args }, signal);
    if (approval.action === "deny" || approval.action === "block") return { result: textResult(approval.reason, true), extension: tool.extension };
    if (approval.action === "abort_turn" || approval.action === "hard_abort") {
      this.endFromStep(approval.action, approval.reason, promptStart);
    }

    const started = performance.now();
    let result: ToolResult;
    try {
      result = await tool.execute(args, {
        cwd: this.cwd,
        signal,
        onProgress: (text) => this.emit({ type: "tool_progress", id: call.id, text }),
      });
    } catch (error) {
      const message = errorText(error);
      result = textResult(signal.aborted ? `aborted: ${message}` : `${call.name} failed: ${message}`, true);
    }
    const durationMs = performance.now() - started;
    const after = await this.chain.run("after_tool", { id: call.id, name: call.name, args, result, durationMs }, signal);
    if (after.action === "abort_turn" || after.action === "hard_abort") this.endFromStep(after.action, after.reason, promptStart);
    return { result: after.payload.result, extension: tool.extension };
  }
}

function zeroTokens(): TokenUsage {
  return { input: 0, output: 0, cache_read: 0, cache_write: 0 };
}

function resultBlock(callId: string, result: ToolResult): ToolResultBlock {
  return { type: "tool_result", call_id: callId, is_error: result.is_error, content: result.content };
}
