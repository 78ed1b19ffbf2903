// The context as the next model call will send it, in tokens: what the provider counted for the
// last call (its input, cache and output tokens), plus an estimate of the messages added since
// (the tool results of the step that follows, a prompt), as Claude Code counts "with estimation".
// The character-based estimate is calibrated by what the provider counted: dense text (CJK,
// base64, minified code) takes several times the tokens that four characters a token says.
// Rule: nothing here walks the whole transcript more than once a model call; the count is read in
// constant time (the status bar reads it while a stream runs).
import type { Message } from "../protocol/messages.ts";
import type { ModelInfo } from "../protocol/models.ts";
import type { ModelRequest, ToolSpec } from "../protocol/provider.ts";
import type { TokenUsage } from "../protocol/usage.ts";
import { estimateContextTokens, estimateMessageTokens } from "./compact.ts";

/**
 * The bounds of the calibration: tokens the provider counts per estimated token. Never below 1:
 * prose tokenises a little sparser than four characters a token, and an estimate on the high side
 * only keeps less verbatim, while one on the low side keeps too much and overflows (today's
 * estimate stays the floor). At most 8: one character a token (CJK, base64: 4) is the densest a
 * common tokenizer goes for whole text, and rare scripts and emoji, a few bytes a token, stay
 * under 8; a count further off says the request holds what the estimate cannot see (a server's
 * own template, images counted otherwise), which no scaling of the messages would make right.
 */
export const MIN_SCALE = 1;
export const MAX_SCALE = 8;

export function boundedScale(scale: number): number {
  return Number.isFinite(scale) ? Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale)) : MIN_SCALE;
}

export class ContextCount {
  /** tokens of the transcript as last counted: a call's report, or the calibrated estimate of a transcript put in place */
  private counted = 0;
  /** the estimate, uncalibrated, of the messages appended since */
  private added = 0;
  /** the last call's output tokens were counted: its answer, the next assistant message appended, is in `counted` */
  private answerCounted = false;
  /**
   * The provider's count over the estimate of the same request, for one model: another model may
   * tokenise otherwise, so it counts from today's estimate until a call of its own reports.
   * Forgotten with the conversation (a resumed one has had no call yet).
   */
  private calibration: { model: string; scale: number } | undefined;

  /** How many tokens the provider counts for one the estimate counts, for `model` (1 until a call of it reported usage). */
  scale(model: ModelInfo): number {
    return this.calibration && this.calibration.model === modelKey(model) ? this.calibration.scale : MIN_SCALE;
  }

  /** The context as the next call sends it: the last count and the calibrated estimate of what came since. */
  tokens(model: ModelInfo): number {
    return this.counted + Math.ceil(this.added * this.scale(model));
  }

  /**
   * A call ended: its usage as reported for `request` (undefined, or zeros from a server that
   * reports none: the estimate of what was sent counts instead, when an answer came). Once a call.
   */
  callEnded(request: ModelRequest, usage: TokenUsage | undefined, answered: boolean): void {
    const reported = usage ? usage.input + usage.cache_read + usage.cache_write : 0;
    const output = usage?.output ?? 0;
    if (reported + output === 0 && !answered) return;
    const estimate = estimateContextTokens(request.system, request.messages, request.tools);
    // A count under a quarter of the estimate left part of the prompt out (a server that reports
    // only what it did not find cached, or 0 after a whole cache hit): the estimate stands in for
    // it, or automatic compaction would never see the context fill. (A quarter, not less than the
    // estimate: runs of spaces and repeated text take fewer tokens than four characters each.)
    const input = reported >= estimate / 4 ? reported : 0;
    if (input > 0 && estimate > 0) this.calibration = { model: modelKey(request.model), scale: boundedScale(input / estimate) };
    this.counted = (input > 0 ? input : Math.ceil(estimate * this.scale(request.model))) + output;
    this.answerCounted = output > 0;
    this.added = 0;
  }

  /** A message joined the transcript: estimated, unless it is the answer the last call counted already. */
  appended(message: Message): void {
    if (this.answerCounted && message.role === "assistant") {
      this.answerCounted = false;
      return;
    }
    this.answerCounted = false;
    this.added += estimateMessageTokens(message);
  }

  /**
   * Another transcript is in place (a compaction's, a resumed one, what a hard_abort left): its
   * calibrated estimate counts until a call reports. An empty one is 0: nothing was sent yet.
   */
  transcriptReplaced(system: string, messages: readonly Message[], tools: readonly ToolSpec[], model: ModelInfo): void {
    this.counted = messages.length === 0 ? 0 : Math.ceil(estimateContextTokens(system, messages, tools) * this.scale(model));
    this.added = 0;
    this.answerCounted = false;
  }

  /** A new conversation: what the last one's calls said of the tokenizer is not known to hold for it. */
  forgetCalibration(): void {
    this.calibration = undefined;
  }
}

function modelKey(model: ModelInfo): string {
  return `${model.provider}/${model.id}`;
}
