// One configured MCP server for the length of a run: started, its tools and prompts listed (and
// listed again when it says they changed), its calls made with a deadline and the turn's abort,
// started again when its connection drops, stopped at the end. Rule: isolated like an extension:
// a server that cannot start, does not answer in time, crashes or sends garbage is reported (its
// state, one note, its log) and its calls fail as tool errors the model can read; nothing it does
// reaches another server or zot. A server that was up and dropped (a crash, an exit, a closed
// stream; a remote one a call could not reach) is started again after 1, 2, 4, 8 and 16 s until it
// is back, its calls meanwhile waiting for it; after the fifth failed try it stays down until
// reconnect() (the TUI's /mcp reconnect). The call that was running when it dropped is not made
// again. One start at a time: a later one makes the one under way give way and close what it opened.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type Prompt,
  PromptListChangedNotificationSchema,
  type Resource,
  ResourceListChangedNotificationSchema,
  type Tool as McpToolDef,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { appendLog, RunLog } from "../extensions/child-log.ts";
import { type ChildDiagnostic, seconds } from "../extensions/child.ts";
import type * as v from "valibot";
import { errorText } from "../protocol/error-text.ts";
import type { McpServerEntry } from "../protocol/rpc-frames.ts";
import { untilAborted } from "../protocol/until-aborted.ts";
import type { ToolResult } from "../protocol/tool.ts";
import { type Connected, connectClient } from "./connect-client.ts";
import { type MappingOptions, mapResourceContents, mapToolResult } from "./result-mapping.ts";
import { saveBlob } from "./blob-files.ts";
import type { HostServers } from "./host-transport.ts";
import type { ServerTransport } from "./server-entry.ts";
import { MAX_SCHEMA_DEPTH, nestedDeeperThan } from "../protocol/json-depth.ts";

/** starting (also while it is started again), connected, failed, stopped: as rpc's get_mcp_servers says it. */
export type ServerState = v.InferOutput<typeof McpServerEntry>["state"];

export interface ServerTimeouts {
  /** MCP_TIMEOUT: from the start to the listed tools */
  startMs: number;
  /** MCP_TOOL_TIMEOUT: one call, restarted by each progress notification */
  toolMs: number;
}

export interface ServerContext {
  cwd: string;
  env: Record<string, string | undefined>;
  logFile: string;
  clientVersion: string;
  /** the servers the program running zot hosts (`"type": "sdk"`) */
  host?: HostServers;
  timeouts: ServerTimeouts;
  /** MAX_MCP_OUTPUT_TOKENS */
  maxOutputTokens: number;
  /** the waits before each try to start it again after a drop (default RECONNECT_WAITS_MS) */
  reconnectWaitsMs?: readonly number[];
  /** why it may not start again (a folder's server once the folder is no longer trusted), or undefined */
  mayStartAgain?: () => string | undefined;
  /** its tools, prompts or state changed */
  onChange: () => void;
  /** a sentence for the user (it stopped mid-run, it sends garbage) */
  note: (message: string) => void;
}

/** Pages of a list followed at most; a server that pages forever is cut off there. */
const MAX_PAGES = 50;
/** The waits before each try to start a dropped server again (Claude Code's remote servers': 1 to 16 s, five tries). */
export const RECONNECT_WAITS_MS: readonly number[] = [1000, 2000, 4000, 8000, 16000];
/** Rounds one listing takes at most while the server keeps announcing changes (listSettled). */
const LISTING_ROUNDS = 3;
/** The longest an orderly close waits for a streamable HTTP server to end its session. */
const TERMINATE_MS = 1000;
/** Up this long, a server that drops gets all its tries again. */
const STEADY_MS = 60_000;

export class McpServerConnection {
  state: ServerState = "starting";
  /** why it failed or stopped, as a sentence without the server's name */
  error: string | undefined;
  tools: McpToolDef[] = [];
  prompts: Prompt[] = [];
  /** what it offers to read (resources/list); empty for a server without the capability */
  resources: Resource[] = [];
  /** whether it says it has resources (the resource tools are offered while one does) */
  offersResources = false;
  /** what it tells the model about using it (`instructions` of its initialize answer) */
  instructions: string | undefined;
  /** what is spoken (a `type: "http"` server may turn out to speak sse) */
  kind: ServerTransport["type"];
  pid: number | undefined;
  private client: Client | undefined;
  private transport: Transport | undefined;
  /** aborts the start under way (its deadline, stop(), reconnect()) */
  private starting = new AbortController();
  private started: Promise<void> | undefined;
  private garbageReported = false;
  /** tries to start it again since it was last up for STEADY_MS */
  private tries = 0;
  private connectedAt = 0;
  /** why the connection last dropped, for the call that was running then */
  private dropped: string | undefined;
  /** the reconnect() under way */
  private reconnecting: Promise<void> | undefined;
  /** what `changes` was when the last listing round began: a change since is not in the lists yet */
  private listedAt = 0;
  /** list_changed notifications received so far: a listing that saw this number move lists again */
  private changes = 0;
  /** whether a failing prompts/list was said (once a run: it fails the same at each listing) */
  private promptsFailureSaid = false;
  /** the budgeted log of what the server logged over MCP (opened at its first message) */
  private serverLog: RunLog | undefined;
  /** the listing again after a change that is under way (its last round saw no change announced) */
  private relisting: Promise<void> | undefined;

  /** whether a reconnect() is under way (its first start's end is not this server's failure) */
  get beingReconnected(): boolean {
    return this.reconnecting !== undefined;
  }

  constructor(
    readonly name: string,
    readonly spec: ServerTransport,
    /** where it is configured, for messages (`.mcp.json`) */
    readonly source: string,
    private readonly context: ServerContext,
  ) {
    this.kind = spec.type;
  }

  get logFile(): string {
    return this.context.logFile;
  }

  /** Why it failed, naming its log once (some errors name it already). */
  errorWithLog(): string {
    const error = this.error ?? this.state;
    return error.includes(this.logFile) ? error : `${error} (its log: ${this.logFile})`;
  }

  /** Connects and lists; never rejects (a failure is the state `failed` with its error). Idempotent. */
  start(): Promise<void> {
    this.started ??= this.connect();
    return this.started;
  }

  /**
   * Starts it again now (the TUI's /mcp reconnect): a connected server too (one that answers but
   * is wedged), with all its tries again. Resolves once it is up or has failed; never rejects. One
   * at a time: asked again meanwhile, it waits for the one under way.
   */
  reconnect(): Promise<void> {
    this.reconnecting ??= this.startAgain().finally(() => (this.reconnecting = undefined));
    return this.reconnecting;
  }

  private async startAgain(): Promise<void> {
    if (this.state === "stopped") return;
    // Said to a call that is running now; and failed first, so the closing below is not taken for a drop.
    this.dropped = "was started again (/mcp reconnect)";
    this.error = "being started again";
    this.state = "failed";
    this.starting.abort(new Error("zot started it again"));
    await this.started;
    await this.closeQuietly(true);
    // stop() meanwhile: nothing starts after it.
    if ((this.state as ServerState) === "stopped") return;
    this.tries = 0;
    this.restart(0);
    this.context.onChange();
    await this.started;
  }

  /** A start after `waitMs` (aborted by stop() or reconnect() meanwhile); its calls wait for it. */
  private restart(waitMs: number): void {
    this.state = "starting";
    this.garbageReported = false;
    // The start before this one, if any is under way, gives way to it.
    this.starting.abort(new Error("zot started it again"));
    const starting = (this.starting = new AbortController());
    this.started = (async () => {
      // A wait that stop() or reconnect() cuts short leaves no timer behind (a -p run exits at once).
      if (waitMs > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, waitMs);
          starting.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
        });
      }
      if (starting.signal.aborted || this.state !== "starting") return;
      const refused = this.context.mayStartAgain?.();
      if (refused) {
        this.fail(refused);
        return;
      }
      await this.connect();
    })();
  }

  private async connect(): Promise<void> {
    const { timeouts } = this.context;
    // This start's own controller: a later start (reconnect) has its own, and then this one gives way.
    const starting = this.starting;
    const superseded = () => starting !== this.starting;
    const deadline = setTimeout(
      () => starting.abort(new Error(`did not start within ${seconds(timeouts.startMs)} (MCP_TIMEOUT sets the limit, in ms)`)),
      timeouts.startMs,
    );
    let mine: Connected | undefined;
    try {
      const connected = (mine = await connectClient({
        name: this.name,
        transport: this.spec,
        cwd: this.context.cwd,
        env: this.context.env,
        logFile: this.context.logFile,
        signal: starting.signal,
        clientVersion: this.context.clientVersion,
        host: this.context.host,
        onDiagnostic: (diagnostic) => this.diagnosed(diagnostic),
        log: (line) => this.log(line),
        serverLog: (line) => this.serverLogged(line),
      }));
      if (superseded()) throw new Error("zot started it again");
      this.client = connected.client;
      this.transport = connected.transport;
      this.kind = connected.kind;
      this.pid = connected.pid;
      this.instructions = connected.client.getInstructions()?.trim() || undefined;
      connected.client.onclose = () => this.closed(connected.client);
      connected.client.onerror = (error) => this.log(`transport error: ${errorText(error)}`);
      // Watched before the first listing: a change announced while it runs makes it list again.
      this.watchLists(connected.client);
      await this.listSettled(starting.signal);
      if (starting.signal.aborted) throw starting.signal.reason;
      if (this.state === "starting") {
        this.state = "connected";
        this.connectedAt = Date.now();
        this.dropped = undefined;
        // Changes announced faster than the start could list them: listed again now that it is up.
        if (this.changes !== this.listedAt) this.relistSoon();
      }
      this.log(`connected over ${this.kind}: ${this.tools.length} tools, ${this.prompts.length} prompts${this.offersResources ? `, ${this.resources.length} resources` : ""}`);
    } catch (error) {
      if (superseded()) {
        // A later start took over: this one closes only what it opened, and touches nothing else.
        if (mine && this.client === mine.client) {
          this.client = undefined;
          this.transport = undefined;
        }
        await mine?.client.close().catch(() => {});
        await mine?.transport.close().catch(() => {});
        return;
      }
      // A crash while listing was already said by closed(), in better words than the SDK's.
      if (this.state === "starting") this.fail(errorText(starting.signal.aborted ? (starting.signal.reason ?? error) : error));
      await this.closeQuietly();
    } finally {
      clearTimeout(deadline);
    }
    this.context.onChange();
  }

  /** Lists the tools, prompts and resources the server says it has; only a failing tools/list fails it. */
  private async list(signal: AbortSignal): Promise<void> {
    const client = this.client;
    if (!client) return;
    const capabilities = client.getServerCapabilities() ?? {};
    const log = (line: string) => this.log(line);
    // Read as sent, each item on its own: one tool the SDK's schemas refuse (an anyOf input schema, an
    // output schema it cannot compile) must not take the server's other tools with it.
    const listed = <K extends "tools" | "prompts">(method: `${K}/list`, key: K) =>
      pages((cursor) => client.request({ method, params: cursor ? { cursor } : {} }, AS_SENT, { signal }).then((result) => page(result, key)), key);
    if (capabilities.tools) {
      // Named: "Method not found" alone does not say which of the lists failed.
      const tools = await listed("tools/list", "tools").catch((error) => {
        throw signal.aborted ? error : new Error(`its tools/list failed: ${errorText(error)}`);
      });
      this.tools = offered(usableTools(named(tools, "tool", log).map((tool) => wellFormedTool(tool, log)) as McpToolDef[], log), this.spec);
    }
    if (capabilities.prompts) this.prompts = await this.listPrompts(() => listed("prompts/list", "prompts"), signal);
    this.offersResources = capabilities.resources !== undefined;
    if (this.offersResources) this.resources = await this.listResources(client, signal);
  }

  /**
   * Its prompts; a server whose prompts/list fails (a -32601 despite the capability it declared)
   * still has its tools, as with resources: the failure is logged and said once.
   */
  private async listPrompts(list: () => Promise<unknown[]>, signal: AbortSignal): Promise<Prompt[]> {
    try {
      return named(await list(), "prompt", (line) => this.log(line)).flatMap((prompt) => wellFormedPrompt(prompt, (line) => this.log(line))) as Prompt[];
    } catch (error) {
      if (signal.aborted) throw error;
      this.log(`listing prompts failed: ${errorText(error)}`);
      if (!this.promptsFailureSaid) {
        this.promptsFailureSaid = true;
        this.context.note(`MCP server "${this.name}" could not list its prompts (prompts/list: ${errorText(error)}); its tools are there, its prompts are not (its log: ${this.logFile})`);
      }
      return [];
    }
  }

  /** Its resources; a server whose resources/list fails still has its tools (the failure is logged). */
  private async listResources(client: Client, signal: AbortSignal): Promise<Resource[]> {
    try {
      return await pages((cursor) => client.listResources(cursor ? { cursor } : undefined, { signal }), "resources");
    } catch (error) {
      if (signal.aborted) throw error;
      this.log(`listing resources failed: ${errorText(error)}`);
      return [];
    }
  }

  /**
   * Lists until a round ends with no change announced during it (the lists are then the server's
   * latest), LISTING_ROUNDS rounds at most: a server that announces changes faster than it can be
   * listed (a proxy re-announcing at each refresh) has the lists of the last round, and the change
   * still pending is listed again once it is up (relistSoon). `round`: told after each round.
   */
  private async listSettled(signal: AbortSignal, round?: () => void): Promise<void> {
    for (let rounds = 1; ; rounds++) {
      this.listedAt = this.changes;
      await this.list(signal);
      round?.();
      if (this.changes === this.listedAt || signal.aborted || rounds >= LISTING_ROUNDS) return;
    }
  }

  /**
   * A list_changed at any time after initialize: during a start's listing, that listing lists again
   * (connect()); once up, a listing again starts, or the one under way gets one more round, so lists
   * are applied in the order they were read and none is lost.
   */
  private watchLists(client: Client): void {
    const changed = async () => {
      if (client !== this.client) return;
      this.changes++;
      if (this.state === "connected") this.relistSoon();
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, changed);
    client.setNotificationHandler(PromptListChangedNotificationSchema, changed);
    client.setNotificationHandler(ResourceListChangedNotificationSchema, changed);
  }

  /** Lists again unless a listing again is under way; one that ends with a change still pending lists again. */
  private relistSoon(): void {
    this.relisting ??= this.relist().finally(() => {
      this.relisting = undefined;
      if (this.changes !== this.listedAt && this.state === "connected") this.relistSoon();
    });
  }

  private async relist(): Promise<void> {
    try {
      // Each round's lists reach the agent at once: a storm of changes never keeps them back.
      await this.listSettled(AbortSignal.timeout(this.context.timeouts.startMs), () => this.context.onChange());
      this.log(`lists changed: ${this.tools.length} tools, ${this.prompts.length} prompts, ${this.resources.length} resources`);
    } catch (error) {
      this.log(`listing again after a change failed: ${errorText(error)}`);
    }
  }

  /**
   * Resolves once it is not starting (up, failed or stopped), at the abort, or after MCP_TIMEOUT in
   * all, across a restart's tries and the waits between them (a server whose restarts keep failing
   * holds no prompt for minutes): then it may still be starting, which the caller says.
   */
  async untilStarted(signal: AbortSignal): Promise<void> {
    const limit = AbortSignal.any([signal, AbortSignal.timeout(this.context.timeouts.startMs)]);
    // Across a restart's tries: each failed try schedules the next before this wait resumes.
    while (this.state === "starting" && !limit.aborted) await untilAborted(this.start(), limit).catch(() => {});
  }

  /** Why it cannot serve a call now, in words: still starting after MCP_TIMEOUT, or what stopped it (`withLog`: naming its log). */
  whyNotRunning(withLog = false): string {
    if (this.state === "starting") return `is still starting after ${seconds(this.context.timeouts.startMs)} (MCP_TIMEOUT sets the limit, in ms)`;
    return `is not running: ${withLog ? this.errorWithLog() : (this.error ?? this.state)}`;
  }

  /** Calls one of its tools; never throws: every failure is an is_error result naming the server. */
  async callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal, onProgress?: (text: string) => void): Promise<ToolResult> {
    const failure = (why: string): ToolResult => ({
      content: [{ type: "text", text: `MCP server "${this.name}" ${why}` }],
      is_error: true,
      details: { mcp_server: this.name, mcp_tool: tool },
    });
    await this.untilStarted(signal);
    const client = this.client;
    if (this.state !== "connected" || !client) return failure(this.whyNotRunning());
    const timeoutMs = this.context.timeouts.toolMs;
    const changes = this.changes;
    try {
      // As sent: result-mapping.ts reads each block on its own (an unknown block or a bad image is a line, the rest stays).
      const result = await client.callTool({ name: tool, arguments: args }, AS_SENT as Parameters<Client["callTool"]>[1], {
        signal,
        timeout: timeoutMs,
        resetTimeoutOnProgress: true,
        ...(onProgress ? { onprogress: (p) => onProgress(progressLine(p)) } : {}),
      });
      // A call that changed the lists (list_changed before its result: GitHub's enable_toolset) returns
      // once they are listed again, so the model's next request offers the tools it added. Bounded by
      // the listing's own limit (MCP_TIMEOUT) and the turn's abort.
      if (this.changes !== changes && this.relisting) await untilAborted(this.relisting, signal);
      return mapToolResult(result, this.mapping(tool));
    } catch (error) {
      if (signal.aborted) return { ...failure(`call of ${tool} was cancelled`), details: { mcp_server: this.name, mcp_tool: tool, status: "cancelled" } };
      // The connection's own end (a crash) is reported by closed(); the call says what happened to it.
      if (this.client !== client && this.dropped) return failure(`${this.dropped} during the call of ${tool}`);
      // A remote server's transport reports no close of its own when the server goes away: a call that
      // cannot reach it is the drop.
      if (this.kind !== "stdio" && this.client === client && connectionLost(error)) {
        this.drop(client, `could not be reached (${errorText(error)})`);
        return failure(`${this.dropped} during the call of ${tool}`);
      }
      const code = (error as { code?: unknown })?.code;
      if (code === -32001) {
        return { ...failure(`did not answer ${tool} within ${seconds(timeoutMs)} (MCP_TOOL_TIMEOUT sets the limit, in ms)`), details: { mcp_server: this.name, mcp_tool: tool, status: "timed_out" } };
      }
      return failure(`could not run ${tool}: ${errorText(error).replace(/^MCP error -?\d+: /, "")}`);
    }
  }

  /** The messages of one of its prompts, rendered as the text of a user prompt (each marked with its role when not all are the user's). */
  async getPrompt(prompt: string, args: Record<string, string>, signal: AbortSignal): Promise<{ text: string } | { error: string }> {
    await this.untilStarted(signal);
    const client = this.client;
    if (this.state !== "connected" || !client) return { error: `MCP server "${this.name}" ${this.whyNotRunning()}` };
    try {
      const result = await client.getPrompt({ name: prompt, arguments: args }, { signal, timeout: this.context.timeouts.toolMs });
      // A prompt with assistant messages (a few-shot example) is one user prompt here (a command's
      // answer is one text): each message is marked with its role, so the model does not read the
      // assistant's lines as the user's words.
      const roles = result.messages.some((message) => message.role !== "user");
      const parts: string[] = [];
      for (const message of result.messages) {
        const mapped = mapToolResult({ content: [message.content] }, this.mapping(prompt));
        const text = mapped.content.map((block) => (block.type === "text" ? block.text : `[an image (${block.mime_type}) the prompt holds, not passed on]`)).join("\n\n");
        parts.push(roles ? `<message role="${message.role === "assistant" ? "assistant" : "user"}">\n${text}\n</message>` : text);
      }
      const intro = roles ? `The MCP prompt ${prompt} of server ${this.name} is a conversation; its messages, each with its role:\n\n` : "";
      return { text: intro + parts.join("\n\n") };
    } catch (error) {
      return { error: `MCP server "${this.name}" could not give prompt ${prompt}: ${errorText(error).replace(/^MCP error -?\d+: /, "")}` };
    }
  }

  /** One of its resources as the model reads it (result-mapping.ts); never throws: a failure is an is_error result naming the server. */
  async readResource(uri: string, signal: AbortSignal): Promise<ToolResult> {
    const read = await this.readResourceContents(uri, signal);
    if ("error" in read) return { content: [{ type: "text", text: read.error }], is_error: true, details: { mcp_server: this.name, uri } };
    const mapped = mapResourceContents(read.contents, this.mapping(uri));
    return { ...mapped, details: { mcp_server: this.name, uri } };
  }

  /** The contents of one of its resources (`resources/read`), or why there are none, as a sentence naming the server. */
  async readResourceContents(uri: string, signal: AbortSignal): Promise<{ contents: unknown[] } | { error: string }> {
    const failure = (why: string) => ({ error: `MCP server "${this.name}" ${why}` });
    await this.untilStarted(signal);
    const client = this.client;
    if (this.state !== "connected" || !client) return failure(this.whyNotRunning());
    if (!this.offersResources) return failure("has no resources");
    try {
      const result = await client.readResource({ uri }, { signal, timeout: this.context.timeouts.toolMs });
      return { contents: result.contents };
    } catch (error) {
      if (signal.aborted) return failure(`read of ${uri} was cancelled`);
      return failure(`could not read ${uri}: ${errorText(error).replace(/^MCP error -?\d+: /, "")}`);
    }
  }

  /** How its results map for the model (result-mapping.ts); `tool`: the tool, prompt or URI they are of. */
  private mapping(tool: string): MappingOptions {
    return { server: this.name, tool, maxOutputTokens: this.context.maxOutputTokens, saveBlob };
  }

  /** Closes the connection; a stdio server gets its stdin closed, then SIGTERM, then SIGKILL. */
  async stop(): Promise<void> {
    if (this.state === "stopped") return;
    const wasStarting = this.state === "starting";
    this.state = "stopped";
    this.error ??= "zot stopped it";
    if (wasStarting) this.starting.abort(new Error("zot stopped before it finished starting"));
    await this.closeQuietly(true);
    await this.started;
    this.serverLog?.close();
  }

  /**
   * Closes what is open. `orderly` (zot stops it, or starts it again): a streamable HTTP session is
   * ended first (the spec's DELETE), waiting at most TERMINATE_MS, so a dead server never holds up
   * an exit; a drop does not try (the server is gone).
   */
  private async closeQuietly(orderly = false): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    if (orderly && transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const ended = transport.terminateSession().then(
        () => this.log("ended its HTTP session"),
        (error) => this.log(`ending its HTTP session failed: ${errorText(error)}`),
      );
      await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, TERMINATE_MS)))]);
      clearTimeout(timer);
    }
    await client?.close().catch(() => {});
    await transport?.close().catch(() => {});
  }

  /** The connection ended on the server's side (a crash, an exit, a dropped stream); one zot closed itself is not this one's. */
  private closed(client: Client): void {
    const exit = (this.transport as { exit?: { reason: string } } | undefined)?.exit;
    this.drop(client, exit ? exit.reason : "closed the connection");
  }

  /** The connection of `client` is gone, `why`: started again when it was up (tryAgain). */
  private drop(client: Client, why: string): void {
    if (this.state === "stopped" || this.state === "failed" || client !== this.client) return;
    const wasConnected = this.state === "connected";
    this.dropped = why;
    this.fail(why);
    // A start that fails says so itself (start, or the try below).
    if (!wasConnected) return;
    if (Date.now() - this.connectedAt >= STEADY_MS) this.tries = 0;
    void this.closeQuietly();
    this.tryAgain(`stopped (${why}; its log: ${this.logFile})`);
  }

  /** Starts it again after the next wait, or says it stays down when the tries are used up; `what` happened, its log named. */
  private tryAgain(what: string): void {
    const waits = this.context.reconnectWaitsMs ?? RECONNECT_WAITS_MS;
    if (this.tries >= waits.length) {
      this.context.note(
        `MCP server "${this.name}" ${what}; after ${waits.length} tries zot leaves it down and its tools answer with an error (/mcp reconnect ${this.name} tries again)`,
      );
      this.context.onChange();
      return;
    }
    const wait = waits[this.tries++]!;
    this.context.note(`MCP server "${this.name}" ${what}; zot starts it again in ${seconds(wait)} (try ${this.tries} of ${waits.length})`);
    this.restart(wait);
    this.context.onChange();
    const started = this.started;
    void started?.then(() => {
      if (this.started !== started || this.reconnecting) return; // a reconnect() took over
      if (this.state === "connected") {
        this.context.note(`MCP server "${this.name}" is back: ${this.tools.length} tools, ${this.prompts.length} prompts`);
        this.context.onChange();
      } else if (this.state === "failed") {
        const error = this.error ?? "failed";
        this.tryAgain(`did not start again: ${this.errorWithLog()}`);
      }
    });
  }

  private fail(why: string): void {
    this.state = "failed";
    this.error = why;
    this.log(`failed: ${why}`);
  }

  private diagnosed(diagnostic: ChildDiagnostic): void {
    // An answer too long to read is the failed call's error (stdio-transport.ts), not garbage.
    if (this.garbageReported || (diagnostic.kind !== "not_json" && diagnostic.kind !== "not_jsonrpc")) return;
    this.garbageReported = true;
    this.context.note(`MCP server "${this.name}" wrote output that is not MCP (skipped; this is said once, the rest is in its log ${this.logFile})`);
  }

  log(line: string): void {
    appendLog(this.context.logFile, `${this.name}: ${line}`);
  }

  /** What the server logged over MCP: in its log, under the budget a child's stderr has (a chatty server cannot flood it). */
  private serverLogged(line: string): void {
    try {
      this.serverLog ??= new RunLog(this.context.logFile);
      // As its stderr is, without zot's "[zot] ": these are the server's words, not zot's.
      this.serverLog.output(Buffer.from(`${this.name}: ${line}\n`));
    } catch {
      // a log that cannot be opened is a log we skip
    }
  }
}

/** Whether a remote server's call failed because the server could not be reached (it went away, or forgot the session). */
export function connectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (code === 404) return true; // streamable HTTP: the session is gone (the server restarted)
  // …or a 400 saying so, as the reference servers answer a session id they do not know.
  if (code === 400 && /session/i.test(errorText(error))) return true;
  if (typeof code === "string" && /^(ECONNREFUSED|ECONNRESET|ConnectionRefused|ConnectionClosed|FailedToOpenSocket|EPIPE)$/.test(code)) return true;
  return /ECONNREFUSED|ECONNRESET|Unable to connect|socket connection was closed|fetch failed|SSE stream disconnected/i.test(errorText(error));
}

/** Every page of a paginated list. */
async function pages<K extends "tools" | "prompts" | "resources", T>(
  fetchPage: (cursor: string | undefined) => Promise<{ [key in K]: T[] } & { nextCursor?: string }>,
  key: K,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor);
    items.push(...result[key]);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return items;
}

/**
 * A result schema that takes what the server sent as it is (zot reads it defensively itself), in the
 * shape the SDK parses with: a Zod 3 schema's safeParse.
 */
const AS_SENT = { safeParse: (data: unknown) => ({ success: true as const, data }) } as unknown as Parameters<Client["request"]>[1];

/** One page of a list as sent: its items (none when it has no array of them) and its cursor. */
function page<K extends string>(result: unknown, key: K): { [key in K]: unknown[] } & { nextCursor?: string } {
  const record = (result ?? {}) as Record<string, unknown>;
  const items = Array.isArray(record[key]) ? (record[key] as unknown[]) : [];
  return { [key]: items, ...(typeof record.nextCursor === "string" ? { nextCursor: record.nextCursor } : {}) } as { [key in K]: unknown[] } & { nextCursor?: string };
}

/** The items that are objects with a name; each other one is left out with a log line. */
function named(items: unknown[], what: string, log: (line: string) => void): Record<string, unknown>[] {
  return items.filter((item): item is Record<string, unknown> => {
    const ok = item !== null && typeof item === "object" && !Array.isArray(item) && typeof (item as { name?: unknown }).name === "string" && (item as { name: string }).name !== "";
    if (!ok) log(`a ${what} with no name is left out: ${JSON.stringify(item)?.slice(0, 200)}`);
    return ok;
  });
}

/** Its texts when they are texts (what is not is left out): a description of 5 names nothing. */
function texts(item: Record<string, unknown>): Record<string, unknown> {
  const out = { ...item };
  for (const field of ["description", "title"]) if (out[field] !== undefined && typeof out[field] !== "string") delete out[field];
  return out;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A tool as zot offers it: an input schema a provider accepts (one whose `properties` or `required`
 * is of the wrong shape is replaced by an empty object schema, with a log line; mcp-tool.ts wraps one
 * that is no object schema).
 */
function wellFormedTool(tool: Record<string, unknown>, log: (line: string) => void): Record<string, unknown> {
  const out = texts(tool);
  const given = out.inputSchema;
  if (given === undefined || !isObject(given)) return { ...out, inputSchema: undefined };
  // null is absent (a Go struct without omitempty, a Python None): not a wrong shape.
  const schema = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== null));
  out.inputSchema = schema;
  // Each property a schema (an object, or true/false): `{"x": 5}` is refused by strict providers on every turn.
  const badProperties =
    schema.properties !== undefined && (!isObject(schema.properties) || !Object.values(schema.properties).every((value) => isObject(value) || typeof value === "boolean"));
  const badRequired = schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((name) => typeof name === "string"));
  // Deeper than this, copying and sending each request overflows the stack: every model call would fail.
  const tooDeep = !badProperties && !badRequired && nestedDeeperThan(schema, MAX_SCHEMA_DEPTH);
  if (!badProperties && !badRequired && !tooDeep) return out;
  const what = badProperties ? "properties is not an object of schemas" : badRequired ? "required is not a list of names" : `nesting is deeper than ${MAX_SCHEMA_DEPTH} levels`;
  log(`tool ${String(tool.name)}: its input schema's ${what}; offered with no parameters`);
  return { ...out, inputSchema: { type: "object", properties: {} } };
}

/** A prompt as zot offers it: one whose arguments are not a list of named ones is left out, with a log line. */
function wellFormedPrompt(prompt: Record<string, unknown>, log: (line: string) => void): Record<string, unknown>[] {
  const args = prompt.arguments === null ? undefined : prompt.arguments;
  if (args !== undefined && !(Array.isArray(args) && args.every((arg) => isObject(arg) && typeof arg.name === "string" && arg.name !== ""))) {
    log(`prompt ${String(prompt.name)} is left out: its arguments are not a list of named ones`);
    return [];
  }
  const out = texts(prompt);
  out.arguments = Array.isArray(args) ? args.map((arg) => texts(arg as Record<string, unknown>)) : [];
  return [out];
}

/** Tools zot can call: one that requires the SDK's experimental task API is left out, with a log line. */
function usableTools(tools: McpToolDef[], log: (line: string) => void): McpToolDef[] {
  return tools.filter((tool) => {
    const required = (tool as { execution?: { taskSupport?: string } }).execution?.taskSupport === "required";
    if (required) log(`tool ${tool.name} is left out: it can only run as an MCP task, which zot does not support yet`);
    return !required;
  });
}

function progressLine(progress: { progress: number; total?: number; message?: string }): string {
  const of = progress.total !== undefined ? `${progress.progress}/${progress.total}` : String(progress.progress);
  return `${progress.message ? `${progress.message} ` : ""}(${of})\n`;
}

/** The tools the server's entry offers (Codex's enabled_tools, then its disabled_tools); all without a filter. */
function offered(tools: McpToolDef[], spec: ServerTransport): McpToolDef[] {
  const filter = spec.type === "sdk" ? undefined : spec.toolFilter;
  if (!filter) return tools;
  return tools.filter((tool) => (filter.enabled === undefined || filter.enabled.includes(tool.name)) && !(filter.disabled ?? []).includes(tool.name));
}
