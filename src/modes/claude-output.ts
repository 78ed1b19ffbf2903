// `zot -p --output-format json|stream-json`: one input, answered in Claude Code's headless formats
// (claude-messages.ts), for scripts and orchestrators written for `claude -p`: `json` prints the
// closing `result` object alone, `stream-json` prints the `system` init line, each assistant and
// tool-result message as it completes, and the `result` last, one JSON object per line.
// Rule: stdout holds only those lines; extension notes and a provider's retry go to stderr, as
// with -p; a reader that falls behind holds the model and the tools back, as with --json.
import type { Conversation, ConversationPrompt, UnitOutcome } from "../conversation/conversation.ts";
import { retryText } from "../protocol/retry-text.ts";
import type { ClaudeInitLine, ClaudeOutputLine } from "../protocol/claude-output.ts";
import { type ClaudeCallOf, ClaudeRun } from "./claude-messages.ts";
import { ClaudePartialMessages } from "./claude-partial.ts";
import { NdjsonWriter } from "./ndjson-writer.ts";
import { submitOnce } from "./submit-once.ts";

export type ClaudeOutputFormat = "json" | "stream-json";

/** zot's states of an MCP server by Claude Code's names. */
export const CLAUDE_MCP_STATUS = { starting: "pending", connected: "connected", failed: "failed", stopped: "disabled" } as const;

export interface ClaudeOutputOptions {
  format: ClaudeOutputFormat;
  /** how Claude Code names a call of one of this run's tools */
  claudeCall: ClaudeCallOf;
  /** Claude Code's name for how this run confirms tool calls (the init line's permissionMode) */
  permissionMode: string;
  /** a tool's names as Claude Code's init line lists them */
  toolNames(name: string): string[];
  /** `--include-partial-messages` (stream-json only): the answer as it streams, as stream_event lines */
  partial?: boolean;
}

export async function runClaudeOutputMode(
  conversation: Conversation,
  input: ConversationPrompt,
  signal: AbortSignal,
  options: ClaudeOutputOptions,
): Promise<UnitOutcome> {
  const writer = new NdjsonWriter();
  const streaming = options.format === "stream-json";
  const { run, off } = followClaudeRun(conversation, { ...options, partial: streaming && options.partial === true, ...(streaming ? { write: (line) => writer.write(line) } : {}) });
  if (streaming) writer.write(claudeInit(conversation, run, options.toolNames, options.permissionMode));
  const release = streaming ? conversation.holdBack(() => writer.pressure()) : () => {};
  try {
    const outcome = await submitOnce(conversation, input, signal);
    if (streaming) for (const line of run.unanswered()) writer.write(line);
    writer.write(run.result(outcome));
    return outcome;
  } finally {
    off();
    release();
    await writer.close();
  }
}

/**
 * One prompt's run in Claude Code's lines: its ClaudeRun, fed every event from now on, and each
 * line it completes handed to `write` (stream-json), the partial messages first when asked for;
 * a retry and an extension's note go to stderr. `off` stops following.
 */
export function followClaudeRun(
  conversation: Conversation,
  options: Pick<ClaudeOutputOptions, "claudeCall" | "toolNames"> & {
    partial: boolean;
    write?: (line: ClaudeOutputLine) => void;
    /** the id the lines carry when the run records no session (default: null) */
    unrecorded?: string;
  },
): { run: ClaudeRun; off(): void } {
  const sessionId = conversation.session?.id ?? options.unrecorded ?? null;
  const run = new ClaudeRun({ sessionId, model: conversation.model.id, claudeCall: options.claudeCall, costBefore: conversation.usage.cost_usd });
  const { write } = options;
  const partial =
    write && options.partial ? new ClaudePartialMessages({ sessionId, model: conversation.model.id, claudeName: (name) => options.toolNames(name)[0] ?? name }) : undefined;
  const off = conversation.onEvent(
    (event) => {
      if (partial && write) for (const line of partial.add(event)) write(line);
      const lines = run.add(event);
      if (write) for (const line of lines) write(line);
      if (event.type === "retry") console.error(`zot: ${retryText(event)}`);
      else if (event.type === "ext_notify") console.error(`[${event.extension}] ${event.level}: ${event.message}`);
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
    skills: conversation.skills.map((skill) => skill.name),
  });
}
