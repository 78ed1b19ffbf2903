// The Markdown commands as slash commands every front end dispatches: one of the conversation's
// command sources (beside the extensions and MCP prompts), answered with the expanded prompt.
// Rule: a command's `!` commands (`` !`cmd` `` and ```` ```! ```` blocks, a skill's typed as
// `/name` too) run, and its `allowed-tools` allow, only in a trusted folder (the user's own commands
// and skills in $ZOT_HOME and ~/.claude anywhere); a project's commands are listed either way,
// since a prompt template runs nothing by itself. A `!` command runs as the model's bash calls run
// (the runner, from the runtime): the permission rules and --disallowedTools refuse it, the
// confirmation asks about it, hooks see it, the jail confines it; the command's `allowed-tools`
// let it past the question, as Claude Code requires of a command's `!` lines. A command runs when its
// turn comes (runsInTurn: queued behind what runs, its `!` lines see what the turns before it did),
// and a cancel stops the line that runs, starts no other, and sends nothing to the model.
import { type CommandResult, type CommandSource, COMMANDS_OWNER, SKILLS_OWNER } from "../protocol/slash-command.ts";
import { expandCommand, withTypedAttachments } from "./expand-command.ts";
import { skillPrompt } from "./skill-commands.ts";
import type { MarkdownCommand } from "./markdown-commands.ts";


/**
 * Runs a command's `!` line as the bash tool runs the model's calls, `allowedTools` (the command's
 * `allowed-tools`, named by `source`) allowing while it runs: its output, or why it was not run.
 */
export type BangRunner = (line: string, allow: { rules: readonly string[]; source: string } | undefined, signal: AbortSignal) => Promise<{ output: string } | { notRun: string }>;

/**
 * Claude Code's UserPromptExpansion hooks, asked before a typed command becomes a prompt (before
 * its `!` lines run): a refusal, context for the prompt, or undefined to go on.
 */
export type ExpansionHook = (
  command: { name: string; args: string; source: string; prompt: string },
  signal: AbortSignal,
) => Promise<{ block: string } | { context: string[] } | undefined>;

export class MarkdownCommandSource implements CommandSource {
  private readonly byName: Map<string, MarkdownCommand>;
  /** a command's `!` lines run when its prompt is about to be sent, not when it is typed (queued behind a turn) */
  readonly runsInTurn = true;

  constructor(
    commands: readonly MarkdownCommand[],
    private readonly context: {
      cwd: string;
      projectTrusted: boolean;
      /** whether the folder is trusted now (a `zot untrust` during the run); absent: as at the read */
      trustNow?: () => boolean;
      runBang: BangRunner;
      attachable?: (path: string) => Promise<string | undefined>;
      /** the settings files' UserPromptExpansion hooks, when the run has settings hooks */
      expanding?: ExpansionHook;
      /** `${CLAUDE_SESSION_ID}`: the session being recorded, or the run's id when none is (as settings hooks are told) */
      sessionId?: () => string;
    },
  ) {
    // A subfolder's command answers to its namespaced name too (`/frontend:lint` beside `/lint`).
    this.byName = new Map(commands.flatMap((command) => [command.name, ...(command.alias ? [command.alias] : [])].map((name) => [name.toLowerCase(), command] as const)));
  }

  commands(): { name: string; description: string; extension: string }[] {
    return [...new Set(this.byName.values())].map((command) => ({
      name: command.name,
      description: command.argumentHint ? `${command.description} ${command.argumentHint}` : command.description,
      extension: ownerOf(command),
    }));
  }

  hasCommand(name: string): boolean {
    return this.byName.has(name.toLowerCase());
  }

  async runCommand(name: string, args: string, signal: AbortSignal): Promise<CommandResult> {
    const command = this.byName.get(name.toLowerCase());
    if (!command) return { command: name, extension: COMMANDS_OWNER, action: "error", text: `no command /${name}` };
    const mayRun = command.scope === "user" || (this.context.projectTrusted && (this.context.trustNow?.() ?? true));
    // Before anything of it runs (its `!` lines): the hooks may refuse it.
    const typed = `/${command.name}${args.trim() ? ` ${args.trim()}` : ""}`;
    const hooked = await this.context.expanding?.({ name: command.name, args, source: command.scope, prompt: typed }, signal);
    if (hooked && "block" in hooked) return { command: command.name, extension: ownerOf(command), action: "error", text: hooked.block };
    const cancelled = { command: command.name, extension: ownerOf(command), action: "error", text: "cancelled" } as const;
    if (signal.aborted) return cancelled;
    const allow = mayRun && command.allowedTools ? { rules: command.allowedTools, source: `/${command.name} (allowed-tools)` } : undefined;
    // Once cancelled, the lines after the one that was stopped do not start.
    const runShell = mayRun ? async (line: string) => (signal.aborted ? { notRun: "the command was cancelled" } : this.context.runBang(line, allow, signal)) : undefined;
    const filling = {
      ...(command.argumentNames ? { argumentNames: command.argumentNames } : {}),
      ...(this.context.sessionId ? { sessionId: this.context.sessionId() } : {}),
      ...(runShell ? { runShell } : {}),
    };
    const expanded = command.skill
      ? await withTypedAttachments(await skillPrompt(command.body, args, { ...filling, ...(command.skill.dir ? { skillDir: command.skill.dir } : {}) }), args, {
          cwd: this.context.cwd,
          ...(this.context.attachable ? { gate: this.context.attachable } : {}),
        })
      : await expandCommand(command.body, args, {
          cwd: this.context.cwd,
          ...filling,
          ...(runShell ? {} : { insideOnly: true }),
          ...(this.context.attachable ? { gate: this.context.attachable } : {}),
        });
    // Cancelled while its `!` lines asked or ran: nothing of it goes to the model.
    if (signal.aborted) return cancelled;
    const context = hooked && "context" in hooked ? hooked.context : [];
    const text = context.length > 0 ? `${expanded.trimEnd()}\n\n${context.join("\n\n")}` : expanded;
    if (!text.trim()) return { command: command.name, extension: ownerOf(command), action: "noop" };
    // `inherit` (Claude Code's word for the conversation's own model) asks for nothing.
    const model = command.model && command.model !== "inherit" ? { model: command.model } : {};
    // `allowed-tools` lets calls past the confirmation question while the prompt runs: a folder's
    // commands only in a trusted folder, as its settings files' allow rules.
    const allowed = mayRun && command.allowedTools ? { allowedTools: command.allowedTools } : {};
    // Its @files are attached already (the user's words only): the prompt is not read for @mentions again.
    return { command: command.name, extension: ownerOf(command), action: "prompt", text, ...model, ...allowed, attached: true };
  }
}

/** Who a command is shown as coming from: "skills" for a skill, "commands" for a Markdown command. */
function ownerOf(command: MarkdownCommand): string {
  return command.skill ? SKILLS_OWNER : COMMANDS_OWNER;
}
