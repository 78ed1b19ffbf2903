// The root flags every agent mode shares (-p, --json, rpc) turned into RuntimeOptions.
// Rule: one reading of the flags, checked before anything starts; a bad value is a UsageError.
import { UsageError } from "../config/usage-error.ts";
import { type FlagMcpConfig, readFlagMcpConfigs } from "../mcp/flag-configs.ts";
import { CLAUDE_NAME_OF_BUILTIN } from "../protocol/claude-tool-names.ts";
import { errorText } from "../protocol/error-text.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import type { RuntimeOptions } from "../runtime/runtime.ts";
import type { ReasoningLevel } from "../protocol/models.ts";
import { REASONING_WORDS, type ReasoningWord, reasoningOfWord } from "../protocol/reasoning-words.ts";
import type { SessionChoice } from "../session/open.ts";
import type { ParsedFlags } from "./parse-flags.ts";
import { permissionFlags } from "./permission-flags.ts";
import { parseSettingSources } from "../config/setting-sources.ts";
import { statSafe } from "../config/quiet-fs.ts";
import { join, resolve } from "node:path";
import { CLAUDE_SESSION_ID } from "./root-args.ts";
import { ownEntry } from "../protocol/own-key.ts";
import { readRegularFile } from "../config/regular-file.ts";
import { isHttpUrl, notHttpUrlText } from "../protocol/http-url.ts";

type Flags = ParsedFlags["values"];

export const str = (flags: Flags, name: string): string | undefined => {
  const value = flags[name];
  return typeof value === "string" ? value : undefined;
};

/** Everything createRuntime needs from the flags, except `log` (the mode decides where it goes). */
export function runtimeOptionsFromFlags(flags: Flags): Omit<RuntimeOptions, "log"> {
  if (flags["no-tools"] && str(flags, "tools") !== undefined) {
    throw new UsageError("--no-tools and --tools cannot be used together");
  }
  const tools = flags["no-tools"] ? "none" : toolList(str(flags, "tools"));
  const permissions = permissionFlags(flags);
  for (const name of ["model", "cwd"]) {
    // An empty value (a variable that was not set: --model "$MODEL") is no choice made silently.
    if (str(flags, name)?.trim() === "") throw new UsageError(`--${name} needs a value (got an empty one)`);
  }
  return {
    provider: str(flags, "provider"),
    model: str(flags, "model"),
    apiKey: str(flags, "api-key"),
    baseUrl: baseUrl(flags),
    systemPrompt: str(flags, "system-prompt"),
    appendSystemPrompt: (flags["append-system-prompt"] as string[] | undefined) ?? [],
    reasoning: reasoning(flags),
    cwd: str(flags, "cwd"),
    tools,
    maxSteps: maxSteps(flags),
    autoCompact: parseAutoCompact(str(flags, "auto-compact")),
    script: str(flags, "script"),
    extensions: {
      explicit: explicitExtensions(flags),
      noDiscovery: flags["no-ext"] === true || flags["no-extensions"] === true,
    },
    mcp: { configs: mcpConfigs(flags), strict: flags["strict-mcp-config"] === true },
    withSkills: flags["with-skills"] === true || flags["with-skill"] === true,
    noSkill: flags["no-skill"] === true || flags["no-skills"] === true,
    trust: flags.trust === true,
    ...(str(flags, "setting-sources") !== undefined ? { settingSources: parseSettingSources(str(flags, "setting-sources") ?? "") } : {}),
    jail: flags.jail === true,
    noYolo: permissions.confirming ?? false,
    ...(permissions.rules.length > 0 ? { permissionRules: permissions.rules } : {}),
    ...(permissions.confirmingFlag ? { confirmingFlag: permissions.confirmingFlag } : {}),
    ...(permissions.askNobody ? { askNobody: true } : {}),
    ...(permissions.mode ? { permissionMode: permissions.mode } : {}),
    // A flag that says how calls are permitted wins over the settings files' permissions.defaultMode.
    ...(permissions.confirming === undefined ? { readDefaultMode: true } : {}),
    ...(permissions.bypassFlag ? { bypassFlag: permissions.bypassFlag } : {}),
  };
}

/** The built-in tools by Claude Code's names (`--tools Bash,Read` as the Agent SDK passes them). */
const BUILTIN_OF_CLAUDE_NAME: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(CLAUDE_NAME_OF_BUILTIN).map(([zot, claude]) => [claude, zot])),
  MultiEdit: "edit",
};

/**
 * `--ext` paths, each there: one that is not (a typo) stops the run before anything starts, as a
 * bad --mcp-config does; a guard named wrong must not leave the tools unguarded. What is in the
 * manifest is the extension loader's to judge (at the start, it refuses one that cannot start).
 */
function explicitExtensions(flags: Flags): string[] {
  const given = (flags.ext as string[] | undefined) ?? [];
  const cwd = str(flags, "cwd") ?? process.cwd();
  for (const path of given) {
    // `--ext "$EXT"` with EXT unset must not load the folder it runs in (with no trust asked).
    if (path === "") throw new UsageError("--ext needs an extension's directory or its extension.json (got an empty one: an unset variable?)");
    const target = resolve(cwd, path);
    const stats = statSafe(target);
    if (stats === undefined) {
      throw new UsageError(`--ext ${path}: ${target} does not exist; give the extension's directory (with extension.json in it) or its extension.json`);
    }
    // Its manifest must be there and be JSON; what is in it is the loader's to judge (a warning, a guard that refuses).
    const manifest = stats.isDirectory() ? join(target, "extension.json") : target;
    if (!stats.isDirectory() && !target.endsWith(".json")) {
      throw new UsageError(`--ext ${path}: ${target} is a file, not an extension; give the extension's directory (with extension.json in it) or its extension.json`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(readRegularFile(manifest, "utf8").replace(/^\uFEFF/, ""));
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      throw new UsageError(
        missing ? `--ext ${path}: ${target} has no extension.json, so it is no extension (zot ext new makes one)` : `--ext ${path}: ${manifest} cannot be read as JSON (${errorText(error)})`,
      );
    }
    if (!isJsonObject(parsed)) throw new UsageError(`--ext ${path}: ${manifest} must be a JSON object (the extension's manifest)`);
  }
  return given;
}

/** `--base-url`: an http(s) URL, checked now: a typo is a usage error, not a failed request after the start. */
function baseUrl(flags: Flags): string | undefined {
  const value = str(flags, "base-url");
  if (value === undefined) return undefined;
  if (!isHttpUrl(value.trim())) {
    throw new UsageError(notHttpUrlText("--base-url", value));
  }
  return value;
}

/** `--tools`: zot's names or Claude Code's; `default` is all of them, an empty list none (as Claude Code's). */
function toolList(value: string | undefined): string[] | "all" | "none" {
  if (value === undefined || value.trim() === "default") return "all";
  const names = [...new Set(value.split(",").map((t) => t.trim()).filter(Boolean).map((t) => ownEntry(BUILTIN_OF_CLAUDE_NAME, t) ?? t))];
  return names.length === 0 ? "none" : names;
}

/**
 * --reasoning (the original's words too: off, minimum, maximum), Claude Code's --effort (the same
 * levels), or pi's --thinking <level> (off, minimal … xhigh); Claude Code's --thinking modes
 * (adaptive, enabled, disabled) are accepted and say no level.
 */
function reasoning(flags: Flags): ReasoningLevel | undefined {
  const level = str(flags, "reasoning");
  const effort = str(flags, "effort");
  const thinking = str(flags, "thinking");
  let pi: string | undefined;
  if (thinking !== undefined && !CLAUDE_THINKING_MODES.includes(thinking)) {
    if (!(REASONING_WORDS as readonly string[]).includes(thinking)) {
      throw new UsageError(
        `--thinking takes pi's levels (off, minimal, low, medium, high, xhigh), read as --reasoning is, or Claude Code's modes (${CLAUDE_THINKING_MODES.join(", ")}); got "${thinking}"`,
      );
    }
    pi = thinking;
  }
  const given = [level !== undefined && "--reasoning", effort !== undefined && "--effort", pi !== undefined && "--thinking"].filter(Boolean);
  if (given.length > 1) throw new UsageError(`${given.join(" and ")} are the same setting; give one`);
  const word = level ?? effort ?? pi;
  return word === undefined ? undefined : reasoningOfWord(word as ReasoningWord);
}

/** Claude Code's --thinking values: accepted, and no level (--reasoning says how much). */
const CLAUDE_THINKING_MODES = ["adaptive", "enabled", "disabled"];

/** `--mcp-config`, each read now: one that cannot be read is the run's usage error, before anything starts. */
function mcpConfigs(flags: Flags): FlagMcpConfig[] {
  const values = (flags["mcp-config"] as string[] | undefined) ?? [];
  if (values.length === 0) return [];
  try {
    return readFlagMcpConfigs(values, str(flags, "cwd") ?? process.cwd());
  } catch (error) {
    throw new UsageError(errorText(error));
  }
}

/**
 * The session a -p/--json run records into: a new one unless -c (the newest), --session (that
 * one; `--session new`: a new one), -r (the user picks: "pick"; -r <id>: that one) or --no-session (none) says
 * otherwise. Conflicting flags are a UsageError before anything starts.
 */
export function sessionChoiceFromFlags(flags: Flags): SessionChoice | { kind: "pick" } | undefined {
  const ref = str(flags, "session");
  const given = [flags.continue && "--continue", flags.resume && "--resume", ref !== undefined && "--session"].filter(
    (f): f is string => typeof f === "string",
  );
  if (flags["no-session"] || flags["no-session-persistence"]) {
    if (given.length > 0) throw new UsageError(`--no-session and ${given.join(", ")} cannot be used together: one keeps no session, the other resumes one`);
    return undefined;
  }
  if (given.length > 1) throw new UsageError(`${given.join(" and ")} cannot be used together; pick one way to choose the session`);
  if (ref !== undefined) {
    if (ref.trim() === "") throw new UsageError("--session needs an id (zot sessions list shows them), a path, or new");
    return ref.trim() === NEW_SESSION ? { kind: "new" } : { kind: "open", ref };
  }
  if (flags.continue) return { kind: "continue" };
  // -r <id>, as Claude Code's: that session (FOLLOWERS decides what is an id); -r alone: the picker.
  if (typeof flags.resume === "string") {
    if (CLAUDE_SESSION_ID.test(flags.resume)) {
      throw new UsageError(`-r ${flags.resume} is a Claude Code session's id; zot resumes its own sessions (zot sessions list shows them, as 20261123-032914-9f3c2a1b)`);
    }
    return { kind: "open", ref: flags.resume };
  }
  if (flags.resume) return { kind: "pick" };
  return { kind: "new" };
}

/** `--session new`: a new session (an id is a timestamp, so it never reads "new"; a file named so is ./new). */
const NEW_SESSION = "new";

/** --max-steps, or Claude Code's --max-turns: 0 (no limit) when neither is given. */
function maxSteps(flags: Flags): number {
  const steps = str(flags, "max-steps");
  const turns = str(flags, "max-turns");
  if (steps !== undefined && turns !== undefined) throw new UsageError("--max-steps and --max-turns are the same limit; give one");
  const [flag, value] = turns !== undefined ? ["--max-turns", turns] : ["--max-steps", steps];
  if (value === undefined) return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive whole number (got "${value}")`);
  return n;
}

/** `--auto-compact 85` → 0.85; `off` or `0` → 0 (never); absent → undefined (the default, 85%). */
export function parseAutoCompact(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (value === "off") return 0;
  const percent = Number(value.endsWith("%") ? value.slice(0, -1) : value);
  if (value.trim() === "" || !Number.isFinite(percent) || percent < 0 || percent > 100) {
    throw new UsageError(`--auto-compact takes a percent of the context window from 1 to 100, or off (got "${value}")`);
  }
  // The Agent SDK's autoCompact is a fraction (0.85); carried over, it would compact before nearly every call.
  if (percent > 0 && percent < 1) {
    throw new UsageError(`--auto-compact takes a percent of the context window from 1 to 100, not a fraction: for ${Math.round(percent * 100)}%, write --auto-compact ${Math.round(percent * 100)} (got "${value}")`);
  }
  return percent / 100;
}
