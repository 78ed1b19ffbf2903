// /mcp: the MCP servers of this run, each with its state (connected, starting, failed and why),
// where it is configured, and the tools and prompt commands it offers; `/mcp reconnect [name]`
// starts one again (even while it is up: a wedged server), or every one that is down; after them,
// the configured servers this run did not start (turned off for the folder in Claude Code, an
// untrusted folder's, broken), as off and why, as `zot mcp list` has them. Rule: exactly the
// conversation's servers as they are now, so a server that joined late, crashed or is being
// started again shows as it is.
import type { SlashCommand } from "../app-context.ts";

const STATE = { starting: "starting…", connected: "connected", failed: "failed", stopped: "stopped" } as const;

export const MCP_COMMAND: SlashCommand = {
  name: "mcp",
  description: "List the MCP servers and their tools, or start one again",
  argsHint: "[reconnect [name]]",
  async run(app, args) {
    const [verb, name, ...rest] = args.trim().split(/\s+/).filter(Boolean);
    if (verb !== undefined) {
      if (verb !== "reconnect" || rest.length > 0) {
        app.showNote(`/mcp takes nothing, or reconnect and a server's name (got "${args.trim()}")`, "error");
        return;
      }
      // A server this run does not start (an untrusted folder's, one turned off) is not "started again".
      // (Only when no server of that name runs: an untrusted folder's entry does not hide the user's own.)
      const runs = app.conversation.mcpServers()?.servers.some((server) => server.name === name) ?? false;
      const off = name === undefined || runs ? undefined : app.conversation.mcpServersOff().find((server) => server.name === name);
      if (off) {
        app.showNote(`MCP server "${name}" (${off.source}) is not started in this run: ${off.why}`, "warn");
        return;
      }
      app.showNote(name ? `starting MCP server "${name}" again…` : "starting the MCP servers that are down again…");
      const done = await app.conversation.reconnectMcp(name);
      if ("error" in done) app.showNote(done.error, "error");
      else if (done.length === 0) app.showNote("every MCP server is up; /mcp reconnect <name> starts one again anyway");
      else {
        for (const server of done) {
          if (server.state === "connected") app.showNote(`MCP server "${server.name}" is up: ${server.tools.length} tools, ${server.prompts.length} prompts`, "success");
          else app.showNote(`MCP server "${server.name}" did not start: ${server.error ?? server.state} (its log: ${server.log})`, "error");
        }
      }
      return;
    }
    const mcp = app.conversation.mcpServers();
    const servers = mcp?.servers ?? [];
    const off = app.conversation.mcpServersOff();
    if (servers.length === 0 && off.length === 0) {
      app.showNote("no MCP servers in this run; zot mcp add adds one (or .mcp.json, ~/.claude.json, $ZOT_HOME/mcp.json), and zot mcp list shows what is configured");
      return;
    }
    const blocks = servers.map((server) => {
      const head = `- **${server.name}** — ${STATE[server.state]}${server.error ? `: ${server.error}` : ""} *(${server.transport}, ${server.source})*`;
      const tools = server.tools.length > 0 ? `\n  tools: ${server.tools.map((name) => `\`${name}\``).join(", ")}` : "";
      const prompts = server.prompts.length > 0 ? `\n  commands: ${server.prompts.map((name) => `\`/${name}\``).join(", ")}` : "";
      const resources = server.resources ? `\n  resources: ${server.resources} (\`@${server.name}:<uri>\` in a prompt; the model lists them with \`ListMcpResourcesTool\`)` : "";
      const log = server.state === "failed" ? `\n  log: ${server.log}` : "";
      return `${head}${tools}${prompts}${resources}${log}`;
    });
    for (const server of off) blocks.push(`- **${server.name}** — off: ${server.why} *(${server.source})*`);
    const deferred = mcp?.deferring ? "\n\nThe tools are deferred: the model finds them with `tool_search` (ENABLE_TOOL_SEARCH=false sends them all)." : "";
    app.showMarkdown(`**MCP servers**\n\n${blocks.join("\n")}${deferred}`);
  },
};
