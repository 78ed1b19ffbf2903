// The `hooks` of one settings file in Claude Code's format (~/.claude/settings.json,
// .claude/settings.json, .claude/settings.local.json, $ZOT_HOME/settings.json), read unchanged:
// `{"hooks": {"<Event>": [{"matcher": "…", "hooks": [{"type": "command", "command": "…",
// "timeout": 30}]}]}}`; and `{"type": "http", "url": "…", "headers": {…}, "allowedEnvVars": […]}`.
// Rule: a bad part loses only itself: every problem is a warning naming the file and the field
// (`.claude/settings.json: hooks.PreToolUse[0].hooks[1].timeout …`), and the rest of the file runs.
import type { HookRun } from "./hook-output.ts";
import * as v from "valibot";
import { isJsonObject } from "../protocol/json-object.ts";
import { issueSentence } from "../protocol/schema-issue.ts";
import { type HookEventName, HOOK_EVENTS, isHookEvent, MATCHED_ON, OTHER_HANDLER_TYPES } from "./events.ts";
import { compileMatcher, type Matcher } from "./matcher.ts";
import { isHttpUrl } from "../protocol/http-url.ts";

/**
 * A hook's own timeout when it names none, as Claude Code's: 600 s for a command or an http hook,
 * 30 s at UserPromptSubmit (it holds up every prompt).
 */
const DEFAULT_TIMEOUT_S = 600;
const DEFAULT_PROMPT_TIMEOUT_S = 30;

/** Where a settings file is, and whose it is. */
export interface SettingsSource {
  /** absolute path */
  file: string;
  /** how the user knows it: "~/.claude/settings.json", ".claude/settings.json" */
  label: string;
  /** "project" files run only in a trusted folder */
  scope: "user" | "project";
}

/** What a hook runs: a shell command (or, with `args`, a program run with them and no shell), or a POST of the event to a URL. */
export type HookHandler =
  | { type: "command"; command: string; args?: string[] }
  | {
      type: "http";
      url: string;
      /** sent as they are written, `$VAR` and `${VAR}` filled from the environment for the names in allowedEnvVars */
      headers: Record<string, string>;
      allowedEnvVars: string[];
    }
  /**
   * a callback of the program running zot (the Claude Agent SDK's hooks, host-hooks.ts): `run`
   * asks it with the event's input and reads its answer as a command hook's run
   */
  | { type: "callback"; id: string; run: (input: Record<string, unknown>, timeoutMs: number, signal: AbortSignal) => Promise<HookRun> };

/** One hook, ready to run. */
export interface SettingsHook {
  event: HookEventName;
  matcher: Matcher;
  handler: HookHandler;
  timeoutMs: number;
  /** whether its file (or program) names its timeout: SessionEnd's time in all counts only those (session-points.ts) */
  timeoutNamed: boolean;
  /** said after "did not finish within N s" when the time was not its own timeout (SessionEnd's time in all) */
  timeoutNote?: string;
  source: SettingsSource;
  /** where it sits in its file: `hooks.PreToolUse[0].hooks[1]` */
  at: string;
  /**
   * its `if` (tool events only, Claude Code 2.1.85+): a permission rule a call must match for the
   * hook to run (`"Bash(git push *)"`); null when `if` is there but is not text (then the hook runs,
   * and its allow does not count, tool-participant.ts)
   */
  condition?: string | null;
}

export interface ParsedSettings {
  /** in file order: events as written, groups and hooks in their lists' order */
  hooks: SettingsHook[];
  warnings: string[];
  /** `"disableAllHooks"` as the file says it (undefined: it does not); the file of highest precedence that says it decides (settings-sources.ts) */
  disableAll?: boolean;
}

const SettingsFile = v.looseObject({
  hooks: v.optional(v.custom<Record<string, unknown>>(isJsonObject, 'must be an object of events, {"PreToolUse": […], …}'), {}),
  disableAllHooks: v.optional(v.boolean()),
});

const MatcherGroup = v.looseObject({
  matcher: v.optional(v.string()),
  hooks: v.array(v.unknown()),
});

const CommandHandler = v.looseObject({
  type: v.literal("command"),
  command: v.pipe(v.string(), v.trim(), v.minLength(1, "must be the command to run")),
  /** exec form (Claude Code's): `command` is the program, run with these arguments and no shell */
  args: v.optional(v.array(v.string("must be text"), 'must be a list of arguments, ["${CLAUDE_PROJECT_DIR}/hooks/guard.py"]')),
});

const HttpHandler = v.looseObject({
  type: v.literal("http"),
  url: v.pipe(
    v.string("must be the URL to POST the event to"),
    v.check(isHttpUrl, "must be an http:// or https:// URL"),
  ),
  headers: v.optional(v.record(v.string(), v.string("must be text"), 'must be an object of header names and values, {"Authorization": "Bearer $TOKEN"}'), {}),
  allowedEnvVars: v.optional(v.array(v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a variable's name, without $")), "must be a list of variables' names"), []),
});

const Timeout = v.pipe(v.number("must be a number of seconds"), v.gtValue(0, "must be more than 0 seconds"));

/** The hooks of a settings file's text. */
export function parseSettingsHooks(text: string, source: SettingsSource): ParsedSettings {
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(`${source.label}: ${message}`);
  let json: unknown;
  try {
    // A byte-order mark (PowerShell writes one) is not part of the JSON.
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    warn(`is not valid JSON (${(error as Error).message}); none of its hooks run, nor its env and model count, until it is fixed`);
    return { hooks: [], warnings };
  }
  const file = isJsonObject(json) ? v.safeParse(SettingsFile, json) : undefined;
  if (!file?.success) {
    const what = file ? issueSentence(file.issues, "", { secrets: "likely" }) : "it must be a JSON object";
    warn(`${what}; none of its hooks run until it is fixed`);
    return { hooks: [], warnings };
  }
  const hooks: SettingsHook[] = [];
  const unknownEvents: string[] = [];
  for (const [event, groups] of Object.entries(file.output.hooks)) {
    if (!isHookEvent(event)) {
      unknownEvents.push(event);
      continue;
    }
    if (!Array.isArray(groups)) {
      warn(`hooks.${event} must be a list of {"matcher": …, "hooks": […]} groups; its hooks do not run`);
      continue;
    }
    groups.forEach((group, g) => hooks.push(...readGroup(event, group, `hooks.${event}[${g}]`, source, warn)));
  }
  if (unknownEvents.length > 0) {
    const names = unknownEvents.map((name) => `hooks.${name}`).join(", ");
    warn(`${names}: zot has no such hook event, so ${unknownEvents.length === 1 ? "its hooks do" : "their hooks do"} not run (zot runs ${HOOK_EVENTS.join(", ")})`);
  }
  return { hooks, warnings, ...(file.output.disableAllHooks !== undefined ? { disableAll: file.output.disableAllHooks } : {}) };
}

function readGroup(event: HookEventName, raw: unknown, at: string, source: SettingsSource, warn: (message: string) => void): SettingsHook[] {
  const group = isJsonObject(raw) ? v.safeParse(MatcherGroup, raw) : undefined;
  if (!group?.success) {
    const what = group ? issueSentence(group.issues, `${at}.`, { secrets: "likely" }) : `${at} must be an object {"matcher": …, "hooks": […]}`;
    warn(`${what}; this group's hooks do not run`);
    return [];
  }
  const matcher = compileMatcher(group.output.matcher);
  if ("error" in matcher) {
    warn(`${at}.matcher ${JSON.stringify(group.output.matcher)} ${matcher.error}; this group's hooks do not run`);
    return [];
  }
  if (matcher.text.trim() !== "" && matcher.text.trim() !== "*" && MATCHED_ON[event] === undefined) {
    warn(`${at}.matcher: ${event} hooks have no matcher, so it is ignored and they run every time`);
  }
  // `mcp__server` alone is an exact name no tool has (a tool is mcp__<server>__<tool>): Claude Code matches nothing with it either.
  for (const name of matcher.names ?? []) {
    if (/^mcp__/.test(name) && !name.slice(5).includes("__")) {
      warn(`${at}.matcher "${name}" names no tool (an MCP tool is mcp__<server>__<tool>), so this group's hooks never run for it; for every tool of that server write "${name}__.*"`);
    }
  }
  const out: SettingsHook[] = [];
  group.output.hooks.forEach((handler, h) => {
    const hook = readHandler(handler, `${at}.hooks[${h}]`, event, warn);
    if (!hook) return;
    // Claude Code reads `if` on the events of a tool call; on the others a hook with one never runs.
    if (!CONDITIONED.has(event) && isJsonObject(handler) && handler.if !== undefined && handler.if !== null) {
      warn(`${hook.at}.if is read on tool events only (${[...CONDITIONED].join(", ")}); as in Claude Code, a ${event} hook with one never runs, so it is skipped`);
      return;
    }
    const condition = CONDITIONED.has(event) && isJsonObject(handler) ? readCondition(handler.if, hook.at, warn) : undefined;
    out.push({ event, matcher, source, ...hook, ...(condition !== undefined ? { condition } : {}) });
  });
  return out;
}

/** The events whose hooks Claude Code runs only where their `if` rule matches the call. */
const CONDITIONED: ReadonlySet<HookEventName> = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure"]);

function readCondition(raw: unknown, at: string, warn: (message: string) => void): string | null | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === "string" && raw.trim() !== "") return raw.trim();
  warn(`${at}.if must be a permission rule as text ("Bash(git push *)"); the hook runs for every call its matcher matches, and an allow from it does not count`);
  return null;
}

function readHandler(raw: unknown, at: string, event: HookEventName, warn: (message: string) => void): { handler: HookHandler; timeoutMs: number; timeoutNamed: boolean; at: string } | undefined {
  if (!isJsonObject(raw)) {
    warn(`${at} must be an object {"type": "command", "command": …}; it is skipped`);
    return undefined;
  }
  if (typeof raw.type === "string" && (OTHER_HANDLER_TYPES as readonly string[]).includes(raw.type)) {
    warn(`${at}.type is "${raw.type}"; zot runs "command" and "http" hooks, so this one is skipped`);
    return undefined;
  }
  const handler = raw.type === "http" ? readHttp(raw, at, warn) : readCommand(raw, at, warn);
  if (!handler) return undefined;
  const defaultS = event === "UserPromptSubmit" ? DEFAULT_PROMPT_TIMEOUT_S : DEFAULT_TIMEOUT_S;
  let seconds = defaultS;
  let timeoutNamed = false;
  if (raw.timeout !== undefined) {
    const timeout = v.safeParse(Timeout, raw.timeout);
    if (timeout.success) {
      seconds = timeout.output;
      timeoutNamed = true;
    } else warn(`${at}.timeout ${issueSentence(timeout.issues, "", { secrets: "likely" })}; the default ${defaultS} s applies`);
  }
  return { handler, timeoutMs: seconds * 1000, timeoutNamed, at };
}

function readCommand(raw: Record<string, unknown>, at: string, warn: (message: string) => void): HookHandler | undefined {
  const handler = v.safeParse(CommandHandler, raw);
  if (!handler.success) {
    warn(`${issueSentence(handler.issues, `${at}.`, { secrets: "likely" })} (zot runs {"type": "command", "command": "…"} and {"type": "http", "url": "…"} hooks); it is skipped`);
    return undefined;
  }
  const { command, args } = handler.output;
  return args === undefined ? { type: "command", command } : { type: "command", command, args };
}

function readHttp(raw: Record<string, unknown>, at: string, warn: (message: string) => void): HookHandler | undefined {
  const handler = v.safeParse(HttpHandler, raw);
  if (!handler.success) {
    warn(`${issueSentence(handler.issues, `${at}.`, { secrets: "likely" })}; it is skipped`);
    return undefined;
  }
  const { url, headers, allowedEnvVars } = handler.output;
  return { type: "http", url, headers, allowedEnvVars };
}
