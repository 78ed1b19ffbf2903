// An MCP server that lives inside the program running zot (the Claude Agent SDK's
// `createSdkMcpServer`, `"type": "sdk"`), reached through that program: each JSON-RPC message zot's
// client sends is handed to `ask` (a control request on zot's stdout), and the reply it brings
// back is the server's. The MCP SDK's Client speaks over it as over any transport.
// Rule: a request always gets a reply: when the program cannot bring one (it went away, it answered
// with an error), the reply is a JSON-RPC error saying why, so no call waits forever.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { errorText } from "../protocol/error-text.ts";

/** Hands one message to the program's server; resolves with its reply (a request's), or nothing. */
export type HostServerAsk = (message: JSONRPCMessage) => Promise<Record<string, unknown> | undefined>;

/** The servers a program hosts, by name: the transport to one, or undefined when it hosts none by that name. */
export type HostServers = (name: string) => Transport | undefined;

/** JSON-RPC's "internal error": the reply when the program brought none. */
const INTERNAL_ERROR = -32603;

export class HostTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private closed = false;

  constructor(
    private readonly name: string,
    private readonly ask: HostServerAsk,
  ) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error(`the connection to "${this.name}" is closed`);
    const id = "id" in message && "method" in message ? message.id : undefined;
    const replying = this.ask(message).then(
      (reply) => {
        if (id !== undefined && !this.closed && reply) this.deliver(reply as JSONRPCMessage);
      },
      (error: unknown) => {
        if (id === undefined || this.closed) return;
        this.deliver({ jsonrpc: "2.0", id, error: { code: INTERNAL_ERROR, message: `the program hosting "${this.name}" did not answer: ${errorText(error)}` } });
      },
    );
    // A notification's delivery is not waited for; a request's reply arrives through onmessage.
    void replying;
  }

  /** Hands a reply to the client; what its handler throws is the transport's error, not an unhandled rejection. */
  private deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(errorText(error)));
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
