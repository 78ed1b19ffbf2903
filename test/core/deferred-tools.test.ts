// Deferred tools through a real agent loop: a request carries the search tool and no deferred
// schema; a search activates tools from the next request on; a call by name activates at once and
// still goes through the chain's gates; taking the tools back leaves nothing behind.
import { describe, expect, test } from "bun:test";
import { Agent } from "../../src/core/agent.ts";
import { DeferredTools } from "../../src/core/deferred-tools.ts";
import type { ModelRequest, Provider } from "../../src/protocol/provider.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import type { Tool } from "../../src/protocol/tool.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";
import { createToolSearchTool } from "../../src/tools/tool-search.ts";
import { testModel } from "../support/test-model.ts";

function recording(turns: ScriptTurn[]): Provider & { requests: ModelRequest[] } {
  const inner = createScriptedProvider(turns);
  const requests: ModelRequest[] = [];
  return { ...inner, requests, stream: (request, signal) => (requests.push(structuredClone(request)), inner.stream(request, signal)) };
}

function tool(name: string, description: string, ran: string[]): Tool {
  return {
    name,
    description,
    parameters: { type: "object", properties: { q: { type: "string", description: "x".repeat(200) } } },
    async execute(args) {
      ran.push(name);
      return { content: [{ type: "text", text: `${name} ran with ${JSON.stringify(args)}` }], is_error: false };
    },
  };
}

function setup(turns: ScriptTurn[]) {
  const provider = recording(turns);
  const ran: string[] = [];
  const builtin = tool("read", "reads", ran);
  const agent = new Agent({ provider, model: testModel(), tools: [builtin], system: "s", cwd: process.cwd() });
  const deferred = new DeferredTools(agent, createToolSearchTool);
  deferred.set("mcp", [
    tool("mcp__gh__create_issue", "Create a GitHub issue in a repository", ran),
    tool("mcp__gh__list_pull_requests", "List the pull requests of a repository", ran),
    tool("mcp__fs__read_file", "Read a file from the allowed directories", ran),
  ]);
  const names = (request: ModelRequest | undefined) => (request?.tools ?? []).map((t) => t.name).sort();
  return { agent, deferred, provider, ran, names };
}

describe("deferred tools", () => {
  test("a search activates the matching tools from the next request; the first request carried only names", async () => {
    const { agent, provider, ran, names } = setup([
      { tool_calls: [{ name: "tool_search", args: { query: "github pull request" } }] },
      { tool_calls: [{ name: "mcp__gh__list_pull_requests", args: { q: "open" } }] },
      { text: "done" },
    ]);
    expect((await agent.prompt({ text: "go" }, new AbortController().signal)).status).toBe("ok");
    expect(names(provider.requests[0])).toEqual(["read", "tool_search"]);
    const search = provider.requests[0]!.tools!.find((t) => t.name === "tool_search")!;
    expect(search.description).toContain("mcp__gh__create_issue, mcp__gh__list_pull_requests, mcp__fs__read_file");
    // Both GitHub tools match the words; the file tool does not.
    expect(names(provider.requests[1])).toEqual(["mcp__gh__create_issue", "mcp__gh__list_pull_requests", "read", "tool_search"]);
    expect(ran).toEqual(["mcp__gh__list_pull_requests"]);
    const searchResult = JSON.stringify(provider.requests[1]!.messages.at(-1));
    expect(searchResult).toContain("Activated 2 tools");
  });

  test("a deferred tool called by name runs at once, through the gates, and stays active", async () => {
    const { agent, provider, ran, names } = setup([{ tool_calls: [{ name: "mcp__fs__read_file", args: { q: "a" } }] }, { text: "done" }]);
    const seen: string[] = [];
    agent.chain.add({
      name: "gate",
      priority: 0,
      stages: ["approve_tool"],
      timeoutMs: 1000,
      onFailure: "deny",
      decide: async (_stage, payload) => (seen.push((payload as { name: string }).name), { action: "continue" }),
    });
    await agent.prompt({ text: "go" }, new AbortController().signal);
    expect(ran).toEqual(["mcp__fs__read_file"]);
    expect(seen).toEqual(["mcp__fs__read_file"]);
    expect(names(provider.requests[1])).toEqual(["mcp__fs__read_file", "read", "tool_search"]);
  });

  test("select: of a tool already active says so (no error); an unknown name or none at all is an error naming what can be activated", async () => {
    const { agent, provider } = setup([
      { tool_calls: [{ name: "tool_search", args: { query: "select:mcp__fs__read_file" } }] },
      { tool_calls: [{ name: "tool_search", args: { query: "select:mcp__fs__read_file" } }] },
      { tool_calls: [{ name: "tool_search", args: { query: "select:mcp__fs__read_file,nope" } }] },
      { tool_calls: [{ name: "tool_search", args: { query: "select: ,," } }] },
      { text: "done" },
    ]);
    await agent.prompt({ text: "go" }, new AbortController().signal);
    const result = (i: number) => {
      const block = (provider.requests[i]!.messages.at(-1)!.content as { type: string; content?: { text: string }[]; is_error?: boolean }[]).find((b) => b.type === "tool_result")!;
      return [block.is_error ?? false, block.content![0]!.text];
    };
    expect(result(1)[1]).toContain("Activated 1 tool");
    expect(result(2)).toEqual([false, "mcp__fs__read_file is already active; call it directly"]);
    expect(result(3)).toEqual([true, "no deferred tool is named nope (mcp__fs__read_file is already active); the tools it can activate: mcp__gh__create_issue, mcp__gh__list_pull_requests"]);
    expect(result(4)).toEqual([true, "select: needs the names of tools, like select:name_one,name_two; the tools it can activate: mcp__gh__create_issue, mcp__gh__list_pull_requests"]);
  });

  test("select: names tools exactly; once nothing is pending the search tool goes; dispose takes everything back", () => {
    const { agent, deferred } = setup([]);
    expect(deferred.search("select:mcp__fs__read_file, nope", 5).map((m) => m.name)).toEqual(["mcp__fs__read_file"]);
    expect(deferred.activate(["mcp__fs__read_file", "nope"])).toEqual({ activated: ["mcp__fs__read_file"], unknown: ["nope"] });
    deferred.activate(["mcp__gh__create_issue", "mcp__gh__list_pull_requests"]);
    expect(agent.tools.map((t) => t.name)).toEqual(["read", "mcp__gh__create_issue", "mcp__gh__list_pull_requests", "mcp__fs__read_file"]);
    // An owner offering its tools again (a list change) keeps what was activated.
    deferred.set("mcp", deferred.all().map((t) => ({ ...t })));
    expect(agent.tools.map((t) => t.name)).toEqual(["read", "mcp__gh__create_issue", "mcp__gh__list_pull_requests", "mcp__fs__read_file"]);
    deferred.dispose();
    expect(agent.tools.map((t) => t.name)).toEqual(["read"]);
    expect(agent.chain.has("tool_call")).toBe(false);
  });
});
