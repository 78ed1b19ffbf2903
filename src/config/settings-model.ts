// The model a Claude Code setup names, read as Claude Code reads it, for the Anthropic provider.
// Rule: --model, then a resumed session's model, then ANTHROPIC_MODEL, then the settings files'
// `model`, then where ANTHROPIC_DEFAULT_SONNET_MODEL points Claude Code's default; Claude Code's own
// words mean what they mean there (`default` is no choice, `best` is opus, `sonnet[1m]` is sonnet,
// whose window zot already gives, and `opusplan` is sonnet: zot has no plan mode, and Claude Code
// runs opusplan's work on Sonnet), and an alias goes where ANTHROPIC_DEFAULT_OPUS_MODEL / _SONNET_ /
// _HAIKU_ point it (a proxy's own model, glm-4.6 say), at the start and at every switch. A setup for
// Amazon Bedrock, Vertex AI or Foundry (CLAUDE_CODE_USE_*) names models zot's Claude API does not
// serve, so its model is not taken.

type Env = Readonly<Record<string, string | undefined>>;

/** Claude Code's spelling of a model → the id or alias --model takes; undefined for `default` or nothing. */
export function claudeCodeModel(value: string, env: Env): string | undefined {
  return readClaudeModel(value, env).model;
}

/**
 * Claude Code's spelling of a model read: the id or alias --model takes (undefined for `default`
 * or nothing), and the alias and variable that pointed it elsewhere, when one did.
 */
export function readClaudeModel(value: string, env: Env): { model: string | undefined; pointedBy?: { alias: string; variable: string } } {
  const model = value.trim().replace(/\[1m\]$/i, "");
  const lower = model.toLowerCase();
  if (lower === "" || lower === "default") return { model: undefined };
  const alias = lower === "opusplan" ? "sonnet" : lower === "best" ? "opus" : lower;
  if (alias !== "opus" && alias !== "sonnet" && alias !== "haiku") return { model };
  const pointed = pointedAlias(alias, env);
  return pointed ? { model: pointed.model, pointedBy: { alias, variable: pointed.variable } } : { model: alias };
}

/** The model ids a setup names by variable (ANTHROPIC_MODEL, ANTHROPIC_DEFAULT_*_MODEL), as written: what /model offers beside the catalog. */
export function setupModelIds(env: Env): string[] {
  return ["ANTHROPIC_MODEL", ...(["opus", "sonnet", "haiku"] as const).map((alias) => aliasVariable(alias))]
    .map((name) => env[name]?.trim() ?? "")
    .filter((id) => id !== "");
}

function aliasVariable(alias: "opus" | "sonnet" | "haiku"): string {
  return `ANTHROPIC_DEFAULT_${alias.toUpperCase()}_MODEL`;
}

/** Where ANTHROPIC_DEFAULT_<ALIAS>_MODEL points an alias, and that variable's name. */
export function pointedAlias(alias: "opus" | "sonnet" | "haiku", env: Env): { model: string; variable: string } | undefined {
  const variable = aliasVariable(alias);
  const model = env[variable]?.trim();
  return model ? { model, variable } : undefined;
}

/** The CLAUDE_CODE_USE_* variable that says a setup is for another cloud's Claude, if one is set. */
export function otherCloud(env: Env): string | undefined {
  return ["CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_USE_FOUNDRY"].find((name) => {
    const value = env[name]?.trim().toLowerCase();
    return value !== undefined && value !== "" && value !== "0" && value !== "false";
  });
}
