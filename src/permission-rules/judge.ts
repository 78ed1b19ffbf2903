// Which rule decides a tool call, in Claude Code's order: a matching deny rule, else a matching ask
// rule, else a matching allow rule; none leaves the call to zot's usual rules (runs, or the
// confirmation gate asks with --no-yolo). A rule's specificity changes nothing: `Bash(git *)` in
// deny wins over `Bash(git status)` in allow. Two things ask whatever the allow rules say: a
// command line a Bash deny or ask rule cannot read to its end, and a change to a file that holds
// the rules (the model does not edit away what holds it back); and an allow rule does not let
// through a change to executable configuration (.mcp.json, hooks, extensions: what a later run
// starts, and anything in a git directory, whose config and hooks git runs), which asks instead:
// acceptEdits's `Edit(./**)` must not let the model plant a server or a core.fsmonitor.
// Rule: deny and ask look for any reason to hold (any command of a line, in any reading; the path or
// where it leads); allow looks for a reason on every count (every command as written, the path and
// where it leads), so a line or a link cannot carry a call past what was allowed.
import type { ProtectedPath } from "../protocol/tool.ts";
import { protectedBy } from "../tools/protected-paths.ts";
import { realPathOf } from "../tools/sandbox.ts";
import { commandLine, readingsOf } from "./command-line.ts";
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
  /** skill: the skill's name as written, and as the skill tool reads it (no `/`, lower case) */
  skill?: readonly string[];
}

export interface Judgement {
  verdict: RuleVerdict;
  /** what decided, as the user and the model read it: `the permission rule "Bash(rm *)" (.claude/settings.json)` */
  because: string;
}

export interface RuleBook {
  rules: readonly PermissionRule[];
  /** the files the rules are in (absolute), which a change asks about while they hold rules */
  files: readonly string[];
  /** the executable configuration a later run starts (protectedPaths' whileJailed entries): no allow rule lets a change to it through */
  guarded?: readonly ProtectedPath[];
}

export function judge(book: RuleBook, call: RuledCall): Judgement | undefined {
  const { rules } = book;
  const line = call.builtin && call.name === "bash" ? commandLine(call.command ?? "") : undefined;
  const named = (found: readonly PermissionRule[]) =>
    found.length === 1 && found[0]!.because !== undefined
      ? found[0]!.because
      : `the permission rule${found.length > 1 ? "s" : ""} ${found.map((r) => `"${r.text}" (${r.source})`).join(", ")}`;

  for (const verdict of ["deny", "ask"] as const) {
    const rule = rules.find((r) => r.verdict === verdict && holds(r, call, line));
    if (rule) return { verdict, because: named([rule]) };
  }
  if (line && (!line.readable || line.dynamic.length > 0 || line.piped.length > 0)) {
    const unread = rules.filter((r) => r.verdict !== "allow" && r.target.kind === "bash" && r.target.command);
    const why = !line.readable
      ? "a command with a quote or a bracket left open"
      : line.dynamic.length > 0
        ? `a command whose name is known only when it runs (${line.dynamic[0]})`
        : `a pipe into a shell, which runs what the pipe carries (${line.piped[0]})`;
    // One subject for the sentence the caller ends ("… asks"), however many rules.
    const subject = unread.length === 1 ? named(unread) : `each of ${named(unread)}`;
    if (unread.length > 0) return { verdict: "ask", because: `${subject}, which cannot be checked on ${why},` };
  }
  if (rules.length > 0 && changesRuleFile(book.files, call)) {
    return { verdict: "ask", because: `a change to ${call.path}, a file that holds permission rules,` };
  }

  const allows = rules.filter((r) => r.verdict === "allow");
  if (line) {
    if (!line.readable) return undefined;
    const whole = (call.command ?? "").trim();
    const all = allows.find((r) => r.target.kind === "bash" && (r.target.command === undefined || r.target.exact === whole));
    if (all) return { verdict: "allow", because: named([all]) };
    // A command whose name is known only when it runs, or a pipe into a shell, is allowed only by a rule that allows every command.
    if (line.dynamic.length > 0 || line.piped.length > 0) return undefined;
    const by = line.commands.map((command) => allows.find((r) => r.target.kind === "bash" && r.target.command?.(command)));
    if (line.commands.length > 0 && by.every((rule) => rule !== undefined)) return { verdict: "allow", because: named([...new Set(by as PermissionRule[])]) };
    return undefined;
  }
  const rule = allows.find((r) => holds(r, call, undefined, "every"));
  if (!rule) return undefined;
  const guarded = changedConfig(book.guarded ?? [], call);
  if (guarded) return { verdict: "ask", because: `a change to ${call.path}, ${guarded.what}, ${guarded.runs} (${named([rule])} does not cover that),` };
  return { verdict: "allow", because: named([rule]) };
}

/** The executable configuration a write or edit of zot's would change, if any, and when it would run. */
function changedConfig(guarded: readonly ProtectedPath[], call: RuledCall): { what: string; runs: string } | undefined {
  if (!call.builtin || (call.name !== "edit" && call.name !== "write") || call.path === undefined) return undefined;
  const real = realPathOf(call.path);
  const git = insideGitDirectory(call.path) || insideGitDirectory(real);
  const entry = guarded.length > 0 ? protectedBy(guarded, real, true) : undefined;
  if (!entry && !git) return undefined;
  return { what: entry?.what ?? GIT_DIRECTORY, runs: git ? "which git runs at the next git command" : "which a later run would start" };
}

/**
 * Anything in a git directory (`.git/…`, a submodule's `.git/modules/x/…`, a nested repository's
 * `sub/.git/…`) or a `.git` file itself: its config and hooks are what git runs at the user's next
 * git command, and which of its files git reads as configuration is git's to say, so all of it asks.
 */
const GIT_DIRECTORY = "part of a git repository's own directory (.git), where its configuration and hooks are";

function insideGitDirectory(path: string): boolean {
  return path.split(/[\\/]/).some((part) => part.toLowerCase() === ".git");
}

function holds(rule: PermissionRule, call: RuledCall, line: ReturnType<typeof commandLine> | undefined, reading: "any" | "every" = "any"): boolean {
  const { target } = rule;
  switch (target.kind) {
    case "none":
      return false;
    case "tool":
      return target.matches(call.name);
    case "bash": {
      if (!line) return false;
      const test = target.command;
      if (!test) return true;
      // A rule written with `|` (`Bash(curl * | sh)`) is a pipeline: tried on each statement too.
      if (target.pipeline && line.statements.some((statement) => readingsOf(statement).some(test))) return true;
      // A here-document's lines count: `bash <<EOF` runs them.
      return [...line.commands, ...line.heredocs].some((command) => readingsOf(command).some(test));
    }
    case "path": {
      if (!call.builtin || !target.tools.includes(call.name)) return false;
      if (!target.path) return true;
      if (call.path === undefined) return false;
      const names = [call.path, realPathOf(call.path)];
      return reading === "any" ? names.some(target.path) : names.every(target.path);
    }
    case "skill": {
      if (!call.builtin || call.name !== "skill") return false;
      if (!target.skill) return true;
      if (call.skill === undefined) return false;
      return reading === "any" ? call.skill.some(target.skill) : call.skill.every(target.skill);
    }
  }
}

function changesRuleFile(files: readonly string[], call: RuledCall): boolean {
  if (!call.builtin || (call.name !== "edit" && call.name !== "write") || call.path === undefined) return false;
  const real = realPathOf(call.path);
  return files.some((file) => file === call.path || realPathOf(file) === real);
}
