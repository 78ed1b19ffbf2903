// The numbers a server's context-overflow refusal names: its window, the prompt it counted, the
// output asked for, in the wordings of the servers that say them. Rule: a number is taken only
// from words that say what it is; a refusal that names none gives none (what zot then says rests
// on its own idea of the window, and says so).
import { isJsonObject } from "../protocol/json-object.ts";
import type { OverflowFigures } from "../protocol/provider.ts";

/** Wordings that name the window. */
const WINDOW = [
  // OpenAI, vLLM, SGLang: "This model's maximum context length is 8192 tokens"
  /maximum context length (?:is|of) (\d+)/i,
  // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"; "… exceed context limit: 188240 + 21333 > 200000"
  /> (\d+) maximum/i,
  /exceed context limit: \d+ \+ \d+ > (\d+)/i,
  // TGI: "`inputs` tokens + `max_new_tokens` must be <= 4096"
  /must be <= (\d+)/i,
  // LM Studio: "the model is loaded with context length of only 4096 tokens"
  /context length of only (\d+)/i,
];

/** Wordings that name the prompt's tokens. */
const PROMPT = [
  /\((\d+) in the messages/i, // vLLM, OpenAI's older words
  /your messages resulted in (\d+) tokens/i, // OpenAI
  /your request has (\d+) input tokens/i, // vLLM's newer words
  /(\d+) tokens from the input/i, // SGLang
  /prompt is too long: (\d+) tokens/i, // Anthropic
  /exceed context limit: (\d+) \+/i, // Anthropic
  /Given: (\d+) `inputs` tokens/i, // TGI
];

/** Wordings that name the output asked for. */
const OUTPUT = [
  /(\d+) in the completion/i,
  /(\d+) tokens for the completion/i,
  /exceed context limit: \d+ \+ (\d+)/i,
  /and (\d+) `max_new_tokens`/i,
  /'max_tokens' or 'max_completion_tokens' is too large: (\d+)/i,
];

/**
 * What a refusal's words (`text`) and its error object (`fields`: llama.cpp's `n_ctx` and
 * `n_prompt_tokens`) say; undefined when they name no number.
 */
export function overflowFigures(text: string, fields?: unknown): OverflowFigures | undefined {
  if (isJsonObject(fields) && isJsonObject(fields.error)) fields = fields.error;
  const figures: OverflowFigures = {};
  const window = numberField(fields, "n_ctx") ?? firstNumber(WINDOW, text);
  const prompt = numberField(fields, "n_prompt_tokens") ?? firstNumber(PROMPT, text);
  const output = firstNumber(OUTPUT, text);
  if (window !== undefined) figures.window = window;
  if (prompt !== undefined) figures.prompt = prompt;
  if (output !== undefined) figures.output = output;
  return Object.keys(figures).length > 0 ? figures : undefined;
}

function firstNumber(patterns: readonly RegExp[], text: string): number | undefined {
  for (const pattern of patterns) {
    const found = pattern.exec(text);
    if (found) return Number(found[1]);
  }
  return undefined;
}

function numberField(fields: unknown, name: string): number | undefined {
  const value = isJsonObject(fields) ? fields[name] : undefined;
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}
