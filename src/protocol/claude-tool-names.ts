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

/** Claude Code's tools that zot has no counterpart of. */
export const CLAUDE_TOOLS_ZOT_LACKS = [
  "Glob",
  "Grep",
  "LS",
  "WebFetch",
  "WebSearch",
  "Task",
  "Agent",
  "TodoWrite",
  "TodoRead",
  "NotebookRead",
  "BashOutput",
  "KillShell",
  "KillBash",
  "ExitPlanMode",
  "SlashCommand",
] as const;
