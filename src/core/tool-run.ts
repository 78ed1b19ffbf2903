// Running the tool calls of one step, in order, each through its gates: tool_call (a participant
// may answer, deny, rewrite or rename it), approve_tool (every approver's yes, the confirmation
// dialog among them), the tool itself raced against the abort, then after_tool.
// Rule: every call keeps a result (an unmatched tool call breaks the next request): one cancelled
// before it ran, one a participant refused, and those left when a participant ends the turn each get
// an error result; each result is announced the moment it is known. A call an extension asks for
// (call_tool, a command's tool_prompt) goes through the same gates, its events naming the extension.
import { nowIso, type ToolCallBlock, type ToolResultBlock, toWireResultContent } from "../protocol/messages.ts";
import { type ToolOrigin, type ToolResult, textResult } from "../protocol/tool.ts";
import { type AgentOutlets, type AgentState, offeredTools } from "./agent-state.ts";
import type { ToolArgs } from "./intercept.ts";
import type { PromptTool, ToolRun } from "./outcomes.ts";
import type { ToolStatus } from "./tool-step.ts";
import { waitForTool } from "./tool-wait.ts";
import { ABORTED, intercepted, type TurnEnding } from "./turn-ending.ts";

/** The step's results and when the last one was known (the tool message's time), or how a participant ended the turn. */
export type ToolsRun = { results: ToolResultBlock[]; time: string } | { ended: TurnEnding };

/** Runs a step's calls in order; `origin`: an extension asked for them (a command's tool_prompt). */
export async function runTools(state: AgentState, out: AgentOutlets, calls: ToolCallBlock[], signal: AbortSignal, origin?: ToolOrigin): Promise<ToolsRun> {
  const results: ToolResultBlock[] = [];
  let time = nowIso();
  // Each result is announced the moment it is known, so a session has it even if zot dies before the step ends.
  const settle = (block: ToolResultBlock) => {
    results.push(block);
    time = nowIso();
    out.toolResult({ block, time });
  };
  for (const call of calls) {
    if (signal.aborted) {
      const result = textResult("aborted before running", true);
      settle(resultBlock(call.id, result));
      reportOutcome(out, call, { result, status: "cancelled", executed: false, args: call.args }, origin?.extension);
      continue;
    }
    const ran = await runTool(state, out, call, signal, origin, true);
    if ("ended" in ran) {
      // Every call the model made gets its tool_result event, so no front end shows one pending
      // forever: the ones not run yet cancelled, this one as executed when it ran (an after_tool
      // participant ended the turn). Its output is not kept: the participant may have ended the
      // turn over what it said. The step's tool message is kept, unless a hard abort rewinds it.
      const reason = ran.ended.outcome.status === "error" ? ran.ended.outcome.message : "turn ended";
      for (const rest of calls.slice(results.length)) {
        const result = textResult(`turn aborted: ${reason}`, true);
        const done: ToolRun = rest === call && ran.executed ? { ...ran.executed, result } : { result, status: "cancelled", executed: false, args: rest.args };
        results.push(resultBlock(rest.id, result));
        reportOutcome(out, rest, done, origin?.extension);
      }
      if (!ran.ended.hard) out.append({ role: "tool", content: results, time: nowIso() });
      return { ended: ran.ended };
    }
    settle(resultBlock(call.id, ran.result));
    reportOutcome(out, call, ran, origin?.extension);
  }
  return { results, time };
}

/**
 * A command's tool_prompt: the extension's call, as an assistant message, and its result go into
 * the transcript before the model's turn. Undefined when the turn may go on; how the prompt ends
 * when the call was cancelled (the call and its result stay) or a participant ended it.
 */
export async function runPromptTool(state: AgentState, out: AgentOutlets, tool: PromptTool, signal: AbortSignal): Promise<TurnEnding | undefined> {
  const origin: ToolOrigin = { extension: tool.origin, chain: [tool.name] };
  const call: ToolCallBlock = { type: "tool_call", id: `call_ext_${crypto.randomUUID().replaceAll("-", "")}`, name: tool.name, args: tool.args, origin_extension: tool.origin };
  out.append({ role: "assistant", content: [call], time: nowIso() });
  out.emit({ type: "tool_call", id: call.id, name: call.name, args: call.args, origin_extension: tool.origin });
  const ran = await runTools(state, out, [call], signal, origin);
  if ("ended" in ran) return ran.ended;
  out.append({ role: "tool", content: ran.results, time: ran.time });
  return signal.aborted ? ABORTED : undefined;
}

/**
 * A tool call an extension asked for (call_tool), run exactly as the model's calls run; its events
 * carry origin_extension. Nothing goes into the transcript, and the model's record of the files it
 * saw stays as it was. A participant that would end the turn refuses this call instead, since it is
 * no turn's.
 */
export async function runToolCall(
  state: AgentState,
  out: AgentOutlets,
  call: { id: string; name: string; args: ToolArgs },
  options: { origin: ToolOrigin; signal: AbortSignal },
): Promise<ToolRun> {
  const block: ToolCallBlock = { type: "tool_call", ...call };
  out.emit({ type: "tool_call", ...call, origin_extension: options.origin.extension });
  const ran = await runTool(state, out, block, options.signal, options.origin, false);
  const run: ToolRun = "ended" in ran ? { result: textResult(endingReason(ran.ended), true), status: "blocked", executed: false, args: call.args } : ran;
  reportOutcome(out, block, run, options.origin.extension);
  return run;
}

/** What a participant that ended the turn said. */
function endingReason(ending: TurnEnding): string {
  return ending.outcome.status === "error" ? ending.outcome.message : "the call was stopped";
}

/** A call's end for observers: its tool step and its tool_result event. */
function reportOutcome(out: AgentOutlets, call: ToolCallBlock, ran: ToolRun, origin: string | undefined): void {
  const { result, extension } = ran;
  const asked = origin ? { origin } : {};
  out.toolStep({ kind: "outcome", id: call.id, name: call.name, args: ran.args, status: ran.status, executed: ran.executed, result, ...(extension ? { extension } : {}), ...asked });
  out.emit({
    type: "tool_result",
    id: call.id,
    name: call.name,
    ...(extension ? { extension } : {}),
    is_error: result.is_error,
    content: toWireResultContent(result.content),
    ...(origin ? { origin_extension: origin } : {}),
    ...(ran.status === "blocked" || ran.status === "cancelled" || ran.status === "timed_out" ? { status: ran.status } : {}),
  });
}

/**
 * One call through the tool_call stage, the approvers, the tool and after_tool. `origin`: an
 * extension asked for it; `seen`: its result goes into the transcript, so the model's record of
 * the files it saw is kept by it (not for call_tool, whose result only the extension sees).
 */
async function runTool(
  state: AgentState,
  out: AgentOutlets,
  call: ToolCallBlock,
  signal: AbortSignal,
  origin: ToolOrigin | undefined,
  seen: boolean,
): Promise<ToolRun | { ended: TurnEnding; executed?: ToolRun }> {
  const asked = origin ? { origin: origin.extension } : {};
  if (call.unparsed_args !== undefined) {
    const sent = call.unparsed_args.length > 300 ? `${call.unparsed_args.slice(0, 300)}…` : call.unparsed_args;
    return {
      result: textResult(`not run: the arguments of this ${call.name} call were not one JSON object (${JSON.stringify(sent)}); make the call again with its arguments as a JSON object`, true),
      status: "failed",
      executed: false,
      args: call.args,
    };
  }
  const gate = await state.chain.run("tool_call", { id: call.id, name: call.name, args: call.args, ...asked }, signal);
  if (gate.action === "respond") return { result: gate.result, status: gate.result.is_error ? "failed" : "completed", executed: false, args: call.args };
  if (gate.action === "deny" || gate.action === "block") {
    const base = { id: call.id, name: call.name, args: gate.payload.args };
    out.toolStep({ kind: "approval", ...base, decision: "denied", by: gate.participant, reason: gate.reason, stage: "tool_call", ...asked });
    return { result: textResult(gate.reason, true), status: "blocked", executed: false, args: gate.payload.args };
  }
  if (gate.action === "abort_turn" || gate.action === "hard_abort") return { ended: intercepted(gate.action, gate.reason) };
  // A participant may have renamed the tool (a PicoClaw hook's before_tool modify).
  const { name, args } = gate.payload;
  const tool = state.tools.find((t) => t.name === name);
  if (!tool) {
    // Only what the model is offered: a deferred tool's name costs until it is activated.
    const names = offeredTools(state).map((t) => t.name).join(", ") || "none";
    return { result: textResult(`unknown tool "${name}"; available tools: ${names}`, true), status: "failed", executed: false, args };
  }

  const approval = await state.chain.run("approve_tool", { id: call.id, name, args, ...asked }, signal);
  const extension = tool.extension;
  if (approval.action === "deny" || approval.action === "block") {
    const decision = signal.aborted ? "cancelled" : "denied";
    out.toolStep({ kind: "approval", id: call.id, name, args, decision, by: approval.participant, reason: approval.reason, stage: "approve_tool", ...asked });
    return { result: textResult(approval.reason, true), extension, status: signal.aborted ? "cancelled" : "blocked", executed: false, args };
  }
  if (approval.action === "abort_turn" || approval.action === "hard_abort") return { ended: intercepted(approval.action, approval.reason) };

  // Cancelled while an approver (a confirmation dialog) was deciding: the tool must not run.
  if (signal.aborted) {
    out.toolStep({ kind: "approval", id: call.id, name, args, decision: "cancelled", ...asked });
    return { result: textResult("aborted before running", true), extension, status: "cancelled", executed: false, args };
  }
  out.toolStep({ kind: "approval", id: call.id, name, args, decision: "approved", ...asked });

  const started = performance.now();
  let running: Promise<ToolResult>;
  // A tool left behind after an abort may still stream; its call is over, so that goes nowhere.
  let streaming = true;
  try {
    running = tool.execute(args, {
      cwd: state.cwd,
      jailed: state.jailed,
      ...(seen ? { views: state.views } : {}),
      protectedPaths: state.protectedPaths,
      ...(state.env ? { env: state.env } : {}),
      ...(origin ? { origin } : {}),
      signal,
      onProgress: (text) => {
        if (!streaming) return undefined;
        out.emit({ type: "tool_progress", id: call.id, text });
        return out.backpressure(signal);
      },
    });
  } catch (error) {
    running = Promise.reject(error);
  }
  // Raced against the abort: a tool stuck where no signal reaches it cannot hold the turn.
  const result = await waitForTool(name, running, signal);
  streaming = false;
  const durationMs = performance.now() - started;
  const after = await state.chain.run("after_tool", { id: call.id, name, args, result, durationMs, ...asked }, signal);
  const ran: ToolRun = { result, extension, status: executedStatus(result, signal), executed: true, args };
  if (after.action === "abort_turn" || after.action === "hard_abort") return { ended: intercepted(after.action, after.reason), executed: ran };
  const final = after.payload.result;
  return { ...ran, result: final, status: executedStatus(final, signal) };
}

/** How a tool that ran ended: a tool may say it timed out in its result's details. */
function executedStatus(result: ToolResult, signal: AbortSignal): ToolStatus {
  if (signal.aborted) return "cancelled";
  if (!result.is_error) return "completed";
  // The status field (an extension's tool), or the bash tool's own timed_out flag.
  const details = result.details as { status?: unknown; timed_out?: unknown } | undefined;
  return details?.status === "timed_out" || details?.timed_out === true ? "timed_out" : "failed";
}

export function resultBlock(callId: string, result: ToolResult): ToolResultBlock {
  return { type: "tool_result", call_id: callId, is_error: result.is_error, content: result.content };
}
