// Connecting the MCP SDK's Client to one configured server: a stdio server on zot's own process
// ownership (stdio-transport.ts), a remote one over streamable HTTP, falling back to the older
// HTTP+SSE transport when the endpoint refuses streamable HTTP (a 4xx), or over HTTP+SSE directly.
// zot offers the server roots (client-roots.ts).
// Rule: a failed connection leaves nothing running (the transport is closed, a stdio server's tree
// killed) and comes back as one sentence a user can act on, never as the SDK's error object.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ListRootsRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { clientRoots } from "./client-roots.ts";
import { childEnv } from "../config/child-env.ts";
import type { ChildDiagnostic } from "../extensions/child.ts";
import { errorText } from "../protocol/error-text.ts";
import { expansionEnv } from "./env-expansion.ts";
import type { HostServers } from "./host-transport.ts";
import type { ServerTransport } from "./server-entry.ts";
import { OwnedStdioTransport } from "./stdio-transport.ts";
import { findProgram } from "../process/find-program.ts";

export interface ConnectOptions {
  name: string;
  transport: ServerTransport;
  cwd: string;
  /** zot's environment; a stdio server gets it without zot's credentials, plus its own `env` */
  env: Record<string, string | undefined>;
  logFile: string;
  /** aborted at the start deadline, or when zot stops before the server is up */
  signal: AbortSignal;
  clientVersion: string;
  onDiagnostic?: (diagnostic: ChildDiagnostic) => void;
  /** a line for the server's log */
  log: (line: string) => void;
  /** a line the server had logged (notifications/message), for its log under the budget a child's stderr has */
  serverLog: (line: string) => void;
  /** the servers the program running zot hosts (`"type": "sdk"`), when it hosts any */
  host?: HostServers;
}

export interface Connected {
  client: Client;
  transport: Transport;
  /** what is spoken, after a fallback */
  kind: ServerTransport["type"];
  pid?: number;
}

/** Connects and initializes; throws an Error whose message is the sentence for the user. */
export async function connectClient(options: ConnectOptions): Promise<Connected> {
  const spec = options.transport;
  if (spec.type === "stdio") {
    const transport = new OwnedStdioTransport({
      name: options.name,
      command: [resolveProgram(spec.command, options), ...spec.args],
      cwd: options.cwd,
      // CLAUDE_PROJECT_DIR is the folder, as Claude Code gives its servers; the server's own env
      // wins; zot's BUN_BE_BUN is never passed on (only what zot runs itself gets one).
      env: { ...childEnv(expansionEnv(options.env, options.cwd)), BUN_BE_BUN: undefined, ...spec.env },
      logFile: options.logFile,
      onDiagnostic: options.onDiagnostic,
    });
    const client = await initialize(transport, options, () => transport.exit?.reason);
    return { client, transport, kind: "stdio", pid: transport.pid };
  }
  if (spec.type === "sdk") {
    const transport = options.host?.(spec.name);
    if (!transport) {
      throw new Error(
        options.host
          ? `the program running zot hosts no MCP server named "${spec.name}"`
          : `an "sdk" server lives inside the program that runs zot through the Claude Agent SDK (--input-format stream-json); zot reaches it only there`,
      );
    }
    return { client: await initialize(transport, options), transport, kind: "sdk" };
  }
  const url = new URL(spec.url);
  const requestInit: RequestInit = { headers: spec.headers };
  if (spec.type === "sse") {
    const transport = new SSEClientTransport(url, { requestInit });
    return { client: await initialize(transport, options), transport, kind: "sse" };
  }
  try {
    const transport = new StreamableHTTPClientTransport(url, { requestInit });
    return { client: await initialize(transport, options), transport, kind: "http" };
  } catch (error) {
    // The spec's backwards compatibility: a server that answers the streamable POST with a 4xx
    // (405, 404) may still speak the older HTTP+SSE transport at the same URL.
    const status = httpStatus(error);
    if (options.signal.aborted || status === undefined || status < 400 || status >= 500 || status === 401 || status === 403) throw error;
    options.log(`streamable HTTP answered ${status}; trying the older HTTP+SSE transport`);
    const transport = new SSEClientTransport(url, { requestInit });
    return { client: await initialize(transport, options), transport, kind: "sse" };
  }
}

async function initialize(transport: Transport, options: ConnectOptions, exitReason?: () => string | undefined): Promise<Client> {
  // Roots (client-roots.ts): a server that takes its folders from the client (the filesystem server
  // started with none) works on the folder zot works in.
  const client = new Client({ name: "zot", version: options.clientVersion }, { capabilities: { roots: {} } });
  const roots = clientRoots(options.transport, options.cwd, options.env.HOME);
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
  // What it logs over MCP (notifications/message) goes to its log beside its stderr, from the first
  // message on (a remote server has no stderr); never to the screen.
  client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => options.serverLog(loggedLine(params)));
  const { signal } = options;
  let onAbort: (() => void) | undefined;
  try {
    // The SDK starts the transport before it looks at the signal, and an SSE transport's start waits
    // for the server's endpoint event (or its headers) without end: the signal bounds all of it.
    const connecting = client.connect(transport, { signal, timeout: 2 ** 31 - 1 });
    connecting.catch(() => {});
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason ?? new Error("stopped while starting"));
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    await Promise.race([connecting, aborted]);
    return client;
  } catch (error) {
    // Closing aborts what the transport still waits on (its fetch, its event stream); never waited on for long.
    await Promise.race([Promise.allSettled([client.close(), transport.close()]), Bun.sleep(1000)]);
    throw new Error(connectFailure(error, options, exitReason?.()));
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

/** The most of one logged message kept in the log. */
const MAX_LOGGED_CHARS = 4000;

/** `[warning db] connection pool exhausted`: a log message's level, logger and data (JSON unless a string), cut to MAX_LOGGED_CHARS. */
function loggedLine(params: { level: string; logger?: string; data?: unknown }): string {
  const data = typeof params.data === "string" ? params.data : (JSON.stringify(params.data) ?? String(params.data));
  const text = data.length > MAX_LOGGED_CHARS ? `${data.slice(0, MAX_LOGGED_CHARS)}… [${data.length - MAX_LOGGED_CHARS} more characters]` : data;
  // One line: a message's own line breaks could otherwise write lines that read as zot's.
  return `[${params.level}${params.logger ? ` ${params.logger}` : ""}] ${text.replace(/\r?\n/g, " ⏎ ")}`;
}

/** The sentence for a connection that failed. */
function connectFailure(error: unknown, options: ConnectOptions, exited: string | undefined): string {
  const spec = options.transport;
  if (exited) return `${exited} before it finished starting (its log: ${options.logFile})`;
  if (options.signal.aborted) return errorText(options.signal.reason ?? "stopped while starting");
  const message = errorText(error);
  if (spec.type === "sdk") return message;
  if (spec.type === "stdio") return message.startsWith("MCP server") ? message.replace(/^MCP server "[^"]*": /, "") : message;
  const status = httpStatus(error);
  if (status === 401 || status === 403 || /unauthori[sz]ed|No auth provider/i.test(message)) {
    return `${spec.url} answered ${status ?? 401} (not authorized): give the credentials the server expects in "headers" (OAuth sign-in is not supported by zot yet)`;
  }
  if (status !== undefined) return `${spec.url} answered HTTP ${status}: ${message}`;
  return `cannot reach ${spec.url}: ${message}`;
}

function httpStatus(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError && typeof error.code === "number" && error.code > 0) return error.code;
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "number" && code >= 100 && code < 600) return code;
  const match = /\(HTTP (\d{3})\)|HTTP (\d{3})/.exec(errorText(error));
  return match ? Number(match[1] ?? match[2]) : undefined;
}

/** A bare program name is found on the server's PATH, a relative path from the working directory. */
function resolveProgram(command: string, options: ConnectOptions): string {
  if (command.includes("/")) return command.startsWith("/") ? command : `${options.cwd}/${command}`;
  const PATH = (options.transport.type === "stdio" ? options.transport.env.PATH : undefined) ?? options.env.PATH;
  // findProgram: a name longer than a path may be is on no PATH (Bun.which throws for it).
  return findProgram(command, PATH ?? "", options.cwd) ?? command;
}
