// What the parts of one agent (the loop, the model call, tool running, compaction) share while they
// work: its state, the outlets they report through, and the rules every part applies the same way
// (usage priced and counted, a failure worded, the context estimated). Rule: only core/ sees this;
// everything outside reads the Agent's getters and changes it through its intent methods.
import type { AgentEvent } from "../protocol/events.ts";
import { errorText } from "../protocol/error-text.ts";
import type { Message } from "../protocol/messages.ts";
import type { ModelInfo, ReasoningLevel } from "../protocol/models.ts";
import { type Provider, ProviderError, type ToolSpec } from "../protocol/provider.ts";
import type { FileViews, ProtectedPath, Tool } from "../protocol/tool.ts";
import { addUsage, type TokenUsage, type Usage } from "../protocol/usage.ts";
import type { ContextCount } from "./context-count.ts";
import { priceUsage } from "./cost.ts";
import type { InterceptChain } from "./intercept.ts";
import type { Compacted, ContextUse, FinishedResult, TurnFailure } from "./outcomes.ts";
import type { PromptHooks } from "./prompt-hooks.ts";
import type { ToolStep } from "./tool-step.ts";
import type { LentFrom } from "./lent-model.ts";
import { callIdsIn } from "../protocol/unique-call-ids.ts";

export interface AgentState {
  provider: Provider;
  model: ModelInfo;
  tools: Tool[];
  /** which tools to keep from the model, asked once per listing (a permission rule that denies every call of them): withholdTools */
  withheld?: () => ((tool: Tool) => boolean) | undefined;
  /** the system prompt: the run's, then the sections others added (setSystemSection) */
  system: string;
  readonly cwd: string;
  reasoning?: ReasoningLevel;
  /** 0 = unlimited */
  readonly maxSteps: number;
  /** compact automatically at this fraction of the window; 0 = never */
  readonly autoCompact: number;
  /** every tool call gets it in its context: the built-in tools then refuse paths outside cwd and confine bash */
  jailed: boolean;
  messages: Message[];
  cumulative: Usage;
  /** the context as the next call sends it: the last call's count and an estimate of what came since */
  readonly context: ContextCount;
  /** while a prompt runs on a lent model: the agent's own (lent-model.ts) */
  lentFrom?: LentFrom;
  /**
   * What the model last saw of each file (its reads, writes and edits), handed to every tool call:
   * edit and write refuse a file that changed since. Forgotten with the transcript.
   */
  readonly views: FileViews;
  /** handed to every tool call (ToolContext.protectedPaths) */
  readonly protectedPaths: readonly ProtectedPath[];
  /** handed to every tool call (ToolContext.env); undefined = zot's own */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly chain: InterceptChain;
  /** points of a prompt's life outside the chain (UserPromptSubmit, Stop, PreCompact): core/prompt-hooks.ts */
  promptHooks?: PromptHooks;
  /**
   * The tool call ids this agent has given calls: its transcript's, and those a compaction or a
   * clear took out of it, which a front end still shows (usedCallIds). A new call never repeats one.
   */
  callIds?: Set<string>;
}

/** Where the working parts report to: the agent's listeners. */
export interface AgentOutlets {
  emit(event: AgentEvent): void;
  /** appends to the transcript and tells the message listeners */
  append(message: Message): void;
  toolStep(step: ToolStep): void;
  toolResult(finished: FinishedResult): void;
  compacted(compacted: Compacted): void;
  /** what producers wait for before making more events (a reader behind), or undefined */
  backpressure(signal: AbortSignal): Promise<void> | undefined;
}

/**
 * Puts another transcript in place: what the model read belongs to the conversation it read it in
 * (a compaction's summary is the same conversation, and keeps it, with what its calls said of the
 * tokenizer), and the context is estimated from the new transcript until the next call reports
 * the real count.
 */
export function setTranscript(state: AgentState, messages: Message[], options: { sameConversation?: boolean } = {}): void {
  // The ids of the transcript going out stay taken (a front end still shows its calls), and those of
  // the one brought in (a resumed or forked session) are taken too.
  const used = usedCallIds(state);
  for (const id of callIdsIn(messages)) used.add(id);
  state.messages = messages;
  if (!options.sameConversation) {
    state.views.clear();
    state.context.forgetCalibration();
  }
  recountContext(state);
}

/** The tool call ids taken so far (AgentState.callIds), read from the transcript the first time. */
export function usedCallIds(state: AgentState): Set<string> {
  state.callIds ??= callIdsIn(state.messages);
  return state.callIds;
}

/** The context estimated from the transcript as it is now (taken back in place), until the next call reports the real count. */
export function recountContext(state: AgentState): void {
  state.context.transcriptReplaced(state.system, state.messages, toolSpecs(state), state.model);
}

/** The context as the next call sends it, against `model`'s window (the state's, unless said). */
export function contextUse(state: AgentState, model: ModelInfo = state.model): ContextUse {
  const window = model.context_window;
  const tokens = state.context.tokens(model);
  return { tokens, window, fraction: window > 0 ? tokens / window : 0 };
}

/** The tools as the model is offered them, in name order (a stable prompt prefix for caching). */
export function toolSpecs(state: AgentState): ToolSpec[] {
  return offeredTools(state)
    .map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The tools the model is offered: a deferred extension tool is not, until a tool result activates
 * it, and a withheld one is not at all.
 */
export function offeredTools(state: AgentState): Tool[] {
  const withheld = state.withheld?.();
  return state.tools.filter((t) => (t.offered?.() ?? true) && !withheld?.(t));
}

/** A call's usage priced with the current model and added to the total; a `usage` event says both. */
/** Counts a call's usage, priced at the model it was made to (the state's, unless said). */
export function recordUsage(state: AgentState, out: AgentOutlets, usage: TokenUsage, model: ModelInfo = state.model): void {
  const priced = priceUsage(model, usage);
  state.cumulative = addUsage(state.cumulative, priced);
  out.emit({ type: "usage", ...priced, cumulative: state.cumulative });
}

/** A provider's failure as the turn reports it; anything else is a bug, said with the provider's name. */
export function failureOf(state: AgentState, error: unknown): TurnFailure {
  if (error instanceof ProviderError) return { message: error.message, code: error.code };
  return { message: `${state.provider.name}: ${errorText(error)}`, code: "internal" };
}

/** A provider whose stream ended quietly, without its final message. */
export function noFinalMessage(state: AgentState): TurnFailure {
  return { message: `${state.provider.name}: the stream ended without a final message`, code: "bad_response" };
}
