// SessionStart, SessionEnd and Notification: the settings hooks that run beside the conversation
// rather than inside a prompt. SessionStart's context (additionalContext, or plain stdout) is
// appended to the system prompt; SessionEnd and Notification are told and not listened to.
// Rule: SessionStart's section of the system prompt is replaced each time it runs again (a
// /clear, a resume, after a compaction), never stacked; a Notification never holds up what it
// notifies about (the question is on screen while its hooks run).
import type { Agent } from "../core/agent.ts";
import { combine } from "./combine.ts";
import { describeHook, type HookAnswer } from "./hook-output.ts";
import type { HookRunner } from "./hook-runner.ts";
import type { SettingsHook } from "./settings-file.ts";

export type SessionStartSource = "startup" | "resume" | "clear" | "compact" | "fork";
export type SessionEndReason = "clear" | "resume" | "logout" | "prompt_input_exit" | "other";

export class SessionPoints {
  /** the system prompt section SessionStart added last ("" for none) */
  private section = "";

  constructor(
    private readonly runner: HookRunner,
    private readonly agent: Agent,
  ) {}

  async sessionStart(source: SessionStartSource, signal: AbortSignal = new AbortController().signal): Promise<void> {
    const hooks = this.runner.matching("SessionStart", [source]);
    if (hooks.length === 0 && !this.section) return;
    const combined = combine(this.told(await this.runner.run(hooks, { source }, signal)));
    if (combined.stop !== undefined) this.runner.context.log(`a SessionStart hook said to stop: ${combined.stop} (zot does not stop for SessionStart)`);
    const section = combined.contexts.length > 0 ? `\n\n# Context from SessionStart hooks\n\n${combined.contexts.join("\n\n")}` : "";
    this.agent.setSystemSection("SessionStart hooks", section);
    this.section = section;
  }

  /** Runs the SessionEnd hooks within their time in all (sessionEndBudget): zot's exit, a /clear, a switch waits no longer. */
  async sessionEnd(reason: SessionEndReason, signal: AbortSignal = new AbortController().signal): Promise<void> {
    const hooks = this.runner.matching("SessionEnd", [reason]);
    if (hooks.length === 0) return;
    const budget = sessionEndBudget(hooks, this.runner.context.env ?? process.env);
    const bounded = hooks.map((hook) => (hook.timeoutMs <= budget.ms ? hook : { ...hook, timeoutMs: budget.ms, timeoutNote: budget.why }));
    this.told(await this.runner.run(bounded, { reason }, signal));
  }

  /** Exit 2 blocks nothing at these events: its stderr is for the user, as in Claude Code. */
  private told(answers: HookAnswer[]): HookAnswer[] {
    for (const answer of answers) if (answer.block !== undefined) this.runner.context.log(`${describeHook(answer.hook)}: ${answer.block}`);
    return answers;
  }

  /** Tells the Notification hooks, without waiting for them. */
  notify(message: string, type: string): void {
    const hooks = this.runner.matching("Notification", [type]);
    if (hooks.length === 0) return;
    void this.runner.run(hooks, { message, notification_type: type }, new AbortController().signal).then((answers) => this.told(answers), (error) => {
      this.runner.context.log(`Notification hooks failed: ${(error as Error).message}`);
    });
  }
}

/** SessionEnd's hooks' time in all when none names a timeout, and the most a named one gives them (Claude Code's, 2.1.74 on). */
const SESSION_END_DEFAULT_MS = 1500;
const SESSION_END_MOST_MS = 60_000;
/** The variable Claude Code reads to set that time (milliseconds). */
export const SESSION_END_TIMEOUT_VARIABLE = "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS";

/**
 * How long the SessionEnd hooks may run in all, as Claude Code's: CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS
 * when set to a whole number of milliseconds; else the longest timeout one of them names, between
 * 1.5 and 60 s; else 1.5 s. `why` says so, for a hook stopped by it.
 */
export function sessionEndBudget(hooks: readonly SettingsHook[], env: Readonly<Record<string, string | undefined>>): { ms: number; why: string } {
  const set = env[SESSION_END_TIMEOUT_VARIABLE]?.trim();
  if (set && /^[0-9]+$/.test(set) && Number(set) > 0) return { ms: Number(set), why: `SessionEnd hooks' time in all, from ${SESSION_END_TIMEOUT_VARIABLE}` };
  const named = hooks.filter((hook) => hook.timeoutNamed).map((hook) => hook.timeoutMs);
  const ms = Math.min(SESSION_END_MOST_MS, Math.max(SESSION_END_DEFAULT_MS, ...named));
  const why = `SessionEnd hooks' time in all, as in Claude Code: ${SESSION_END_DEFAULT_MS / 1000} s, or the longest "timeout" one of them names up to ${SESSION_END_MOST_MS / 1000} s; ${SESSION_END_TIMEOUT_VARIABLE} sets it`;
  return { ms, why };
}

