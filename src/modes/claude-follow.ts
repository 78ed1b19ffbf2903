// A conversation's prompt followed in Claude Code's lines, for `-p --output-format` and the
// streaming input alike: the ClaudeRun fed its events (claude-messages.ts), the partial messages
// when asked for (claude-partial.ts), and the `system` init line of the conversation as it is.
// Rule: an extension's note goes to stderr, never among the lines; a retry is said on stderr and,
// with stream-json, as Claude Code's `system` api_retry line too.
import type { Conversation } from "../conversation/conversation.ts";
import type { ClaudeInitLine, ClaudeOutputLine } from "../protocol/claude-output.ts";
import { retryText } from "../protocol/retry-text.ts";
import { printable } from "../protocol/printable.ts";
import { type ClaudeCallOf, ClaudeRun } from "./claude-messages.ts";
import { ClaudePartialMessages } from "./claude-partial.ts";

/** zot's states of an MCP server by Claude Code's names. */
export const CLAUDE_MCP_STATUS = { starting: "pending", connected: "connected", failed: "failed", stopped: "disabled" } as const;

/** How Claude Code names this run's tools and their calls. */
export interface ClaudeNaming {
  /** how Claude Code names a call of one of this run's tools */
  claudeCall: ClaudeCallOf;
  /** a tool's names as Claude Code's init line lists them */
  toolNames(name: string): string[];
}

/**
 * One prompt's run in Claude Code's lines: its ClaudeRun, fed every event from now on, and each
 * line it completes handed to `write` (stream-json), the partial messages first when asked for;
 * a retry is said on stderr too, and an extension's note only there. `off` stops following.
 */
export function followClaudeRun(
  conversation: Conversation,
  options: ClaudeNaming & {
    partial: boolean;
    write?: (line: ClaudeOutputLine) => void;
    /** the id the lines carry when the run records no session (default: null) */
    unrecorded?: string;
  },
): { run: ClaudeRun; off(): void } {
  const sessionId = conversation.session?.id ?? options.unrecorded ?? null;
  // Each call is named by the model answering it: a command's `model:` lends its prompt another.
  const answeringModel = () => conversation.answeringModel.id;
  const run = new ClaudeRun({ sessionId, model: conversation.model.id, answeringModel, claudeCall: options.claudeCall, costBefore: conversation.usage.cost_usd });
  const { write } = options;
  const partial = write && options.partial ? new ClaudePartialMessages({ sessionId, answeringModel, claudeName: (name) => options.toolNames(name)[0] ?? name }) : undefined;
  const off = conversation.onEvent(
    (event) => {
      if (partial && write) for (const line of partial.add(event)) write(line);
      const lines = run.add(event);
      if (write) for (const line of lines) write(line);
      if (event.type === "retry") console.error(`zot: ${printable(retryText(event))}`);
      // An extension's words (often relayed from elsewhere) to a terminal: no escape of them written.
      else if (event.type === "ext_notify") console.error(printable(`[${event.extension}] ${event.level}: ${event.message}`));
    },
    // The deltas only when they are shown.
    { deltas: partial !== undefined },
  );
  return { run, off };
}

/** Claude Code's `system` init line for this conversation: its working directory, tools, MCP servers and permission mode. */
export function claudeInit(conversation: Conversation, run: ClaudeRun, toolNames: (name: string) => string[], permissionMode: string): ClaudeInitLine {
  return run.init({
    cwd: conversation.cwd,
    tools: conversation.offeredTools().flatMap((tool) => toolNames(tool.name)),
    mcp_servers: (conversation.mcpServers()?.servers ?? []).map((server) => ({ name: server.name, status: CLAUDE_MCP_STATUS[server.state] })),
    permissionMode,
    slash_commands: conversation.commands.list().map((command) => command.name),
    // Those the model is offered (none without the skill tool): a skill only the user starts (disable-model-invocation) is among the slash commands.
    skills: conversation.offeredTools().some((tool) => tool.name === "skill") ? conversation.skills.filter((skill) => skill.modelInvocable !== false).map((skill) => skill.name) : [],
  });
}
