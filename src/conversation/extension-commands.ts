// The extensions' slash commands as the conversation runs them: which names are commands, running
// one now (outside the queue), and its answer as events. Rule: only the exact name of a registered
// command is a command (`/etc/hosts is broken` is a prompt); a `display` answer is also an
// ext_display event, shown where notes are, wherever the command ran.
import { BUILTIN_COMMANDS } from "../extensions/builtin-names.ts";
import type { PromptInput } from "../core/outcomes.ts";
import type { ExtensionManager } from "../extensions/manager.ts";
import type { AgentEvent, EventOf } from "../protocol/events.ts";
import { type CommandResult, parseSlash, type SlashInvocation } from "../protocol/slash-command.ts";

export class ExtensionCommands {
  constructor(
    private readonly extensions: ExtensionManager | undefined,
    private readonly emit: (event: AgentEvent) => void,
  ) {}

  /** The extensions' commands (built-in names excluded: an extension cannot take them). */
  list(): { name: string; description: string; extension: string }[] {
    return this.extensions?.commands() ?? [];
  }

  /** An extension provides /name (case-insensitive). */
  has(name: string): boolean {
    return this.extensions?.hasCommand(name) ?? false;
  }

  /** /name is one of zot's own commands (the TUI's), which no extension may take. */
  isBuiltin(name: string): boolean {
    return BUILTIN_COMMANDS.has(name.toLowerCase());
  }

  /** The invocation when `text` is a registered command with its arguments. */
  match(text: string): SlashInvocation | undefined {
    const slash = parseSlash(text);
    return slash && this.has(slash.name) ? slash : undefined;
  }

  /**
   * Runs an extension's command now (the TUI's typed command, rpc's run_command, a unit's /command);
   * the extension's own timeout applies.
   */
  async run(name: string, args: string, signal: AbortSignal = new AbortController().signal): Promise<CommandResult> {
    if (!this.extensions) return { command: name, extension: "", action: "error", text: `no extension provides /${name}` };
    const result = await this.extensions.runCommand(name, args, signal);
    if (result.action === "display") this.emit({ type: "ext_display", extension: result.extension, text: result.text });
    return result;
  }
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

/** A command's answer as the event input-routed commands report it with. */
export function commandResultEvent(result: CommandResult): EventOf<"command_result"> {
  return {
    type: "command_result",
    command: result.command,
    extension: result.extension,
    action: result.action,
    ...("text" in result ? { text: result.text } : {}),
  };
}
