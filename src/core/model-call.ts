// One model call of a turn: the provider's stream read into events (assistant_start, text and tool
// call deltas, a retry while it waits) and assembled into what the transcript keeps; a call the
// provider refused as too long for the window is tried once more after an overflow compaction.
// Rule: the stream is read no faster than the slowest reader of the events allows (backpressure),
// no event is emitted once the signal aborted, and an abort or a failure still returns what had
// arrived.
import { noFTL } from "bun:jsc";
import { GrowingText } from "../protocol/growing-text.ts";
import type { ContentBlock } from "../protocol/messages.ts";
import { freshCallId, type IdSet, IdsOver } from "../protocol/unique-call-ids.ts";
import { type ModelRequest, outputLimit, type ProviderBatch, ProviderError, type ProviderEvent, type ProviderStopReason } from "../protocol/provider.ts";
import type { TokenUsage } from "../protocol/usage.ts";
import { type AgentOutlets, type AgentState, failureOf, noFinalMessage, recordUsage, usedCallIds } from "./agent-state.ts";
import { compactNow } from "./compaction-run.ts";
import type { LlmResponse } from "./intercept.ts";
import type { TurnFailure } from "./outcomes.ts";
import { handBack } from "./lent-model.ts";
import { withOutputRoom } from "./output-room.ts";
import type { Overflow } from "./overflow-advice.ts";
import { sleepUnlessAborted } from "../protocol/abortable-sleep.ts";
import { retriesFor, retryPlan, waitTooLongText } from "../protocol/retry-backoff.ts";
import type { ErrorCode } from "../protocol/error-code.ts";

/** What one model call assembled. */
export interface ModelCall {
  stop: ProviderStopReason | "error" | "aborted";
  response?: LlmResponse;
  partial: ContentBlock[];
  failure?: TurnFailure;
  /** the provider refused the request as too long for the window, before anything streamed */
  overflow?: Overflow;
  /** the stream's first word was an overload, a rate limit or a server error, before any of the answer: worth another try */
  retryable?: { code: ErrorCode; retryAfter?: number; local?: boolean };
  /** the retries the provider made of its open, before the call's answer or failure */
  retries?: number;
  /** the ids of the tool calls whose start streamed (a front end drew them, kept or not) */
  started?: string[];
}

/**
 * Calls the model, and calls it again (as protocol/retry-backoff.ts plans, announced as `retry`
 * events) when the stream's first word was an overload, a rate limit or a server error: nothing of
 * the answer had arrived, so nothing is replayed (Anthropic sends `overloaded_error` as the first
 * event of a 200). The provider's retries of the open count in the same budget.
 */
async function callRetryingEarlyFailures(state: AgentState, out: AgentOutlets, request: ModelRequest, signal: AbortSignal): Promise<ModelCall> {
  for (let retried = request.retriesBefore ?? 0; ; retried++) {
    const call = await callModel(state, out, retried > 0 ? { ...request, retriesBefore: retried } : request, signal);
    retried += call.retries ?? 0;
    if (!call.retryable || !call.failure) return call;
    const { code, retryAfter, local } = call.retryable;
    const cap = state.provider.maxRetries;
    const plan = retryPlan(code, retried, retryAfter, cap, local);
    if ("stop" in plan) {
      return plan.stop === "exhausted" ? call : { ...call, failure: { ...call.failure, message: waitTooLongText(call.failure.message, plan.seconds) } };
    }
    out.emit({ type: "retry", attempt: retried + 1, max_attempts: retriesFor(code, cap, local), wait_ms: plan.waitMs, code, message: call.failure.message });
    if (!(await sleepUnlessAborted(plan.waitMs, signal))) return { stop: "aborted", partial: call.partial };
  }
}

/**
 * Calls the model; on an overflow before anything streamed, compacts ("overflow") and sends the same
 * request (system, tools and reasoning as before_llm left them) over the compacted transcript, once.
 * A second overflow, or a failed compaction, ends the turn with the call's error. An overflow of the
 * output asked for (the server's count of the prompt leaves room for an answer) is asked again for
 * what fits instead, and one against a window smaller than zot's idea of it is not compacted (a
 * compaction sized for the wrong window cannot help). `sent`: the request last sent.
 */
export async function callCompactingOnOverflow(
  state: AgentState,
  out: AgentOutlets,
  request: ModelRequest,
  signal: AbortSignal,
): Promise<{ call: ModelCall; sent: ModelRequest }> {
  let call = await callRetryingEarlyFailures(state, out, request, signal);
  if (!call.overflow) return { call, sent: request };
  // Only an overflow needs these: loaded then, not on every run's start.
  const { aloneAdvice, mistakenWindowAdvice, roomLeft, windowMistaken } = await import("./overflow-advice.ts");
  // The server's count says the prompt fits and the output asked for on top does not: asked again, once, for what fits.
  const room = roomLeft(call.overflow);
  if (room !== undefined) {
    const fitted = { ...request, outputRoom: Math.min(room, request.outputRoom ?? room) };
    call = await callRetryingEarlyFailures(state, out, fitted, signal);
    if (!call.overflow) return { call, sent: fitted };
  }
  // A lent model that overflows hands the prompt back: the same request goes to the agent's own
  // (and is compacted for it, if it overflows that too).
  if (handBack(state, "the conversation overflowed its window")) return callCompactingOnOverflow(state, out, { ...request, model: state.model }, signal);
  // A server whose window is smaller than zot takes it to be refuses what is sized for zot's, compacted or not.
  if (windowMistaken(state.model, call.overflow)) return { call: withAdvice(call, mistakenWindowAdvice(state.model, call.overflow)), sent: request };
  const compacted = await compactNow(state, out, signal, "overflow");
  if (compacted.status === "aborted") return { call: { stop: "aborted", partial: [] }, sent: request };
  if (compacted.status === "error") {
    // The turn ends with the overflow, and says what was tried: a user who sees only "prompt is too
    // long" would try the same again.
    // A turn that is all there is (nothing older to summarise) cannot be compacted smaller: what
    // helps is sending less, or a larger window.
    const alone = compacted.message.startsWith("nothing to compact");
    const advice = alone ? aloneAdvice(state.model, call.overflow) : "compact it (/compact), fork an earlier turn (zot sessions fork), or start a new session";
    return { call: withAdvice(call, `compacting the conversation to fit failed too (${compacted.message}); ${advice}`), sent: request };
  }
  const retry = { ...request, messages: state.messages.slice() };
  return { call: await callRetryingEarlyFailures(state, out, retry, signal), sent: retry };
}

/** The call with its failure's sentence followed by what was tried and what to do. */
function withAdvice(call: ModelCall, advice: string): ModelCall {
  if (!call.failure) return call;
  return { ...call, failure: { ...call.failure, message: `${call.failure.message.replace(/\.$/, "")}; ${advice}` } };
}

/** One model call: streams events out, returns what it assembled. */
async function callModel(state: AgentState, out: AgentOutlets, request: ModelRequest, signal: AbortSignal): Promise<ModelCall> {
  const reading = new CallReading(out, () => new IdsOver(usedCallIds(state)));
  let result: Omit<ModelCall, "partial" | "started"> | undefined;
  const sent = withOutputRoom(request, state.context.scale(request.model));
  try {
    for await (const batch of state.provider.stream(sent, signal)) {
      // The reader's pressure is felt once a batch: the batch has been read, the next is not read while it waits.
      const wait = out.backpressure(signal);
      if (wait) await wait;
      if (!reading.take(batch, signal)) break;
    }
    const done = reading.done;
    if (done) {
      result = { stop: done.stop, response: { content: done.content, stop: done.stop, usage: reading.usage ?? zeroTokens() } };
    } else result = signal.aborted ? { stop: "aborted" } : { stop: "error", failure: noFinalMessage(state) };
  } catch (error) {
    if (signal.aborted) result = { stop: "aborted" };
    else {
      const overflow =
        error instanceof ProviderError && error.code === "context_overflow" && !reading.started ? { figures: error.overflow ?? {}, asked: outputLimit(sent) } : undefined;
      // Said inside the stream (no HTTP status; what failed to open was retried already) before any of the answer.
      const retryable =
        error instanceof ProviderError &&
        !reading.streamed &&
        error.status === undefined &&
        !error.retryable &&
        (error.code === "overloaded" || error.code === "rate_limit" || error.code === "server_error")
          ? { code: error.code, ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}), ...(error.local ? { local: true } : {}) }
          : undefined;
      result = { stop: "error", failure: failureOf(state, error), ...(overflow ? { overflow } : {}), ...(retryable ? { retryable } : {}) };
    }
  }
  const { usage } = reading;
  // A server that reports no usage (or zeros, as some compatible ones do) leaves the meter, and the
  // automatic compaction that reads it, to the estimate of what was sent.
  state.context.callEnded(request, usage, result.response !== undefined);
  if (usage) recordUsage(state, out, usage);
  return { ...result, partial: reading.partial(), started: reading.startedIds(), ...(reading.retries > 0 ? { retries: reading.retries } : {}) };
}

/**
 * What a call has streamed so far, and the emitting of it. `take` runs once a batch and loops over
 * its events, apart from the async call that waits for the batches: the code that runs per delta
 * is this one small method.
 */
class CallReading {
  started = false;
  /** assistant_start was emitted (at the first event that is not a usage) */
  private announced = false;
  /** some of the answer arrived (text, thinking, a tool call), not only usage */
  streamed = false;
  /** the provider's retries of the open (its `retry` events) */
  retries = 0;
  usage: TokenUsage | undefined;
  done: Extract<ProviderEvent, { type: "done" }> | undefined;
  /** the blocks before the text now streaming (text cut by tool calls) */
  private readonly blocks: ContentBlock[] = [];
  private readonly text = new GrowingText();
  /** each tool call's id as sent and as zot keeps it, in order (protocol/unique-call-ids.ts) */
  private readonly starts: [sent: string, kept: string][] = [];
  /** the ids the transcript and this answer have used, once a tool call starts */
  private taken: IdSet | undefined;
  /** ids the server repeated, to what their events and call are given instead */
  private renames: Map<string, string> | undefined;

  constructor(
    private readonly out: AgentOutlets,
    /** the ids taken before this answer (AgentState.callIds), and this answer's over them */
    private readonly takenIds: () => IdSet,
  ) {}

  /** Emits the batch's events in order; false once the signal aborted (what is left is not emitted). */
  take(batch: ProviderBatch, signal: AbortSignal): boolean {
    const { out } = this;
    for (const ev of batch) {
      // Not one event after an abort, even one the provider had already handed over.
      if (signal.aborted) return false;
      // A retry comes before the first byte: the call has not started, and the user hears why it waits.
      if (ev.type === "retry") {
        this.retries++;
        out.emit(ev);
        continue;
      }
      this.started = true;
      // The answer is said to start at its first content: a usage alone (a call a content filter
      // stopped before a word, whose billed tokens come before its failure) starts none.
      if (!this.announced && ev.type !== "usage") {
        this.announced = true;
        out.emit({ type: "assistant_start" });
      }
      switch (ev.type) {
        case "text_delta":
          this.streamed = true;
          this.text.append(ev.delta);
          out.emit(ev);
          break;
        case "usage":
          this.usage = ev.usage;
          break;
        case "done":
          this.done = this.renames === undefined ? ev : { ...ev, content: this.keptIds(ev.content) };
          break;
        case "tool_use_start":
          this.streamed = true;
          this.endText();
          out.emit(this.startCall(ev));
          break;
        case "tool_use_args":
        case "tool_use_end":
          this.streamed = true;
          out.emit(this.renames?.has(ev.id) ? { ...ev, id: this.renames.get(ev.id)! } : ev);
          break;
        default:
          this.streamed = true;
          out.emit(ev);
      }
    }
    return true;
  }

  /**
   * A call's start, under an id no earlier call of the transcript or this answer has (a server that
   * numbers its calls per answer repeats them): its events and its call in the answer take the same.
   */
  private startCall(ev: Extract<ProviderEvent, { type: "tool_use_start" }>): Extract<ProviderEvent, { type: "tool_use_start" }> {
    this.taken ??= this.takenIds();
    const kept = freshCallId(ev.id, this.taken);
    this.starts.push([ev.id, kept]);
    if (kept === ev.id) {
      this.renames?.delete(ev.id);
      return ev;
    }
    (this.renames ??= new Map()).set(ev.id, kept);
    return { ...ev, id: kept };
  }

  /** The ids the calls that started are known by (what their events carried). */
  startedIds(): string[] {
    return this.starts.map(([, kept]) => kept);
  }

  /** The answer's tool calls under the ids their events had, matched in order. */
  private keptIds(content: ContentBlock[]): ContentBlock[] {
    let k = 0;
    return content.map((block) => {
      if (block.type !== "tool_call") return block;
      const [sent, kept] = this.starts[k++] ?? [];
      return sent === block.id && kept !== undefined ? { ...block, id: kept } : block;
    });
  }

  /** What had arrived: the text blocks so far (an abort or a failure keeps them). */
  partial(): ContentBlock[] {
    this.endText();
    return this.blocks;
  }

  private endText(): void {
    const text = this.text.text;
    if (text) this.blocks.push({ type: "text", text });
    this.text.text = "";
  }
}

function zeroTokens(): TokenUsage {
  return { input: 0, output: 0, cache_read: 0, cache_write: 0 };
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(CallReading.prototype.take);
// The wires' assemblers append to theirs as often: marked here, where every wire's answer passes.
noFTL(GrowingText.prototype.append);
