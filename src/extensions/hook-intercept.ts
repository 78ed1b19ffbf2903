// One hook process as a participant of the interception chain (core/intercept.ts): each stage
// becomes its hook.* request, each reply a Decision, by PicoClaw's rules.
// Rule: failures follow the engine — an interceptor (before_llm, after_llm, before_tool,
// after_tool) that errors, times out or is dead is skipped; an approver (approve_tool) that does
// denies. An action a stage does not take is logged in the hook's log and ignored. `respond` for a
// zot built-in tool counts only when the hook's config allows it, because it skips approval.
// A hook still starting (the TUI and rpc do not wait for it) is waited for by every call, so what it
// guards never runs past it; a tool call that waited for a hook that then failed to start is refused.
import { issueSentence } from "../protocol/schema-issue.ts";
import * as v from "valibot";
import type { Decision, Participant, StagePayloads } from "../core/intercept.ts";
import { errorText } from "../protocol/error-text.ts";
import type { InterceptStage } from "../protocol/events.ts";
import {
  AfterLlmResult,
  AfterToolResult,
  ApproveToolResult,
  BeforeLlmResult,
  BeforeToolResult,
  type HookIntercept,
  HookLlmResponse,
  type HookMeta,
  type HookMethod,
  HookToolResult,
} from "../protocol/hook-rpc.ts";
import { asGoReads } from "../protocol/go-json.ts";
import { untilAborted } from "../protocol/until-aborted.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import type { HookSpec, HookTimeouts } from "./hook-spec.ts";
import {
  applyHookRequest,
  applyHookResponse,
  applyHookToolResult,
  llmOptions,
  respondedResult,
  toHookMessages,
  toHookResponse,
  toHookToolResult,
  toHookTools,
} from "./hook-wire.ts";

/**
 * The chain's deadline is the host's plus this, so the host's own timeout decides (skip or deny
 * by the rule above) and the chain's is only a backstop.
 */
const CHAIN_MARGIN_MS = 250;

/** What the participant needs from the hook's host and the run around it. */
export interface HookTarget {
  readonly name: string;
  readonly spec: HookSpec;
  call(method: Exclude<HookMethod, "hook.hello">, params: unknown, timeoutMs: number, signal?: AbortSignal): Promise<unknown>;
  log(line: string): void;
  /** `meta` of a request made now */
  meta(tracePath: string): HookMeta;
  /** the channel / chat_id pair */
  readonly chatId: string;
  /** shows a tool result's for_user text to the user */
  showUser(text: string): void;
  /** zot's own tool names, for which respond needs allow_builtin_respond */
  readonly builtinTools: ReadonlySet<string>;
  /** not up yet: a call waits for started() first */
  readonly starting: boolean;
  /** resolves once the start is over (hello answered, or the start failed) */
  started(): Promise<void>;
  /** answered hello and still running */
  readonly live: boolean;
  /** why the hook is not running, as a sentence naming it */
  readonly error: string | undefined;
}

const STAGE_OF: Record<HookIntercept, InterceptStage> = {
  before_llm: "before_llm",
  after_llm: "after_llm",
  before_tool: "tool_call",
  after_tool: "after_tool",
  approve_tool: "approve_tool",
};

export function hookParticipant(target: HookTarget): Participant {
  const { spec } = target;
  const stages: InterceptStage[] = [];
  if (spec.modes.includes("llm")) stages.push("before_llm", "after_llm");
  if (spec.modes.includes("tool")) stages.push("tool_call", "after_tool");
  if (spec.modes.includes("approve")) stages.push("approve_tool");
  const timeoutMs: Partial<Record<InterceptStage, number>> = {};
  // While the hook starts, a call may wait out its hello deadline first; the hello's own deadline
  // then decides, never the chain's (which would let a waiting tool call through as skipped).
  const whileStarting: Partial<Record<InterceptStage, number>> = {};
  for (const [hookStage, stage] of Object.entries(STAGE_OF)) {
    timeoutMs[stage] = spec.timeouts[hookStage as keyof HookTimeouts] + CHAIN_MARGIN_MS;
    whileStarting[stage] = timeoutMs[stage] + spec.timeouts.hello;
  }
  return {
    name: target.name,
    priority: spec.priority,
    stages,
    // A getter: the chain reads it at each call.
    get timeoutMs() {
      return target.starting ? whileStarting : timeoutMs;
    },
    onFailure: "skip",
    async decide<S extends InterceptStage>(stage: S, payload: StagePayloads[S], signal: AbortSignal): Promise<Decision<S>> {
      return (await decideStage(target, stage, payload, signal)) as Decision<S>;
    },
  };
}

async function decideStage(target: HookTarget, stage: InterceptStage, payload: StagePayloads[InterceptStage], signal: AbortSignal): Promise<Decision> {
  try {
    if (target.starting) {
      // Waits for the hook's start to be over, or for the signal (which fails the call).
      await untilAborted(target.started(), signal);
      if (signal.aborted) throw signal.reason;
      if (!target.live && (stage === "tool_call" || stage === "approve_tool")) {
        const why = target.error ?? `${target.name} is not running`;
        target.log(`${why}; a ${stage === "tool_call" ? "before_tool" : "approve_tool"} call that waited for the hook to start is refused`);
        return { action: "deny", reason: `${why}; this tool call waited for the hook to start and is refused` };
      }
    }
    switch (stage) {
      case "before_llm":
        return await beforeLlm(target, payload as StagePayloads["before_llm"], signal);
      case "after_llm":
        return await afterLlm(target, payload as StagePayloads["after_llm"], signal);
      case "tool_call":
        return await beforeTool(target, payload as StagePayloads["tool_call"], signal);
      case "approve_tool":
        return await approveTool(target, payload as StagePayloads["approve_tool"], signal);
      case "after_tool":
        return await afterTool(target, payload as StagePayloads["after_tool"], signal);
      default:
        return { action: "continue" };
    }
  } catch (err) {
    if (signal.aborted) throw err;
    const why = errorText(err);
    if (stage === "approve_tool") {
      target.log(`${why}; the tool is denied`);
      return { action: "deny", reason: `tool approval hook "${target.name}" failed: ${why}` };
    }
    target.log(`${why}; skipped`);
    // The chain logs it too (skip), where the user's diagnostics go.
    throw err;
  }
}

/** Calls the method and validates its result; a result of the wrong shape fails the call. */
async function ask<T>(
  target: HookTarget,
  method: Exclude<HookMethod, "hook.hello">,
  schema: v.GenericSchema<unknown, T>,
  params: unknown,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<T> {
  const result = await target.call(method, params, timeoutMs, signal);
  // PicoClaw (Go) reads a reply's field names without regard to case, and null as absent.
  const shaped = asGoReads(schema, result);
  const parsed = v.safeParse(schema, shaped);
  if (parsed.success) return parsed.output;
  const problem = issueSentence(parsed.issues);
  // A reply that plainly denies or aborts does so even with another field malformed: a broken
  // reply must never let through the call it was asked to stop.
  const action = isJsonObject(shaped) ? shaped.action : undefined;
  if (typeof action === "string" && STOPPING_ACTIONS.has(action)) {
    const reason = isJsonObject(shaped) && typeof shaped.reason === "string" ? shaped.reason : undefined;
    const kept = v.safeParse(schema, reason === undefined ? { action } : { action, reason });
    if (kept.success) {
      target.log(`hook "${target.name}" answered ${method} with an invalid result (${problem}); its ${action} is kept, the rest dropped`);
      return kept.output;
    }
  }
  throw new Error(`hook "${target.name}" answered ${method} with an invalid result (${problem})`);
}

/** The actions that stop something; kept from a reply that is otherwise malformed. */
const STOPPING_ACTIONS = new Set(["deny_tool", "abort_turn", "hard_abort"]);

function place(target: HookTarget, tracePath: string) {
  return { meta: target.meta(tracePath), channel: "cli", chat_id: target.chatId };
}

/** abort_turn and hard_abort, at any stage; undefined for every other action. */
function abortDecision(hookStage: HookIntercept, action: string | undefined, reason: string | undefined): Decision | undefined {
  const why = reason || "hook requested turn abort";
  if (action === "abort_turn") return { action: "abort_turn", reason: `hook aborted turn during ${hookStage}: ${why}` };
  if (action === "hard_abort") return { action: "hard_abort", reason: `hook hard-aborted turn during ${hookStage}: ${why}` };
  return undefined;
}

/** continue, modify, "" and a missing action apply the payload; anything else is ignored. */
function applies(target: HookTarget, hookStage: HookIntercept, action: string | undefined): boolean {
  if (action === undefined || action === "" || action === "continue" || action === "modify") return true;
  target.log(`${hookStage}: action "${action}" is not supported here; the hook's answer is ignored`);
  return false;
}

async function beforeLlm(target: HookTarget, p: StagePayloads["before_llm"], signal: AbortSignal): Promise<Decision> {
  const { request } = p;
  const sent = toHookMessages(request);
  const tools = toHookTools(request.tools);
  const params = {
    ...place(target, "turn.llm.request"),
    model: request.model.id,
    messages: sent.map((s) => s.message),
    ...(tools.length > 0 ? { tools } : {}),
    options: llmOptions(request),
  };
  const reply = await ask(target, "hook.before_llm", BeforeLlmResult, params, target.spec.timeouts.before_llm, signal);
  const abort = abortDecision("before_llm", reply?.action, reply?.reason);
  if (abort) return abort;
  if (!applies(target, "before_llm", reply?.action) || !reply?.request) return { action: "continue" };
  const next = applyHookRequest(request, sent, reply.request);
  return next === request ? { action: "continue" } : { action: "modify", value: next, ...reasonOf(reply.reason) };
}

async function afterLlm(target: HookTarget, p: StagePayloads["after_llm"], signal: AbortSignal): Promise<Decision> {
  const params = { ...place(target, "turn.llm.response"), model: p.request.model.id, response: toHookResponse(p.response) };
  const reply = await ask(target, "hook.after_llm", AfterLlmResult, params, target.spec.timeouts.after_llm, signal);
  const abort = abortDecision("after_llm", reply?.action, reply?.reason);
  if (abort) return abort;
  if (!applies(target, "after_llm", reply?.action) || !reply?.response) return { action: "continue" };
  // PicoClaw's shape: the whole params object, the response nested in it; a bare response works too.
  const inner = isJsonObject(reply.response.response) ? reply.response.response : reply.response;
  const response = v.safeParse(HookLlmResponse, asGoReads(HookLlmResponse, inner));
  if (!response.success) {
    target.log(`after_llm: the modified response is not a response (${response.issues[0].message}); ignored`);
    return { action: "continue" };
  }
  const next = applyHookResponse(p.response, response.output);
  return next ? { action: "modify", value: next, ...reasonOf(reply.reason) } : { action: "continue" };
}

function toolParams(target: HookTarget, tracePath: string, name: string, args: Record<string, unknown>) {
  // PicoClaw leaves out an empty arguments object.
  return { ...place(target, tracePath), tool: name, ...(Object.keys(args).length > 0 ? { arguments: args } : {}) };
}

async function beforeTool(target: HookTarget, p: StagePayloads["tool_call"], signal: AbortSignal): Promise<Decision> {
  const params = toolParams(target, "turn.tool.before", p.name, p.args);
  const reply = await ask(target, "hook.before_tool", BeforeToolResult, params, target.spec.timeouts.before_tool, signal);
  const abort = abortDecision("before_tool", reply?.action, reply?.reason);
  if (abort) return abort;
  if (reply?.action === "deny_tool") {
    return { action: "deny", reason: `Tool execution denied by hook${reply.reason ? `: ${reply.reason}` : ""}` };
  }
  if (reply?.action === "respond") return respond(target, p.name, reply.result ?? undefined);
  if (!applies(target, "before_tool", reply?.action) || !reply?.call) return { action: "continue" };
  const tool = reply.call.tool || p.name;
  const args = reply.call.arguments === undefined ? p.args : (reply.call.arguments ?? {});
  if (tool === p.name && Bun.deepEquals(args, p.args)) return { action: "continue" };
  return { action: "modify", value: args, ...(tool !== p.name ? { tool } : {}), ...reasonOf(reply.reason) };
}

function respond(target: HookTarget, tool: string, result: HookToolResult | undefined): Decision {
  if (!result) {
    target.log(`before_tool: respond without a "result" for ${tool}; the tool runs as usual`);
    return { action: "continue" };
  }
  if (target.builtinTools.has(tool) && !target.spec.allowBuiltinRespond) {
    target.log(
      `before_tool: respond for zot's built-in tool "${tool}" is not allowed (it would skip approval); the tool runs as usual. Set "allow_builtin_respond": true in the hook's config to allow it`,
    );
    return { action: "continue" };
  }
  showForUser(target, result);
  return { action: "respond", result: respondedResult(target.name, tool, result), reason: `answered by hook ${target.name}` };
}

function showForUser(target: HookTarget, result: HookToolResult): void {
  if (result.for_user && !result.silent) target.showUser(result.for_user);
}

async function approveTool(target: HookTarget, p: StagePayloads["approve_tool"], signal: AbortSignal): Promise<Decision> {
  const params = toolParams(target, "turn.tool.approve", p.name, p.args);
  const reply = await ask(target, "hook.approve_tool", ApproveToolResult, params, target.spec.timeouts.approve_tool, signal);
  if (reply?.approved === true) return { action: "continue" };
  return { action: "deny", reason: `Tool execution denied by approval hook${reply?.reason ? `: ${reply.reason}` : ""}` };
}

async function afterTool(target: HookTarget, p: StagePayloads["after_tool"], signal: AbortSignal): Promise<Decision> {
  const params = {
    ...toolParams(target, "turn.tool.after", p.name, p.args),
    result: toHookToolResult(p.result),
    duration: Math.round(p.durationMs * 1_000_000),
  };
  const reply = await ask(target, "hook.after_tool", AfterToolResult, params, target.spec.timeouts.after_tool, signal);
  const abort = abortDecision("after_tool", reply?.action, reply?.reason);
  if (abort) return abort;
  if (!applies(target, "after_tool", reply?.action) || !reply?.result) return { action: "continue" };
  // PicoClaw's shape: the whole params object, the result nested in it; a bare ToolResult works too.
  const inner = isJsonObject(reply.result.result) ? reply.result.result : reply.result;
  const result = v.safeParse(HookToolResult, asGoReads(HookToolResult, inner));
  if (!result.success) {
    target.log(`after_tool: the modified result is not a tool result (${result.issues[0].message}); ignored`);
    return { action: "continue" };
  }
  showForUser(target, result.output);
  const next = applyHookToolResult(p.result, result.output);
  return next ? { action: "modify", value: next, ...reasonOf(reply.reason) } : { action: "continue" };
}

function reasonOf(reason: string | undefined): { reason?: string } {
  return reason ? { reason } : {};
}
