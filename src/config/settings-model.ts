// The model a Claude Code setup names, read as Claude Code reads it, for the Anthropic provider.
// Rule: --model, then a resumed session's model, then ANTHROPIC_MODEL, then the settings files'
// `model`; Claude Code's own words mean what they mean there (`default` is no choice, `opusplan`
// is opus, `sonnet[1m]` is sonnet, whose window zot already gives), and an alias goes where
// ANTHROPIC_DEFAULT_OPUS_MODEL / _SONNET_ / _HAIKU_ point it (a proxy's own model, glm-4.6 say).

/** Claude Code's spelling of a model → the id or alias --model takes; undefined for `default` or nothing. */
export function claudeCodeModel(value: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  let model = value.trim().replace(/\[1m\]$/i, "");
  if (model === "" || model.toLowerCase() === "default") return undefined;
  if (model.toLowerCase() === "opusplan") model = "opus";
  const alias = model.toLowerCase();
  const pointed = alias === "opus" || alias === "sonnet" || alias === "haiku" ? env[`ANTHROPIC_DEFAULT_${alias.toUpperCase()}_MODEL`]?.trim() : undefined;
  return pointed || model;
}
