// What Claude Code's settings files choose for how a run starts, beside what the flags say: the
// model a new conversation starts on (ANTHROPIC_MODEL, the files' `model`, the setup's aliases) and
// how tool calls are permitted (`permissions.defaultMode`). Rule: a flag always wins, and each
// choice a file made comes with a note naming the file: it may cost more, or ask what ran before.
import type { SettingsChoices } from "../config/settings-choices.ts";
import { UsageError } from "../config/usage-error.ts";
import { otherCloud, pointedAlias, readClaudeModel } from "../config/settings-model.ts";
import { PERMISSION_MODES, permissionModeMeaning } from "../protocol/permission-mode.ts";
import type { WrittenRule } from "../permission-rules/rule.ts";
import type { RuntimeOptions } from "./runtime.ts";

/**
 * The model a new conversation starts on, as Claude Code's setup says (config/settings-model.ts),
 * for the Anthropic provider only (a Claude Code setup speaks the Claude API, a proxy's included),
 * never for a script: `model` undefined is the provider's default. Each choice zot did not take
 * from the flags comes with a note naming where it came from: it may cost more than zot's default.
 */
export function startingModel(
  options: RuntimeOptions,
  providerName: string,
  settings: SettingsChoices,
  started: Readonly<Record<string, string | undefined>>,
  env: Readonly<Record<string, string | undefined>>,
): { model: string | undefined; note?: string } | undefined {
  if (providerName !== "anthropic") return undefined;
  const where = (read: ReturnType<typeof readClaudeModel>) => (read.pointedBy ? `, where ${read.pointedBy.variable} points ${read.pointedBy.alias}` : "");
  if (options.model !== undefined) {
    const read = readClaudeModel(options.model, env);
    return { model: read.model, ...(read.pointedBy ? { note: `the model is ${read.model}${where(read)} (--model with an id picks another)` } : {}) };
  }
  const fromEnv = env.ANTHROPIC_MODEL?.trim();
  const envFrom = started.ANTHROPIC_MODEL?.trim() === fromEnv ? "ANTHROPIC_MODEL" : `${settings.env.ANTHROPIC_MODEL?.from}'s env.ANTHROPIC_MODEL`;
  const written = fromEnv ? { value: fromEnv, from: envFrom } : settings.model;
  const cloud = otherCloud(env);
  if (written && cloud) {
    return { model: undefined, note: `${written.from} names ${written.value}, a model for ${cloud}, which zot does not speak; zot uses its own default on the Claude API (--model picks another)` };
  }
  if (written) {
    const read = readClaudeModel(written.value, env);
    if (read.model === undefined) return undefined;
    return { model: read.model, note: `the model is ${read.model}, as ${written.from} says${where(read)} (--model picks another)` };
  }
  // Claude Code's default is sonnet, wherever the setup points it.
  const sonnet = pointedAlias("sonnet", env);
  return sonnet ? { model: sonnet.model, note: `the model is ${sonnet.model}, where ${sonnet.variable} points sonnet, Claude Code's default (--model picks another)` } : undefined;
}

/**
 * Claude Code's `permissions.defaultMode` of a settings file, as --permission-mode reads the same
 * word (protocol/permission-mode.ts); plan, which zot does not have, asks as default does.
 * Each mode but bypassPermissions is a note naming the file, since it changes what runs unasked.
 */
export function settingsPermissionMode(mode: { value: string; from: string }, rules: readonly WrittenRule[], notes: string[]): Partial<RuntimeOptions> {
  const how = `the permissions.defaultMode "${mode.value}" of ${mode.from}`;
  const skip = "--dangerously-skip-permissions runs without asking";
  // A word spelt in another case is that mode; a word that is no mode asks, as default does: a
  // misspelt restriction must not run everything unasked.
  const spelt = mode.value.toLowerCase() === "plan" ? "default" : PERMISSION_MODES.find((known) => known.toLowerCase() === mode.value.toLowerCase());
  if (spelt === undefined) {
    notes.push(`${how} is not a mode zot knows (${PERMISSION_MODES.join(", ")}); tool calls are asked about, as in default (${skip})`);
  }
  const word = spelt ?? "default";
  const meaning = permissionModeMeaning(word, how);
  // Asks nothing, also where the program running zot would otherwise be asked (the Agent SDK's default mode).
  if (!meaning.confirming) return { permissionMode: word, noYolo: false };
  if (spelt !== undefined) {
    notes.push(
      mode.value === "plan"
        ? `${how}: zot has no plan mode, so tool calls are asked about as in default (${skip}; --tools read gives the model only the read tool)`
        : word === "acceptEdits"
          ? `tool calls but edits in the working directory are asked about, as ${how} says (${skip})`
          : word === "dontAsk"
            ? `tool calls no permission rule allows are refused, as ${how} says (${skip})`
            : `tool calls are asked about, as ${how} says (${skip})`,
    );
  }
  return {
    noYolo: true,
    confirmingFlag: how,
    permissionMode: word,
    ...(meaning.askNobody ? { askNobody: true } : {}),
    ...(meaning.rules.length > 0 ? { permissionRules: [...rules, ...meaning.rules] } : {}),
  };
}

/**
 * Claude Code's `permissions.disableBypassPermissionsMode: "disable"`: tool calls may not run
 * unasked. A flag asking for that (--dangerously-skip-permissions, --permission-mode
 * bypassPermissions) stops the run, naming the file; with no flag (zot asks nothing by default) or
 * a defaultMode of bypassPermissions, calls are asked about as in default; and /yolo cannot turn
 * confirmations off. An embedding program chooses its own options, as it does over defaultMode.
 */
export function withoutBypass(from: string, options: RuntimeOptions, notes: string[]): Partial<RuntimeOptions> {
  const how = `the permissions.disableBypassPermissionsMode "disable" of ${from}`;
  if (options.bypassFlag) {
    throw new UsageError(`${options.bypassFlag} is turned off by ${how}: tool calls may not run unasked here; drop the flag, or choose --permission-mode acceptEdits or dontAsk`);
  }
  const locked = { confirmationsLockedOn: `${how} keeps them on` };
  if (options.noYolo) return locked;
  if (!options.readDefaultMode) return {};
  const asked = settingsPermissionMode({ value: "default", from }, options.permissionRules ?? [], []);
  const over = options.permissionMode === "bypassPermissions" ? ` (over its defaultMode "bypassPermissions")` : "";
  notes.push(`tool calls are asked about, as ${how} says${over}; /yolo cannot turn that off`);
  return { ...asked, confirmingFlag: how, ...locked };
}
