// The tools that let the model see and read what the MCP servers offer as resources, named as
// Claude Code names them (ListMcpResourcesTool, ReadMcpResourceTool), so permission rules, hooks and
// --allowedTools lists written for Claude Code match them unchanged. Rule: offered only while a
// server says it has resources; listing never needs a question, a read is confirmed as the
// server's own tools are (a URI may name any file the server can read); a read of an unknown
// server or a failing one is an is_error result naming the servers there are.
import type { Tool } from "../protocol/tool.ts";
import { textResult } from "../protocol/tool.ts";
import { defineArgs } from "../tools/args.ts";
import { listResourcesArgs, readResourceArgs } from "../tools/builtin-args.ts";
import { builtinParameters } from "../tools/builtin-parameters.ts" with { type: "macro" };
import type { McpServerConnection } from "./server-connection.ts";

export const LIST_RESOURCES_TOOL = "ListMcpResourcesTool";
export const READ_RESOURCE_TOOL = "ReadMcpResourceTool";

const listArgs = defineArgs(LIST_RESOURCES_TOOL, listResourcesArgs, builtinParameters("listResourcesArgs"));
const readArgs = defineArgs(READ_RESOURCE_TOOL, readResourceArgs, builtinParameters("readResourceArgs"));

/** The two tools over `servers` (the manager's, read at each call: servers join and change). */
export function resourceTools(servers: () => readonly McpServerConnection[]): Tool[] {
  const withResources = () => servers().filter((server) => server.offersResources);
  const unknown = (name: string) => {
    const names = withResources().map((server) => server.name);
    return textResult(`no MCP server "${name}" offers resources${names.length > 0 ? `; these do: ${names.join(", ")}` : ""}`, true);
  };
  return [
    {
      name: LIST_RESOURCES_TOOL,
      description:
        "Lists the resources the MCP servers offer (documents, records, files a server makes readable), each with its server, URI, name, type and description. Read one with ReadMcpResourceTool.",
      parameters: listArgs.jsonSchema,
      readsOnlyInside: () => true,
      async execute(raw) {
        const parsed = listArgs.parse(raw);
        if (!parsed.ok) return parsed.error;
        const chosen = withResources().filter((server) => parsed.value.server === undefined || server.name === parsed.value.server);
        if (parsed.value.server !== undefined && chosen.length === 0) return unknown(parsed.value.server);
        const listed = chosen.flatMap((server) =>
          server.resources.map((resource) => ({
            server: server.name,
            uri: resource.uri,
            name: resource.name,
            ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
            ...(resource.description ? { description: resource.description } : {}),
          })),
        );
        const down = chosen.filter((server) => server.state !== "connected").map((server) => `MCP server "${server.name}" is not running (${server.error ?? server.state}); its resources are not listed`);
        if (listed.length === 0) return textResult([`no resources${parsed.value.server ? ` on ${parsed.value.server}` : ""}`, ...down].join("\n"));
        return textResult([JSON.stringify(listed, null, 2), ...down].join("\n"), false, { resources: listed.length });
      },
    },
    {
      name: READ_RESOURCE_TOOL,
      description: "Reads one resource of an MCP server by its URI (ListMcpResourcesTool lists them).",
      parameters: readArgs.jsonSchema,
      // Asked about as the server's own tools are: a URI may name any file a server can read (file:///…/.ssh/id_rsa).
      async execute(raw, ctx) {
        const parsed = readArgs.parse(raw);
        if (!parsed.ok) return parsed.error;
        const server = withResources().find((candidate) => candidate.name === parsed.value.server);
        if (!server) return unknown(parsed.value.server);
        return server.readResource(parsed.value.uri, ctx.signal);
      },
    },
  ];
}
