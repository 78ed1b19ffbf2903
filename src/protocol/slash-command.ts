// `/name args` as input, where slash commands come from, and what a command answers: the shapes every front
// end shares (the TUI's editor, -p, --json, rpc, the SDKs). Rule: pure; only the exact name of a
// registered command is a command (deciding that is the caller's), and a command's failure reads the
// same wherever it is shown.
import type { PanelSpec } from "./ext-frames.ts";

export interface SlashInvocation {
  name: string;
  /** everything after the name, trimmed (inner spacing and newlines kept) */
  args: string;
}

/**
 * Who a skill's command (`/write-zot-extension`) is listed as coming from: the skills, not an
 * extension; its description already ends in "(skill)", so front ends list it as a skill, once.
 */
export const SKILLS_OWNER = "skills";

/** The owner shown beside the Markdown commands (the popup's divider, command_result.extension, a `!` line's tool events). */
export const COMMANDS_OWNER = "commands";

/** Somewhere slash commands come from (the extensions, the MCP servers' prompts, the Markdown commands). */
export interface CommandSource {
  commands(): { name: string; description: string; extension: string }[];
  /** command names are case-insensitive */
  hasCommand(name: string): boolean;
  runCommand(name: string, args: string, signal: AbortSignal): Promise<CommandResult>;
  /**
   * Its commands run when their turn comes, in the conversation's queue, not when typed: a Markdown
   * command's `!` lines read the state the turns before it left, and the abort of that turn stops
   * them. Without it (an extension's command, an MCP prompt) a command answers at once, even while a
   * turn runs.
   */
  readonly runsInTurn?: boolean;
}

/** What a command's reply means, once normalised (an `error` field wins over any action). */
export type CommandResult =
  /**
   * `model`: the model this one prompt runs on (a Markdown command's `model:`), then the run's again;
   * `allowedTools`: permission rules that allow calls while this prompt runs (a Markdown command's
   * `allowed-tools:`); `attached`: the text carries its @files already, as far as the folder's trust
   * lets it (a Markdown command's expansion), so a front end must not attach its @words again
   */
  | { command: string; extension: string; action: "prompt"; text: string; model?: string; allowedTools?: string[]; attached?: true }
  /** run `tool` (chain, gates) into the transcript, then `text` as the turn; events carry the prompt as text */
  | { command: string; extension: string; action: "tool_prompt"; text: string; tool: { name: string; args: Record<string, unknown> } }
  | { command: string; extension: string; action: "insert" | "display"; text: string }
  | { command: string; extension: string; action: "noop" }
  /** the panel was handed to whatever shows panels; events carry its title as text */
  | { command: string; extension: string; action: "open_panel"; panel: PanelSpec; text: string }
  | { command: string; extension: string; action: "error"; text: string };

// A name may have namespaces (`/frontend:lint`, a Markdown command in a subfolder).
const SLASH = /^\/([A-Za-z0-9_-]+(?::[A-Za-z0-9_-]+)*)(?:[ \t\r\n]+([\s\S]*))?$/;

/** `/weather  berlin ` → {name: "weather", args: "berlin"}; anything else → undefined. */
export function parseSlash(text: string): SlashInvocation | undefined {
  const match = SLASH.exec(text.trim());
  if (!match) return undefined;
  return { name: match[1], args: (match[2] ?? "").trim() };
}

/** A command's arguments as words: whitespace splits them, "double" or 'single' quotes keep words together. */
export function commandWords(args: string): string[] {
  const words: string[] = [];
  for (const match of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3] ?? "");
  return words;
}

/** The one-line error the user sees for a failed command. */
export function commandErrorMessage(result: { command: string; extension: string; text: string }): string {
  return `/${result.command} (extension ${result.extension}): ${result.text}`;
}
