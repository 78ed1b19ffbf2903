#!/usr/bin/env node
// A stdio MCP server with N tools shaped like a real API's (a description of a few sentences, a
// handful of typed parameters), for `scripts/bench mcp`: what many tools cost a request, deferred
// or not. Usage: node mcp-many-tools.mjs <N>
import { createInterface } from "node:readline";

const count = Number(process.argv[2] ?? 100);
const verbs = ["list", "get", "create", "update", "delete", "search", "archive", "assign", "merge", "export"];
const nouns = ["issue", "pull_request", "repository", "branch", "comment", "label", "milestone", "release", "workflow", "team"];
const tools = Array.from({ length: count }, (_, i) => {
  const verb = verbs[i % verbs.length];
  const noun = nouns[Math.floor(i / verbs.length) % nouns.length];
  return {
    name: `${verb}_${noun}${i >= 100 ? `_${i}` : ""}`,
    description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${noun.replace("_", " ")} in a repository. Requires the owner and repository name; returns the ${noun.replace("_", " ")} as JSON with its id, state and timestamps. Fails when the token lacks access.`,
    inputSchema: {
      type: "object",
      properties: {
        owner: { type: "string", description: "The account owner of the repository (not case sensitive)" },
        repo: { type: "string", description: "The name of the repository without the .git extension" },
        id: { type: "number", description: `The ${noun.replace("_", " ")} number` },
        state: { type: "string", enum: ["open", "closed", "all"], description: "Filter by state" },
        per_page: { type: "number", description: "Results per page (max 100)" },
      },
      required: ["owner", "repo"],
    },
  };
});

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
createInterface({ input: process.stdin }).on("line", (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  const { id, method, params } = message;
  if (id === undefined) return;
  if (method === "initialize") send({ jsonrpc: "2.0", id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "many", version: "1" } } });
  else if (method === "tools/list") send({ jsonrpc: "2.0", id, result: { tools } });
  else if (method === "tools/call") send({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `${params.name} ok` }] } });
  else send({ jsonrpc: "2.0", id, error: { code: -32601, message: "no such method" } });
});
