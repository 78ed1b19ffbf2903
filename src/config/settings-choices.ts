// What Claude Code's settings files choose for a run besides hooks and permissions: the `model` a
// new conversation starts on and the `env` a session gets (a proxy's ANTHROPIC_BASE_URL and
// ANTHROPIC_AUTH_TOKEN, say). Rule: the files come in settings order (settings-locations.ts: the
// user's, then a trusted folder's, whose env could otherwise point the key at another server) and
// a later file wins; the shell's own variables win over every file, and --model (or a resumed
// session's model) over `model`. ZOT_HOME is not taken from a file that lives in it.
import { readFileSync } from "node:fs";
import { isJsonObject } from "../protocol/json-object.ts";
import type { SettingsSource } from "../settings-hooks/settings-file.ts";

export interface SettingsChoices {
  /** the model id or alias, as --model takes it (Claude Code's `opusplan`, `sonnet[1m]` read as theirs) */
  model?: string;
  /** variables to set for the run, each only where the environment has none */
  env: Record<string, string>;
  /** one sentence per field that could not be used */
  warnings: string[];
}

export function readSettingsChoices(sources: readonly SettingsSource[]): SettingsChoices {
  const choices: SettingsChoices = { env: {}, warnings: [] };
  for (const source of sources) {
    let text: string;
    try {
      text = readFileSync(source.file, "utf8");
    } catch {
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // The settings hooks and the permission rules say so, once; this file's model and env are skipped.
      continue;
    }
    if (!isJsonObject(value)) continue;
    if (value.model !== undefined) {
      const model = claudeCodeModel(value.model);
      if (model === null) choices.warnings.push(`${source.label}: "model" must be a model's id or alias, as --model takes it; it is not used`);
      else if (model !== undefined) choices.model = model;
    }
    if (value.env !== undefined) {
      if (!isJsonObject(value.env)) {
        choices.warnings.push(`${source.label}: "env" must be an object of variables; it is not used`);
        continue;
      }
      for (const [name, raw] of Object.entries(value.env)) {
        if (name === "ZOT_HOME") continue;
        if (typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean") choices.env[name] = String(raw);
        else choices.warnings.push(`${source.label}: env.${name} must be text; it is not set`);
      }
    }
  }
  return choices;
}

/**
 * Claude Code's `model` as --model takes it: an id or an alias; `sonnet[1m]` is sonnet (zot's
 * Sonnet has the 1M window), `opusplan` is opus, `default` is no choice (undefined); anything
 * but text is null.
 */
export function claudeCodeModel(value: unknown): string | undefined | null {
  if (typeof value !== "string") return null;
  const model = value.trim().replace(/\[1m\]$/i, "");
  if (model === "" || model.toLowerCase() === "default") return undefined;
  return model.toLowerCase() === "opusplan" ? "opus" : model;
}

/** `env` with the settings' variables where it has none; the same object when nothing is added. */
export function withSettingsEnv<E extends Record<string, string | undefined>>(env: E, settings: SettingsChoices): E {
  const missing = Object.entries(settings.env).filter(([name]) => env[name] === undefined);
  for (const [name, value] of missing) (env as Record<string, string | undefined>)[name] = value;
  return env;
}
