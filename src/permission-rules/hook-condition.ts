// A settings hook's `if` read as a permission rule (settings-hooks/hook-condition.ts says what it
// does), both ways a rule is read: the hook runs for a call the rule would hold as a deny rule (any
// command of the line, in any reading: `git push` after `&&`, in `$(…)`), and its allow counts only
// for a call the rule would allow as an allow rule (every command of the line, the path and where
// it leads). Between the two (`npm test; touch x` under `Bash(npm test *)`, a line that cannot be
// read to its end) the call is unsure: the hook runs, and an allow from it does not count.
// Rule: the same readings as deny and allow rules, so an approver scoped by `if` lets through no
// more than an allow rule of that text would.
import type { ConditionedCall, ConditionReader } from "../settings-hooks/hook-condition.ts";
import type { SettingsHook } from "../settings-hooks/settings-file.ts";
import { judge, type RuleBook } from "./judge.ts";
import { ruledCall } from "./participant.ts";
import type { PathAnchors } from "./path-pattern.ts";
import { parseRule } from "./rule.ts";

/** A reader of hooks' `if` rules for a run in `anchors.cwd`; a rule it cannot read is said once (`log`), and reads as unsure. */
export function hookConditionReader(anchors: PathAnchors, log: (message: string) => void, protects: Pick<RuleBook, "files" | "guarded"> = { files: [] }): ConditionReader {
  const books = new Map<string, { runs: RuleBook; allows: RuleBook } | undefined>();
  const booksOf = (condition: string, hook: SettingsHook) => {
    if (books.has(condition)) return books.get(condition);
    const runs = parseRule(condition, "deny", "if", anchors);
    const allows = parseRule(condition, "allow", "if", anchors);
    // The allow reading is held to what an allow rule is: a change to a rule file or to executable configuration asks.
    const both = "error" in runs || "error" in allows ? undefined : { runs: { rules: [runs], files: [] }, allows: { rules: [allows], ...protects } };
    if ("error" in runs) {
      log(`${hook.source.label}: ${hook.at}.if ${JSON.stringify(condition)} ${runs.error}; the hook runs for every call its matcher matches, and an allow from it does not count`);
    }
    books.set(condition, both);
    return both;
  };
  return (condition: string, hook: SettingsHook, call: ConditionedCall) => {
    const both = booksOf(condition, hook);
    if (!both) return "unsure";
    const ruled = ruledCall(call.name, call.args, call.builtin, anchors.cwd);
    if (judge(both.allows, ruled)?.verdict === "allow") return "matches";
    return judge(both.runs, ruled) !== undefined ? "unsure" : "other";
  };
}
