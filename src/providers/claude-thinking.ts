// How a Claude model is asked to think, by its id. Rule: the older models (to Opus 4.6 and Sonnet
// 4.6) take a thinking budget (`thinking.type: "enabled"`); Opus 4.7 and later, Sonnet, Haiku 5 and
// later and every Fable think adaptively and refuse a budget with a 400, so a reasoning level is
// their `output_config.effort`. The 5.x models think unasked, and write their notes between tool
// calls as thinking: zot asks for it "summarized", so it is shown and not left empty ("omitted").
// The models that bind a thinking block to the conversation before it (Fable 5.1, Opus, Sonnet and
// Haiku 5.5, and later) are told to drop a block whose prefix changed (a compaction, a new tool, a
// new day's system prompt) instead of refusing the request.

export interface ClaudeThinking {
  /** "budget": thinking.type "enabled" with budget_tokens; "adaptive": thinking.type "adaptive" and output_config.effort */
  style: "budget" | "adaptive";
  /** the model thinks without being asked (the 5.x models and later) */
  unasked: boolean;
  /** a thinking block is bound to the conversation before it (needs block_binding to survive a changed prefix) */
  bindsBlocks: boolean;
  /** the id names a Claude model that thinks (every `claude-<family>-<version>` one: Claude 4 and later) */
  reasons: boolean;
}

/** The beta that lets a request drop thinking blocks whose prefix changed (`thinking.block_binding`). */
export const BLOCK_BINDING_BETA = "thinking-binding-controls-2026-08-01";

/**
 * The family and version anywhere in the id: a proxy's `anthropic/claude-opus-4-7`, OpenRouter's
 * `anthropic/claude-opus-4.7`, Bedrock's `us.anthropic.claude-opus-4-7-v1:0`, Vertex's `claude-opus-4-7@…`.
 */
const CLAUDE_VERSION = /(?:^|[^a-z0-9])claude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:[-.](\d))?(?![0-9])/;

/** The id Anthropic gives the model an id names in another's spelling (`anthropic/claude-opus-4.7` → `claude-opus-4-7`), if it names one. */
export function claudeOwnId(id: string): string | undefined {
  const found = CLAUDE_VERSION.exec(id.toLowerCase());
  if (!found) return undefined;
  const [, family, major, minor] = found;
  return `claude-${family}-${major}${minor !== undefined ? `-${minor}` : ""}`;
}

export function claudeThinking(id: string): ClaudeThinking {
  const found = CLAUDE_VERSION.exec(id.toLowerCase());
  if (!found) return { style: "budget", unasked: false, bindsBlocks: false, reasons: false };
  const [, family, major, minor] = found;
  const version = Number(major) + Number(minor ?? 0) / 10;
  const fable = family === "fable" || family === "mythos";
  const adaptive = fable || version >= 5 || (family === "opus" && version >= 4.7);
  return {
    style: adaptive ? "adaptive" : "budget",
    unasked: fable || version >= 5,
    bindsBlocks: version >= 6 || (fable ? version >= 5.1 : version >= 5.5),
    reasons: true,
  };
}
