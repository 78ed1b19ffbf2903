// The hooks the program running zot registers (the Claude Agent SDK's `hooks` option, sent in its
// `initialize`): `{"PreToolUse": [{"matcher": "Bash", "hookCallbackIds": ["hook_0"], "timeout": 30}]}`,
// as settings hooks whose handler asks the program (a `hook_callback` request) instead of running
// a command. They run beside the settings files' hooks, after them, and are combined as they are.
// Rule: a part zot cannot use (an event it has no place for, a bad matcher) is a warning naming
// it, and the rest still run.
import { HOOK_EVENTS, isHookEvent } from "./events.ts";
import { runCallback } from "./callback-run.ts";
import { compileMatcher } from "./matcher.ts";
import type { SettingsHook, SettingsSource } from "./settings-file.ts";

/** A matcher's timeout when the program names none, as the Claude Agent SDK's: 60 s. */
const DEFAULT_CALLBACK_TIMEOUT_S = 60;

/** Asks the program to run its callback `id` with the event's input; resolves with its answer. */
export type HostHookCall = (id: string, input: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>;

export interface RegisteredHooks {
  [event: string]: readonly { matcher?: string | null; hookCallbackIds: readonly string[]; timeout?: number }[];
}

const SOURCE: SettingsSource = { file: "", label: "the program's hooks", scope: "user" };

/**
 * `gone`: why the program can no longer answer (it closed stdin), or undefined while it can. Its
 * guards then hold: a PreToolUse hook refuses the call and a UserPromptSubmit hook the prompt, as
 * a command hook that exits 2 would; its other hooks do nothing.
 */
export function hostHooks(registered: RegisteredHooks, call: HostHookCall, gone: () => string | undefined = () => undefined): { hooks: SettingsHook[]; warnings: string[] } {
  const hooks: SettingsHook[] = [];
  const warnings: string[] = [];
  for (const [event, groups] of Object.entries(registered)) {
    if (!isHookEvent(event)) {
      warnings.push(`the program's ${event} hooks never run: zot sends ${HOOK_EVENTS.join(", ")}`);
      continue;
    }
    groups.forEach((group, g) => {
      const matcher = compileMatcher(group.matcher ?? undefined);
      if ("error" in matcher) {
        warnings.push(`the program's ${event} hooks #${g + 1}: ${matcher.error}; they are skipped`);
        return;
      }
      const named = typeof group.timeout === "number" && group.timeout > 0 ? group.timeout : undefined;
      const seconds = named ?? DEFAULT_CALLBACK_TIMEOUT_S;
      for (const id of group.hookCallbackIds) {
        hooks.push({
          event,
          matcher,
          handler: {
            type: "callback",
            id,
            run: (input, timeoutMs, signal) =>
              runCallback(
                async (given, stop) => {
                  const before = gone();
                  if (before) return whenGone(event, before);
                  try {
                    return await call(id, given, stop);
                  } catch (error) {
                    const why = gone();
                    if (why) return whenGone(event, why);
                    throw error;
                  }
                },
                input,
                timeoutMs,
                signal,
              ),
          },
          timeoutMs: seconds * 1000,
          timeoutNamed: named !== undefined,
          source: SOURCE,
          at: `hooks.${event}[${g}]`,
        });
      }
    });
  }
  return { hooks, warnings };
}

/** A hook's answer when the program that registered it can no longer answer. */
function whenGone(event: string, why: string): Record<string, unknown> {
  const reason = `the program whose ${event} hook guards this cannot answer (${why})`;
  if (event === "PreToolUse") return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } };
  if (event === "UserPromptSubmit") return { decision: "block", reason };
  return {};
}
