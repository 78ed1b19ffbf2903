// `/name args` as input: recognising an extension's slash command in a prompt, and what the
// non-interactive modes (-p, --json) do with its answer. Rule: only the exact name of a registered
// command is a command; anything else (`/etc/hosts is broken`) goes to the model as a prompt.
import type { Agent, PromptInput, PromptOutcome } from "../core/agent.ts";
import type { ExtFrameOf, PanelSpec } from "../protocol/ext-frames.ts";
import { isJsonObject } from "../protocol/json-object.ts";

export interface SlashInvocation {
  name: string;
  /** everything after the name, trimmed (inner spacing and newlines kept) */
  args: string;
}

/** What a command's reply means, once normalised (an `error` field wins over any action). */
export type CommandResult =
  | { command: string; extension: string; action: "prompt"; text: string }
  /** run `tool` (chain, gates) into the transcript, then `text` as the turn; events carry the prompt as text */
  | { command: string; extension: string; action: "tool_prompt"; text: string; tool: { name: string; args: Record<string, unknown> } }
  | { command: string; extension: string; action: "insert" | "display"; text: string }
  | { command: string; extension: string; action: "noop" }
  /** the panel was handed to whatever shows panels; events carry its title as text */
  | { command: string; extension: string; action: "open_panel"; panel: PanelSpec; text: string }
  | { command: string; extension: string; action: "error"; text: string };

/** The registry the modes dispatch through (the ExtensionManager). */
export interface SlashCommands {
  hasCommand(name: string): boolean;
  runCommand(name: string, args: string, signal: AbortSignal): Promise<CommandResult>;
}

/** How a run of -p / --json ended: a prompt's outcome, or a command that failed. */
export type RunOutcome = PromptOutcome | { status: "command_error"; message: string };

// A name may have namespaces (`/frontend:lint`, a Markdown command in a subfolder).
const SLASH = /^\/([A-Za-z0-9_-]+(?::[A-Za-z0-9_-]+)*)(?:[ \t\r\n]+([\s\S]*))?$/;

/** `/weather  berlin ` → {name: "weather", args: "berlin"}; anything else → undefined. */
export function parseSlash(text: string): SlashInvocation | undefined {
  const match = SLASH.exec(text.trim());
  if (!match) return undefined;
  return { name: match[1], args: (match[2] ?? "").trim() };
}

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
    case "tool_prompt": {
      const name = reply.tool_name?.trim();
      if (!name) return { ...base, action: "error", text: 'the command answered tool_prompt without a "tool_name" (the tool to run before the prompt)' };
      if (!reply.prompt?.trim()) return { ...base, action: "error", text: 'the command answered tool_prompt without a "prompt" (the turn that follows the tool)' };
      const args = reply.tool_args ?? {};
      if (!isJsonObject(args)) return { ...base, action: "error", text: `the command answered tool_prompt with "tool_args" that are not a JSON object (${Array.isArray(args) ? "an array" : typeof args})` };
      return { ...base, action: "tool_prompt", text: reply.prompt, tool: { name, args } };
    }
    case undefined:
    case "":
    case "noop":
      return { ...base, action: "noop" };
    default:
      return { ...base, action: "error", text: `unknown action "${reply.action}" (this zot knows prompt, tool_prompt, insert, display, open_panel, noop)` };
  }
}

/** The one-line error the user sees for a failed command. */
export function commandErrorMessage(result: Extract<CommandResult, { action: "error" }>): string {
  return `/${result.command} (extension ${result.extension}): ${result.text}`;
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
  const prompt = commandPrompt(result, input);
  if (prompt) return agent.prompt(prompt, signal);
  return { status: "ok" };
}

/**
 * The prompt a command's answer becomes (`prompt`, `tool_prompt`: the tool first, its origin the
 * command's extension); undefined for the answers that start no turn. `input`: what came with the
 * command (-p's piped stdin, say).
 */
export function commandPrompt(result: CommandResult, input: Omit<PromptInput, "text"> = {}): PromptInput | undefined {
  if (result.action === "prompt") return { ...input, text: result.text };
  if (result.action === "tool_prompt") return { ...input, text: result.text, tool: { ...result.tool, origin: result.extension } };
  return undefined;
}
