// A tool an MCP server offers, as a plain zot Tool named `mcp__<server>__<tool>`: the agent sends
// its schema, runs it through the interception chain and the gates like a built-in, and the
// server's connection makes the call. Rule: the model sees the server's own description and input
// schema (a description over Claude Code's 2,048 characters is cut, as Claude Code cuts it), and a
// call never throws (server-connection.ts turns every failure into an is_error result).
import type { Tool as McpToolDef } from "@modelcontextprotocol/sdk/types.js";
import type { Tool } from "../protocol/tool.ts";
import { mcpToolName } from "./names.ts";
import type { McpServerConnection } from "./server-connection.ts";

const MAX_DESCRIPTION = 2048;

export function mcpTool(server: McpServerConnection, def: McpToolDef): Tool {
  const text = def.description?.trim() || def.title?.trim() || `Tool ${def.name} of the MCP server ${server.name}.`;
  return {
    name: mcpToolName(server.name, def.name),
    description: text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION)}… [description cut]` : text,
    parameters: inputSchema(def),
    execute: (args, ctx) =>
      server.callTool(def.name, args, ctx.signal, (text) => {
        void ctx.onProgress(text);
      }),
  };
}

/** The server's input schema; one that is not an object schema is wrapped so providers accept it. */
function inputSchema(def: McpToolDef): Record<string, unknown> {
  const schema = def.inputSchema as Record<string, unknown> | undefined;
  if (!schema || schema.type !== "object") return { type: "object", properties: {} };
  return schema;
}
