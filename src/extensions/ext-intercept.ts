// One zot extension as a participant of the interception chain (core/intercept.ts): turns a stage
// into an `event_intercept` frame and the `event_intercept_response` into a Decision. Rule: the
// chain owns ordering, timeouts and failure (5 s, allow); this file only translates, and anything
// it cannot use (modified_args that are not an object) is logged in the extension's log and ignored.
// A guard (`"fail_closed": true` in its manifest) is asked about every tool call from the start:
// a call waits while the guard is still starting, and is refused when the guard cannot answer
// (timed out, an invalid answer, modified_args it cannot use, exited, never started), as an
// approve_tool hook is.
import type { Decision, Participant, StagePayloads } from "../core/intercept.ts";
import type { InterceptStage } from "../protocol/events.ts";
import type { ExtFrameOf, ExtInterceptName, HostFrameOf } from "../protocol/ext-frames.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import { BUILTIN_TOOL_NAMES } from "./builtin-names.ts";
import { toolResultFromExt } from "./ext-tool.ts";

/**
 * The chain's deadline is the host's plus this: the host times out first, so the extension's log
 * says "timed out after 5 s" rather than "cancelled", and the chain still allows.
 */
const CHAIN_MARGIN_MS = 250;

export type InterceptFields = Omit<HostFrameOf<"event_intercept">, "type" | "id">;
export type InterceptReply = ExtFrameOf<"event_intercept_response">;

/** What the participant needs from the extension's host. */
export interface InterceptTarget {
  readonly name: string;
  readonly priority: number;
  /** the host's own deadline for an answer */
  readonly interceptTimeoutMs: number;
  /** the manifest's allow_builtin_respond: `respond` may answer for zot's built-in tools */
  readonly allowBuiltinRespond: boolean;
  /** the manifest's fail_closed: a tool call it cannot judge is refused */
  readonly failClosed: boolean;
  /** whether it runs and can answer */
  readonly live: boolean;
  /** why it cannot answer, when it is not live */
  readonly unavailable: string;
  /** settles once the start is over (at once when it is); never rejects */
  start(): Promise<void>;
  /** the intercepts the extension subscribed to (empty once it is gone) */
  intercepts(): readonly ExtInterceptName[];
  /** sends event_intercept and waits for the answer; rejects when the extension cannot answer */
  intercept(fields: InterceptFields, signal: AbortSignal): Promise<InterceptReply>;
  log(line: string): void;
}

export function extensionParticipant(target: InterceptTarget): Participant {
  return {
    name: target.name,
    priority: target.priority,
    // A getter: subscriptions may grow at any time, and the chain reads this on every run.
    get stages(): readonly InterceptStage[] {
      // before_agent_start is answered outside the chain, in load order (agent-start.ts).
      const stages: InterceptStage[] = target
        .intercepts()
        .filter((name): name is Exclude<ExtInterceptName, "before_agent_start"> => name !== "before_agent_start");
      if (target.failClosed && !stages.includes("tool_call")) stages.push("tool_call");
      return stages;
    },
    timeoutMs: target.interceptTimeoutMs + CHAIN_MARGIN_MS,
    onFailure: target.failClosed ? "deny" : "allow",
    async decide<S extends InterceptStage>(stage: S, payload: StagePayloads[S], signal: AbortSignal): Promise<Decision<S>> {
      if (stage === "tool_call" && target.failClosed) {
        await target.start();
        if (!target.live) throw new Error(`${target.unavailable}; it guards tool calls (fail_closed), so none runs until it does`);
        // A guard that did not subscribe to tool_call has no opinion on them.
        if (!target.intercepts().includes("tool_call")) return { action: "continue" };
      }
      const decision = await decideStage(target, stage, payload, signal);
      return decision as Decision<S>;
    },
  };
}

async function decideStage(
  target: InterceptTarget,
  stage: InterceptStage,
  payload: StagePayloads[InterceptStage],
  signal: AbortSignal,
): Promise<Decision> {
  switch (stage) {
    case "tool_call": {
      const p = payload as StagePayloads["tool_call"];
      const reply = await target.intercept(
        { event: "tool_call", tool_id: p.id, tool_name: p.name, tool_args: p.args, ...(p.origin ? { origin_extension: p.origin } : {}) },
        signal,
      );
      return toolCallDecision(target, p.name, reply);
    }
    case "turn_start": {
      const p = payload as StagePayloads["turn_start"];
      const reply = await target.intercept({ event: "turn_start", step: p.step }, signal);
      if (reply.block) return { action: "block", reason: reply.reason || "no reason given" };
      return { action: "continue" };
    }
    case "assistant_message": {
      const p = payload as StagePayloads["assistant_message"];
      const reply = await target.intercept({ event: "assistant_message", text: p.text }, signal);
      if (reply.block) return { action: "block", reason: reply.reason || `hidden by ${target.name}` };
      // An empty replacement is "no opinion": it never erases the text (or an earlier rewrite).
      if (reply.replace_text) return { action: "modify", value: reply.replace_text, ...reasonOf(reply) };
      return { action: "continue" };
    }
    default:
      return { action: "continue" };
  }
}

function toolCallDecision(target: InterceptTarget, tool: string, reply: InterceptReply): Decision {
  if (reply.block) return { action: "deny", reason: reply.reason || `blocked by ${target.name}` };
  if (reply.respond && BUILTIN_TOOL_NAMES.has(tool) && !target.allowBuiltinRespond) {
    // A guard's answer it may not give is no approval either: the call must not run as written.
    if (target.failClosed) {
      throw new Error(`it answered ${tool} with respond, which it may do for zot's built-in tools only with "allow_builtin_respond": true in extension.json`);
    }
    // As for a hook (hook-intercept.ts): an answer for bash would stand in for a command that no
    // confirmation or permission rule ever saw.
    target.log(
      `respond for zot's built-in tool "${tool}" is not allowed (it would skip the confirmation and permission rules); the tool runs as usual. Set "allow_builtin_respond": true in extension.json to allow it`,
    );
  } else if (reply.respond) {
    const result = toolResultFromExt(target.name, tool, reply.respond.content, reply.respond.is_error ?? false);
    return { action: "respond", result, ...reasonOf(reply) };
  }
  const args = reply.modified_args;
  if (args === undefined || args === null) return { action: "continue" };
  if (!isJsonObject(args)) {
    // A guard's rewrite it cannot use is no approval: the call it asked to change must not run as the model wrote it.
    if (target.failClosed) throw new Error(`it sent modified_args for ${tool} that are not a JSON object (${describe(args)})`);
    target.log(`modified_args for ${tool} must be a JSON object (got ${describe(args)}); ignored`);
    return { action: "continue" };
  }
  return { action: "modify", value: args, ...reasonOf(reply) };
}

function reasonOf(reply: InterceptReply): { reason?: string } {
  return reply.reason ? { reason: reply.reason } : {};
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  const text = JSON.stringify(value) ?? String(value);
  return `${typeof value} ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}
