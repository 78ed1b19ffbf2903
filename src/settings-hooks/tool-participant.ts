// PreToolUse and PostToolUse (and PostToolUseFailure) as one participant of the interception chain:
// PreToolUse at tool_call (deny, rewrite the arguments, ask the user or let the call through the
// confirmation gate unasked), PostToolUse at after_tool (feedback and context the model reads with
// the result). The chain reports what it changed as `intercept` events, like any participant's.
// Rule: hooks see and rewrite calls in Claude Code's names (tool-mapping.ts); a failed or timed-out
// hook counts for nothing (Claude Code's rule), and `ask` with nobody to ask refuses the call.
import type { Decision, Participant, StagePayloads } from "../core/intercept.ts";
import type { InterceptStage } from "../protocol/events.ts";
import type { ToolResult } from "../protocol/tool.ts";
import { applyRewrites, combine, joinReasons } from "./combine.ts";
import { type ConditionedCall, type ConditionReader, type ConditionReading, readingOf } from "./hook-condition.ts";
import { describeHook, type HookAnswer } from "./hook-output.ts";
import { HookRunner, hookKey } from "./hook-runner.ts";
import type { HookEventName } from "./events.ts";
import type { SettingsHook } from "./settings-file.ts";
import { type ClaudeCall, fromClaudeInput, fromClaudeResponse, matcherNames, toClaudeCall, toClaudeResponse } from "./tool-mapping.ts";
import { OWN_PARTICIPANTS } from "../protocol/own-participants.ts";

export const SETTINGS_HOOKS_PARTICIPANT = OWN_PARTICIPANTS.settingsHooks;
/** The chain's own deadline is the longest hook's plus this: the hooks' timeouts decide first. */
const CHAIN_MARGIN_MS = 2000;
/** Contexts of PreToolUse kept for calls whose result has not come yet; more is a leak. */
const PENDING_MAX = 256;

/** What the participant needs of the confirmation gate (core/confirm-gate.ts). */
export interface GateAccess {
  /** whether a person can be asked (the TUI); without one a hook's `ask` refuses the call */
  readonly canAsk: boolean;
  /** a hook's or a permission rule's word on one call: ask about it whatever else holds, or let it pass unasked */
  hookVerdict(id: string, verdict: "ask" | "allow", reason?: string, args?: Record<string, unknown>): void;
  /** drops what was said about a call with this id (a new call may reuse an earlier call's id) */
  forget(id: string): void;
}

export interface ToolHooksOptions {
  runner: HookRunner;
  /** whether `name` is one of zot's built-in tools (only those are renamed for the hooks) */
  isBuiltin(name: string): boolean;
  gate?: GateAccess;
  /** what reads a hook's `if` (loaded at the first call a hook with one could run for); without it, every `if` is unsure */
  conditions?: () => Promise<ConditionReader>;
}

export function toolHooksParticipant(options: ToolHooksOptions): Participant {
  const { runner } = options;
  const pending = new Map<string, string[]>();
  const longest = (...events: Parameters<HookRunner["matching"]>[0][]) => runner.longestOf(events) + CHAIN_MARGIN_MS;
  return {
    name: SETTINGS_HOOKS_PARTICIPANT,
    builtin: true,
    priority: 0,
    stages: ["tool_call", "after_tool"],
    get timeoutMs() {
      return { tool_call: longest("PreToolUse"), after_tool: longest("PostToolUse", "PostToolUseFailure") };
    },
    onFailure: "allow",
    async decide<S extends InterceptStage>(stage: S, payload: StagePayloads[S], signal: AbortSignal): Promise<Decision<S>> {
      if (stage === "tool_call") return (await beforeTool(options, pending, payload as StagePayloads["tool_call"], signal)) as Decision<S>;
      if (stage === "after_tool") return (await afterTool(options, pending, payload as StagePayloads["after_tool"], signal)) as Decision<S>;
      return { action: "continue" };
    },
  };
}

async function beforeTool(options: ToolHooksOptions, pending: Map<string, string[]>, p: StagePayloads["tool_call"], signal: AbortSignal): Promise<Decision<"tool_call">> {
  const { runner, gate } = options;
  const builtin = options.isBuiltin(p.name);
  const call = toClaudeCall(p.name, p.args, runner.context.cwd, builtin);
  const { hooks, unsure } = await conditioned(options, "PreToolUse", matcherNames(call, p.name), { name: p.name, args: p.args, builtin });
  if (hooks.length === 0) return { action: "continue" };
  const answers = withoutAllows(await runner.run(hooks, { ...call, tool_use_id: p.id }, signal), unsure);
  const combined = combine(answers);
  if (combined.stop !== undefined) return { action: "abort_turn", reason: `a PreToolUse hook stopped the agent: ${combined.stop}` };
  if (combined.blocks.length > 0) return { action: "deny", reason: joinReasons(combined.blocks) };
  if (combined.contexts.length > 0) {
    if (pending.size >= PENDING_MAX) pending.delete(pending.keys().next().value as string);
    pending.set(p.id, combined.contexts.map((text) => `[PreToolUse hook] ${text}`));
  }
  if (combined.ask) {
    const why = joinReasons(combined.askReasons) || "a PreToolUse hook asks to confirm this call";
    if (!gate?.canAsk) {
      return {
        action: "deny",
        reason: `tool call refused: a PreToolUse hook asked for the user's confirmation (${why}) and this run has no terminal to ask in; tell the user what you wanted to run`,
      };
    }
    gate.hookVerdict(p.id, "ask", `a hook asks: ${why}`);
  }
  const rewritten = applyRewrites(call.tool_input, combined.rewrites);
  const args = rewritten ? fromClaudeInput(p.name, p.args, call, rewritten, builtin) : p.args;
  // The allow is for these arguments (the hooks' own rewrite included); a later participant's rewrite is not allowed by it.
  if (!combined.ask && combined.allow) gate?.hookVerdict(p.id, "allow", undefined, args);
  if (!rewritten || Bun.deepEquals(args, p.args)) return { action: "continue" };
  const by = answers.filter((answer) => answer.updatedInput).map((answer) => describeHook(answer.hook));
  return { action: "modify", value: args, reason: `updatedInput from ${by.join(", ")}` };
}

async function afterTool(options: ToolHooksOptions, pending: Map<string, string[]>, p: StagePayloads["after_tool"], signal: AbortSignal): Promise<Decision<"after_tool">> {
  const { runner } = options;
  const notes = pending.get(p.id) ?? [];
  pending.delete(p.id);
  const event = p.result.is_error ? "PostToolUseFailure" : "PostToolUse";
  const builtin = options.isBuiltin(p.name);
  const call = toClaudeCall(p.name, p.args, runner.context.cwd, builtin);
  const { hooks } = await conditioned(options, event, matcherNames(call, p.name), { name: p.name, args: p.args, builtin });
  let replaced: { result: ToolResult; by: string } | undefined;
  if (hooks.length > 0) {
    const fields =
      event === "PostToolUse"
        ? { ...call, tool_response: toClaudeResponse(call, p.result), tool_use_id: p.id, duration_ms: Math.round(p.durationMs) }
        : { ...call, tool_use_id: p.id, error: textOf(p.result), is_interrupt: signal.aborted, duration_ms: Math.round(p.durationMs) };
    const answers = await runner.run(hooks, fields, signal);
    const combined = combine(answers);
    if (combined.stop !== undefined) return { action: "abort_turn", reason: `a ${event} hook stopped the agent: ${combined.stop}` };
    if (event === "PostToolUse") replaced = replacedOutput(answers, call, p.result, runner.context.log);
    // The tool already ran: a block is feedback for the model, as Claude Code gives it.
    notes.push(...combined.blocks.map((text) => `[${event} hook] ${text}`), ...combined.contexts.map((text) => `[${event} hook] ${text}`));
  }
  if (notes.length === 0 && !replaced) return { action: "continue" };
  const base = replaced?.result ?? p.result;
  const result: ToolResult = notes.length === 0 ? base : { ...base, content: [...base.content, { type: "text", text: notes.join("\n") }] };
  const reason = [replaced ? `updatedToolOutput from ${replaced.by}` : "", notes.length > 0 ? "what settings hooks said about the call, for the model" : ""].filter(Boolean).join("; ");
  return { action: "modify", value: result, reason };
}

/**
 * The result the model reads instead of the tool's, from the hooks' updatedToolOutput (the last in
 * settings order that fits the tool's output shape); one that does not fit is said and left out, as
 * Claude Code leaves it out. updatedMCPToolOutput counts for MCP tools only.
 */
function replacedOutput(answers: readonly HookAnswer[], call: ClaudeCall, original: ToolResult, log: (line: string) => void): { result: ToolResult; by: string } | undefined {
  let replaced: { result: ToolResult; by: string } | undefined;
  for (const answer of answers) {
    const wanted = answer.updatedOutput;
    if (!wanted || (wanted.mcpOnly && !call.tool_name.startsWith("mcp__"))) continue;
    const result = fromClaudeResponse(call, wanted.value, original);
    if (result) replaced = { result, by: describeHook(answer.hook) };
    else log(`${describeHook(answer.hook)}: its updatedToolOutput is not in ${call.tool_name}'s output shape, so the model reads the tool's own result`);
  }
  return replaced;
}

/**
 * The hooks of `event` whose matcher matches `names` and whose `if` (if any) the call does not fail;
 * `unsure`: those that run only because their `if` could not tell.
 */
async function conditioned(
  options: ToolHooksOptions,
  event: HookEventName,
  names: readonly string[],
  call: ConditionedCall,
): Promise<{ hooks: SettingsHook[]; unsure: ReadonlySet<SettingsHook> }> {
  const { runner } = options;
  if (!runner.hasConditions(event)) return { hooks: runner.matching(event, names), unsure: new Set() };
  const reader = await options.conditions?.();
  const readings = new Map<SettingsHook, ConditionReading>();
  const hooks = runner.matching(event, names, (hook) => {
    const reading = readingOf(hook, call, reader);
    readings.set(hook, reading);
    return reading !== "other";
  });
  // A command listed twice runs once; its allow counts when either listing's `if` matches the call whole.
  const wholly = new Set([...readings].filter(([, reading]) => reading === "matches").map(([hook]) => hookKey(hook)));
  return { hooks, unsure: new Set(hooks.filter((hook) => readings.get(hook) === "unsure" && !wholly.has(hookKey(hook)))) };
}

/** The answers, with the allows of hooks that ran only because their `if` could not tell taken out. */
function withoutAllows(answers: HookAnswer[], unsure: ReadonlySet<SettingsHook>): HookAnswer[] {
  if (unsure.size === 0) return answers;
  return answers.map((answer) => {
    if (!unsure.has(answer.hook) || answer.permission !== "allow") return answer;
    const { permission: _, permissionReason: __, ...rest } = answer;
    return rest;
  });
}

function textOf(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}
