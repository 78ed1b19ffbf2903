// The shapes the agent's work is asked in and ends in: a prompt's input, how a prompt or a
// compaction ended, a turn's failure, and what observers are told of a compaction, a tool result and
// the context. Rule: by the time an outcome is returned the events have already said it; outcomes are
// for exit codes and for whoever records the transcript.
import type { ErrorCode } from "../protocol/error-code.ts";
import type { CompactReason } from "../protocol/events.ts";
import type { Message, ToolResultBlock } from "../protocol/messages.ts";
import type { ModelInfo } from "../protocol/models.ts";
import type { Provider } from "../protocol/provider.ts";
import type { ToolResult } from "../protocol/tool.ts";
import type { ToolArgs } from "./intercept.ts";
import type { ToolStatus } from "./tool-step.ts";

export interface PromptInput {
  text: string;
  /** text that came with the prompt (piped stdin): the model gets it first, marked as stdin */
  context?: string;
  images?: { mime_type: string; data: string }[];
  /** the memory files of the folders the prompt's @files are in, each a text block of its own after the prompt's (runtime/nested-memory.ts) */
  memory?: string[];
  /**
   * A command's tool_prompt: this call runs (through the chain and the gates) and goes into the
   * transcript with its result after the prompt and before the model's turn.
   */
  tool?: PromptTool;
  /** the model this prompt's turns use (a Markdown command's `model:`); see OnePromptModel */
  model?: OnePromptModel;
}

/**
 * A model for one prompt's turns only: its requests go to it and its usage is priced at it, while
 * the agent's own model stays, never switched, announced or recorded; where the transcript would
 * have to be compacted for it, the prompt goes back to the agent's own (lent-model.ts). `provider`: the client for it,
 * when it speaks another wire API or lives at another address than the agent's model.
 */
export interface OnePromptModel {
  info: ModelInfo;
  provider?: Provider;
  /** told why, when the prompt goes back to the agent's own model before its end (lent-model.ts) */
  handedBack?: (why: string) => void;
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

/** How a compaction ended. The events (compact_start, usage, compact_done or error) have already said it. */
export type CompactOutcome =
  | { status: "ok"; summary: string }
  | { status: "aborted" }
  | { status: "error"; message: string; code: ErrorCode };

/** Why a turn failed: the sentence for a person, the code for a program (the `error` and `turn_end` events carry both). */
export interface TurnFailure {
  message: string;
  code: ErrorCode;
}

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
   * The context as the next call sends it: input + cache read + cache write + output tokens of the
   * last call, plus an estimate of the messages added since (an estimate alone right after a
   * compaction, and for a transcript loaded from a session until its first call)
   */
  tokens: number;
  window: number;
  /** tokens / window */
  fraction: number;
}
