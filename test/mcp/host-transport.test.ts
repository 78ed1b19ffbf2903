// A server inside the program running zot, through a real MCP SDK Client and Server: the Client
// speaks over HostTransport, and `ask` hands each message to the Server as the program would.
import { expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { HostTransport } from "../../src/mcp/host-transport.ts";

/** The program's side: an in-process server whose replies `ask` resolves with. */
function hostedServer() {
  const server = new McpServer({ name: "calc", version: "1.0.0" });
  server.tool("add", "Add", { a: z.number(), b: z.number() }, async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));
  const waiting = new Map<unknown, (reply: Record<string, unknown>) => void>();
  const serverSide: Transport = {
    async start() {},
    async send(message: JSONRPCMessage) {
      if ("id" in message && !("method" in message)) waiting.get(message.id)?.(message as Record<string, unknown>);
    },
    async close() {},
  };
  void server.connect(serverSide);
  const ask = (message: JSONRPCMessage) =>
    new Promise<Record<string, unknown> | undefined>((resolve) => {
      if ("id" in message && "method" in message) waiting.set(message.id, resolve);
      else resolve(undefined);
      serverSide.onmessage?.(message);
    });
  return ask;
}

test("a Client lists and calls the hosted server's tools through the program", async () => {
  const client = new Client({ name: "zot", version: "0" });
  await client.connect(new HostTransport("calc", hostedServer()));
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["add"]);
  expect(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toMatchObject({ content: [{ type: "text", text: "5" }] });
  await client.close();
});

test("a request the program cannot answer gets an error reply naming why, not a wait", async () => {
  const client = new Client({ name: "zot", version: "0" });
  const transport = new HostTransport("calc", async () => {
    throw new Error("the program closed stdin, so it cannot answer mcp_message");
  });
  await expect(client.connect(transport)).rejects.toThrow('the program hosting "calc" did not answer: the program closed stdin, so it cannot answer mcp_message');
});
