// The slash commands the conversation runs, from every source in order (the extensions', the MCP
// servers' prompts, the Markdown commands): which names are commands, running one now (outside the
// queue), and its answer as events. Rule: only the exact name of a registered command is a command
// (`/etc/hosts is broken` is a prompt), the first source that has a name runs it, and a `display`
// answer is also an ext_display event, shown where notes are, wherever the command ran.
import type { PromptInput } from "../core/outcomes.ts";
import type { PromptModelRequest } from "./prompt-model.ts";
import { isBuiltinCommand } from "../extensions/builtin-names.ts";
import type { AgentEvent, EventOf } from "../protocol/events.ts";
import { type CommandResult, type CommandSource, parseSlash, type SlashInvocation } from "../protocol/slash-command.ts";

export class SlashCommands {
  constructor(
    private readonly sources: readonly CommandSource[],
    private readonly emit: (event: AgentEvent) => void,
  ) {}

  /** Every source's commands, a name listed once (by the first source that has it); built-in names are no one's. */
  list(): { name: string; description: string; extension: string }[] {
    const taken = new Set<string>();
    const out: { name: string; description: string; extension: string }[] = [];
    for (const source of this.sources) {
      for (const command of source.commands()) {
        const key = command.name.toLowerCase();
        if (taken.has(key)) continue;
        taken.add(key);
        out.push(command);
      }
    }
    return out;
  }

  /** Some source provides /name (case-insensitive). */
  has(name: string): boolean {
    return this.sources.some((source) => source.hasCommand(name));
  }

  /** /name is run when its turn comes (a Markdown command, a skill: CommandSource.runsInTurn), not at once. */
  runsInTurn(name: string): boolean {
    return this.sources.find((source) => source.hasCommand(name))?.runsInTurn === true;
  }

  /** /name is one of zot's own commands (the TUI's), which no extension may take. */
  isBuiltin(name: string): boolean {
    return isBuiltinCommand(name);
  }

  /** The invocation when `text` is a registered command with its arguments. */
  match(text: string): SlashInvocation | undefined {
    const slash = parseSlash(text);
    return slash && this.has(slash.name) ? slash : undefined;
  }

  /**
   * Runs a command now (an extension's typed in the TUI or sent by rpc's run_command, a unit's
   * /command); its source's own timeout applies.
   */
  async run(name: string, args: string, signal: AbortSignal = new AbortController().signal): Promise<CommandResult> {
    const source = this.sources.find((candidate) => candidate.hasCommand(name));
    if (!source) return { command: name, extension: "", action: "error", text: `no extension provides /${name}` };
    const result = await source.runCommand(name, args, signal);
    if (result.action === "display") this.emit({ type: "ext_display", extension: result.extension, text: result.text });
    return result;
  }
}

/**
 * A prompt as the conversation takes it: the agent's input, with the model it asks to run on by
 * name (prompt-model.ts resolves it) rather than resolved.
 */
export type ConversationPrompt = Omit<PromptInput, "model"> & {
  model?: PromptModelRequest;
  /** permission rules that allow calls while this prompt runs (a Markdown command's `allowed-tools`), and whose they are */
  allow?: { rules: string[]; source: string };
  /** false: the text is data, not what a person typed (`-p`'s piped stdin), so its @words attach nothing */
  mentions?: false;
};

/**
 * The prompt a command's answer becomes (`prompt`, `tool_prompt`: the tool first, its origin the
 * command's extension); undefined for the answers that start no turn. `input`: what came with the
 * command (-p's piped stdin, say).
 */
export function commandPrompt(result: CommandResult, given: Omit<PromptInput, "text" | "model"> = {}): ConversationPrompt | undefined {
  // Only the command grants allowed tools: none that came with the input survive.
  const { allow: _allow, ...input } = given as ConversationPrompt;
  if (result.action === "prompt") {
    const model = result.model ? { model: { id: result.model, command: `/${result.command}`, owner: result.extension } } : {};
    const allow = result.allowedTools?.length ? { allow: { rules: result.allowedTools, source: `/${result.command} (allowed-tools)` } } : {};
    return { ...input, text: result.text, ...model, ...allow };
  }
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
