// `zot mcp add` and `zot mcp add-json`, with Claude Code's argument shapes:
//   zot mcp add [--transport stdio|http|sse] [--scope local|project|user] [-e KEY=val]… [-H "Name: v"]… <name> <command-or-url> [args…]
//   zot mcp add-json [--scope …] <name> '<json>'
// Options go before the name (or between the name and the command); everything after a command
// is the server's own argv, flags included, so `zot mcp add fs npx -y pkg /dir` needs no `--`; a
// URL has no argv, so options may follow it too, as Claude Code's examples put `--header` there.
// Rule: an entry is checked as a run would read it before anything is written; every mistake is a
// UsageError that says what to type instead.
import { folderAnswer } from "../config/trust-store.ts";
import { UsageError } from "../config/usage-error.ts";
import { addServer, type EditContext } from "../mcp/config-edit.ts";
import { MCP_SCOPES, type McpScope } from "../mcp/config-files.ts";
import { parseServerEntry } from "../mcp/server-entry.ts";
import { EXIT } from "./router.ts";

export const ADD_USAGE = 'zot mcp add [--transport stdio|http|sse] [--scope local|project|user] [-e KEY=value]… [-H "Name: value"]… <name> <command-or-url> [args…]';
export const ADD_JSON_USAGE = "zot mcp add-json [--scope local|project|user] <name> '<json>'";

const NAME = /^[A-Za-z0-9_-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TRANSPORTS = ["stdio", "http", "sse"] as const;
type TransportName = (typeof TRANSPORTS)[number];

export interface AddArgs {
  name: string;
  scope: McpScope;
  entry: Record<string, unknown>;
}

/** Reads `zot mcp add`'s arguments into the entry it writes. */
export function parseAddArgs(argv: readonly string[]): AddArgs {
  let transport: TransportName = "stdio";
  let scope: McpScope = "local";
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const positionals: string[] = [];
  let i = 0;
  const valueOf = (flag: string, inline: string | undefined): string => {
    if (inline !== undefined) return inline;
    const value = argv[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value (${ADD_USAGE})`);
    return value;
  };
  /** Reads the option at argv[i] (moving i past its value); false when argv[i] is no option. */
  const option = (word: string): boolean => {
    const [flag, inline] = word.startsWith("--") && word.includes("=") ? [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)] : [word, undefined];
    if (flag === "-t" || flag === "--transport") transport = oneOf(valueOf(flag, inline), TRANSPORTS, "--transport");
    else if (flag === "-s" || flag === "--scope") scope = oneOf(valueOf(flag, inline), MCP_SCOPES, "--scope");
    else if (flag === "-e" || flag === "--env") {
      const pair = valueOf(flag, inline);
      const eq = pair.indexOf("=");
      const key = eq > 0 ? pair.slice(0, eq) : "";
      if (!ENV_NAME.test(key)) throw new UsageError(`-e takes KEY=value (got ${JSON.stringify(pair)})`);
      if (key === "__proto__") throw new UsageError(PROTO_NAME("-e variable name"));
      env[key] = pair.slice(eq + 1);
    } else if (flag === "-H" || flag === "--header") {
      const line = valueOf(flag, inline);
      const colon = line.indexOf(":");
      const key = colon > 0 ? line.slice(0, colon).trim() : "";
      if (!key) throw new UsageError(`-H takes "Name: value" (got ${JSON.stringify(line)})`);
      if (key === "__proto__") throw new UsageError(PROTO_NAME("-H header name"));
      headers[key] = line.slice(colon + 1).trim();
    } else if (word.startsWith("-") && word !== "-") throw new UsageError(`unknown option ${word} for zot mcp add; usage: ${ADD_USAGE}`);
    else return false;
    return true;
  };
  // Options until the command: after it, every word is the server's.
  for (; i < argv.length && positionals.length < 2; i++) {
    const word = argv[i]!;
    if (word === "--") {
      positionals.push(...argv.slice(i + 1));
      i = argv.length;
      break;
    }
    if (!option(word)) positionals.push(word);
  }
  // A URL has no argv: what follows it are options, as Claude Code's own examples write them
  // (`claude mcp add --transport http secure-server https://… --header "Authorization: …"`).
  if (positionals.length === 2 && /^https?:\/\//i.test(positionals[1]!)) {
    for (; i < argv.length; i++) if (!option(argv[i]!)) break;
  }
  positionals.push(...argv.slice(i));
  const [name, target, ...args] = positionals;
  if (!name || !target) throw new UsageError(`zot mcp add needs a name and a command or URL; usage: ${ADD_USAGE}`);
  checkName(name);
  if (transport === "stdio") {
    if (Object.keys(headers).length > 0) throw new UsageError("-H headers are for http and sse servers; a stdio server takes -e KEY=value");
    if (/^https?:\/\//i.test(target)) {
      throw new UsageError(`${target} is a URL; to add a remote server say so: zot mcp add --transport http ${name} ${target}`);
    }
    return { name, scope, entry: { type: "stdio", command: target, args, env } };
  }
  if (Object.keys(env).length > 0) throw new UsageError(`-e is for stdio servers; an ${transport} server takes -H "Name: value" headers`);
  if (args.length > 0) throw new UsageError(`an ${transport} server takes a URL and nothing after it (got ${args.join(" ")})`);
  return { name, scope, entry: { type: transport, url: target, ...(Object.keys(headers).length > 0 ? { headers } : {}) } };
}

/** Reads `zot mcp add-json`'s arguments. */
export function parseAddJsonArgs(argv: readonly string[]): AddArgs {
  let scope: McpScope = "local";
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "-s" || word === "--scope") scope = oneOf(argv[++i] ?? "", MCP_SCOPES, "--scope");
    else if (word.startsWith("--scope=")) scope = oneOf(word.slice("--scope=".length), MCP_SCOPES, "--scope");
    else if (word.startsWith("-") && word !== "-") throw new UsageError(`unknown option ${word} for zot mcp add-json; usage: ${ADD_JSON_USAGE}`);
    else positionals.push(word);
  }
  const [name, json, ...extra] = positionals;
  if (!name || json === undefined || extra.length > 0) throw new UsageError(`usage: ${ADD_JSON_USAGE}`);
  checkName(name);
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`the server's JSON does not parse (${(error as Error).message}); e.g. '{"type":"http","url":"https://example.com/mcp"}'`);
  }
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) throw new UsageError("the server's JSON must be an object");
  return { name, scope, entry: entry as Record<string, unknown> };
}

/** Writes the entry after checking it as a run reads it (with every ${VAR} taken as set). */
export function writeEntry(parsed: AddArgs, context: EditContext): number {
  // Every name is set (its own entry, as expansion asks with ownEntry): the placeholder is written as typed.
  const anyValue = new Proxy({} as Record<string, string>, {
    get: () => "1",
    has: () => true,
    getOwnPropertyDescriptor: () => ({ value: "1", enumerable: true, configurable: true, writable: false }),
  });
  // A url that is a variable (`${MCP_URL}`) is a URL only when it runs: the rest of the entry is
  // checked with a stand-in one.
  const urlOnlyAtRun = typeof parsed.entry.url === "string" && /^\$\{[^}]+\}/.test(parsed.entry.url.trim());
  const entry = urlOnlyAtRun ? { ...parsed.entry, url: "https://placeholder.invalid/mcp" } : parsed.entry;
  const checked = parseServerEntry(entry, `MCP server "${parsed.name}"`, anyValue);
  if ("error" in checked) throw new UsageError(checked.error);
  const type = checked.transport.type;
  const target = addServer(parsed.scope, parsed.name, parsed.entry, context);
  console.log(`added ${type} MCP server "${parsed.name}" to ${target.label}`);
  if (parsed.scope === "project") {
    const trusted = folderAnswer(context.home, context.cwd)?.trusted === true;
    console.log(`${trusted ? "" : "it runs once this folder is trusted (zot trust); "}commit .mcp.json to share it`);
  }
  return EXIT.ok;
}

/** "__proto__" as a key in .mcp.json is read as the object's prototype, never as an entry: refused, not lost. */
const PROTO_NAME = (what: string) => `${what} "__proto__" cannot be kept in .mcp.json (JSON readers take it for the object's prototype); pick another`;

function checkName(name: string): void {
  if (!NAME.test(name)) throw new UsageError(`MCP server name "${name}" may only hold letters, digits, - and _`);
  if (name === "__proto__") throw new UsageError(PROTO_NAME("MCP server name"));
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(", ")} (got ${JSON.stringify(value)})`);
}
