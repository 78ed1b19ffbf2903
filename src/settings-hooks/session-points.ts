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

export type SessionStartSource = "startup" | "resume" | "clear" | "compact";
export type SessionEndReason = "clear" | "logout" | "prompt_input_exit" | "other";

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

  async sessionEnd(reason: SessionEndReason, signal: AbortSignal = new AbortController().signal): Promise<void> {
    const hooks = this.runner.matching("SessionEnd", [reason]);
    this.told(await this.runner.run(hooks, { reason }, signal));
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
