// The MCP servers over rpc (additive to the original protocol): `get_mcp_servers` lists them as
// the TUI's /mcp shows them, `mcp_reconnect` starts one again (even while it is up: a wedged
// server) or every one that is down, answered once each is up or has failed. A server that drops
// is started again on its own (mcp/server-connection.ts); this is for what that cannot see.
import { type Handler } from "./rpc-session.ts";

export const getMcpServers: Handler<"get_mcp_servers"> = (_command, session) => ({
  data: session.conversation.mcpServers() ?? { servers: [], deferring: false },
});

export const mcpReconnect: Handler<"mcp_reconnect"> = async (command, session) => {
  const done = await session.conversation.reconnectMcp(command.server);
  if ("error" in done) return { error: `mcp_reconnect: ${done.error}` };
  return { data: { servers: done, deferring: session.conversation.mcpServers()?.deferring ?? false } };
};
