// What Claude Code's settings files choose for a run besides hooks and permission rules: the `env`
// its processes get (a proxy's ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN, API_TIMEOUT_MS, a
// variable the user's commands read) and the `model` a new conversation starts on.
// Rule: the files come in settings order (settings-hooks/settings-locations.ts: the user's, then a
// trusted folder's) and a later file wins; the environment zot was started in wins over every file.
// The variables are the run's own (runtime.ts hands them to each process it starts): nothing here
// or after writes them into process.env, which an embedding program (createZot) shares with its
// next runtime. zot's own variables (ZOT_*) are not taken from a file: ZOT_HOME says where some of
// the files are, and the others are zot's settings (the jail's confinement, the credentials passed
// on), set where zot starts.
import { readFileSync } from "node:fs";
import { isJsonObject } from "../protocol/json-object.ts";

export interface SettingsChoices {
  /** the last file's `model`, as Claude Code writes it (settings-model.ts reads it), and that file's label */
  model?: { value: string; from: string };
  /** the variables to add to the run's environment, with the file that set each */
  env: Record<string, { value: string; from: string }>;
  /** one sentence per field that could not be used */
  warnings: string[];
}

/** The settings files to read, as settings-locations.ts lists them. */
export interface SettingsFileRef {
  file: string;
  label: string;
}

export function readSettingsChoices(sources: readonly SettingsFileRef[]): SettingsChoices {
  const choices: SettingsChoices = { env: {}, warnings: [] };
  for (const source of sources) {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(source.file, "utf8"));
    } catch {
      // A missing file is no choice; a broken one is named by the settings hooks and the permission rules.
      continue;
    }
    if (!isJsonObject(value)) continue;
    if (value.model !== undefined) {
      if (typeof value.model === "string" && value.model.trim() !== "") choices.model = { value: value.model.trim(), from: source.label };
      else choices.warnings.push(`${source.label}: "model" must be a model's id or alias, as --model takes it; it is not used`);
    }
    if (value.env === undefined) continue;
    if (!isJsonObject(value.env)) {
      choices.warnings.push(`${source.label}: "env" must be an object of variables; it is not used`);
      continue;
    }
    for (const [name, raw] of Object.entries(value.env)) {
      if (name.startsWith("ZOT_")) choices.warnings.push(`${source.label}: env.${name} is not used: zot's own variables are set where zot starts, not in Claude Code's settings`);
      else if (typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean") choices.env[name] = { value: String(raw), from: source.label };
      else choices.warnings.push(`${source.label}: env.${name} must be text; it is not set`);
    }
  }
  return choices;
}

/** `env` with the settings' variables where it has none, as a new object: `env` is left as it is. */
export function withSettingsEnv(env: Readonly<Record<string, string | undefined>>, choices: SettingsChoices): Record<string, string | undefined> {
  const out = { ...env };
  for (const [name, { value }] of Object.entries(choices.env)) if (out[name] === undefined) out[name] = value;
  return out;
}
