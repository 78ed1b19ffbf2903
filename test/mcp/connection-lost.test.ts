// When a call to a remote MCP server counts as the server gone (and it is started again): it cannot
// be reached, or it forgot the session: a 404 (the spec's answer), or a 400 that says so (what the
// reference servers, the everything server among them, answer a session id they do not know).
import { expect, test } from "bun:test";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connectionLost } from "../../src/mcp/server-connection.ts";

test("a forgotten session (404, or a 400 naming the session) and an unreachable server are a lost connection; other errors are the call's", () => {
  const stale = new StreamableHTTPError(400, 'Error POSTing to endpoint: {"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}');
  expect(connectionLost(stale)).toBe(true);
  expect(connectionLost(new StreamableHTTPError(404, "Error POSTing to endpoint: session not found"))).toBe(true);
  expect(connectionLost(Object.assign(new Error("Unable to connect"), { code: "ECONNREFUSED" }))).toBe(true);
  // A 400 about the call itself is the call's failure, not a reason to start the server again.
  expect(connectionLost(new StreamableHTTPError(400, "Error POSTing to endpoint: invalid arguments for tool echo"))).toBe(false);
  expect(connectionLost(new Error("MCP error -32602: unknown tool"))).toBe(false);
});
