// A Markdown command's `` !`cmd` `` line, run as the model's bash calls run: through the agent's
// interception chain (PreToolUse hooks, the permission rules and --disallowedTools, the
// confirmation, the jail), its events named after the commands (origin_extension "commands").
// Rule: what the bash tool would not run for the model, a command's `!` line does not run either;
// the command's `allowed-tools` allow while its lines run, as Claude Code requires of them.
import type { BangRunner } from "../commands/command-source.ts";
import { COMMANDS_OWNER } from "../protocol/slash-command.ts";
import type { Agent } from "../core/agent.ts";
import { randomHex } from "../protocol/random-hex.ts";

/** The bash tool's last line for a command that exited 0 (`[exit 0] 0.1s`): not part of what the command printed. */
const EXIT_ZERO = /\n?\[exit 0\] [\d.hms]+$/;

export function commandBangRunner(
  agent: Agent,
  /** lets `rules` allow the calls `origin` asks for until the returned function is called (Runtime.allowWhilePrompting) */
  allowWhile: (rules: readonly string[], source: string, warn: (message: string) => void, origin: string) => Promise<() => void>,
  warn: (message: string) => void,
): BangRunner {
  return async (line, allow, signal) => {
    const release = allow ? await allowWhile(allow.rules, allow.source, warn, COMMANDS_OWNER) : undefined;
    try {
      const run = await agent.runToolCall(
        { id: `call_cmd_${randomHex(12)}`, name: "bash", args: { command: line } },
        { origin: { extension: COMMANDS_OWNER, chain: ["bash"] }, signal },
      );
      const text = run.result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      return run.executed ? { output: text.replace(EXIT_ZERO, "") } : { notRun: text };
    } finally {
      release?.();
    }
  };
}
