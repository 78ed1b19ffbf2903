// One permission rule of Claude Code's settings (`permissions.allow`, `.ask`, `.deny`), parsed:
// `Tool` or `Tool(specifier)`. Claude Code's names map onto zot's tools: `Bash` is bash (its
// command), `Read` is read, `Edit`, `Write`, `MultiEdit` and `NotebookEdit` are edit and write
// (the file's path), `Skill` is skill (the skill's name), `mcp__server`, `mcp__server__*` and
// `mcp__server__tool` are MCP tools; zot's own lowercase names work too, and any other name is a
// tool of that name (an extension's).
// Rule: a rule naming one of Claude Code's tools that zot does not have (WebFetch, Grep, Task, …)
// matches nothing and says nothing; a rule zot cannot read is a warning naming it, never a rule
// that matches everything.
import { CLAUDE_NAME_OF_BUILTIN, CLAUDE_TOOLS_ZOT_LACKS } from "../protocol/claude-tool-names.ts";
import { type CommandTest, compileCommandPattern, wildcardSource } from "./bash-pattern.ts";
import { compilePathPattern, type PathAnchors, type PathTest } from "./path-pattern.ts";
import { ownEntry } from "../protocol/own-key.ts";

export type RuleVerdict = "deny" | "ask" | "allow";

/** What a rule applies to. */
export type RuleTarget =
  /** bash; without `command`, every command; `pipeline` when the rule is written with `|` */
  | { kind: "bash"; command?: CommandTest; exact?: string; pipeline?: boolean }
  /** file tools (read; or edit and write); without `path`, every path */
  | { kind: "path"; tools: readonly string[]; path?: PathTest }
  /** the skill tool; without `skill`, every skill */
  | { kind: "skill"; skill?: (name: string) => boolean }
  /** tools by name: exact, or every tool of an MCP server */
  | { kind: "tool"; matches: (name: string) => boolean }
  /** a Claude Code tool zot does not have */
  | { kind: "none" };

/** A rule as written, before it is read: a settings file's, or a flag's (`--allowedTools`). */
export interface WrittenRule {
  verdict: RuleVerdict;
  text: string;
  /** where it is written, as the user knows it (".claude/settings.json", "--disallowedTools") */
  source: string;
}

export interface PermissionRule {
  verdict: RuleVerdict;
  /** as written in the file */
  text: string;
  /** the file it is in, as the user knows it (".claude/settings.json") */
  source: string;
  target: RuleTarget;
  /** what decided, when it is not the rule as written (a file whose rules cannot be read, rule-files.ts) */
  because?: string;
}

const FILE_TOOLS: Record<string, readonly string[]> = {
  Read: ["read"],
  Edit: ["edit", "write"],
  Write: ["edit", "write"],
  MultiEdit: ["edit", "write"],
  NotebookEdit: ["edit", "write"],
};
/** Claude Code's tools that zot has no counterpart of. */
const NOT_IN_ZOT: ReadonlySet<string> = new Set(CLAUDE_TOOLS_ZOT_LACKS);

/** A rule's text as a rule, or why zot cannot read it. */
export function parseRule(text: string, verdict: RuleVerdict, source: string, anchors: PathAnchors): PermissionRule | { error: string } {
  const trimmed = text.trim();
  const open = trimmed.indexOf("(");
  if (open !== -1 && !trimmed.endsWith(")")) return { error: "has an opening ( without its closing )" };
  const written = open === -1 ? trimmed : trimmed.slice(0, open).trim();
  if (written === "" || /[\s()]/.test(written)) return { error: 'must be a tool name, or a tool name and what it applies to: "Bash(npm test)"' };
  const inner = open === -1 ? "" : trimmed.slice(open + 1, -1).trim();
  if (open !== -1 && inner === "") return { error: `has nothing in its brackets; write ${written} alone for every use of the tool` };
  const specifier = inner === "*" ? undefined : inner || undefined;
  // A rule written with zot's own name of a built-in reads as Claude Code's.
  const name = ownEntry(CLAUDE_NAME_OF_BUILTIN, written) ?? written;
  const rule = (target: RuleTarget): PermissionRule => ({ verdict, text: trimmed, source, target });

  if (name === "Bash") {
    if (!specifier) return rule({ kind: "bash" });
    return rule({
      kind: "bash",
      command: compileCommandPattern(specifier, verdict !== "allow"),
      ...(specifier.includes("*") ? {} : { exact: specifier }),
      ...(specifier.includes("|") ? { pipeline: true } : {}),
    });
  }
  const fileTools = ownEntry(FILE_TOOLS, name);
  // edit reads the file it changes and shows its lines (a hint for text not found, the diff): a deny
  // or ask of Read holds on it too, as Claude Code's Edit needs a Read of the file first.
  const tools = fileTools && name === "Read" && verdict !== "allow" ? [...fileTools, "edit"] : fileTools;
  if (tools) {
    if (!specifier) return rule({ kind: "path", tools });
    const path = compilePathPattern(specifier, anchors);
    return "error" in path ? { error: path.error } : rule({ kind: "path", tools, path });
  }
  if (name === "Skill") return rule({ kind: "skill", ...(specifier ? { skill: compileNamePattern(specifier) } : {}) });
  if (name.startsWith("mcp__")) {
    if (specifier) return { error: "an MCP rule names a server or a tool and takes nothing in brackets" };
    const [, server, tool, ...more] = name.split("__");
    if (!server || server.includes("*") || more.length > 0) return { error: "must be mcp__<server>, mcp__<server>__* or mcp__<server>__<tool>" };
    const prefix = `mcp__${server}__`;
    if (tool === undefined || tool === "*") return rule({ kind: "tool", matches: (toolName) => toolName.startsWith(prefix) });
    return rule({ kind: "tool", matches: (toolName) => toolName === name });
  }
  if (NOT_IN_ZOT.has(name)) return rule({ kind: "none" });
  if (specifier) return { error: `zot reads what is in brackets only for Bash, Read, Edit, Write and Skill; "${written}" has no such part` };
  return rule({ kind: "tool", matches: (toolName) => toolName === name });
}

/** A name with `*` wildcards (`deploy*`, `myext:*`), matched whole. */
function compileNamePattern(pattern: string): (name: string) => boolean {
  const matcher = new RegExp(`^${wildcardSource(pattern)}$`);
  return (name) => matcher.test(name);
}
