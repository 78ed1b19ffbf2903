// The `tool_search` tool: how the model finds and switches on deferred tools (core/deferred-tools.ts),
// so that many tools (MCP servers with dozens each) cost a request their names, not their schemas.
// Rule: its description always names every tool it can activate (up to a bound), so the model knows
// what exists without searching blind; what it activates is usable from the model's next step.
import type { Tool } from "../protocol/tool.ts";
import { textResult } from "../protocol/tool.ts";
import { defineArgs } from "./args.ts";
import { SEARCH_DEFAULT_RESULTS, searchArgs } from "./builtin-args.ts";
import { builtinParameters } from "./builtin-parameters.ts" with { type: "macro" };
import { namesWithin } from "../protocol/names-within.ts";

export const TOOL_SEARCH_NAME = "tool_search";

/** What the tool searches and activates. */
export interface ToolCatalog {
  search(query: string, limit: number): { name: string; description: string }[];
  activate(names: readonly string[]): { activated: string[]; unknown: string[] };
  pendingNames(): string[];
  /** deferred tools already activated: callable as they are */
  activeNames(): string[];
}

/** How many characters of names the description lists before it says how many more there are. */
const MAX_LISTED_CHARS = 6000;

const args = defineArgs(TOOL_SEARCH_NAME, searchArgs, builtinParameters("searchArgs"));

export function createToolSearchTool(catalog: ToolCatalog): Tool {
  return {
    name: TOOL_SEARCH_NAME,
    // A getter: the list changes as servers join and tools are activated.
    get description() {
      return describe(catalog.pendingNames());
    },
    parameters: args.jsonSchema,
    async execute(raw) {
      const parsed = args.parse(raw);
      if (!parsed.ok) return parsed.error;
      const matches = catalog.search(parsed.value.query, parsed.value.max_results ?? SEARCH_DEFAULT_RESULTS);
      if (matches.length === 0) return noMatch(parsed.value.query, catalog);
      const { activated } = catalog.activate(matches.map((match) => match.name));
      const lines = matches.map((match) => `- ${match.name}: ${firstLine(match.description)}`);
      return textResult(
        `Activated ${activated.length} tool${activated.length === 1 ? "" : "s"}; call ${activated.length === 1 ? "it" : "them"} by name from your next step, with the parameters ${activated.length === 1 ? "its" : "their"} definition gives:\n${lines.join("\n")}`,
        false,
        { activated },
      );
    },
  };
}

/** What a search that activated nothing says: a tool named with select: that is active already is no unknown tool. */
function noMatch(query: string, catalog: ToolCatalog) {
  const pending = catalog.pendingNames();
  // As many names as the description lists: 20,000 deferred tools must not make a failed search 400 KB.
  const names = namesWithin(pending, MAX_LISTED_CHARS, " (search finds them)");
  const trimmed = query.trim();
  if (trimmed.startsWith("select:")) {
    const named = trimmed.slice("select:".length).split(",").map((name) => name.trim()).filter(Boolean);
    const active = new Set(catalog.activeNames());
    const already = named.filter((name) => active.has(name));
    const unknown = named.filter((name) => !active.has(name));
    const choices = pending.length > 0 ? `; the tools it can activate: ${names}` : "";
    if (named.length === 0) return textResult(`select: needs the names of tools, like select:name_one,name_two${choices}`, true);
    if (unknown.length === 0) return textResult(`${already.join(", ")} ${already.length === 1 ? "is" : "are"} already active; call ${already.length === 1 ? "it" : "them"} directly`);
    const also = already.length > 0 ? ` (${already.join(", ")} ${already.length === 1 ? "is" : "are"} already active)` : "";
    return textResult(`no deferred tool is named ${unknown.join(", ")}${also}${choices}`, true);
  }
  return textResult(
    pending.length > 0
      ? `no deferred tool matches ${JSON.stringify(query)}; try other words, or select:<name> with one of: ${names}`
      : "every tool is already active; call them directly",
  );
}

function describe(pending: readonly string[]): string {
  const listed = namesWithin(pending, MAX_LISTED_CHARS, " (search finds them)");
  return (
    "Find and activate tools that are available but not loaded yet. Their definitions are left out to keep requests small; " +
    "search by what you need (or select:<name> for a tool you know) and the matching tools become callable from your next step. " +
    "You may also call one of the names below directly. " +
    `Deferred tools: ${listed || "(none)"}.`
  );
}

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
