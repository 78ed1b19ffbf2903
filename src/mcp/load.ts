// What a run does about MCP: reads the configuration, asks for the workspace trust decision only
// when the project has a `.mcp.json`, and starts the servers. Rule: a run with no MCP server
// configured loads neither the SDK nor the manager (only this file and the config reader), so it
// costs `zot -p` nothing; everything wrong with the configuration is a sentence for the notes.
import { existsSync } from "node:fs";
import path from "node:path";
import type { WorkspaceTrust } from "../config/workspace-trust.ts";
import { type ConfiguredServer, type McpServerOff, offReason, PROJECT_MCP_FILE, readMcpConfig, runnableServers } from "./config-files.ts";
import { PROJECT_CODEX_FILE } from "./codex-config-view.ts";
import type { FlagMcpConfig } from "./flag-configs.ts";
import type { HostServers } from "./host-transport.ts";
import type { McpManager } from "./manager.ts";

export interface McpLoadOptions {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  /** the run's one trust decision (asked at most once, shared with the extensions) */
  trust: () => Promise<WorkspaceTrust>;
  /** whether the folder is trusted now, for a project server's later start (project-config.ts TrustOnce.now) */
  trustNow?: () => boolean;
  wait: "all" | number;
  clientVersion: string;
  log: (message: string) => void;
  /** `--mcp-config`, read, and `--strict-mcp-config`; the servers the program running zot hosts */
  flags?: { configs: readonly FlagMcpConfig[]; strict: boolean; host?: HostServers };
  /** the .mcp.json servers Claude Code's settings files turn off, given the folder's trust as decided */
  disabledFor?: (trusted: boolean) => readonly string[];
  /** false: --setting-sources leaves out `project`, and the folder's .mcp.json is not read */
  projectFile?: boolean;
}

export interface McpLoaded {
  /** undefined when no server is to run */
  manager?: McpManager;
  /** sentences for the user: broken files and entries, servers that did not start */
  warnings: string[];
  /**
   * the configured servers not started (turned off in Claude Code, an untrusted folder's, broken),
   * for /mcp; one that lost its name to another entry is not among them (the winner is listed)
   */
  off: McpServerOff[];
}

export async function loadMcpServers(options: McpLoadOptions): Promise<McpLoaded> {
  const strict = options.flags?.strict === true;
  // The folder's own servers: its .mcp.json, or Codex's .codex/config.toml (which --setting-sources does not choose).
  const hasProjectFile =
    !strict && ((options.projectFile !== false && existsSync(path.join(options.cwd, PROJECT_MCP_FILE))) || existsSync(path.join(options.cwd, PROJECT_CODEX_FILE)));
  const projectTrusted = hasProjectFile ? (await options.trust()).trusted : false;
  const config = readMcpConfig({
    cwd: options.cwd,
    home: options.home,
    env: options.env,
    projectTrusted,
    flagConfigs: options.flags?.configs,
    strict,
    ...(options.disabledFor ? { disabled: options.disabledFor(projectTrusted) } : {}),
    ...(options.projectFile === false ? { projectFile: false } : {}),
  });
  const warnings = [...config.warnings];
  const off = config.servers.flatMap((server) => {
    const why = offReason(server);
    return why ? [{ name: server.name, source: server.source.label, why }] : [];
  });
  for (const server of config.servers) {
    // Only the entries that would run are worth a note; `zot mcp list` shows the rest.
    if (server.shadowedBy || server.untrusted || server.disabled) continue;
    if (server.error) warnings.push(server.error + hiddenBy(server, config.servers));
    warnings.push(...server.warnings);
  }
  const servers = runnableServers(config);
  if (servers.length === 0) return { warnings, off };
  const { McpManager } = await import("./manager.ts");
  const manager = new McpManager({
    cwd: options.cwd,
    home: options.home,
    env: options.env,
    servers,
    wait: options.wait,
    clientVersion: options.clientVersion,
    ...(options.flags?.host ? { host: options.flags.host } : {}),
    ...(options.trustNow ? { trustNow: options.trustNow } : {}),
    log: options.log,
    onWaiting: (names) =>
      options.log(
        `waiting for MCP ${names.length === 1 ? "server" : "servers"} still starting: ${names.join(", ")} (up to ${Math.round(manager.settings.startMs / 1000)} s; MCP_TIMEOUT sets the limit, in ms)`,
      ),
  });
  warnings.push(...(await manager.start()));
  return { manager, warnings, off };
}

/** A broken entry still holds its name: what it keeps from starting, said with its error. */
function hiddenBy(broken: ConfiguredServer, servers: readonly ConfiguredServer[]): string {
  const hidden = servers.filter((other) => other.name === broken.name && other.shadowedBy === broken.source && other.transport);
  return hidden.length === 0 ? "" : `; it holds the name, so "${broken.name}" in ${hidden.map((other) => other.source.label).join(" and ")} does not start either`;
}
