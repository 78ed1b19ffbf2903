// The contract between the agent loop and a model provider. Pure types: the loop imports this,
// never a concrete provider. Rule: a provider throws ProviderError (a sentence and a code) for
// failures the user should see, and stops promptly (throwing an AbortError) once its signal aborts.
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
  | { type: "retry"; attempt: number; max_attempts: number; wait_ms: number; status?: number; message: string }
  /** the assembled assistant message; always the last event of a successful stream */
  | { type: "done"; content: ContentBlock[]; stop: ProviderStopReason };

export interface Provider {
  readonly name: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
}

/** A failure talking to the model, worded for the user, with its machine-readable code. */
export class ProviderError extends Error {
  readonly code: ErrorCode;
  readonly status?: number;
  /** may be tried again (only before the first byte of a response) */
  readonly retryable: boolean;
  /** seconds, from a retry-after header */
  readonly retryAfter?: number;

  constructor(message: string, code: ErrorCode, options: { status?: number; retryable?: boolean; retryAfter?: number } = {}) {
    super(message);
    this.name = "ProviderError";
    this.code = code;
    this.retryable = options.retryable ?? false;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }
}
