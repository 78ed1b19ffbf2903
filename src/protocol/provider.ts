// The contract between the agent loop and a model provider. Pure types: the loop imports this,
// never a concrete provider. Rule: a provider throws ProviderError (a sentence and a code) for
// failures the user should see, and stops promptly (throwing an AbortError) once its signal aborts.
// Events come in batches (all that one read of the response completed), so a long answer costs
// one hand-off between the provider and the loop per network read, not one per delta.
import type { ErrorCode } from "./error-code.ts";
import type { ContentBlock, Message } from "./messages.ts";
import type { ModelInfo, ReasoningLevel } from "./models.ts";
import type { TokenUsage } from "./usage.ts";

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object */
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  model: ModelInfo;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  reasoning?: ReasoningLevel;
  /** overrides the model's max output */
  maxTokens?: number;
  /**
   * The retries this model call had already (its stream's first word was an overload, and it was
   * asked again): a provider's retries of the open count on from there, within the same budget.
   */
  retriesBefore?: number;
  /**
   * The most output the model's window leaves over this request (core/output-room.ts), when that
   * is less than the output asked for: no wire asks for more, a thinking budget included.
   */
  outputRoom?: number;
}

/** The output a wire asks for: the request's limit (the model's, unless a hook set one), never more than the window leaves. */
export function outputLimit(request: ModelRequest): number {
  const asked = request.maxTokens ?? request.model.max_output;
  return request.outputRoom !== undefined ? Math.min(asked, request.outputRoom) : asked;
}

export type ProviderStopReason = "end_turn" | "tool_use" | "length";

export type ProviderEvent =
  | { type: "text_delta"; delta: string }
  | { type: "thinking_delta"; delta: string }
  | { type: "tool_use_start"; id: string; name: string }
  | { type: "tool_use_args"; id: string; delta: string }
  | { type: "tool_use_end"; id: string }
  /** tokens of this call so far; later events replace earlier ones */
  | { type: "usage"; usage: TokenUsage }
  /** opening the call failed and it is tried again after wait_ms; only ever before the first byte */
  | { type: "retry"; attempt: number; max_attempts: number; wait_ms: number; status?: number; code?: ErrorCode; message: string }
  /** the assembled assistant message; always the last event of a successful stream */
  | { type: "done"; content: ContentBlock[]; stop: ProviderStopReason };

/**
 * Events in the order the call produced them, never empty. Read them in order and check the signal
 * between them: once it aborts, the rest of the batch is not delivered (the provider yields no
 * batch after the abort, but cannot take back one already handed over).
 */
export type ProviderBatch = readonly ProviderEvent[];

/**
 * Told that a model's answer opened: the server answered and its body is about to be read (the
 * scripted provider: its turn begins). The one-prompt modes end their start there
 * (cli/startup-over.ts), so the JIT tiers up the per-event code from the first read of a long
 * answer on, not from its second.
 */
export type OpenedAnswer = () => void;

export interface Provider {
  readonly name: string;
  /** the run's limit on retries of a failed call (CLAUDE_CODE_MAX_RETRIES), when it set one; protocol/retry-backoff.ts's otherwise */
  readonly maxRetries?: number;
  /** The call's events, batched; the concatenation of the batches is the call's event sequence. */
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderBatch>;
  /**
   * Starts opening the connection the next call will take, and loading the SDK and making the
   * client that call needs, and returns at once (providers that call a server;
   * providers/warm-connection.ts). `signal` ends a request the opening waits on. What fails here is
   * left for the call to report.
   */
  warm?(signal: AbortSignal): void;
}

/**
 * A provider's stream one event at a time, for readers that go event by event (a side question, a
 * compaction's summary, tests). Once `signal` aborts it delivers nothing more and throws, as a
 * provider does.
 */
export async function* providerEvents(batches: AsyncIterable<ProviderBatch>, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
  for await (const batch of batches) {
    for (const event of batch) {
      signal.throwIfAborted();
      yield event;
    }
  }
}

/**
 * The numbers a server's context-overflow refusal names, in tokens: its window, the prompt it
 * counted, the output asked for (vLLM: "8192 tokens … (751 in the messages, 8192 in the
 * completion)"; llama.cpp: n_ctx). Each one only where the server said it.
 */
export interface OverflowFigures {
  window?: number;
  prompt?: number;
  output?: number;
}

/** A failure talking to the model, worded for the user, with its machine-readable code. */
export class ProviderError extends Error {
  readonly code: ErrorCode;
  readonly status?: number;
  /** may be tried again (only before the first byte of a response) */
  readonly retryable: boolean;
  /** seconds, from a retry-after header */
  readonly retryAfter?: number;
  /** a context overflow's numbers as the server gave them */
  readonly overflow?: OverflowFigures;
  /** the server is on this machine or its network (loopback, a private address): a server error there is rarely passing */
  readonly local?: boolean;

  constructor(
    message: string,
    code: ErrorCode,
    options: { status?: number; retryable?: boolean; retryAfter?: number; overflow?: OverflowFigures; local?: boolean } = {},
  ) {
    super(message);
    this.name = "ProviderError";
    this.code = code;
    this.retryable = options.retryable ?? false;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
    if (options.overflow !== undefined) this.overflow = options.overflow;
    if (options.local) this.local = true;
  }
}
