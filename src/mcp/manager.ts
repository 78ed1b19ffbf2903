// Every MCP server of a run: started in parallel, waited for within a bound, their tools given to
// the agent (directly, or deferred behind tool_search when there are many), their prompts offered
// as slash commands, and all of them stopped at the end. Rule: no server holds up the first prompt
// beyond the bound (one still starting joins when it is up, with a note; only a prompt that names
// it, by an @server:uri mention or its prompt command, waits for it), one server's failure
// never touches another, and the agent's tools change only between model requests, in place.
import path from "node:path";
import { zotPaths } from "../config/home.ts";
import { DeferredTools, type DeferringAgent } from "../core/deferred-tools.ts";
import type * as v from "valibot";
import type { McpServerEntry } from "../protocol/rpc-frames.ts";
import type { CommandResult } from "../protocol/slash-command.ts";
import type { ModelInfo } from "../protocol/models.ts";
import type { Tool } from "../protocol/tool.ts";
import { createToolSearchTool } from "../tools/tool-search.ts";
import type { ConfiguredServer } from "./config-files.ts";
import { type McpSettings, readMcpSettings, shouldDefer } from "./mcp-settings.ts";
import { mcpTool } from "./mcp-tool.ts";
import { fileSafeName, mcpPromptCommand, mcpToolName } from "./names.ts";
import { type PromptCommand, promptCommands, runPromptCommand } from "./prompt-commands.ts";
import { resourceTools } from "./resource-tools.ts";
import { resourceAsText } from "./result-mapping.ts";
import type { ServerTransport } from "./server-entry.ts";
import { McpServerConnection } from "./server-connection.ts";
import type { HostServers } from "./host-transport.ts";
import { counted } from "../protocol/counted.ts";

export interface McpStartOptions {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  /** the servers to start (config-files.ts runnableServers) */
  servers: (ConfiguredServer & { transport: ServerTransport })[];
  /** "all": until each is up or past MCP_TIMEOUT (-p, --json); a number: at most that many ms (the TUI, rpc) */
  wait: "all" | number;
  clientVersion: string;
  /** diagnostics and notes of the running servers (a late join, a crash) */
  log: (message: string) => void;
  /** "all" only: after a moment, the servers still starting */
  onWaiting?: (names: string[]) => void;
  /** default 2000 */
  waitingNoticeMs?: number;
  /** the waits before each try to start a dropped server again (default RECONNECT_WAITS_MS; tests shorten them) */
  reconnectWaitsMs?: readonly number[];
  /** the servers the program running zot hosts (`"type": "sdk"`) */
  host?: HostServers;
  /** whether the folder is trusted now: a project server (.mcp.json, .codex/config.toml) starts again only while it is */
  trustNow?: () => boolean;
}

/** One server as `/mcp`, `zot mcp list` and rpc's get_mcp_servers show it (protocol/rpc-frames.ts). */
export type McpServerInfo = v.InferOutput<typeof McpServerEntry>;

/** The agent as the manager needs it: its tools and chain (for deferral), its model (for the window), its system prompt (for the servers' instructions). */
export interface McpAgent extends DeferringAgent {
  readonly model: ModelInfo;
  setSystemSection(owner: string, text: string): void;
}

const OWNER = "mcp";
/** The owner of the system prompt's section with the servers' instructions. */
const INSTRUCTIONS_OWNER = "MCP servers' instructions";
/** The most of one server's instructions the model is sent (as its tools' descriptions are cut). */
const MAX_INSTRUCTIONS = 2048;

export class McpManager {
  readonly servers: McpServerConnection[];
  readonly settings: McpSettings;
  private agent: McpAgent | undefined;
  private deferred: DeferredTools | undefined;
  /** the MCP tools this manager put directly in agent.tools */
  private placed: Tool[] = [];
  private commandIndex = new Map<string, PromptCommand>();
  /** ListMcpResourcesTool and ReadMcpResourceTool, offered while a server has resources */
  private readonly resourceTools: Tool[] = resourceTools(() => this.servers);
  /** whether the tools are deferred behind tool_search right now */
  deferring = false;
  /** the system prompt's section with the servers' instructions, as last set */
  private instructions = "";
  private stopped = false;

  constructor(private readonly options: McpStartOptions) {
    this.settings = readMcpSettings(options.env);
    const logsDir = zotPaths(path.resolve(options.cwd, options.home)).logsDir;
    this.servers = options.servers.map(
      (server) =>
        new McpServerConnection(server.name, server.transport, server.source.label, {
          cwd: options.cwd,
          env: options.env,
          logFile: path.join(logsDir, `mcp-${fileSafeName(server.name)}.log`),
          clientVersion: options.clientVersion,
          ...(options.host ? { host: options.host } : {}),
          timeouts: { startMs: this.settings.startMs, toolMs: this.settings.toolMs },
          maxOutputTokens: this.settings.maxOutputTokens,
          ...(options.reconnectWaitsMs ? { reconnectWaitsMs: options.reconnectWaitsMs } : {}),
          ...(server.source.scope === "project" && options.trustNow
            ? { mayStartAgain: () => (options.trustNow!() ? undefined : "this folder is no longer trusted (zot untrust); zot trust lets its servers start again") }
            : {}),
          onChange: () => this.rebuild(),
          note: (message) => options.log(message),
        }),
    );
  }

  /**
   * Starts every server at once and waits as `wait` says. Resolves with sentences for the user:
   * the servers that failed within the wait. Those still starting go on and join later.
   */
  async start(): Promise<string[]> {
    const starting = this.servers.map((server) => server.start());
    const late = await this.waitForStarts(Promise.all(starting));
    for (const server of late) {
      void server.start().then(() => this.joined(server));
    }
    this.rebuild();
    return [
      ...this.settings.warnings,
      ...this.servers.filter((server) => server.state === "failed").map((server) => `MCP server "${server.name}" (${server.source}) did not start: ${server.errorWithLog()}`),
    ];
  }

  private async waitForStarts(all: Promise<unknown>): Promise<McpServerConnection[]> {
    const pending = () => this.servers.filter((server) => server.state === "starting");
    const wait = this.options.wait;
    if (wait === "all") {
      const notice = setTimeout(() => {
        const names = pending().map((server) => server.name);
        if (names.length > 0) this.options.onWaiting?.(names);
      }, this.options.waitingNoticeMs ?? 2000);
      await all;
      clearTimeout(notice);
      return [];
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)))]);
    clearTimeout(timer);
    return pending();
  }

  /** A server that was still starting when the run began is up (it joins) or gave up (said once). */
  private joined(server: McpServerConnection): void {
    // A reconnect() that took over says how its own start ended.
    if (this.stopped || server.beingReconnected) return;
    if (server.state === "failed") {
      this.options.log(`MCP server "${server.name}" did not start: ${server.errorWithLog()}`);
      return;
    }
    if (server.state === "connected") this.options.log(`MCP server "${server.name}" is up and joined: ${counted(server.tools.length, "tool")}, ${counted(server.prompts.length, "prompt")}`);
  }

  /** Gives the servers' tools to the agent (and keeps them current as servers join or change). */
  attach(agent: McpAgent): void {
    this.agent = agent;
    this.rebuild();
  }

  /** Every MCP tool of the running servers (a crashed server's stay, answering with its error), and the resource tools while a server has resources. */
  tools(): Tool[] {
    const seen = new Set<string>();
    const tools: Tool[] = [];
    for (const server of this.servers) {
      for (const def of server.tools) {
        const tool = mcpTool(server, def);
        // Two server names that normalise alike (my.fs, my_fs): the one configured first keeps the name.
        if (seen.has(tool.name)) {
          server.log(`tool ${def.name} is not offered: ${tool.name} is already another server's tool`);
          continue;
        }
        seen.add(tool.name);
        tools.push(tool);
      }
    }
    if (this.servers.some((server) => server.offersResources)) tools.push(...this.resourceTools);
    return tools;
  }

  /**
   * One of `server`'s resources as text to attach to a prompt (`@server:uri`), or why it cannot be;
   * undefined when no server of that name has resources (the mention is then something else).
   */
  resourceText(server: string, uri: string, signal: AbortSignal, maxBytes: number): Promise<{ text: string } | { why: string }> | undefined {
    // A server not up yet may have it: the prompt waits for its start (a mention typed right after zot started).
    const connection = this.servers.find((candidate) => candidate.name === server && (candidate.offersResources || candidate.state !== "connected"));
    if (!connection) return undefined;
    return (async () => {
      await connection.untilStarted(signal);
      if (!connection.offersResources) {
        return { why: connection.state === "connected" ? `MCP server "${server}" has no resources` : `MCP server "${server}" ${connection.whyNotRunning(true)}` };
      }
      const read = await connection.readResourceContents(uri, signal);
      return "error" in read ? { why: read.error } : resourceAsText(read.contents, maxBytes);
    })();
  }

  /** The resources of the servers that are up, as a prompt mentions them (`server:uri`; one with a space in its URI cannot be). */
  resourceMentions(): { mention: string; name: string }[] {
    return this.servers
      .filter((server) => server.state === "connected")
      .flatMap((server) => server.resources.filter((resource) => !/\s/.test(resource.uri)).map((resource) => ({ mention: `${server.name}:${resource.uri}`, name: resource.name })));
  }

  list(): McpServerInfo[] {
    return this.servers.map((server) => ({
      name: server.name,
      source: server.source,
      state: server.state,
      ...(server.error && server.state !== "connected" ? { error: server.error } : {}),
      transport: server.kind,
      ...(server.pid !== undefined && server.state === "connected" ? { pid: server.pid } : {}),
      tools: server.tools.map((def) => mcpToolName(server.name, def.name)),
      prompts: promptCommands(server).map((command) => command.name),
      ...(server.resources.length > 0 ? { resources: server.resources.length } : {}),
      log: server.logFile,
    }));
  }

  commands(): { name: string; description: string; extension: string }[] {
    return [...this.commandIndex.values()].map((command) => ({ name: command.name, description: command.description, extension: command.owner }));
  }

  /** A prompt command of a server that is up, or one named under a server that is not (yet): runCommand waits for it or says why not. */
  hasCommand(name: string): boolean {
    return this.commandIndex.has(name.toLowerCase()) || this.serverNotUpFor(name) !== undefined;
  }

  async runCommand(name: string, args: string, signal: AbortSignal): Promise<CommandResult> {
    let command = this.commandIndex.get(name.toLowerCase());
    const waitedFor = command ? undefined : this.serverNotUpFor(name);
    if (waitedFor) {
      await waitedFor.untilStarted(signal);
      command = this.commandIndex.get(name.toLowerCase());
      if (!command && !signal.aborted) {
        const why = waitedFor.state === "connected" ? `has no prompt for /${name}` : waitedFor.whyNotRunning(true);
        return { command: name, extension: `mcp:${waitedFor.name}`, action: "error", text: `MCP server "${waitedFor.name}" ${why}; /${name} was not sent` };
      }
    }
    if (!command) return { command: name, extension: "mcp", action: "error", text: `no MCP server offers /${name}` };
    return runPromptCommand(command, args, signal);
  }

  /**
   * The server that is not up (starting, failed, stopped) under whose name a command is
   * (`mcp__<server>__…`): a command typed before a slow server is up waits for it, and one of a
   * server that is down is said to be, never sent to the model as text.
   */
  private serverNotUpFor(name: string): McpServerConnection | undefined {
    const lower = name.toLowerCase();
    return this.servers.find((server) => server.state !== "connected" && lower.startsWith(mcpPromptCommand(server.name, "").toLowerCase()));
  }

  /**
   * Starts servers again now (the TUI's /mcp reconnect): the one named, even while it is up (a
   * server that answers but is wedged), or, with no name, every one that is not up. Resolves once
   * each is up or has failed, with the servers it started again.
   */
  async reconnect(name?: string): Promise<McpServerInfo[] | { error: string }> {
    if (this.stopped) return { error: "the MCP servers are stopped" };
    const chosen = name === undefined ? this.servers.filter((server) => server.state !== "connected") : this.servers.filter((server) => server.name === name);
    if (name !== undefined && chosen.length === 0) {
      return { error: `no MCP server "${name}" in this run${this.servers.length > 0 ? ` (${this.servers.map((server) => server.name).join(", ")})` : ""}` };
    }
    await Promise.all(chosen.map((server) => server.reconnect()));
    this.rebuild();
    const names = new Set(chosen.map((server) => server.name));
    return this.list().filter((server) => names.has(server.name));
  }

  /** Stops every server at once; their tools stay on the agent and answer that the server stopped. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.servers.map((server) => server.stop()));
  }

  /** Settles the tools and commands again and puts the tools where they belong: directly, or deferred. */
  private rebuild(): void {
    const commands = new Map<string, PromptCommand>();
    for (const server of this.servers) {
      for (const command of promptCommands(server)) if (!commands.has(command.name.toLowerCase())) commands.set(command.name.toLowerCase(), command);
    }
    this.commandIndex = commands;
    const agent = this.agent;
    if (!agent) return;
    const instructions = instructionsSection(this.servers);
    if (instructions !== this.instructions) agent.setSystemSection(INSTRUCTIONS_OWNER, instructions);
    this.instructions = instructions;
    const tools = this.tools();
    const chars = tools.reduce((sum, tool) => sum + JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters }).length, 0);
    this.deferring = tools.length > 0 && shouldDefer(this.settings.toolSearch, chars, agent.model.context_window);
    if (this.deferring && !this.deferred) this.deferred = new DeferredTools(agent, createToolSearchTool);
    const direct = this.deferring ? [] : tools;
    this.deferred?.set(OWNER, this.deferring ? tools : []);
    agent.swapTools(this.placed, direct);
    this.placed = direct;
  }
}

/** The servers' instructions as a section of the system prompt, as Claude Code sends them; "" when none gave any. */
function instructionsSection(servers: readonly McpServerConnection[]): string {
  const given = servers.filter((server) => server.state === "connected" && server.instructions);
  if (given.length === 0) return "";
  const parts = given.map((server) => {
    const text = server.instructions!;
    return `## ${server.name}\n\n${text.length > MAX_INSTRUCTIONS ? `${text.slice(0, MAX_INSTRUCTIONS)}… [instructions cut]` : text}`;
  });
  return `\n\n# Instructions from the MCP servers\n\nThese MCP servers say how to use their tools and resources:\n\n${parts.join("\n\n")}`;
}

