// `/name args` as input: recognising an extension's slash command in a prompt, and what the
// non-interactive modes (-p, --json) do with its answer. Rule: only the exact name of a registered
// command is a command; anything else (`/etc/hosts is broken`) goes to the model as a prompt.
import type { Agent, PromptInput, PromptOutcome } from "../core/agent.ts";
import type { ExtFrameOf } from "../protocol/ext-frames.ts";
import { type CommandResult, commandErrorMessage, parseSlash, type SlashInvocation } from "../protocol/slash-command.ts";

/** The registry the modes dispatch through (the ExtensionManager). */
export interface SlashCommands {
  hasCommand(name: string): boolean;
  runCommand(name: string, args: string, signal: AbortSignal): Promise<CommandResult>;
}

/** How a run of -p / --json ended: a prompt's outcome, or a command that failed. */
export type RunOutcome = PromptOutcome | { status: "command_error"; message: string };

/** The invocation if `text` starts with the name of a registered command. */
export function matchCommand(text: string, commands: SlashCommands | undefined): SlashInvocation | undefined {
  if (!commands) return undefined;
  const slash = parseSlash(text);
  return slash && commands.hasCommand(slash.name) ? slash : undefined;
}

/** A `command_response` normalised: a non-empty `error` wins; a blank prompt or insert is a noop. */
export function commandResult(
  base: { command: string; extension: string },
  reply: ExtFrameOf<"command_response">,
): CommandResult {
  if (reply.error) return { ...base, action: "error", text: reply.error };
  switch (reply.action) {
    case "error":
      return { ...base, action: "error", text: "the command failed (no error text given)" };
    case "prompt":
      return reply.prompt?.trim() ? { ...base, action: "prompt", text: reply.prompt } : { ...base, action: "noop" };
    case "insert":
      return reply.insert ? { ...base, action: "insert", text: reply.insert } : { ...base, action: "noop" };
    case "display":
      return { ...base, action: "display", text: reply.display ?? "" };
    case "open_panel":
      if (!reply.open_panel) return { ...base, action: "error", text: 'the command answered open_panel without an "open_panel" object ({"id": …, "title": …, "lines": […]})' };
      return { ...base, action: "open_panel", panel: reply.open_panel, text: reply.open_panel.title ?? "" };
    case undefined:
    case "":
    case "noop":
      return { ...base, action: "noop" };
    default:
      return { ...base, action: "error", text: `unknown action "${reply.action}" (this zot knows prompt, insert, display, open_panel, noop)` };
  }
}

/**
 * Runs one input of -p / --json (and any mode without an editor): a registered `/command` runs
 * (its answer is a `command_result` event, and a `prompt` answer becomes the turn), anything else
 * is a prompt for the model.
 */
export async function promptOrCommand(
  agent: Agent,
  commands: SlashCommands | undefined,
  input: PromptInput,
  signal: AbortSignal,
): Promise<RunOutcome> {
  const slash = matchCommand(input.text, commands);
  if (!slash || !commands) return agent.prompt(input, signal);
  const result = await commands.runCommand(slash.name, slash.args, signal);
  agent.emit({
    type: "command_result",
    command: result.command,
    extension: result.extension,
    action: result.action,
    ...("text" in result ? { text: result.text } : {}),
  });
  if (result.action === "error") return { status: "command_error", message: commandErrorMessage(result) };
  if (result.action === "prompt") return agent.prompt({ ...input, text: result.text }, signal);
  return { status: "ok" };
}
