// `zot mcp list|get|add|add-json|remove`: the MCP servers zot starts, as Claude Code's `claude mcp`
// shows and edits them. list and get start each server once to say whether it works.
// Rule: a project's `.mcp.json` servers are never started here in a folder the user has not
// trusted (they are listed as such); Claude Code's `~/.claude.json` is read, never written.
import { zotHome } from "../config/home.ts";
import { UsageError } from "../config/usage-error.ts";
import { shellQuote } from "../config/workspace-trust.ts";
import type { ConfiguredServer, McpConfig, McpScope } from "../mcp/config-files.ts";
import type { HealthReport } from "../mcp/health-check.ts";
import { EXIT } from "./router.ts";
import { counted } from "../protocol/counted.ts";
import { printable } from "../protocol/printable.ts";
import { ownEntry } from "../protocol/own-key.ts";

const SCOPE_WORDS: Record<McpScope | "flag", string> = {
  local: "local (private to you, in this folder)",
  project: "project (shared through .mcp.json)",
  user: "user (yours, in every folder)",
  flag: "--mcp-config (this run only)",
};

export function mcpUsage(): string {
  const rows: [string, string][] = [
    ["list", "the servers zot starts here, each checked (started once and stopped)"],
    ["get <name>", "one server: where it is configured, how it starts, what it offers"],
    [`add …`, "add a stdio, http or sse server (see below)"],
    ["add-json <name> '<json>'", "add a server written as Claude Code's JSON entry"],
    ["remove <name> [-s scope]", "remove a server zot's own files or .mcp.json define"],
  ];
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    "Manage MCP servers (Model Context Protocol)",
    "",
    "USAGE zot mcp <command> [options]",
    "",
    "COMMANDS",
    "",
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
    "",
    "ADD",
    "",
    '  zot mcp add [--transport stdio|http|sse] [--scope local|project|user] [-e KEY=value]… [-H "Name: value"]… <name> <command-or-url> [args…]',
    "  zot mcp add fs npx -y @modelcontextprotocol/server-filesystem ~/notes",
    "  zot mcp add --transport http -H 'Authorization: Bearer ${TOKEN}' docs https://example.com/mcp",
    "",
    "SCOPES (where add writes)",
    "",
    "  local    $ZOT_HOME/mcp.json, under this folder (the default)",
    "  project  ./.mcp.json, shared with Claude Code and your team; runs once the folder is trusted",
    "  user     $ZOT_HOME/mcp.json, for every folder",
    "",
    "zot also reads Claude Code's ~/.claude.json (its user and local servers); docs/mcp.md has the details.",
  ].join("\n");
}

export async function runMcp(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === "--help" || verb === "-h" || verb === "help") {
    console.log(mcpUsage());
    return EXIT.ok;
  }
  const home = zotHome(process.env);
  // The environment a run would give the servers: Claude Code's settings env included (runtime/run-env.ts).
  const { runEnv } = await import("../runtime/run-env.ts");
  const run = runEnv({ cwd: process.cwd(), home, started: process.env });
  // The .mcp.json servers Claude Code's settings files turn off are off here too.
  const context = { cwd: process.cwd(), home, env: run.env, disabled: run.settings.disabledMcpServers };
  const wantsHelp = rest[0] === "--help" || rest[0] === "-h";
  switch (verb) {
    case "list":
    case "ls":
      if (wantsHelp) return help("zot mcp list");
      if (rest.length > 0) throw new UsageError("zot mcp list takes no arguments");
      return await list(context);
    case "get":
      if (wantsHelp) return help("zot mcp get <name>");
      if (rest.length !== 1) throw new UsageError("usage: zot mcp get <name>");
      return await get(rest[0]!, context);
    case "add": {
      const { ADD_USAGE, parseAddArgs, writeEntry } = await import("./mcp-add.ts");
      if (wantsHelp) return help(ADD_USAGE);
      // Bare, it is missing what it needs (exit 2), as `zot ext` is.
      return writeEntry(parseAddArgs(rest), context);
    }
    case "add-json": {
      const { ADD_JSON_USAGE, parseAddJsonArgs, writeEntry } = await import("./mcp-add.ts");
      if (wantsHelp) return help(ADD_JSON_USAGE);
      return writeEntry(parseAddJsonArgs(rest), context);
    }
    case "remove":
    case "rm":
      if (wantsHelp) return help("zot mcp remove <name> [-s local|project|user]");
      return remove(rest, context);
    default: {
      const theirs = ownEntry(CLAUDE_ONLY, verb);
      if (theirs) throw new UsageError(`zot mcp ${verb} is Claude Code's and zot does not have it: ${theirs}`);
      throw new UsageError(`unknown mcp subcommand "${verb}"; valid: list, get, add, add-json, remove (zot mcp --help)`);
    }
  }
}

type Context = { cwd: string; home: string; env: Record<string, string | undefined>; disabled?: readonly string[] };

function help(usage: string): number {
  console.log(`usage: ${usage}\n\n${mcpUsage()}`);
  return EXIT.ok;
}

async function readConfig(context: Context): Promise<McpConfig> {
  const [{ readMcpConfig }, { decideWorkspaceTrust }] = await Promise.all([import("../mcp/config-files.ts"), import("../config/workspace-trust.ts")]);
  // Asked nothing: the remembered answer (or none) decides, as in -p.
  const trust = await decideWorkspaceTrust({ cwd: context.cwd, home: context.home });
  const config = readMcpConfig({ ...context, projectTrusted: trust.trusted });
  for (const warning of config.warnings) console.error(`zot: ${printable(warning)}`);
  return config;
}

/**
 * `node /x/index.js /dir`, `https://… (HTTP)`, as the entry writes them: a `${VAR}` stays as
 * written (as `mcp get` shows it), so a listing in a CI log or on a shared screen never prints a
 * key a folder's .mcp.json spelled into a URL or an argument.
 */
function target(server: ConfiguredServer): string {
  const t = server.transport;
  if (!t) return "(not usable)";
  const raw = (server.raw ?? {}) as Record<string, unknown>;
  if (t.type === "stdio") {
    const written = typeof raw.command === "string" ? [raw.command, ...(Array.isArray(raw.args) ? raw.args.map(String) : [])] : [t.command, ...t.args];
    return written.map((word) => shellQuote(word)).join(" ");
  }
  if (t.type === "sdk") return `"${t.name}" inside the program running zot (SDK)`;
  return `${typeof raw.url === "string" ? raw.url : t.url} (${t.type.toUpperCase()})`;
}

/** Why a server is not started, or undefined when it is. */
function notStarted(server: ConfiguredServer): string | undefined {
  if (server.shadowedBy) return `not started: ${server.shadowedBy.label} has a server of this name, which wins`;
  if (server.untrusted) return "not started: this folder is not trusted (zot trust)";
  if (server.disabled) return "not started: turned off for this folder in Claude Code (disabledMcpjsonServers)";
  if (server.error) return `not usable: ${server.error}`;
  return undefined;
}

async function check(servers: ConfiguredServer[], context: Context): Promise<Map<ConfiguredServer, HealthReport>> {
  const runnable = servers.filter((server): server is ConfiguredServer & { transport: NonNullable<ConfiguredServer["transport"]> } => !notStarted(server) && server.transport !== undefined);
  if (runnable.length === 0) return new Map();
  const { checkServers } = await import("../mcp/health-check.ts");
  return await checkServers(runnable, context);
}

/** `claude mcp` subcommands zot has no counterpart of, and what to do instead. */
const CLAUDE_ONLY: Readonly<Record<string, string>> = {
  "add-from-claude-desktop": "add each server with zot mcp add-json <name> '<its entry from claude_desktop_config.json>'",
  "reset-project-choices": "zot asks about a folder's .mcp.json through workspace trust; zot untrust takes the answer back",
  serve: "zot is an MCP client only; it does not serve its tools over MCP",
};

async function list(context: Context): Promise<number> {
  const config = await readConfig(context);
  const shown = config.servers.filter((server) => !server.shadowedBy);
  if (shown.length === 0) {
    console.log("No MCP servers configured. Add one with zot mcp add (zot mcp --help), or in .mcp.json, ~/.claude.json, ~/.codex/config.toml or $ZOT_HOME/mcp.json.");
    return EXIT.ok;
  }
  console.error("Checking MCP server health…\n");
  const reports = await check(shown, context);
  for (const server of shown) {
    const report = reports.get(server);
    const resources = report && report.resources.length > 0 ? `, ${counted(report.resources.length, "resource")}` : "";
    const status = notStarted(server) ?? (report?.ok ? `✓ connected (${counted(report.tools.length, "tool")}, ${counted(report.prompts.length, "prompt")}${resources})` : `✗ failed: ${report?.error ?? "not checked"}`);
    // Names, commands and URLs come from the folder's files: shown as text, never as escapes.
    console.log(printable(`${server.name}: ${target(server)} - ${status} [${server.source.label}]`));
  }
  return EXIT.ok;
}

async function get(name: string, context: Context): Promise<number> {
  const config = await readConfig(context);
  const entries = config.servers.filter((server) => server.name === name);
  // The entry that runs: an untrusted folder's or a turned-off one of the same name takes nothing from it.
  const server = entries.find((entry) => !entry.shadowedBy && !entry.untrusted && !entry.disabled) ?? entries.find((entry) => !entry.shadowedBy);
  if (!server) throw new UsageError(`no MCP server named "${name}"; zot mcp list shows the configured ones`);
  const report = (await check([server], context)).get(server);
  const raw = (server.raw ?? {}) as Record<string, unknown>;
  const lines = [`${name}:`, `  Scope: ${SCOPE_WORDS[server.source.scope]}`, `  File: ${server.source.file}`];
  lines.push(`  Status: ${notStarted(server) ?? (report?.ok ? "✓ connected" : `✗ failed: ${report?.error}`)}`);
  if (server.transport) lines.push(`  Type: ${server.transport.type}${report && report.transport !== server.transport.type ? ` (speaks ${report.transport})` : ""}`);
  if (typeof raw.command === "string") lines.push(`  Command: ${raw.command}`, `  Args: ${Array.isArray(raw.args) ? raw.args.join(" ") : ""}`);
  if (typeof raw.url === "string") lines.push(`  URL: ${raw.url}`);
  for (const [title, field] of [["Environment", "env"], ["Headers", "headers"]] as const) {
    const values = raw[field];
    if (values && typeof values === "object" && Object.keys(values).length > 0) {
      lines.push(`  ${title}:`, ...Object.entries(values).map(([key, value]) => `    ${key}${field === "env" ? "=" : ": "}${String(value)}`));
    }
  }
  if (report?.ok) {
    const { mcpToolName, mcpPromptCommand } = await import("../mcp/names.ts");
    lines.push(`  Tools: ${report.tools.map((tool) => mcpToolName(name, tool)).join(", ") || "none"}`);
    if (report.prompts.length > 0) lines.push(`  Prompts: ${report.prompts.map((prompt) => `/${mcpPromptCommand(name, prompt)}`).join(", ")}`);
    if (report.resources.length > 0) lines.push(`  Resources: ${report.resources.map((uri) => `@${name}:${uri}`).join(", ")}`);
  }
  for (const other of entries.filter((entry) => entry !== server)) {
    const why = other.untrusted || other.disabled ? notStarted(other) : undefined;
    lines.push(why ? `  (also in ${other.source.label}, ${why})` : `  (also in ${other.source.label}, which this one shadows)`);
  }
  const removal =
    server.source.owner === "claude"
      ? `Defined in Claude Code's file; remove it there (claude mcp remove ${name} -s ${server.source.scope}).`
      : server.source.owner === "codex"
        ? `Defined in Codex's file; remove it there (codex mcp remove ${name}).`
        : `To remove it: zot mcp remove ${name} -s ${server.source.scope}`;
  lines.push("", removal);
  console.log(printable(lines.join("\n")));
  return EXIT.ok;
}

async function remove(argv: string[], context: Context): Promise<number> {
  let scope: McpScope | undefined;
  const names: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "-s" || word === "--scope" || word.startsWith("--scope=")) {
      const value = word.startsWith("--scope=") ? word.slice("--scope=".length) : argv[++i];
      if (value !== "local" && value !== "project" && value !== "user") throw new UsageError(`--scope must be one of local, project, user (got ${JSON.stringify(value ?? "")})`);
      scope = value;
    } else if (word.startsWith("-")) throw new UsageError(`unknown option ${word}; usage: zot mcp remove <name> [-s local|project|user]`);
    else names.push(word);
  }
  if (names.length !== 1) throw new UsageError("usage: zot mcp remove <name> [-s local|project|user]");
  const { removeServer } = await import("../mcp/config-edit.ts");
  const removed = removeServer(names[0]!, scope, context);
  console.log(`removed MCP server "${names[0]}" from ${removed.label}`);
  return EXIT.ok;
}

