// Runs the settings hooks of one event: picks those whose matcher matches, starts them all at once
// (as Claude Code does), and hands back their answers in settings order.
// Rule: parallel to run, ordered to read: answers come back in the order of the files and of the
// hooks in them, whatever finished first, so combining them is deterministic. An identical command
// (or URL) matched twice for one event runs once. A failed hook is said to the user and counts for nothing.
import type { HookEventName } from "./events.ts";
import { describeHook, type HookAnswer, readAnswer } from "./hook-output.ts";
import { runCommand } from "./command-run.ts";
import { runHttp } from "./http-run.ts";
import type { SettingsHook } from "./settings-file.ts";
import type { SettingsHooksSources } from "./settings-sources.ts";

/** What every hook input carries about the run, read when the event happens. */
export interface HookRunContext {
  /** the project folder: every hook's cwd, CLAUDE_PROJECT_DIR and the input's `cwd` */
  cwd: string;
  env?: Record<string, string | undefined>;
  sessionId(): string;
  /** the session file ("" when the run records none) */
  transcriptPath(): string;
  /** while tool calls are confirmed, --permission-mode's name (acceptEdits, dontAsk) or "default"; else "bypassPermissions" (zot's yolo) */
  permissionMode(): string;
  /** what the user should hear: a hook that failed, a hook's systemMessage */
  log(message: string): void;
}

export class HookRunner {
  /** the user prompt being answered (Claude Code's prompt_id): a new one at each prompt, none before the first */
  private promptId: string | undefined;

  constructor(
    private readonly sources: SettingsHooksSources,
    readonly context: HookRunContext,
  ) {}

  /** A user prompt starts: the hooks from here on are told its new prompt_id. */
  newPrompt(): void {
    this.promptId = crypto.randomUUID();
  }

  /**
   * The longest timeout of any hook of these events, whatever it matches: a deadline for them all.
   * Rule: taken before `matching` drops a command listed twice, which keeps its first group's
   * timeout, while the call may match the group with the longer one.
   */
  longestOf(events: readonly HookEventName[]): number {
    return this.sources.current().reduce((max, hook) => (events.includes(hook.event) ? Math.max(max, hook.timeoutMs) : max), 0);
  }

  /** Whether some hook of `event` has an `if`. */
  hasConditions(event: HookEventName): boolean {
    return this.sources.current().some((hook) => hook.event === event && hook.condition !== undefined);
  }

  /**
   * The hooks of `event` that match any of `values` (events without a matcher: all of them) and that
   * `admits` lets through (a hook's `if`), tried before a command listed twice is dropped: the
   * second listing's `if` may be the one the call matches.
   */
  matching(event: HookEventName, values?: readonly string[], admits?: (hook: SettingsHook) => boolean): SettingsHook[] {
    const seen = new Set<string>();
    return this.sources.current().filter((hook) => {
      if (hook.event !== event) return false;
      if (values && !hook.matcher.matches(values)) return false;
      if (admits && !admits(hook)) return false;
      const key = hookKey(hook);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /**
   * Runs `hooks` (from matching) with the event's own fields; resolves once every one has
   * answered, timed out or been stopped by `signal`.
   */
  async run(hooks: readonly SettingsHook[], fields: Record<string, unknown>, signal: AbortSignal): Promise<HookAnswer[]> {
    if (hooks.length === 0) return [];
    const { context } = this;
    const input = {
      session_id: context.sessionId(),
      ...(this.promptId ? { prompt_id: this.promptId } : {}),
      transcript_path: context.transcriptPath(),
      cwd: context.cwd,
      permission_mode: context.permissionMode(),
      hook_event_name: hooks[0].event,
      ...fields,
    };
    const answers = await Promise.all(
      hooks.map(async (hook) => {
        const { handler, timeoutMs } = hook;
        const run =
          handler.type === "command"
            ? await runCommand({ command: handler.command, ...(handler.args ? { args: handler.args } : {}), input, cwd: context.cwd, timeoutMs, signal, env: context.env })
            : handler.type === "http"
              ? await runHttp({ ...handler, input, timeoutMs, signal, env: context.env })
              : await handler.run(input, timeoutMs, signal);
        return readAnswer(hook, run);
      }),
    );
    for (const answer of answers) {
      if (answer.failure) context.log(`${answer.failure} (a non-blocking error: zot goes on as if it had not run)`);
      if (answer.systemMessage) context.log(`${describeHook(answer.hook)}: ${answer.systemMessage}`);
    }
    return answers;
  }
}

/** What makes two hooks one: the same command (with the same args), the same URL, the same callback. */
export function hookKey(hook: SettingsHook): string {
  const { handler } = hook;
  if (handler.type === "command") return handler.args === undefined ? handler.command : JSON.stringify([handler.command, ...handler.args]);
  return handler.type === "http" ? `POST ${handler.url}` : `callback ${handler.id}`;
}
