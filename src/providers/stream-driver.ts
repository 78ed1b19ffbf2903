// The one loop every wire API's call runs through: open the request through its SDK (retried
// before the first byte), read the server-sent events off the response, hand each event's data to
// the wire's assembler (a text event that repeats the last one's shape read without JSON.parse:
// repeated-shape.ts), and end with its final message, or with the one ProviderError (or abort)
// that says why not.
// Rule: events already read are delivered before the failure that follows them, as one batch per
// read of the body; once the signal aborts not one more batch is delivered; reading stops at the
// wire's terminal event, so a proxy that keeps the connection open cannot hang a finished answer.
// JIT: every function that runs once per streamed event, from here to what the binary's --json and
// rpc write and the TUI draws (SSE decoding, each wire's assembler, the model call's reading, the
// agent's emit, its listeners, the NDJSON writer, the TUI's handlers of an event; -p takes no
// deltas), is marked with bun:jsc's noFTL, small helpers they call included. JavaScriptCore's top
// tier spent 25–36 ms of a compiler thread on a 50,000-delta --json answer (27–47 ms in the TUI)
// and never earned it back, measured up to 500,000 deltas (scripts/bench floor). A new function on
// the path gets the same mark; test/e2e/stream-jit.test.ts fails when a stream compiles anything
// with FTL. Not marked: the SDK's in-process listener (its EventQueue is shared with the Node rpc
// client, which has no bun:jsc).
import { noFTL } from "bun:jsc";
import { errorText } from "../protocol/error-text.ts";
import { isJsonObject, type JsonObject } from "../protocol/json-object.ts";
import { type OpenedAnswer, type ProviderBatch, ProviderError, type ProviderEvent } from "../protocol/provider.ts";
import type { ProviderSpeaker } from "./provider-error-text.ts";
import {
  abortReason,
  callFailure,
  malformedStream,
  type SdkErrors,
  type StoppedAnswer,
  stalledStream,
  stoppedAnswer,
  streamErrorFailure,
  truncatedStream,
} from "./provider-failure.ts";
import { modelCallBegan, modelCallEnded } from "./model-connections.ts";
import { openWithRetry, type RetryOptions } from "./retry.ts";
import { RepeatedShape, type TextSlot } from "./repeated-shape.ts";
import { SseDecoder, type SseEvent } from "./sse-decoder.ts";
import { timerDelay } from "../protocol/timer-delay.ts";
import { silenceLimitMs } from "./silence-limit.ts";

/** How long a JSON answer's body is waited for, to read the server's error in it. */
const JSON_BODY_WAIT_MS = 5000;

/** The first 64 KB of a body (the rest is not read), as text; what came within `waitMs` (or before an abort) when it does not end. */
async function bodyStart(body: ReadableStream<Uint8Array>, waitMs: number, signal: AbortSignal): Promise<string> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  // A body that never ends must not hold the answer: cancelling the reader ends the read below.
  const timer = setTimeout(() => reader.cancel().catch(() => {}), timerDelay(waitMs));
  const onAbort = () => reader.cancel().catch(() => {});
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    while (size < 65_536) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // what arrived is what there is
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
    reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(Buffer.concat(chunks)).slice(0, 65_536);
}

/** Text as a JSON object, or undefined. */
function jsonOf(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** An event the assembler could not read, in words: the server's fault, named by the event's type. */
function lackingField(call: StreamCall, data: JsonObject, error: unknown): ProviderError {
  const type = typeof data.type === "string" ? `a ${data.type} event` : typeof data.object === "string" ? `a ${data.object}` : "an event";
  return malformedStream(call, `${type} lacks a field the API promises (${errorText(error)})`);
}

/** How long a stream may stay quiet after the model finished (its stop reason came) before it counts as ended. */
const FINISHED_QUIET_MS = 3000;
/** A silence watch this late found zot frozen (stopped, asleep), not the server silent: the wait starts over. */
const FROZEN_AFTER_MS = 1000;

/** Folds one wire API's stream events into ProviderEvents and the final message. */
export interface WireAssembler {
  /**
   * one event's parsed data (its `type` says which event it is); what it produces goes onto `out`.
   * `data` may be handed again for a later event (repeated-shape.ts): nothing in it but its strings
   * is kept past the call
   */
  push(data: JsonObject, out: ProviderEvent[]): void;
  /**
   * where a text event keeps its text, when `data` is one: the event a long answer repeats with
   * only that string changing, read from then on without JSON.parse (repeated-shape.ts)
   */
  textSlot?(data: JsonObject): TextSlot | undefined;
  /** the wire's last event arrived: nothing after it is read */
  readonly ended: boolean;
  /** the model finished as the API promises it (a stop reason arrived); else the stream was cut */
  readonly finished: boolean;
  /** the last events, once the stream is over: calls still open, the usage, done */
  finish(out: ProviderEvent[]): void;
  /**
   * the usage of a wire that says it only at its end (Anthropic's arrives as it streams: none), for
   * an answer that stopped (stoppedBy): delivered before its failure, since the call was billed;
   * `finish` pushes the same for an answer that did not
   */
  finishUsage?(out: ProviderEvent[]): void;
  /**
   * set when the answer finished as the API promises but is no answer: the model declined, a
   * content filter stopped it, the context window filled; the call fails with this, what streamed
   * before is kept as the partial answer, and its usage is counted (finishUsage)
   */
  readonly stoppedBy?: StoppedAnswer;
}

/** An SDK client ready to send one call. */
export interface SdkCall {
  errors: SdkErrors;
  /** sends the request: the raw streaming response, once the server answered 2xx */
  open(signal: AbortSignal): Promise<Response>;
}

export interface StreamCall extends ProviderSpeaker {
  /** the SDK client for this call, loaded on first use (the SDKs are heavy) */
  connect(): Promise<SdkCall>;
  assembler: WireAssembler;
  onRetry?: RetryOptions["onRetry"];
  /** the run's limit on retries (CLAUDE_CODE_MAX_RETRIES), when it set one */
  maxRetries?: number;
  /** the retries this model call had before (ModelRequest.retriesBefore) */
  retriesBefore?: number;
  /** told each time a response opened, before its body is read */
  onOpen?: OpenedAnswer;
}

/** The Chat Completions end marker, which is not JSON. */
const DONE_MARKER = "[DONE]";

export async function* driveStream(call: StreamCall, signal: AbortSignal): AsyncGenerator<ProviderBatch> {
  signal.throwIfAborted();
  // While it runs, the pool's connection is in use (model-connections.ts: what a warm-up asks).
  modelCallBegan();
  try {
    yield* readCall(call, signal);
  } finally {
    modelCallEnded();
  }
}

/** One call: opened (retried before the first byte), its events read and assembled. */
async function* readCall(call: StreamCall, signal: AbortSignal): AsyncGenerator<ProviderBatch> {
  const sdk = await call.connect();
  const response = yield* openWithRetry(
    async () => {
      try {
        return await sdk.open(signal);
      } catch (error) {
        throw callFailure(call, sdk.errors, error, "open", signal);
      }
    },
    { signal, onRetry: call.onRetry, maxRetries: call.maxRetries, retriesBefore: call.retriesBefore },
  );
  if (!response.body) throw malformedStream(call, "the response has no body");
  // A proxy that ignores stream: true, a captive portal, a base URL that is a web site: said as such,
  // not as a stream that "ended before the model finished".
  const type = response.headers.get("content-type") ?? "";
  if (/^(application\/json|text\/html)/i.test(type)) {
    // A gateway may answer 200 with its JSON error (no credits, an unknown model): its own words say what to do.
    const body = /^application\/json/i.test(type)
      ? jsonOf(await bodyStart(response.body, Math.min(call.silenceMs ?? silenceLimitMs(), JSON_BODY_WAIT_MS), signal))
      : (response.body.cancel().catch(() => {}), undefined);
    if (signal.aborted) throw abortReason(signal);
    if (body && isJsonObject(body.error)) throw streamErrorFailure(call, body);
    if (body && (Array.isArray(body.choices) || body.type === "message" || body.object === "response")) {
      throw malformedStream(call, `the server sent the whole answer as one JSON object, not the event stream zot asked for; check the base URL (${call.baseUrl}), and that the server streams`);
    }
    throw malformedStream(call, `the server answered with ${type.split(";")[0]}, not an event stream; check the base URL (${call.baseUrl}), and that any proxy on the way passes streams through`);
  }

  call.onOpen?.();
  const { assembler } = call;
  const reader = response.body.getReader();
  const decoder = new SseDecoder();
  const shape = new RepeatedShape();
  let out: ProviderEvent[] = [];
  let ended = false;
  // One timer for the whole stream, moved on lazily: a read only notes when it began to wait for
  // the server. Only that wait counts: a reader of zot's own output that holds the stream back
  // (backpressure at the yield) is not the server going silent.
  const limit = call.silenceMs ?? silenceLimitMs();
  let waitingSince: number | undefined;
  let stalled = false;
  // When the watch was due: one that comes much later found zot frozen (stopped with Ctrl+Z or
  // SIGSTOP, the machine asleep), and that time was not the server's silence: what it sent meanwhile
  // waits unread, so the wait starts over.
  let dueAt = 0;
  const watchIn = (ms: number) => {
    dueAt = performance.now() + ms;
    return setTimeout(check, timerDelay(ms));
  };
  const check = () => {
    const now = performance.now();
    if (waitingSince !== undefined && now - dueAt > FROZEN_AFTER_MS) waitingSince = now;
    const quiet = waitingSince === undefined ? 0 : now - waitingSince;
    // Once the model finished (a stop reason came), only its usage may follow: a server that then
    // keeps the connection open without its end marker has said all it will.
    const allowed = assembler.finished ? Math.min(limit, FINISHED_QUIET_MS) : limit;
    if (quiet < allowed) {
      watch = watchIn(allowed - quiet);
      return;
    }
    stalled = true;
    reader.cancel().catch(() => {});
  };
  let watch = watchIn(limit);
  let finishNoted = false;
  try {
    while (!ended) {
      waitingSince = performance.now();
      const chunk = await reader.read().catch((error: unknown) => {
        if (stalled && assembler.finished) return { done: true as const, value: undefined };
        throw stalled ? stalledStream(call, limit) : callFailure(call, sdk.errors, error, "stream", signal);
      });
      waitingSince = undefined;
      if (stalled && !assembler.finished) throw stalledStream(call, limit);
      ended = chunk.done || stalled;
      const read = assembleEvents(call, chunk.done ? decoder.end() : decoder.push(chunk.value), shape, out);
      if (read.ended) ended = true;
      if (assembler.finished && !finishNoted) {
        // The watch waits the short quiet from here on.
        finishNoted = true;
        clearTimeout(watch);
        watch = watchIn(Math.min(limit, FINISHED_QUIET_MS));
      }
      const failure = read.failure;
      if (out.length > 0) {
        if (signal.aborted) throw abortReason(signal);
        const batch = out;
        out = [];
        yield batch;
      }
      if (failure) throw failure;
      // Checked after the last delivery too: an abort while the consumer held the last event ends here.
      if (signal.aborted) throw abortReason(signal);
    }
  } finally {
    clearTimeout(watch);
    // Stops the download (a no-op once the body was read to its end).
    reader.cancel().catch(() => {});
  }
  if (!assembler.finished) throw truncatedStream(call);
  const stopped = assembler.stoppedBy;
  if (stopped) {
    // The call was billed all the same: its usage is delivered before the failure.
    assembler.finishUsage?.(out);
    if (out.length > 0) {
      if (signal.aborted) throw abortReason(signal);
      yield out;
    }
    throw stoppedAnswer(call, stopped);
  }
  assembler.finish(out);
  yield out;
}

/**
 * Hands one read's events to the wire's assembler, in order, up to the wire's end or a failure.
 * Apart from the generator, so the code that runs per event is this one small function.
 */
function assembleEvents(call: StreamCall, events: SseEvent[], shape: RepeatedShape, out: ProviderEvent[]): { ended: boolean; failure?: unknown } {
  const { assembler } = call;
  for (const event of events) {
    if (event.data === DONE_MARKER) return { ended: true };
    const repeated = event.event === "error" ? undefined : shape.read(event.data);
    const data = repeated ?? parseEvent(call, event);
    if (data instanceof Error) return { ended: false, failure: data };
    // A text event parsed in full: its shape, for the next ones.
    if (!repeated && assembler.textSlot && shape.learning) {
      const slot = assembler.textSlot(data);
      if (slot) shape.learn(event.data, data, slot);
    }
    try {
      assembler.push(data, out);
    } catch (error) {
      // A wire's own failure event (a Responses `response.failed`); anything else is an event
      // without a field its API promises (a content_block_start with no content_block).
      return { ended: false, failure: error instanceof ProviderError ? error : lackingField(call, data, error) };
    }
    if (assembler.ended) return { ended: true };
  }
  return { ended: false };
}

/** An event's data as JSON, or the failure it is: a malformed event, or an error the server sent. */
function parseEvent(call: StreamCall, event: SseEvent): JsonObject | Error {
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch (error) {
    return malformedStream(call, (error as Error).message);
  }
  if (!isJsonObject(data)) return malformedStream(call, `an event's data is ${JSON.stringify(event.data).slice(0, 80)}, not an object`);
  // Anthropic: `event: error`; Responses: `"type": "error"`; Chat Completions: an `error` object in a chunk.
  if (event.event === "error" || data.type === "error" || (isJsonObject(data.error) && data.type === undefined)) {
    return streamErrorFailure(call, data);
  }
  return data;
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (the header says why).
noFTL(assembleEvents);
noFTL(parseEvent);
noFTL(isJsonObject);
