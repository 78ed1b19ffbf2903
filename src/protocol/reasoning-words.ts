// The reasoning levels as the original zot's clients write them (`--reasoning`, rpc's
// `set_reasoning`): its seven tiers and their spellings (`off`, `minimum`/`minimal`, `maximum`),
// beside zot's own five. Rule: one mapping for the flag and the rpc command: off asks for no level
// (the model's own default), minimum is low, maximum is max (OpenAI's models take xhigh and max as
// high).
import type { ReasoningLevel } from "./models.ts";

/** Every word taken for a reasoning level, in the order the help lists them. */
export const REASONING_WORDS = ["off", "minimum", "minimal", "low", "medium", "high", "xhigh", "max", "maximum"] as const;
export type ReasoningWord = (typeof REASONING_WORDS)[number];

/** The level a word asks for: undefined for off (no reasoning asked for). */
export function reasoningOfWord(word: ReasoningWord): ReasoningLevel | undefined {
  switch (word) {
    case "off":
      return undefined;
    case "minimum":
    case "minimal":
      return "low";
    case "maximum":
      return "max";
    default:
      return word;
  }
}
