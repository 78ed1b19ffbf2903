// Claude Code's settings hooks on one agent: PreToolUse/PostToolUse as a participant of its chain,
// UserPromptSubmit/Stop/PreCompact as its prompt hooks, Notification when the confirmation gate
// asks, SessionStart after a compaction; SessionStart/SessionEnd for the runtime to call where a
// session starts and ends. Loaded by start.ts, the runtime's entry point, when there is a file to read.
// Rule: a folder's .claude/settings*.json count only when the folder is trusted; the user's own
// files (~/.claude/settings.json, $ZOT_HOME/settings.json) always do. Each entry point outside
// this folder is one line, marked "[settings hooks]".
import { combine, joinReasons } from "./combine.ts";
import type { SettingSourceName } from "../protocol/setting-sources.ts";
import type { Agent } from "../core/agent.ts";
import type { ConfirmGate } from "../core/confirm-gate.ts";
import type { ConditionReader } from "./hook-condition.ts";
import { HookRunner } from "./hook-runner.ts";
import { settingsPromptHooks } from "./prompt-points.ts";
import { type SessionEndReason, SessionPoints, type SessionStartSource } from "./session-points.ts";
import type { SettingsHook, SettingsSource } from "./settings-file.ts";
import { SettingsHooksSources } from "./settings-sources.ts";
import { toolHooksParticipant } from "./tool-participant.ts";

export interface SettingsHooksOptions {
  agent: Agent;
  /** the project folder (CLAUDE_PROJECT_DIR) */
  cwd: string;
  /** $ZOT_HOME */
  home: string;
  /** ~ */
  userHome: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** the workspace trust decision of `cwd` */
  projectTrusted: boolean;
  /** whether the folder is trusted now (project-config.ts TrustOnce.now): its hooks stop when it no longer is */
  trustNow?: () => boolean;
  /** --setting-sources: which of Claude Code's settings files are read; undefined = all */
  settingSources?: readonly SettingSourceName[];
  /** the confirmation gate, when the run has one (a hook's ask and allow go through it) */
  gate?: ConfirmGate;
  /** `--permission-mode` as given: the hooks' permission_mode while calls are confirmed (else "default") */
  permissionMode?: string;
  /** what the user should hear (a failed hook, a systemMessage, a file's warnings) */
  log(message: string): void;
  /** the session being recorded, read at each event (it changes with /clear and resumes) */
  session(): { id: string; file: string } | undefined;
  /** the session_id hooks are told while no session is recorded (--no-session); a new one when not given */
  runId?: string;
  /** read the settings files' hooks (false: only `hosted` run, as with --no-ext) */
  files?: boolean;
  /** the hooks the program running zot registered (host-hooks.ts) */
  hosted?: readonly SettingsHook[];
  /** what reads hooks' `if` rules (permission-rules/hook-condition.ts), loaded when one is needed */
  conditions?: () => Promise<ConditionReader>;
}

export interface SettingsHooks {
  sessionStart(source: SessionStartSource): Promise<void>;
  sessionEnd(reason: SessionEndReason): Promise<void>;
  /** tells Notification hooks (zot sends "permission_prompt" itself; a front end may add "idle_prompt") */
  notify(message: string, type: string): void;
  /**
   * UserPromptExpansion: a command the user typed (`/deploy staging`) is about to become a prompt;
   * its hooks may refuse it (before its `!` lines run) or add context. Undefined: go on as it is.
   */
  expanding(command: CommandExpansion, signal: AbortSignal): Promise<{ block: string } | { context: string[] } | undefined>;
  /** takes the hooks off the agent */
  detach(): void;
}

/** A typed slash command as UserPromptExpansion hooks are told of it. */
export interface CommandExpansion {
  /** the command's name, as matchers test it (`deploy`) */
  name: string;
  /** the words after it */
  args: string;
  /** where it comes from: "project" or "user" (a Markdown command or a skill) */
  source: string;
  /** the text as typed (`/deploy staging`) */
  prompt: string;
}

/** `settingsFiles`: the files the run reads (settings-locations.ts), none when options.files is false. */
export function attachSettingsHooks(options: SettingsHooksOptions, settingsFiles: readonly SettingsSource[]): SettingsHooks {
  const { agent, gate } = options;
  const runId = options.runId ?? `run-${crypto.randomUUID()}`;
  const sources = new SettingsHooksSources(settingsFiles, (message) => options.log(message), options.hosted, options.trustNow);
  const runner = new HookRunner(sources, {
    cwd: options.cwd,
    env: options.env,
    sessionId: () => options.session()?.id ?? runId,
    transcriptPath: () => options.session()?.file ?? "",
    permissionMode: () => (gate?.confirming ? (options.permissionMode ?? "default") : "bypassPermissions"),
    log: (message) => options.log(message),
  });
  // Read now, so a broken file is reported at the start rather than at its first event.
  sources.current();

  const participant = toolHooksParticipant({
    runner,
    isBuiltin: (name) => agent.tools.some((tool) => tool.name === name && tool.extension === undefined),
    gate,
    ...(options.conditions ? { conditions: options.conditions } : {}),
  });
  agent.chain.add(participant);
  agent.setPromptHooks(settingsPromptHooks(runner));
  const points = new SessionPoints(runner, agent);
  const offAsk = gate?.onAsk((request) => points.notify(`zot needs your permission to use ${request.tool}`, "permission_prompt"));
  const offCompacted = agent.onCompacted(() => {
    points.sessionStart("compact").catch((error) => options.log(`SessionStart hooks failed: ${(error as Error).message}`));
  });
  return {
    sessionStart: (source) => points.sessionStart(source),
    sessionEnd: (reason) => points.sessionEnd(reason),
    notify: (message, type) => points.notify(message, type),
    async expanding(command, signal) {
      const hooks = runner.matching("UserPromptExpansion", [command.name]);
      if (hooks.length === 0) return undefined;
      const input = { expansion_type: "slash_command", command_name: command.name, command_args: command.args, command_source: command.source, prompt: command.prompt };
      const combined = combine(await runner.run(hooks, input, signal));
      const refusal = combined.stop ?? (combined.blocks.length > 0 ? joinReasons(combined.blocks) : undefined);
      if (refusal !== undefined) return { block: `/${command.name} blocked by a UserPromptExpansion hook: ${refusal}` };
      return combined.contexts.length > 0 ? { context: combined.contexts.map((context) => `[UserPromptExpansion hook] ${context}`) } : undefined;
    },
    detach() {
      agent.chain.removeWhere((p) => p === participant);
      agent.setPromptHooks(undefined);
      offAsk?.();
      offCompacted();
    },
  };
}
