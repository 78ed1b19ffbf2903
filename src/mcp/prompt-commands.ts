// The prompts MCP servers offer, as slash commands `/mcp__<server>__<prompt> [args…]` (as Claude
// Code names them): the words after the name fill the prompt's arguments in the order the server
// lists them ("quoted words" are one), the last argument takes whatever is left, and the prompt's
// messages become the text sent to the model. Rule: a command that cannot run (a required argument
// missing, a server down) is an `error` result that says how to call it; it never reaches the model.
import type { Prompt } from "@modelcontextprotocol/sdk/types.js";
import { type CommandResult, commandWords } from "../protocol/slash-command.ts";
import { mcpPromptCommand } from "./names.ts";
import type { McpServerConnection } from "./server-connection.ts";

export interface PromptCommand {
  /** without the slash */
  name: string;
  description: string;
  /** `mcp:<server>`, where commands show whose they are */
  owner: string;
  server: McpServerConnection;
  prompt: Prompt;
}

export function promptCommands(server: McpServerConnection): PromptCommand[] {
  return server.prompts.map((prompt) => ({
    name: mcpPromptCommand(server.name, prompt.name),
    description: `${prompt.description?.trim() || prompt.title?.trim() || `prompt ${prompt.name}`}${usageHint(prompt)}`,
    owner: `mcp:${server.name}`,
    server,
    prompt,
  }));
}

export async function runPromptCommand(command: PromptCommand, args: string, signal: AbortSignal): Promise<CommandResult> {
  const base = { command: command.name, extension: command.owner };
  const filled = fillArguments(command.prompt, commandWords(args));
  if ("missing" in filled) {
    return { ...base, action: "error", text: `needs ${filled.missing.map((name) => `<${name}>`).join(" ")}: /${command.name}${usageHint(command.prompt)}` };
  }
  const result = await command.server.getPrompt(command.prompt.name, filled.values, signal);
  if ("error" in result) return { ...base, action: "error", text: result.error };
  if (!result.text.trim()) return { ...base, action: "noop" };
  return { ...base, action: "prompt", text: result.text };
}

/** The prompt's arguments from the words typed after the command, by position. */
export function fillArguments(prompt: Prompt, words: string[]): { values: Record<string, string> } | { missing: string[] } {
  const specs = prompt.arguments ?? [];
  // A Map: an argument may be named "constructor" or "__proto__", which a plain object already "has".
  const filled = new Map<string, string>();
  specs.forEach((spec, index) => {
    const value = index === specs.length - 1 ? words.slice(index).join(" ") : words[index];
    if (value !== undefined && value !== "") filled.set(spec.name, value);
  });
  const missing = specs.filter((spec) => spec.required && !filled.has(spec.name)).map((spec) => spec.name);
  return missing.length > 0 ? { missing } : { values: Object.fromEntries(filled) };
}

/** ` <city> [state]` */
function usageHint(prompt: Prompt): string {
  const specs = prompt.arguments ?? [];
  if (specs.length === 0) return "";
  return ` ${specs.map((spec) => (spec.required ? `<${spec.name}>` : `[${spec.name}]`)).join(" ")}`;
}
