// A settings hook's `if` (Claude Code 2.1.85+, on PreToolUse, PostToolUse and PostToolUseFailure):
// `{"type": "command", "command": "guard.sh", "if": "Bash(git push *)"}` runs the hook only for the
// calls that rule matches, in the syntax and with the matching of `permissions` rules. The rules
// are permission-rules' to read (that layer sits above this one), so the runtime hands a reader in.
// Rule: where the rule cannot tell (a command line it cannot read to its end, an `if` it cannot
// parse), the hook runs, so a guard still guards, and an allow from it does not count, so an
// approver scoped to `npm test` does not approve what it was not scoped to.
import type { SettingsHook } from "./settings-file.ts";

/** How a call stands to a hook's `if`: matched, not to be told (runs, its allow void), or not matched (does not run). */
export type ConditionReading = "matches" | "unsure" | "other";

/** A tool call as an `if` is tried on: zot's name of the tool and its arguments. */
export interface ConditionedCall {
  name: string;
  args: Record<string, unknown>;
  /** whether it is zot's own tool (an extension may name a tool "bash" too) */
  builtin: boolean;
}

/** Reads `condition` (a hook's `if`, as written) against `call`; says a rule it cannot read once, naming the hook. */
export type ConditionReader = (condition: string, hook: SettingsHook, call: ConditionedCall) => ConditionReading;

/** Where `hook` stands for `call`: hooks without `if` always match. */
export function readingOf(hook: SettingsHook, call: ConditionedCall, reader: ConditionReader | undefined): ConditionReading {
  if (hook.condition === undefined) return "matches";
  if (hook.condition === null || reader === undefined) return "unsure";
  return reader(hook.condition, hook, call);
}
