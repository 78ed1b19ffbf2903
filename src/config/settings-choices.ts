// What Claude Code's settings files choose for a run besides hooks and permission rules: the `env`
// its processes get (a proxy's ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN, API_TIMEOUT_MS, a
// variable the user's commands read) and the `model` a new conversation starts on.
// Rule: the files come in settings order (settings-hooks/settings-locations.ts: the user's, then a
// trusted folder's) and a later file wins; a file's variable wins over the one zot was started
// with, as in Claude Code (a settings env is the setup the user chose for these runs). The
// variables are the run's own (runtime.ts hands them to each process it starts): nothing writes
// them into process.env, which an embedding program (createZot) shares with its next runtime.
// zot's own variables (ZOT_*) and HOME are not taken from a file: ZOT_HOME and HOME say where some
// of the files are, and the others are zot's settings (the jail's confinement, the credentials
// passed on), set where zot starts. A file that names a provider's base URL and a key pairs the
// two: another key zot was started with never goes to the server the file named (withSettingsEnv).
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { isJsonObject } from "../protocol/json-object.ts";
import { statSafe } from "./quiet-fs.ts";

export interface SettingsChoices {
  /** the last file's `model`, as Claude Code writes it (settings-model.ts reads it), and that file's label */
  model?: { value: string; from: string };
  /** `disabledMcpjsonServers` of every file: the folder's .mcp.json servers the user turned off */
  disabledMcpServers: string[];
  /** the last file's `permissions.defaultMode`, as written, and that file's label */
  defaultMode?: { value: string; from: string };
  /** the first file whose `permissions.disableBypassPermissionsMode` is "disable": tool calls may not run unasked */
  noBypass?: { from: string };
  /** the last file's `apiKeyHelper`: a command whose output is the Anthropic key (config/api-key-helper.ts), and that file's label */
  apiKeyHelper?: { command: string; from: string };
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
  const choices: SettingsChoices = { env: {}, warnings: [], disabledMcpServers: [] };
  for (const source of sources) {
    let text: string;
    try {
      // Most of these files are not there: asked first, as a lookup that throws nothing.
      if (!statSafe(source.file)?.isFile()) continue;
      text = readFileSync(source.file, "utf8");
    } catch {
      // A missing file is no choice; one that is not a file is named by the settings hooks.
      continue;
    }
    let value: unknown;
    try {
      // A byte-order mark (PowerShell writes one) is not part of the JSON.
      value = JSON.parse(text.replace(/^\uFEFF/, ""));
    } catch {
      // The settings hooks name the file, and that its env and model do not count (settings-file.ts).
      continue;
    }
    if (!isJsonObject(value)) continue;
    if (value.model !== undefined) {
      if (typeof value.model === "string" && value.model.trim() !== "") choices.model = { value: value.model.trim(), from: source.label };
      else choices.warnings.push(`${source.label}: "model" must be a model's id or alias, as --model takes it; it is not used`);
    }
    // Claude Code's settings files only (not Codex's hooks.json, read here for its env and hooks).
    if (value.apiKeyHelper !== undefined && /^settings.*\.json$/.test(basename(source.file))) {
      if (typeof value.apiKeyHelper === "string" && value.apiKeyHelper.trim() !== "") choices.apiKeyHelper = { command: value.apiKeyHelper.trim(), from: source.label };
      else choices.warnings.push(`${source.label}: "apiKeyHelper" must be a command (run by /bin/sh) that prints the key; it is not used`);
    }
    if (Array.isArray(value.disabledMcpjsonServers)) {
      for (const name of value.disabledMcpjsonServers) if (typeof name === "string") choices.disabledMcpServers.push(name);
    }
    const permissions = value.permissions;
    if (isJsonObject(permissions) && permissions.defaultMode !== undefined) {
      if (typeof permissions.defaultMode === "string") choices.defaultMode = { value: permissions.defaultMode, from: source.label };
      else choices.warnings.push(`${source.label}: permissions.defaultMode must be a mode's name (default, acceptEdits, dontAsk, bypassPermissions); it is not used`);
    }
    if (isJsonObject(permissions) && permissions.disableBypassPermissionsMode !== undefined) {
      if (permissions.disableBypassPermissionsMode === "disable") choices.noBypass ??= { from: source.label };
      else choices.warnings.push(`${source.label}: permissions.disableBypassPermissionsMode must be "disable" (the only value Claude Code reads); it is not used`);
    }
    // Claude Code's keys that confine or widen what runs, which zot does not have: said, never passed over in silence.
    if (isJsonObject(value.sandbox) && value.sandbox.enabled === true) {
      choices.warnings.push(`${source.label}: sandbox.enabled: zot has no sandbox of Claude Code's kind, so bash runs unconfined; --jail confines the tools to the working directory`);
    }
    if (isJsonObject(permissions) && Array.isArray(permissions.additionalDirectories) && permissions.additionalDirectories.length > 0) {
      choices.warnings.push(
        `${source.label}: permissions.additionalDirectories is not read: acceptEdits and the working directory's reads cover the working directory only; a rule names another folder ("Edit(//srv/shared/**)", "Read(~/notes/**)")`,
      );
    }
    if (value.env === undefined) continue;
    if (!isJsonObject(value.env)) {
      choices.warnings.push(`${source.label}: "env" must be an object of variables; it is not used`);
      continue;
    }
    for (const [name, raw] of Object.entries(value.env)) {
      const text = typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean" ? String(raw) : undefined;
      if (name.startsWith("ZOT_") || name === "HOME") {
        choices.warnings.push(`${source.label}: env.${name} is not used: zot's own variables and HOME are set where zot starts, not in Claude Code's settings`);
      } else if (!VARIABLE_NAME.test(name)) {
        choices.warnings.push(`${source.label}: env ${JSON.stringify(name)} is not a variable's name (letters, digits and _, not first a digit); it is not set`);
      } else if (name === "__proto__") {
        // Written as a key, it would set the object's prototype and no variable.
        choices.warnings.push(`${source.label}: env.__proto__ cannot be set (JavaScript reads that name as an object's prototype); it is not set`);
      } else if (text === undefined) {
        choices.warnings.push(`${source.label}: env.${name} must be text; it is not set`);
      } else if (text.includes("\0")) {
        choices.warnings.push(`${source.label}: env.${name} holds a NUL character, which no process can be given; it is not set`);
      } else {
        choices.env[name] = { value: text, from: source.label };
      }
    }
  }
  return choices;
}

/** What a variable's name may be, as a process is given it. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A provider's variables: where it is spoken to, and its credentials. */
export interface ProviderVariables {
  baseUrl?: string;
  credentials: readonly string[];
}

/**
 * The run's environment: `env` with the settings' variables over it, as a new object (`env` is
 * left as it is). Where a file sets a provider's base URL and one of its credentials, that
 * provider's credentials come from the files alone: a key `env` has that no file sets is left out
 * (the shell's ANTHROPIC_API_KEY would otherwise go first, to the file's proxy). Where a file sets
 * the base URL alone, the shell's key goes there, as in Claude Code. `paired` lists the providers
 * whose base URL a file set: the runtime never sends them auth.json's key.
 */
export function withSettingsEnv(
  env: Readonly<Record<string, string | undefined>>,
  choices: SettingsChoices,
  providers: Readonly<Record<string, ProviderVariables>>,
): { env: Record<string, string | undefined>; paired: string[] } {
  const out = { ...env };
  for (const [name, { value }] of Object.entries(choices.env)) out[name] = value;
  const paired: string[] = [];
  for (const [provider, variables] of Object.entries(providers)) {
    if (variables.baseUrl === undefined || choices.env[variables.baseUrl] === undefined) continue;
    paired.push(provider);
    if (!variables.credentials.some((credential) => choices.env[credential] !== undefined)) continue;
    for (const credential of variables.credentials) if (choices.env[credential] === undefined) delete out[credential];
  }
  return { env: out, paired };
}
