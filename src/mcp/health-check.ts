// `zot mcp list` and `zot mcp get`: each server started once, as a run would start it, and
// stopped again, to say whether it works and what it offers. Rule: every server is checked at once
// and within MCP_TIMEOUT; nothing started here outlives the check.
import path from "node:path";
import { zotPaths } from "../config/home.ts";
import { VERSION } from "../version.ts";
import type { ConfiguredServer } from "./config-files.ts";
import { readMcpSettings } from "./mcp-settings.ts";
import { fileSafeName } from "./names.ts";
import type { ServerTransport } from "./server-entry.ts";
import { McpServerConnection } from "./server-connection.ts";

export interface HealthReport {
  ok: boolean;
  /** why it failed */
  error?: string;
  /** what is spoken, after a fallback */
  transport: ServerTransport["type"];
  tools: string[];
  prompts: string[];
  /** the URIs of its resources */
  resources: string[];
}

export async function checkServers(
  servers: readonly (ConfiguredServer & { transport: ServerTransport })[],
  context: { cwd: string; home: string; env: Record<string, string | undefined> },
): Promise<Map<ConfiguredServer, HealthReport>> {
  const settings = readMcpSettings(context.env);
  const logsDir = zotPaths(path.resolve(context.cwd, context.home)).logsDir;
  const checks = servers.map(async (server) => {
    const connection = new McpServerConnection(server.name, server.transport, server.source.label, {
      cwd: context.cwd,
      env: context.env,
      logFile: path.join(logsDir, `mcp-${fileSafeName(server.name)}.log`),
      clientVersion: VERSION,
      timeouts: { startMs: settings.startMs, toolMs: settings.toolMs },
      maxOutputTokens: settings.maxOutputTokens,
      onChange: () => {},
      note: () => {},
    });
    await connection.start();
    const report: HealthReport = {
      ok: connection.state === "connected",
      ...(connection.state === "connected" ? {} : { error: connection.error ?? connection.state }),
      transport: connection.kind,
      tools: connection.tools.map((tool) => tool.name),
      prompts: connection.prompts.map((prompt) => prompt.name),
      resources: connection.resources.map((resource) => resource.uri),
    };
    await connection.stop();
    return [server, report] as const;
  });
  return new Map(await Promise.all(checks));
}
