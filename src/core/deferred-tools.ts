// Tools an agent can use without every request carrying their schemas: deferred tools are held
// back, the model finds them with a search tool (tools/tool-search.ts) or calls one by the name it
// was told, and from then on the tool is an ordinary one of the agent's (sent with every request,
// run through the whole interception chain and the gates). Any owner can defer tools here (MCP
// servers now; extensions' `deferred` tools and `activate_tools` can share it).
// Rule: a deferred tool costs a request nothing but its name until it is activated; activation
// lasts for the run and takes effect at the next model request (or at once, for a call by name);
// the set touches only the entries of agent.tools it put there itself.
import type { Tool } from "../protocol/tool.ts";
import type { Participant } from "./intercept.ts";
import { OWN_PARTICIPANTS } from "../protocol/own-participants.ts";

/** What the set needs of an agent: its tools (the set swaps its own in and out) and its interception chain. */
export interface DeferringAgent {
  readonly tools: readonly Tool[];
  swapTools(previous: readonly Tool[], next: readonly Tool[]): void;
  readonly chain: { add(participant: Participant): void; removeWhere(test: (participant: Participant) => boolean): void };
}

/** A match of a search, best first. */
export interface ToolMatch {
  name: string;
  description: string;
}

/** Makes the search tool over a set (tools/tool-search.ts); core names no concrete tool. */
export type SearchToolFactory = (catalog: DeferredTools) => Tool;

export class DeferredTools {
  /** owner → the tools it defers, in its order */
  private readonly owners = new Map<string, Tool[]>();
  /** names activated so far (kept when an owner offers the tool again, e.g. after a list change) */
  private readonly activated = new Set<string>();
  /** what this set put in agent.tools: the search tool while something is deferred, and the activated tools */
  private placed: Tool[] = [];
  private readonly searchTool: Tool;
  private readonly participant: Participant;

  constructor(
    private readonly agent: DeferringAgent,
    makeSearchTool: SearchToolFactory,
  ) {
    this.searchTool = makeSearchTool(this);
    this.participant = {
      name: OWN_PARTICIPANTS.deferredTools,
      builtin: true,
      // Last: a participant earlier in the chain may rename the call to a deferred tool.
      priority: Number.MAX_SAFE_INTEGER,
      stages: ["tool_call"],
      timeoutMs: 1000,
      onFailure: "skip",
      decide: async (stage, payload) => {
        if (stage === "tool_call") this.activate([(payload as { name: string }).name]);
        return { action: "continue" };
      },
    };
    agent.chain.add(this.participant);
  }

  /** Replaces the tools `owner` defers (an empty list takes them all back). */
  set(owner: string, tools: readonly Tool[]): void {
    if (tools.length === 0) this.owners.delete(owner);
    else this.owners.set(owner, [...tools]);
    this.sync();
  }

  /** Every deferred tool, active or not. */
  all(): Tool[] {
    return [...this.owners.values()].flat();
  }

  /** Deferred tools the model has not activated yet. */
  pending(): Tool[] {
    return this.all().filter((tool) => !this.activated.has(tool.name));
  }

  pendingNames(): string[] {
    return this.pending().map((tool) => tool.name);
  }

  /** Deferred tools the model has activated (only those still offered). */
  activeNames(): string[] {
    return this.all().filter((tool) => this.activated.has(tool.name)).map((tool) => tool.name);
  }

  /** Makes the named deferred tools ordinary tools of the agent; names that are not deferred here are returned as unknown. */
  activate(names: readonly string[]): { activated: string[]; unknown: string[] } {
    const known = new Set(this.all().map((tool) => tool.name));
    const activated: string[] = [];
    const unknown: string[] = [];
    for (const name of names) {
      if (!known.has(name)) unknown.push(name);
      else if (!this.activated.has(name)) {
        this.activated.add(name);
        activated.push(name);
      }
    }
    if (activated.length > 0) this.sync();
    return { activated, unknown };
  }

  /**
   * The pending tools that match `query`, best first, at most `limit`: words of the query found
   * in a tool's name count most, then in its description; `select:a,b` names tools exactly.
   */
  search(query: string, limit: number): ToolMatch[] {
    const pending = this.pending();
    const trimmed = query.trim();
    if (trimmed.startsWith("select:")) {
      const wanted = new Set(trimmed.slice("select:".length).split(",").map((name) => name.trim()).filter(Boolean));
      return pending.filter((tool) => wanted.has(tool.name)).map(match);
    }
    const words = trimmed.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 1);
    const scored = pending
      .map((tool) => ({ tool, score: score(tool, trimmed.toLowerCase(), words) }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : 1));
    return scored.slice(0, Math.max(1, limit)).map((entry) => match(entry.tool));
  }

  /** Takes everything this set put in the agent back out, and its participant off the chain. */
  dispose(): void {
    this.owners.clear();
    this.sync();
    this.agent.chain.removeWhere((participant) => participant === this.participant);
  }

  /** Puts the search tool (while anything is pending) and the activated tools in agent.tools, in place of what it put there before. */
  private sync(): void {
    const active = this.all().filter((tool) => this.activated.has(tool.name));
    const next = [...(this.pending().length > 0 ? [this.searchTool] : []), ...active];
    this.agent.swapTools(this.placed, next);
    this.placed = next;
  }
}

function match(tool: Tool): ToolMatch {
  return { name: tool.name, description: tool.description };
}

function score(tool: Tool, query: string, words: readonly string[]): number {
  const name = tool.name.toLowerCase();
  if (name === query) return 1000;
  const nameParts = new Set(name.split(/[^a-z0-9]+/).filter(Boolean));
  const description = tool.description.toLowerCase();
  let total = 0;
  for (const word of words) {
    if (nameParts.has(word)) total += 5;
    else if (name.includes(word)) total += 3;
    if (description.includes(word)) total += 1;
  }
  return total;
}
