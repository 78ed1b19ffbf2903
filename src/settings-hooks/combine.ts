// The answers of an event's hooks, which ran in parallel, folded into one, the same way every time:
// a `continue: false` stops whatever the others said; any block or deny wins over ask, ask over
// allow; reasons and contexts are kept in settings order; input rewrites apply in settings order,
// each on the result of the ones before.
// Rule: a rewrite is what a hook changed in the input it was given: a field it returned as it
// got it (or left out) keeps what earlier hooks made of it, so two hooks that rewrite different
// fields both count (Claude Code keeps only one of them, #15897).
import type { HookAnswer } from "./hook-output.ts";

export interface Combined {
  /** the first `continue: false`'s reason, for the user */
  stop?: string;
  /** every block's reason (exit 2's stderr, decision block, permissionDecision deny) */
  blocks: string[];
  /** some hook asked for the user's confirmation, and these are the reasons given */
  ask: boolean;
  askReasons: string[];
  /** some hook allowed the call (and none asked or denied) */
  allow: boolean;
  /** every updatedInput, in settings order */
  rewrites: Record<string, unknown>[];
  contexts: string[];
}

export function combine(answers: readonly HookAnswer[]): Combined {
  const combined: Combined = { blocks: [], ask: false, askReasons: [], allow: false, rewrites: [], contexts: [] };
  for (const answer of answers) {
    if (answer.stop !== undefined && combined.stop === undefined) combined.stop = answer.stop;
    if (answer.block !== undefined) combined.blocks.push(answer.block);
    if (answer.permission === "ask") {
      combined.ask = true;
      if (answer.permissionReason) combined.askReasons.push(answer.permissionReason);
    }
    if (answer.permission === "allow") combined.allow = true;
    if (answer.updatedInput) combined.rewrites.push(answer.updatedInput);
    if (answer.context) combined.contexts.push(answer.context);
  }
  if (combined.ask || combined.blocks.length > 0) combined.allow = false;
  return combined;
}

/**
 * `original` rewritten by each of `rewrites` in turn: every field a rewrite changed (compared with
 * `original`, which every hook was given) is set on what the earlier rewrites made; undefined
 * when nothing changed.
 */
export function applyRewrites(original: Record<string, unknown>, rewrites: readonly Record<string, unknown>[]): Record<string, unknown> | undefined {
  let current: Record<string, unknown> | undefined;
  for (const rewrite of rewrites) {
    for (const [key, value] of Object.entries(rewrite)) {
      if (Bun.deepEquals(original[key], value)) continue;
      current ??= { ...original };
      current[key] = value;
    }
  }
  return current && !Bun.deepEquals(current, original) ? current : undefined;
}

/** Several reasons as one: each on its own line when there are more than one. */
export function joinReasons(reasons: readonly string[]): string {
  return reasons.length <= 1 ? (reasons[0] ?? "") : reasons.map((reason) => `- ${reason}`).join("\n");
}
