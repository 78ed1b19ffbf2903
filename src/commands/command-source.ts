// The Markdown commands as slash commands every front end dispatches: one of the conversation's
// command sources (beside the extensions and MCP prompts), answered with the expanded prompt.
// Rule: a command's `!` lines run, and its `allowed-tools` allow, only in a trusted folder (the
// user's own commands in $ZOT_HOME and ~/.claude anywhere); a project's commands are listed either
// way, since a prompt template runs nothing by itself.
import type { CommandResult } from "../protocol/slash-command.ts";
import { runCommand } from "../settings-hooks/command-run.ts";
import { expandCommand } from "./expand-command.ts";
import type { MarkdownCommand } from "./markdown-commands.ts";

/** What `!` commands get: this long, then they are cut off and named as timed out. */
const SHELL_TIMEOUT_MS = 30_000;
/** The owner shown beside these commands (the popup's divider, command_result.extension). */
export const COMMANDS_OWNER = "commands";

export class MarkdownCommandSource {
  private readonly byName: Map<string, MarkdownCommand>;

  constructor(
    commands: readonly MarkdownCommand[],
    private readonly context: { cwd: string; projectTrusted: boolean; env?: Record<string, string | undefined> },
  ) {
    this.byName = new Map(commands.map((command) => [command.name.toLowerCase(), command]));
  }

  commands(): { name: string; description: string; extension: string }[] {
    return [...this.byName.values()].map((command) => ({
      name: command.name,
      description: command.argumentHint ? `${command.description} ${command.argumentHint}` : command.description,
      extension: COMMANDS_OWNER,
    }));
  }

  hasCommand(name: string): boolean {
    return this.byName.has(name.toLowerCase());
  }

  async runCommand(name: string, args: string, signal: AbortSignal): Promise<CommandResult> {
    const command = this.byName.get(name.toLowerCase());
    if (!command) return { command: name, extension: COMMANDS_OWNER, action: "error", text: `no command /${name}` };
    const mayRun = command.scope === "user" || this.context.projectTrusted;
    const text = await expandCommand(command.body, args, {
      cwd: this.context.cwd,
      ...(mayRun ? { runShell: (line: string) => this.shell(line, signal) } : {}),
    });
    if (!text.trim()) return { command: command.name, extension: COMMANDS_OWNER, action: "noop" };
    // `inherit` (Claude Code's word for the conversation's own model) asks for nothing.
    const model = command.model && command.model !== "inherit" ? { model: command.model } : {};
    // `allowed-tools` lets calls past the confirmation question while the prompt runs: a folder's
    // commands only in a trusted folder, as its settings files' allow rules.
    const allowed = mayRun && command.allowedTools ? { allowedTools: command.allowedTools } : {};
    return { command: command.name, extension: COMMANDS_OWNER, action: "prompt", text, ...model, ...allowed };
  }

  private async shell(line: string, signal: AbortSignal): Promise<string> {
    const run = await runCommand({ command: line, input: {}, cwd: this.context.cwd, timeoutMs: SHELL_TIMEOUT_MS, signal, env: this.context.env });
    if (run.status === "failed_to_start") throw new Error(run.message);
    if (run.status === "timed_out") return `${run.stdout}\n(timed out after ${SHELL_TIMEOUT_MS / 1000} s)`;
    if (run.status === "aborted") throw new Error("cancelled");
    return run.code === 0 ? run.stdout : `${run.stdout}${run.stderr}\n(exit ${run.code})`;
  }
}
