// What one settings hook answered, read as Claude Code reads it: exit 0 is success (stdout may be
// a JSON answer; for UserPromptSubmit and SessionStart plain stdout is context for the model),
// exit 2 is a blocking error whose stderr is the reason, any other exit a non-blocking error. An
// http hook's 2xx body reads as exit 0's stdout; its failures are non-blocking errors.
// Rule: every answer becomes one HookAnswer; what the answer means for the event is decided where
// the answers are combined (combine.ts), never here.
import * as v from "valibot";
import { closeSync, writeSync } from "node:fs";
import { isJsonObject } from "../protocol/json-object.ts";
import { wholeCharacterCut } from "../protocol/whole-characters.ts";
import { createOutputFile } from "../tools/bash-output-files.ts";
import { issueSentence } from "../protocol/schema-issue.ts";
import type { CommandRun } from "./command-run.ts";
import type { HookEventName } from "./events.ts";
import type { SettingsHook } from "./settings-file.ts";

const HookSpecificOutput = v.looseObject({
  hookEventName: v.optional(v.string()),
  permissionDecision: v.optional(v.picklist(["allow", "deny", "ask", "defer"], "must be allow, deny or ask")),
  permissionDecisionReason: v.optional(v.string()),
  updatedInput: v.optional(v.record(v.string(), v.unknown(), "must be an object: the whole tool input, rewritten")),
  additionalContext: v.optional(v.string()),
  /** PostToolUse: what the model reads instead of the tool's result, in the tool's response shape (tool-mapping.ts fromClaudeResponse) */
  updatedToolOutput: v.optional(v.unknown()),
  /** the same for MCP tools only (Claude Code's older field) */
  updatedMCPToolOutput: v.optional(v.unknown()),
});

/** The JSON a hook may print on stdout (exit 0). */
export const HookJsonOutput = v.looseObject({
  continue: v.optional(v.boolean()),
  stopReason: v.optional(v.string()),
  suppressOutput: v.optional(v.boolean()),
  systemMessage: v.optional(v.string()),
  /** "block" (the legacy PreToolUse "approve" is allow) */
  decision: v.optional(v.picklist(["block", "approve", "allow", "deny"], 'must be "block"')),
  reason: v.optional(v.string()),
  hookSpecificOutput: v.optional(HookSpecificOutput),
});
export type HookJsonOutput = v.InferOutput<typeof HookJsonOutput>;

/** How a hook ran: as a command does (an http hook's 2xx reads as exit 0), or an http hook's request that failed (a non-2xx status, no connection). */
export type HookRun = CommandRun | { status: "failed"; message: string; durationMs: number };

/** One hook's answer, whatever way it gave it. */
export interface HookAnswer {
  hook: SettingsHook;
  /** the hook failed (not exit 0 or 2, a timeout, bad JSON): logged, and it counts for nothing */
  failure?: string;
  /** exit 2, `decision: "block"` or `permissionDecision: "deny"`: the reason */
  block?: string;
  permission?: "allow" | "ask";
  permissionReason?: string;
  updatedInput?: Record<string, unknown>;
  /** PostToolUse's replacement of the tool's result, as the hook wrote it (updatedToolOutput, or updatedMCPToolOutput) */
  updatedOutput?: { value: unknown; mcpOnly: boolean };
  /** text for the model: additionalContext, or plain stdout where it counts as context */
  context?: string;
  /** `continue: false`: the agent stops; the reason is for the user */
  stop?: string;
  /** for the user */
  systemMessage?: string;
}

/** Events whose plain (non-JSON) stdout on exit 0 is context for the model. */
const STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(["UserPromptSubmit", "UserPromptExpansion", "SessionStart"]);

/**
 * One hook's answer, its texts for the model and the user capped as Claude Code caps them: one
 * longer than HOOK_TEXT_MAX characters is saved whole to a file, and a preview and the file's path
 * stand for it (a hook that prints a megabyte does not fill the context at every prompt).
 */
export function readAnswer(hook: SettingsHook, run: HookRun): HookAnswer {
  const answer = answerOf(hook, run);
  if (answer.context !== undefined) answer.context = capped(answer.context);
  if (answer.systemMessage !== undefined) answer.systemMessage = capped(answer.systemMessage);
  return answer;
}

/** Hook output strings (context, a message) longer than this are saved to a file, as in Claude Code. */
export const HOOK_TEXT_MAX = 10_000;
const PREVIEW_CHARS = 2_000;

function capped(text: string): string {
  if (text.length <= HOOK_TEXT_MAX) return text;
  const preview = text.slice(0, wholeCharacterCut(text, PREVIEW_CHARS));
  const file = createOutputFile();
  let where = "it could not be saved";
  if (file) {
    try {
      writeSync(file.fd, text);
      where = `the whole of it is in ${file.path}`;
    } catch {
      // a full disk: the preview is all there is
    } finally {
      closeSync(file.fd);
    }
  }
  return `${preview}\n… [the hook's output was ${text.length} characters, more than ${HOOK_TEXT_MAX}; ${where}]`;
}

function answerOf(hook: SettingsHook, run: HookRun): HookAnswer {
  const who = describeHook(hook);
  if (run.status === "failed_to_start") return { hook, failure: `${who} did not start: ${run.message}` };
  if (run.status === "failed") return { hook, failure: `${who} failed: ${run.message}` };
  if (run.status === "timed_out") {
    // A program's callback before a call or a prompt may be a policy gate, which must not fail open: its silence refuses it (Claude Code's).
    if (hook.handler.type === "callback" && (hook.event === "PreToolUse" || hook.event === "UserPromptSubmit")) {
      const what = hook.event === "PreToolUse" ? "call" : "prompt";
      return { hook, block: `${who} did not answer within ${hook.timeoutMs / 1000} s, so the ${what} is refused (a program's ${hook.event} hook may be a policy gate)` };
    }
    return { hook, failure: `${who} did not finish within ${hook.timeoutMs / 1000} s${hook.timeoutNote ? ` (${hook.timeoutNote})` : ""} and was stopped${tail(run.stderr)}` };
  }
  if (run.status === "aborted") return { hook };
  // stdout is read on every exit code, as Claude Code reads it: JSON when it starts with "{" and parses, else plain text.
  const out = run.stdout.trim();
  const json = jsonOf(out);
  if (run.code === 2) {
    // A block whatever the JSON says (even its allow), with its blocking reason when it gives one, else stderr; its other fields still count.
    const answer: HookAnswer = json?.output ? fromJson(hook, json.output) : { hook };
    answer.block ??= run.stderr.trim() || `${who} exited 2 (blocking) without a reason on stderr`;
    delete answer.permission;
    delete answer.permissionReason;
    delete answer.updatedInput;
    return answer;
  }
  if (json?.invalid) return { hook, failure: `${who}${run.code !== 0 ? ` exited ${run.code} and` : ""} answered with JSON zot cannot use (${json.invalid}); its answer is ignored` };
  // Another exit with a valid JSON answer: the JSON alone decides (a guard that prints its deny and exits 1 still denies).
  if (json?.output) return fromJson(hook, json.output);
  if (run.code !== 0) return { hook, failure: `${who} exited ${run.code}${tail(run.stderr)}` };
  return out && STDOUT_IS_CONTEXT.has(hook.event) ? { hook, context: out } : { hook };
}

/** A hook's stdout as its JSON answer: undefined for plain text (what does not start with "{", or does and does not parse). */
function jsonOf(out: string): { output?: HookJsonOutput; invalid?: string } | undefined {
  if (!out.startsWith("{")) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(out);
  } catch {
    return undefined;
  }
  if (!isJsonObject(json)) return undefined;
  const parsed = v.safeParse(HookJsonOutput, json);
  return parsed.success ? { output: parsed.output } : { invalid: issueSentence(parsed.issues) };
}

function fromJson(hook: SettingsHook, json: HookJsonOutput): HookAnswer {
  const answer: HookAnswer = { hook };
  const specific = json.hookSpecificOutput;
  if (json.continue === false) answer.stop = json.stopReason?.trim() || `${describeHook(hook)} stopped the agent`;
  if (json.systemMessage) answer.systemMessage = json.systemMessage;
  if (specific?.additionalContext) answer.context = specific.additionalContext;
  const reason = json.reason?.trim();
  if (json.decision === "block" || json.decision === "deny") answer.block = reason || `blocked by ${describeHook(hook)}`;
  // PreToolUse's decision as Claude Code first had it: "approve" is allow.
  if (json.decision === "approve" || json.decision === "allow") answer.permission = "allow";
  switch (specific?.permissionDecision) {
    case "deny":
      answer.block = specific.permissionDecisionReason?.trim() || reason || `denied by ${describeHook(hook)}`;
      break;
    case "ask":
    case "defer":
      answer.permission = "ask";
      break;
    case "allow":
      answer.permission = "allow";
      break;
  }
  if (answer.permission && specific?.permissionDecisionReason) answer.permissionReason = specific.permissionDecisionReason;
  if (specific?.updatedInput) answer.updatedInput = specific.updatedInput;
  if (specific?.updatedToolOutput !== undefined) answer.updatedOutput = { value: specific.updatedToolOutput, mcpOnly: false };
  else if (specific?.updatedMCPToolOutput !== undefined) answer.updatedOutput = { value: specific.updatedMCPToolOutput, mcpOnly: true };
  return answer;
}

/** `PreToolUse hook "python3 guard.py" (.claude/settings.json)`, `PostToolUse hook POST https://… (…)` */
export function describeHook(hook: SettingsHook): string {
  const { handler } = hook;
  if (handler.type === "callback") return `${hook.event} hook ${handler.id} (${hook.source.label})`;
  const what = handler.type === "command" ? [handler.command, ...(handler.args ?? [])].join(" ") : handler.url;
  const shown = what.length > 60 ? `${what.slice(0, 59)}…` : what;
  return handler.type === "command" ? `${hook.event} hook "${shown}" (${hook.source.label})` : `${hook.event} hook POST ${shown} (${hook.source.label})`;
}

/** `: <the first lines of stderr>`, or nothing */
function tail(stderr: string): string {
  const text = stderr.trim();
  if (!text) return "";
  const lines = text.split("\n");
  const shown = lines.slice(0, 3).join(" / ");
  return `: ${shown.length > 300 ? `${shown.slice(0, 299)}…` : shown}${lines.length > 3 ? " …" : ""}`;
}
