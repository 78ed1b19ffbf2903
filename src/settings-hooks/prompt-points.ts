// UserPromptSubmit, Stop and PreCompact as the agent's prompt hooks (core/prompt-hooks.ts):
// UserPromptSubmit may refuse a prompt (the reason is for the user) or add context beside it;
// Stop may send the agent back to work with its reason (or its additionalContext) as the next user
// message, and is told the last answer's text (last_assistant_message); PreCompact may
// refuse a compaction.
// Rule: a Stop hook is told `stop_hook_active: true` once it has sent the agent back in this
// prompt, and after MAX_STOP_CONTINUATIONS in a row the agent stops anyway, with a note: a hook
// that never lets go cannot hold the agent forever.
import type { PromptHooks } from "../core/prompt-hooks.ts";
import { combine, joinReasons } from "./combine.ts";
import type { HookRunner } from "./hook-runner.ts";

export const MAX_STOP_CONTINUATIONS = 8;

export function settingsPromptHooks(runner: HookRunner): PromptHooks {
  /** how many times Stop hooks sent the agent back in the prompt running now */
  let continued = 0;
  return {
    async submit(text, signal) {
      continued = 0;
      runner.newPrompt();
      const hooks = runner.matching("UserPromptSubmit");
      if (hooks.length === 0) return undefined;
      const combined = combine(await runner.run(hooks, { prompt: text }, signal));
      const refusal = combined.stop ?? (combined.blocks.length > 0 ? joinReasons(combined.blocks) : undefined);
      if (refusal !== undefined) return { block: `prompt blocked by a UserPromptSubmit hook: ${refusal}` };
      if (combined.contexts.length === 0) return undefined;
      return { context: combined.contexts.map((context) => `[UserPromptSubmit hook] ${context}`) };
    },

    async stopping(signal, lastAnswer) {
      const hooks = runner.matching("Stop");
      if (hooks.length === 0 || signal.aborted) return undefined;
      const combined = combine(await runner.run(hooks, { stop_hook_active: continued > 0, last_assistant_message: lastAnswer }, signal));
      if (signal.aborted) return undefined;
      // continue: false ends it, whatever the others said.
      if (combined.stop !== undefined) {
        runner.context.log(`a Stop hook stopped the agent: ${combined.stop}`);
        return undefined;
      }
      // A block's reason, and additionalContext (feedback, not an error: Claude Code's "run the tests before finishing"), send it back.
      const feedback = [...combined.blocks, ...combined.contexts];
      if (feedback.length === 0) return undefined;
      if (continued >= MAX_STOP_CONTINUATIONS) {
        runner.context.log(`Stop hooks sent the agent back ${continued} times in a row; it stops now (does the hook check stop_hook_active?)`);
        return undefined;
      }
      continued++;
      return `Stop hook feedback:\n${joinReasons(feedback)}`;
    },

    async compacting(reason, instructions, signal) {
      const trigger = reason === "manual" ? "manual" : "auto";
      const hooks = runner.matching("PreCompact", [trigger]);
      if (hooks.length === 0) return undefined;
      const combined = combine(await runner.run(hooks, { trigger, custom_instructions: instructions ?? "" }, signal));
      const refusal = combined.stop ?? (combined.blocks.length > 0 ? joinReasons(combined.blocks) : undefined);
      return refusal === undefined ? undefined : `a PreCompact hook refused it: ${refusal}`;
    },
  };
}
