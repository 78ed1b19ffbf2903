// The names of Claude Code's tools as its permission rules and its `--allowedTools` lists write
// them: those zot has a counterpart of (permission-rules/rule.ts says which), and those it has not
// (a rule naming one matches nothing). One list, so the flags and the rules never disagree.

/** zot's built-in tools and the name Claude Code gives each (a call of edit with several edits is its MultiEdit). */
export const CLAUDE_NAME_OF_BUILTIN: Readonly<Record<string, string>> = { bash: "Bash", read: "Read", edit: "Edit", write: "Write", skill: "Skill" };

/**
 * Claude Code's tools that zot's rules map onto its own (Bash → bash, Edit → edit and write, …),
 * and those zot has by Claude Code's own names (the MCP resource tools, src/mcp/resource-tools.ts).
 */
export const CLAUDE_TOOLS_ZOT_HAS = ["Bash", "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Skill", "ListMcpResourcesTool", "ReadMcpResourceTool"] as const;

/**
 * Claude Code's tools that zot has no counterpart of, each with what zot does instead (or that it
 * does not), for the error that names one (`--tools Grep`). Each says what is true of that tool:
 * bash searches and fetches, but it runs no sub-agent.
 */
export const INSTEAD_OF_CLAUDE_TOOL = {
  Glob: "zot finds files with bash (find, rg --files)",
  Grep: "zot searches with bash (rg, grep)",
  LS: "zot lists folders with bash (ls)",
  WebFetch: "zot fetches a page with bash (curl)",
  WebSearch: "zot has no web search; an MCP server can give it one",
  Task: "zot runs no sub-agents",
  Agent: "zot runs no sub-agents",
  TodoWrite: "zot keeps no to-do list",
  TodoRead: "zot keeps no to-do list",
  NotebookRead: "zot reads a notebook's JSON with read",
  BashOutput: "zot runs a background command with bash, its output sent to a file, and reads that file",
  KillShell: "zot stops a background command with bash (kill)",
  KillBash: "zot stops a background command with bash (kill)",
  ExitPlanMode: "zot has no plan mode",
  SlashCommand: "slash commands are the user's to type; the model runs none",
} as const satisfies Record<string, string>;

/** Claude Code's tools that zot has no counterpart of. */
export const CLAUDE_TOOLS_ZOT_LACKS = Object.keys(INSTEAD_OF_CLAUDE_TOOL) as (keyof typeof INSTEAD_OF_CLAUDE_TOOL)[];
