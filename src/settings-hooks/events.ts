// The Claude Code hook events zot runs, and what each one's matcher is matched against.
// Rule: an event's name is Claude Code's, spelled exactly as in a settings file; an event zot has
// no place for is named in a warning, never silently dropped.

export const HOOK_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "Stop",
  "SessionStart",
  "SessionEnd",
  "PreCompact",
  "Notification",
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** What a group's `matcher` is tested against; events without one run every group. */
export const MATCHED_ON: Readonly<Record<HookEventName, string | undefined>> = {
  PreToolUse: "tool name",
  PostToolUse: "tool name",
  PostToolUseFailure: "tool name",
  UserPromptSubmit: undefined,
  UserPromptExpansion: "command name",
  Stop: undefined,
  SessionStart: "source (startup, resume, clear, compact, fork)",
  SessionEnd: "reason (clear, resume, other)",
  PreCompact: "trigger (manual, auto)",
  Notification: "notification type (permission_prompt)",
};

export function isHookEvent(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/** Claude Code's hook handler types other than "command" and "http": zot skips them with a warning. */
export const OTHER_HANDLER_TYPES = ["prompt", "agent", "mcp_tool"] as const;
