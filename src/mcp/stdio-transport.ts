// The MCP SDK's Transport for a stdio server, on zot's own child process (extensions/child.ts)
// instead of the SDK's StdioClientTransport. The SDK spawns with node's child_process in zot's own
// process group, so a server started through `npx` or a shell wrapper would leave its real process
// behind when zot exits; LineChild starts it as the leader of its own group, owned by zot
// (process/owned-processes.ts), with stderr in a private, bounded log and over-long lines dropped.
// Rule: the server never outlives zot, and nothing it writes can stop the client: a line that is
// not JSON, or JSON that is not JSON-RPC, is logged, reported once and skipped; an answer too long
// to read fails the call it answers at once (when it can be told which) instead of leaving it to
// its timeout.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { type ChildDiagnostic, type ChildExitInfo, LineChild, valuePreview } from "../extensions/child.ts";
import { frameHead } from "../protocol/frame-head.ts";

export interface StdioServerLaunch {
  /** the server's name, for its log and messages */
  name: string;
  /** argv: the program, then its arguments */
  command: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  logFile: string;
  /** something the server did wrong (a line that is not JSON-RPC), also written to its log */
  onDiagnostic?: (diagnostic: ChildDiagnostic) => void;
}

/** How long a server has to leave after its stdin is closed before it gets SIGTERM (the MCP spec's order). */
const STOP_GRACE_MS = 300;
/** The longest line read: results are cut to MAX_MCP_OUTPUT_TOKENS after, but an image or a file read is big first. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export class OwnedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: LineChild | undefined;
  /** ids of the requests sent and not yet answered, to fail the one an unreadable answer was for */
  private readonly outstanding = new Set<string | number>();
  /** how the process ended, once it has */
  exit: ChildExitInfo | undefined;

  constructor(private readonly launch: StdioServerLaunch) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the process; throws a sentence (`MCP server "fs": cannot run npx: not found on PATH`) when it cannot. */
  async start(): Promise<void> {
    if (this.child) throw new Error(`MCP server "${this.launch.name}" was already started`);
    const child = LineChild.spawn({
      name: this.launch.name,
      label: `MCP server "${this.launch.name}"`,
      command: this.launch.command,
      cwd: this.launch.cwd,
      env: this.launch.env,
      logFile: this.launch.logFile,
      maxLineBytes: MAX_MESSAGE_BYTES,
      onDiagnostic: (diagnostic) => {
        if (diagnostic.kind === "line_too_long" && diagnostic.dropped) this.unreadable(diagnostic.dropped);
        this.launch.onDiagnostic?.(diagnostic);
      },
    });
    this.child = child;
    child.onMessage((value) => {
      const parsed = JSONRPCMessageSchema.safeParse(value);
      if (!parsed.success) {
        const message = `not a JSON-RPC message, skipped: ${valuePreview(value)}`;
        child.log(message);
        this.launch.onDiagnostic?.({ kind: "not_jsonrpc", message });
        return;
      }
      const id = (parsed.data as { id?: string | number }).id;
      if (id !== undefined && !("method" in parsed.data)) this.outstanding.delete(id);
      this.onmessage?.(parsed.data);
    });
    child.onExit((info) => {
      this.exit = info;
      this.onclose?.();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (!child) throw new Error(`MCP server "${this.launch.name}" is not started`);
    if ("method" in message && "id" in message) this.outstanding.add(message.id);
    if (!child.send(message)) {
      throw new Error(`MCP server "${this.launch.name}" ${this.exit ? this.exit.reason : "is not reading its input"}`);
    }
  }

  /**
   * An answer over MAX_MESSAGE_BYTES was dropped: the request it answered (its id in the line's
   * first bytes, or the only one waiting) gets an error now; with several waiting and no id to go
   * by, they wait for their timeout.
   */
  private unreadable(dropped: { bytes: number; limit: number; head: string }): void {
    // Only an id before the payload is the frame's own (one inside a result could be anything).
    const cut = dropped.head.search(/"(?:result|error)"\s*:/);
    const envelope = cut >= 0 ? dropped.head.slice(0, cut) : dropped.head;
    const id = frameHead(envelope).id ?? (this.outstanding.size === 1 ? [...this.outstanding][0] : undefined);
    if (id === undefined || !this.outstanding.has(id)) return;
    this.outstanding.delete(id);
    this.onmessage?.({
      jsonrpc: "2.0",
      id,
      error: { code: -32603, message: `the server's answer was ${dropped.bytes} bytes, more than zot reads (${dropped.limit}); ask for less` },
    });
  }

  /** Closes its stdin, then SIGTERM, then SIGKILL to its whole process tree; resolves once it is gone. */
  async close(): Promise<void> {
    await this.child?.stop({ graceMs: STOP_GRACE_MS });
  }
}
