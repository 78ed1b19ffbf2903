// A settings hook's `if` read as a permission rule (settings-hooks/hook-condition.ts says what it
// does): a call the rule would deny, had it been a deny rule, matches; a command line a deny rule
// would ask about because it cannot be read to its end is unsure; anything else is not matched.
// Rule: one reading for both, so `if: "Bash(git push *)"` matches exactly the calls
// `deny: ["Bash(git push *)"]` holds (`git push` after `&&`, in `$(…)`, behind `sudo`, …).
import type { ConditionedCall, ConditionReader } from "../settings-hooks/hook-condition.ts";
import type { SettingsHook } from "../settings-hooks/settings-file.ts";
import { judge, type RuleBook } from "./judge.ts";
import { ruledCall } from "./participant.ts";
import type { PathAnchors } from "./path-pattern.ts";
import { parseRule } from "./rule.ts";

/** A reader of hooks' `if` rules for a run in `anchors.cwd`; a rule it cannot read is said once (`log`), and reads as unsure. */
export function hookConditionReader(anchors: PathAnchors, log: (message: string) => void): ConditionReader {
  const books = new Map<string, RuleBook | undefined>();
  const bookOf = (condition: string, hook: SettingsHook) => {
    if (books.has(condition)) return books.get(condition);
    const rule = parseRule(condition, "deny", "if", anchors);
    const book = "error" in rule ? undefined : { rules: [rule], files: [] };
    if ("error" in rule) {
      log(`${hook.source.label}: ${hook.at}.if ${JSON.stringify(condition)} ${rule.error}; the hook runs for every call its matcher matches, and an allow from it does not count`);
    }
    books.set(condition, book);
    return book;
  };
  return (condition: string, hook: SettingsHook, call: ConditionedCall) => {
    const book = bookOf(condition, hook);
    if (!book) return "unsure";
    const verdict = judge(book, ruledCall(call.name, call.args, call.builtin, anchors.cwd))?.verdict;
    return verdict === "deny" ? "matches" : verdict === "ask" ? "unsure" : "other";
  };
}
