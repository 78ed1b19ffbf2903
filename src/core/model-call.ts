// One model call of a turn: the provider's stream read into events (assistant_start, text and tool
// call deltas, a retry while it waits) and assembled into what the transcript keeps; a call the
// provider refused as too long for the window is tried once more after an overflow compaction.
// Rule: the stream is read no faster than the slowest reader of the events allows (backpressure),
// no event is emitted once the signal aborted, and an abort or a failure still returns what had
// arrived.
import type { ContentBlock } from "../protocol/messages.ts";
import { type ModelRequest, ProviderError, type ProviderStopReason } from "../protocol/provider.ts";
import type { TokenUsage } from "../protocol/usage.ts";
import { type AgentOutlets, type AgentState, failureOf, noFinalMessage, recordUsage } from "./agent-state.ts";
import { compactNow } from "./compaction-run.ts";
import type { LlmResponse } from "./intercept.ts";
import type { TurnFailure } from "./outcomes.ts";

/** What one model call assembled. */
export interface ModelCall {
  stop: ProviderStopReason | "error" | "aborted";
  response?: LlmResponse;
  partial: ContentBlock[];
  failure?: TurnFailure;
  /** the provider refused the request as too long for the window, before anything streamed */
  overflow?: boolean;
}

/**
 * Calls the model; on an overflow before anything streamed, compacts ("overflow") and sends the same
 * request (system, tools and reasoning as before_llm left them) over the compacted transcript, once.
 * A second overflow, or a failed compaction, ends the turn with the call's error. `sent`: the
 * request last sent.
 */
export async function callCompactingOnOverflow(
  state: AgentState,
  out: AgentOutlets,
  request: ModelRequest,
  signal: AbortSignal,
): Promise<{ call: ModelCall; sent: ModelRequest }> {
  const call = await callModel(state, out, request, signal);
  if (!call.overflow) return { call, sent: request };
  const compacted = await compactNow(state, out, signal, "overflow");
  if (compacted.status === "aborted") return { call: { stop: "aborted", partial: [] }, sent: request };
  if (compacted.status === "error") return { call, sent: request };
  const retry = { ...request, messages: state.messages.slice() };
  return { call: await callModel(state, out, retry, signal), sent: retry };
}

/** One model call: streams events out, returns what it assembled. */
async function callModel(state: AgentState, out: AgentOutlets, request: ModelRequest, signal: AbortSignal): Promise<ModelCall> {
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
    batches: for await (const batch of state.provider.stream(request, signal)) {
      // The reader's pressure is felt once a batch: the batch has been read, the next is not read while it waits.
      const wait = out.backpressure(signal);
      if (wait) await wait;
      for (const ev of batch) {
        // Not one event after an abort, even one the provider had already handed over.
        if (signal.aborted) break batches;
        // A retry comes before the first byte: the call has not started, and the user hears why it waits.
        if (ev.type === "retry") {
          out.emit(ev);
          continue;
        }
        if (!started) {
          started = true;
          out.emit({ type: "assistant_start" });
        }
        switch (ev.type) {
          case "text_delta":
            text += ev.delta;
            out.emit(ev);
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
            out.emit(ev);
        }
      }
    }
    result ??= signal.aborted ? { stop: "aborted" } : { stop: "error", failure: noFinalMessage(state) };
  } catch (error) {
    if (signal.aborted) result = { stop: "aborted" };
    else {
      const overflow = error instanceof ProviderError && error.code === "context_overflow" && !started;
      result = { stop: "error", failure: failureOf(state, error), ...(overflow ? { overflow } : {}) };
    }
  }
  flushText();
  if (usage) {
    state.contextTokens = usage.input + usage.cache_read + usage.cache_write + usage.output;
    recordUsage(state, out, usage);
  }
  return { ...result, partial };
}

function zeroTokens(): TokenUsage {
  return { input: 0, output: 0, cache_read: 0, cache_write: 0 };
}
