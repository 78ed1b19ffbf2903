// The agent compacting its transcript: the older part summarised by the model into one message, the
// recent turns kept verbatim (manual, automatic at a share of the window, after a context overflow).
// compact.ts plans what goes; this runs the summarising call and puts the result in place.
// Rule: on failure or abort the transcript stays as it was; the summary's text is collected, never
// streamed out as text_delta (clients would take it for the answer).
import type { CompactReason } from "../protocol/events.ts";
import { type ContentBlock, textOf } from "../protocol/messages.ts";
import { type ModelRequest, providerEvents } from "../protocol/provider.ts";
import type { TokenUsage } from "../protocol/usage.ts";
import { type AgentOutlets, type AgentState, contextUse, failureOf, noFinalMessage, recordUsage, setTranscript, toolSpecs } from "./agent-state.ts";
import { CompactError, type CutSizing, estimateContextTokens, planCompaction, summaryMessage, summaryRequest } from "./compact.ts";
import { boundedScale } from "./context-count.ts";
import type { CompactOutcome, Compacted, TurnFailure } from "./outcomes.ts";

/**
 * Whether the context as the next call sends it (the last call's count and the tool results and
 * prompt added since, estimated) has reached the automatic compaction's share of the window.
 */
export function autoCompactDue(state: AgentState): boolean {
  return state.autoCompact > 0 && state.messages.length > 0 && contextUse(state).fraction >= state.autoCompact;
}

/**
 * Summarises the older part of the transcript into one message and keeps the recent part. Emits
 * compact_start, the summarising call's usage, then compact_done or an error event (none for an
 * abort). An automatic compaction that finds nothing to compact emits nothing at all.
 */
export async function compactNow(
  state: AgentState,
  out: AgentOutlets,
  signal: AbortSignal,
  reason: CompactReason,
  instructions?: string,
): Promise<CompactOutcome> {
  const messagesBefore = state.messages.length;
  // The count as the next call sends it; after an overflow (which reports none), at least the transcript's estimate.
  const tokensBefore = Math.max(contextUse(state).tokens, state.messages.length === 0 ? 0 : estimateContextTokens(state.system, state.messages, toolSpecs(state)));
  const plan = (() => {
    try {
      return planCompaction(state.messages, state.model, cutSizing(state, reason));
    } catch (error) {
      if (error instanceof CompactError) return { nothing: error.message };
      throw error;
    }
  })();
  // Nothing to compact is no failure of a turn that never asked for it: the call goes ahead as is.
  // After an overflow the turn's own error says it (no compaction started, so none is announced).
  if ("nothing" in plan && reason !== "manual") return { status: "error", message: plan.nothing, code: "compaction" };
  // [settings hooks] PreCompact: a hook may refuse the compaction.
  const refused = "nothing" in plan ? undefined : await state.promptHooks?.compacting?.(reason, instructions, signal);
  if (refused !== undefined) {
    if (reason !== "overflow") out.emit({ type: "error", message: compactionFailure(reason, refused), code: "compaction" });
    return { status: "error", message: refused, code: "compaction" };
  }
  out.emit({ type: "compact_start", reason });
  const kept = "nothing" in plan ? [] : plan.kept;
  const outcome: CompactOutcome =
    "nothing" in plan
      ? { status: "error", message: plan.nothing, code: "compaction" }
      : await summarise(state, out, summaryRequest(plan.older, state.model, instructions), signal);
  // After an overflow the turn's one error says that compacting could not help (docs/rpc.md): not a second error here.
  if (outcome.status === "error" && reason !== "overflow") out.emit({ type: "error", message: compactionFailure(reason, outcome.message), code: outcome.code });
  if (outcome.status !== "ok") return outcome;

  const message = summaryMessage(outcome.summary);
  // An estimate until the next call reports the real count, so the threshold does not fire again at once.
  setTranscript(state, [message, ...kept], { sameConversation: true });
  out.emit({
    type: "compact_done",
    summary: outcome.summary,
    reason,
    messages_before: messagesBefore,
    messages_after: state.messages.length,
    tokens_before: tokensBefore,
  });
  const compacted: Compacted = { reason, summary: outcome.summary, message, kept: kept.length, messagesBefore };
  out.compacted(compacted);
  return outcome;
}

/**
 * How the plan reads the transcript's size: calibrated by the calls so far, and, when the context
 * is full (an overflow: at least the window; past the threshold: the count), scaled up until the
 * estimate of the whole request says as much as the provider did (within the calibration's bounds).
 */
function cutSizing(state: AgentState, reason: CompactReason): CutSizing {
  const scale = state.context.scale(state.model);
  if (reason === "manual") return { scale, full: false };
  const told = Math.max(contextUse(state).tokens, reason === "overflow" ? state.model.context_window : 0);
  const estimate = estimateContextTokens(state.system, state.messages, toolSpecs(state));
  return { scale: estimate > 0 ? boundedScale(Math.max(scale, told / estimate)) : scale, full: true };
}

/** The summarising call; its usage is priced and counted like any call's. */
async function summarise(state: AgentState, out: AgentOutlets, request: ModelRequest, signal: AbortSignal): Promise<CompactOutcome> {
  let usage: TokenUsage | undefined;
  let content: ContentBlock[] | undefined;
  let cutOff = false;
  let failure: TurnFailure | undefined;
  try {
    for await (const ev of providerEvents(state.provider.stream(request, signal), signal)) {
      if (ev.type === "retry") out.emit(ev);
      else if (ev.type === "usage") usage = ev.usage;
      else if (ev.type === "done") {
        content = ev.content;
        cutOff = ev.stop === "length";
      }
    }
  } catch (error) {
    failure = failureOf(state, error);
  }
  if (usage) recordUsage(state, out, usage);
  if (signal.aborted) return { status: "aborted" };
  if (failure) return { status: "error", ...failure };
  if (!content) return { status: "error", ...noFinalMessage(state) };
  const summary = textOf(content).trim();
  if (!summary) return { status: "error", message: "the model returned an empty summary", code: "compaction" };
  // A summary the output limit cut off ends mid-sentence, and its last part is what matters most: the transcript stays whole.
  if (cutOff) {
    return {
      status: "error",
      message: `the summary was cut off at the model's output limit (${request.maxTokens ?? "its"} tokens), so the transcript was kept whole; try /compact with words saying what to keep, or go on in a new session`,
      code: "compaction",
    };
  }
  return { status: "ok", summary };
}

/** A failed compaction, worded for what it meant to the turn. */
function compactionFailure(reason: CompactReason, message: string): string {
  if (reason === "auto") return `automatic compaction failed: ${message}; going on with the whole transcript`;
  if (reason === "overflow") return `compaction after a context overflow failed: ${message}`;
  return message;
}
