// The names MCP things get inside zot, as Claude Code gives them: a server's tool is
// `mcp__<server>__<tool>` and its prompt is the slash command `/mcp__<server>__<prompt>`, each part
// with every character outside [A-Za-z0-9_-] made `_`, so settings matchers and habits carry over.
// Rule: a tool name fits the providers' limit (64 characters): a longer one keeps its start and
// gets a short hash of the whole, so two long names never become one.
import { sha256Hex } from "../protocol/random-hex.ts";

export const MAX_TOOL_NAME = 64;

/** Claude Code's normalisation of a server's, tool's or prompt's name. */
export function normalizeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** `mcp__fs__read_file` */
export function mcpToolName(server: string, tool: string): string {
  const full = `mcp__${normalizeName(server)}__${normalizeName(tool)}`;
  if (full.length <= MAX_TOOL_NAME) return full;
  const hash = sha256Hex(full).slice(0, 8);
  return `${full.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}

/** `mcp__everything__simple-prompt` (typed as `/mcp__everything__simple-prompt`) */
export function mcpPromptCommand(server: string, prompt: string): string {
  return `mcp__${normalizeName(server)}__${normalizeName(prompt)}`;
}

/** A server's name as a file name part: its log is `$ZOT_HOME/logs/mcp-<name>.log`. */
export function fileSafeName(server: string): string {
  return normalizeName(server).slice(0, 100) || "_";
}
