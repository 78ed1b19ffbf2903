// /help: every slash command with what it does (the built-ins, then the extensions' commands under
// the name of the extension that adds them, then the skills) and the keys of the editor. Rule: the
// list is built when asked, from the commands themselves, so a command added or an extension
// reloaded shows up.
import { SKILLS_OWNER } from "../../../protocol/slash-command.ts";
import type { AppContext, SlashCommand } from "../app-context.ts";

const KEYS = [
  "Enter sends (queued while a turn runs) · Alt+Enter or Shift+Enter adds a line",
  "Esc or Ctrl+C cancels the turn · idle, Esc dismisses notes or clears the editor · Ctrl+C twice or Ctrl+D on an empty editor quits",
  "`@path` sends a file's content with the prompt (`@` picks one) · `!command` runs a shell command as context",
  "↑/↓ walk your earlier prompts · Ctrl+R searches them · Ctrl+G edits the prompt in your $EDITOR",
  "Ctrl+O expands tool output · Ctrl+Z suspends (`fg` resumes)",
];

/** `- \`/name args\` — description` */
function line(name: string, description: string, argsHint?: string, owner?: string): string {
  const usage = argsHint ? `/${name} ${argsHint}` : `/${name}`;
  return `- \`${usage}\` — ${description}${owner ? ` *(${owner})*` : ""}`;
}

export function helpText(app: AppContext, builtins: readonly SlashCommand[]): string {
  const parts = ["**Commands**", builtins.map((c) => line(c.name, c.description, c.argsHint)).join("\n")];
  const commands = app.conversation.commands.list();
  const extensionCommands = commands.filter((c) => c.extension !== SKILLS_OWNER);
  if (extensionCommands.length > 0) {
    parts.push("**Extension commands**", extensionCommands.map((c) => line(c.name, c.description, undefined, c.extension)).join("\n"));
  }
  // A skill's description says "(skill)" already: no owner after it.
  const skills = commands.filter((c) => c.extension === SKILLS_OWNER);
  if (skills.length > 0) parts.push("**Skills**", skills.map((c) => line(c.name, c.description)).join("\n"));
  parts.push("**Keys**", KEYS.map((k) => `- ${k}`).join("\n"));
  return parts.join("\n\n");
}

/** The command, given the built-in list it describes (which includes it). */
export function helpCommand(builtins: () => readonly SlashCommand[]): SlashCommand {
  return {
    name: "help",
    description: "Show the commands and keys",
    run(app) {
      app.showMarkdown(helpText(app, builtins()));
    },
  };
}
