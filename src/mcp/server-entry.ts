// One MCP server as Claude Code's configuration files write it (`.mcp.json`, `~/.claude.json`, and
// zot's own `$ZOT_HOME/mcp.json`, which uses the same shape): a stdio server
// `{"command", "args", "env"}`, or a remote one `{"type": "http" | "sse", "url", "headers"}`, or
// one inside the program running zot `{"type": "sdk", "name"}` (the Claude Agent SDK's).
// Rule: an entry is read as Claude Code reads it (no `type` and a `command` is stdio; `${VAR}` is
// expanded), what other clients write is accepted where that is unambiguous (a bare `url` is
// http; `streamable-http`), and anything else is a sentence naming the server and the field.
import * as v from "valibot";
import { issueSentence } from "../protocol/schema-issue.ts";
import { expandDeep } from "./env-expansion.ts";

/** `env` and `headers`: names to strings. Rule: an array is no map (valibot's record would take `[]`, and `["A"]` as `{"0": "A"}`). */
const StringMap = v.pipe(
  v.custom<Record<string, unknown>>((input) => input !== null && typeof input === "object" && !Array.isArray(input), 'must be an object like {"NAME": "value"}'),
  v.record(v.string(), v.string()),
);

const StdioEntry = v.looseObject({
  type: v.optional(v.literal("stdio")),
  command: v.pipe(v.string(), v.nonEmpty("command is empty; give the program that starts the server")),
  args: v.optional(v.array(v.string()), []),
  env: v.optional(StringMap, {}),
});

const RemoteEntry = v.looseObject({
  type: v.picklist(["http", "sse"]),
  url: v.pipe(
    v.string(),
    v.url('url must be a full URL like "https://example.com/mcp"'),
    v.check((url) => /^https?:/i.test(url), 'url must start with http:// or https://, like "https://example.com/mcp"'),
  ),
  headers: v.optional(StringMap, {}),
  headersHelper: v.optional(v.string()),
});

/** Which of a server's tools are offered (Codex's enabled_tools and disabled_tools); none: all of them. */
export interface ToolFilter {
  enabled?: string[];
  disabled?: string[];
}

/** How zot talks to a server. `http` is streamable HTTP, falling back to HTTP+SSE for an older server. */
export type ServerTransport =
  | { type: "stdio"; command: string; args: string[]; env: Record<string, string>; toolFilter?: ToolFilter }
  | { type: "http" | "sse"; url: string; headers: Record<string, string>; toolFilter?: ToolFilter }
  /** a server inside the program running zot (the Claude Agent SDK's createSdkMcpServer), reached through it */
  | { type: "sdk"; name: string };

export type ServerEntryResult = { transport: ServerTransport; warnings: string[] } | { error: string };

/** Other clients' names for streamable HTTP. */
const HTTP_ALIASES = new Set(["http", "streamable-http", "streamableHttp", "streamable_http"]);

/**
 * Reads one entry of an `mcpServers` object. `where` names it in messages
 * (`MCP server "fs" in /p/.mcp.json`); `env` is what `${VAR}` expands against.
 */
export function parseServerEntry(raw: unknown, where: string, env: Record<string, string | undefined>): ServerEntryResult {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return { error: `${where}: the entry must be an object like {"command": "npx", "args": ["-y", "…"]} or {"type": "http", "url": "…"}` };
  }
  const entry = { ...(raw as Record<string, unknown>) };
  const type = entry.type;
  if (type !== undefined && typeof type !== "string") return { error: `${where}: "type" must be "stdio", "http" or "sse"` };
  if (typeof type === "string" && HTTP_ALIASES.has(type)) entry.type = "http";
  if (type === undefined && entry.command === undefined && typeof entry.url === "string") entry.type = "http";
  if (type === "sdk") {
    const name = typeof entry.name === "string" && entry.name !== "" ? entry.name : undefined;
    return name ? { transport: { type: "sdk", name }, warnings: [] } : { error: `${where}: an "sdk" server needs the "name" its program hosts it by` };
  }
  if (type === "ws" || type === "websocket") return { error: `${where}: WebSocket servers ("type": "${type}") are not supported; use the server's http or sse endpoint` };
  if (entry.type !== undefined && !["stdio", "http", "sse"].includes(entry.type as string)) {
    return { error: `${where}: unknown "type" ${JSON.stringify(entry.type)}; zot knows "stdio", "http" and "sse"` };
  }
  const { value: expanded, missing } = expandDeep(entry, env);
  if (missing.length > 0) {
    const names = missing.map((name) => `\${${name}}`).join(", ");
    return { error: `${where}: ${names} ${missing.length === 1 ? "is" : "are"} not set; set ${missing.length === 1 ? "it" : "them"} in the environment, or write \${NAME:-default}` };
  }
  if (expanded.type === "http" || expanded.type === "sse") {
    const parsed = v.safeParse(RemoteEntry, expanded);
    if (!parsed.success) return { error: `${where}: ${issueSentence(parsed.issues, "", { secrets: "likely" })}` };
    const warnings = parsed.output.headersHelper
      ? [`${where}: "headersHelper" is not supported by zot; the server is reached with its static "headers" only`]
      : [];
    return { transport: { type: parsed.output.type, url: parsed.output.url, headers: parsed.output.headers }, warnings };
  }
  if (expanded.command === undefined) {
    return { error: `${where}: the entry needs "command" (a program zot starts) or "type": "http" with a "url"` };
  }
  const parsed = v.safeParse(StdioEntry, expanded);
  if (!parsed.success) return { error: `${where}: ${issueSentence(parsed.issues, "", { secrets: "likely" })}` };
  const { command, args, env: serverEnv } = parsed.output;
  return { transport: { type: "stdio", command, args, env: serverEnv }, warnings: [] };
}
