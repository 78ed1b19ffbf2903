// Which rule decides a tool call, in Claude Code's order: a matching deny rule, else a matching ask
// rule, else a matching allow rule; none leaves the call to zot's usual rules (runs, or the
// confirmation gate asks with --no-yolo). A rule's specificity changes nothing: `Bash(git *)` in
// deny wins over `Bash(git status)` in allow.
// Rule: deny and ask look for any reason to hold (any command of a command line, any name a path
// goes by); allow looks for a reason on every count (every command of the line, the path and the
// file it leads to), so a line or a link cannot carry a call past what was allowed.
import { commandParts, withoutAssignments } from "./bash-pattern.ts";
import { realPathOf } from "../tools/sandbox.ts";
import type { PermissionRule, RuleVerdict } from "./rule.ts";

/** A tool call as the rules read it. */
export interface RuledCall {
  /** zot's name of the tool */
  name: string;
  /** whether it is zot's own tool (an extension may name a tool "bash" too) */
  builtin: boolean;
  /** bash: the command line */
  command?: string;
  /** read, edit, write: the absolute path */
  path?: string;
  /** skill: the skill's name */
  skill?: string;
}

export interface Judgement {
  verdict: RuleVerdict;
  /** the rules that decided, with their files */
  rules: PermissionRule[];
}

export function judge(rules: readonly PermissionRule[], call: RuledCall): Judgement | undefined {
  for (const verdict of ["deny", "ask"] as const) {
    const rule = rules.find((r) => r.verdict === verdict && holds(r, call, "any"));
    if (rule) return { verdict, rules: [rule] };
  }
  const allows = rules.filter((r) => r.verdict === "allow");
  if (call.builtin && call.name === "bash" && call.command !== undefined) {
    const line = call.command.trim();
    const whole = allows.find((r) => r.target.kind === "bash" && (r.target.command === undefined || r.target.exact === line));
    if (whole) return { verdict: "allow", rules: [whole] };
    const parts = commandParts(line);
    const by = parts.map((part) => allows.find((r) => r.target.kind === "bash" && r.target.command?.(part)));
    if (parts.length > 0 && by.every((rule) => rule !== undefined)) return { verdict: "allow", rules: [...new Set(by as PermissionRule[])] };
    return undefined;
  }
  const rule = allows.find((r) => holds(r, call, "every"));
  return rule ? { verdict: "allow", rules: [rule] } : undefined;
}

function holds(rule: PermissionRule, call: RuledCall, reading: "any" | "every"): boolean {
  const { target } = rule;
  switch (target.kind) {
    case "none":
      return false;
    case "tool":
      return target.matches(call.name);
    case "bash": {
      if (!call.builtin || call.name !== "bash") return false;
      if (!target.command) return true;
      const line = call.command ?? "";
      if (target.command(line.trim())) return true;
      return commandParts(line).some((part) => target.command!(part) || target.command!(withoutAssignments(part)));
    }
    case "path": {
      if (!call.builtin || !target.tools.includes(call.name)) return false;
      if (!target.path) return true;
      if (call.path === undefined) return false;
      const names = [call.path, realPathOf(call.path)];
      return reading === "any" ? names.some(target.path) : names.every(target.path);
    }
    case "skill":
      if (!call.builtin || call.name !== "skill") return false;
      return !target.skill || (call.skill !== undefined && target.skill(call.skill));
  }
}
