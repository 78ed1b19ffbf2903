// Claude Code's permission rules as a participant of the interception chain, at approve_tool (so
// it judges the arguments every rewrite left, the ones the tool will run with), first of the
// approvers: a deny rule denies the call, naming the rule and its file; an ask rule has the
// confirmation gate ask the person even while confirmations are off (with nobody to ask: `-p`,
// `--json`, rpc, the call is refused and the model told why); an allow rule lets the call past the
// gate unasked (`--no-yolo`). A call no rule decides goes on as it would have.
// Rule: the rules are read at each call (a file read again only when it changed); a failure of
// the participant denies the call, since a rule it could not judge may have been a deny.
// (attach.ts puts it on an agent.)
import type { Decision, Participant, StagePayloads } from "../core/intercept.ts";
import type { InterceptStage } from "../protocol/events.ts";
import { toClaudeCall } from "../settings-hooks/tool-mapping.ts";
import type { GateAccess } from "../settings-hooks/tool-participant.ts";
import { judge, type RuleBook, type RuledCall } from "./judge.ts";
import { OWN_PARTICIPANTS } from "../protocol/own-participants.ts";

export const PERMISSION_RULES_PARTICIPANT = OWN_PARTICIPANTS.permissionRules;

export interface RulesParticipantOptions {
  /** the rules as they are now for a call of the model's (`origin` undefined) or one an extension asked for, and the files they are in */
  rules(origin: string | undefined): Promise<RuleBook>;
  /** whether `name` is one of zot's built-in tools */
  isBuiltin(name: string): boolean;
  /** the working directory, for a call's relative path */
  cwd(): string;
  gate?: GateAccess;
}

export function permissionRulesParticipant(options: RulesParticipantOptions): Participant {
  return {
    name: PERMISSION_RULES_PARTICIPANT,
    builtin: true,
    priority: Number.NEGATIVE_INFINITY,
    stages: ["tool_call", "approve_tool"],
    timeoutMs: 5000,
    onFailure: "deny",
    async decide<S extends InterceptStage>(stage: S, payload: StagePayloads[S]): Promise<Decision<S>> {
      const call = payload as StagePayloads["approve_tool"];
      // First of the chain at tool_call: what was said about an earlier call with the same id (an
      // approver that denied it kept the gate from reading it) must not decide this one.
      if (stage === "tool_call") options.gate?.forget(call.id);
      if (stage !== "approve_tool") return { action: "continue" };
      const judged = judge(await options.rules(call.origin), ruledCall(call.name, call.args, options.isBuiltin(call.name), options.cwd()));
      if (!judged) return { action: "continue" };
      switch (judged.verdict) {
        case "deny":
          return { action: "deny", reason: `tool call denied by ${judged.because}` } as Decision<S>;
        case "ask":
          if (!options.gate?.canAsk) {
            return {
              action: "deny",
              reason: `tool call refused: ${judged.because} asks for the user's confirmation and this run has no terminal to ask in; tell the user what you wanted to run`,
            } as Decision<S>;
          }
          options.gate.hookVerdict(call.id, "ask", `${judged.because} asks`);
          return { action: "continue" };
        case "allow":
          options.gate?.hookVerdict(call.id, "allow", undefined, call.args);
          return { action: "continue" };
      }
    },
  };
}

/**
 * A call as the rules read it: bash's command, the file tools' absolute path, skill's name, read
 * through the same mapping the settings hooks see calls in (every spelling of an argument zot's
 * tools take).
 */
export function ruledCall(name: string, args: Record<string, unknown>, builtin: boolean, cwd: string): RuledCall {
  const input = toClaudeCall(name, args, cwd, builtin).tool_input;
  const text = (key: string) => (typeof input[key] === "string" ? (input[key] as string) : undefined);
  const path = text("file_path");
  const skill = text("skill");
  return {
    name,
    builtin,
    ...(name === "bash" ? { command: text("command") ?? "" } : {}),
    ...(path ? { path } : {}),
    // The skill tool takes "/Deploy" for "deploy": a rule is tried on both.
    ...(name === "skill" && skill !== undefined ? { skill: [...new Set([skill, skill.trim().replace(/^\//, "").toLowerCase()])] } : {}),
  };
}
