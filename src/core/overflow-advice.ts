// What a server's refusal of a call as too long for the window tells zot to do and to say, in the
// server's numbers where it gave them (a vLLM or llama.cpp refusal names its window, the prompt and
// the output asked for): the room an answer has, and what did not fit and what helps. Rule: never a
// number that contradicts the server's; a window the server says is smaller than the one zot takes
// the model to have is said as such, with the models.json entry that fixes it, since no compaction
// sized for zot's window helps.
import type { ModelInfo } from "../protocol/models.ts";
import type { OverflowFigures } from "../protocol/provider.ts";
import { MIN_OUTPUT_ROOM } from "./output-room.ts";

/** What the refused call asked for, with what the server said of it. */
export interface Overflow {
  /** the server's numbers (none where it named none) */
  figures: OverflowFigures;
  /** the output tokens the call asked for */
  asked: number;
}

/** What the server's count leaves over the prompt it counted (its template's tokens are in that count; a few more are kept free). */
const SERVER_COUNT_MARGIN = 256;

/**
 * The output that fits, when the server counted the prompt, named its window, and the prompt leaves
 * room for an answer: the output asked for is what overflowed, and asking for this much fits (as
 * Claude Code asks again after "input length and max_tokens exceed context limit"). Undefined when
 * the prompt is what does not fit.
 */
export function roomLeft(overflow: Overflow): number | undefined {
  const { window, prompt } = overflow.figures;
  if (window === undefined || prompt === undefined) return undefined;
  const room = window - prompt - SERVER_COUNT_MARGIN;
  return room >= MIN_OUTPUT_ROOM && room < overflow.asked ? room : undefined;
}

/** The server's window is smaller than the one zot sized the request for: compacting against zot's cannot make it fit. */
export function windowMistaken(model: ModelInfo, overflow: Overflow): boolean {
  const { window } = overflow.figures;
  return window !== undefined && window < model.context_window;
}

/** For a window zot has wrong: what the server said of it, and the models.json entry that fixes it. */
export function mistakenWindowAdvice(model: ModelInfo, overflow: Overflow): string {
  const window = overflow.figures.window!;
  const entry = `give the model its window in models.json ("contextWindow": ${window})`;
  if (promptFits(overflow)) {
    return `the prompt (${tokens(overflow.figures.prompt!)} tokens) fits the server's window of ${tokens(window)} tokens, but not with the ${tokens(outputOf(overflow))} output tokens zot asked for: zot takes ${model.id}'s window to be ${tokens(model.context_window)} tokens; ${entry} and zot asks for what fits`;
  }
  return `the server's window for ${model.id} is ${tokens(window)} tokens, where zot takes it to be ${tokens(model.context_window)}: ${entry}, then send less at once or compact the conversation (/compact)`;
}

/** For a turn that is all there is (nothing older to compact): what did not fit, and what helps. */
export function aloneAdvice(model: ModelInfo, overflow: Overflow): string {
  const window = overflow.figures.window ?? model.context_window;
  if (promptFits(overflow)) {
    return `the prompt (${tokens(overflow.figures.prompt!)} tokens) fits ${model.id}'s window (${tokens(window)} tokens), but not with the ${tokens(outputOf(overflow))} output tokens zot asked for: give the model a smaller "maxTokens" in models.json`;
  }
  return `this turn alone does not fit ${model.id}'s window (${tokens(window)} tokens): send less at once (fewer or smaller files and images, a narrower command's output), or pick a model with a larger window (/model, --model)`;
}

/** The server counted the prompt, and it leaves the least output zot asks for: the output asked is what overflowed. */
function promptFits(overflow: Overflow): boolean {
  const { window, prompt } = overflow.figures;
  return window !== undefined && prompt !== undefined && prompt + MIN_OUTPUT_ROOM <= window;
}

function outputOf(overflow: Overflow): number {
  return overflow.figures.output ?? overflow.asked;
}

function tokens(n: number): string {
  return n.toLocaleString("en-US");
}
