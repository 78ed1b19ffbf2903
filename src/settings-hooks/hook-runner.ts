// Runs the settings hooks of one event: picks those whose matcher matches, starts them all at once
// (as Claude Code does), and hands back their answers in settings order.
// Rule: parallel to run, ordered to read: answers come back in the order of the files and of the
// hooks in them, whatever finished first, so combining them is deterministic. An identical command
// matched twice for one event runs once. A failed hook is said to the user and counts for nothing.
import type { HookEventName } from "./events.ts";
import { describeHook, type HookAnswer, readAnswer } from "./hook-output.ts";
import { runCommand } from "./command-run.ts";
import type { CommandHook } from "./settings-file.ts";
import type { SettingsHooksSources } from "./settings-sources.ts";

/** What every hook input carries about the run, read when the event happens. */
export interface HookRunContext {
  /** the project folder: every hook's cwd, CLAUDE_PROJECT_DIR and the input's `cwd` */
  cwd: string;
  env?: Record<string, string | undefined>;
  sessionId(): string;
  /** the session file ("" when the run records none) */
  transcriptPath(): string;
  /** "default" while tool calls are confirmed, else "bypassPermissions" (zot's yolo) */
  permissionMode(): string;
  /** what the user should hear: a hook that failed, a hook's systemMessage */
  log(message: string): void;
}

export class HookRunner {
  constructor(
    private readonly sources: SettingsHooksSources,
    readonly context: HookRunContext,
  ) {}

  /** The hooks of `event` that match any of `values` (events without a matcher: all of them). */
  matching(event: HookEventName, values?: readonly string[]): CommandHook[] {
    const seen = new Set<string>();
    return this.sources.current().filter((hook) => {
      if (hook.event !== event) return false;
      if (values && !hook.matcher.matches(values)) return false;
      if (seen.has(hook.command)) return false;
      seen.add(hook.command);
      return true;
    });
  }

  /**
   * Runs `hooks` (from matching) with the event's own fields; resolves once every one has
   * answered, timed out or been stopped by `signal`.
   */
  async run(hooks: readonly CommandHook[], fields: Record<string, unknown>, signal: AbortSignal): Promise<HookAnswer[]> {
    if (hooks.length === 0) return [];
    const { context } = this;
    const input = {
      session_id: context.sessionId(),
      transcript_path: context.transcriptPath(),
      cwd: context.cwd,
      permission_mode: context.permissionMode(),
      hook_event_name: hooks[0].event,
      ...fields,
    };
    const answers = await Promise.all(
      hooks.map(async (hook) =>
        readAnswer(hook, await runCommand({ command: hook.command, input, cwd: context.cwd, timeoutMs: hook.timeoutMs, signal, env: context.env })),
      ),
    );
    for (const answer of answers) {
      if (answer.failure) context.log(`${answer.failure} (a non-blocking error: zot goes on as if it had not run)`);
      if (answer.systemMessage) context.log(`${describeHook(answer.hook)}: ${answer.systemMessage}`);
    }
    return answers;
  }

  /** The longest timeout among `hooks`, in ms (0 for none). */
  static longest(hooks: readonly CommandHook[]): number {
    return hooks.reduce((max, hook) => Math.max(max, hook.timeoutMs), 0);
  }
}
