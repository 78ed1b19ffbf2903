// `zot rpc`: the agent as a subprocess driven by NDJSON commands on stdin, answering with responses
// and streaming the conversation's events on stdout. Rule: stdout carries protocol lines and nothing else;
// no input, however bad, stops the server. stdin closing ends it once the work already accepted
// (the running turn, the queued ones, answers still being worked out) is over, as the original did,
// so `echo '{"type":"prompt",…}' | zot rpc` works; stdout closing, a signal or a failed token end it
// at once: the running turn is aborted (its turn_end and done still go out). Extensions stop last.
// A client that does not read its stdout holds zot back: while the unread output is over the
// writer's high-water mark the model stream and tool output wait and no command is read, so
// memory stays bounded however slowly the client reads.
import { noFTL } from "bun:jsc";
import type { Conversation } from "../conversation/conversation.ts";
import type { AgentEvent } from "../protocol/events.ts";
import { LineSplitter } from "../protocol/line-splitter.ts";
import { RPC_MAX_LINE_BYTES, type RpcFailure, type RpcResponse } from "../protocol/rpc-frames.ts";
import { tokenMatches } from "./rpc-auth.ts";
import { dispatch } from "./rpc-dispatch.ts";
import { failure, type RpcRequest, readRequest, tooLong } from "./rpc-request.ts";
import { RpcConfirmations } from "./rpc-confirm.ts";
import type { RpcSession } from "./rpc-session.ts";
import { NdjsonWriter, readerWentAway } from "./ndjson-writer.ts";
import { untilStopped } from "../protocol/until-stopped.ts";

export interface RpcModeOptions {
  /** ZOTCORE_RPC_TOKEN: when set, the first command must be hello with it */
  token?: string;
  /** aborted on SIGINT/SIGTERM */
  interrupt: AbortSignal;
  /**
   * aborted once the reader of stdout is seen gone while nothing is written (a tool runs, a
   * confirmation waits); a failed write tells too
   */
  outputClosed?: AbortSignal;
  /** where diagnostics go (stderr) */
  log: (message: string) => void;
  /** the commands (default: this process's stdin) */
  input?: ReadableStream<Uint8Array>;
}

/**
 * Why the server stopped: stdin ended and the accepted work is done, or stdout closed ("closed"); a
 * signal; the first command did not bring the token; or stdout could not be written (a full disk:
 * "output_lost", which is no client done with zot).
 */
export type RpcEnd = "closed" | "interrupted" | "unauthorized" | "output_lost";

export async function runRpcMode(conversation: Conversation, options: RpcModeOptions): Promise<RpcEnd> {
  const restoreConsole = consoleToStderr();
  try {
    const server = new RpcServer(conversation, options);
    return await server.run(options.input ?? Bun.stdin.stream());
  } finally {
    restoreConsole();
  }
}

class RpcServer {
  /** A client that closed our stdout is gone: nobody reads the rest, so stop at once. */
  private readonly writer = new NdjsonWriter(undefined, (error) => {
    if (readerWentAway(error)) return this.stop("closed", "stdout closed");
    this.options.log(`rpc: ${this.writer.failure?.message ?? "stdout could not be written"}; exiting`);
    this.stop("output_lost", "stdout could not be written");
  });
  private readonly closing = new AbortController();
  private readonly session: RpcSession;
  /** the client's answers to confirm_request, once it said in hello that it gives them */
  private readonly confirmations = new RpcConfirmations((event) => this.writer.write(event));
  /** commands whose answer is still being worked out (an extension command, a model switch) */
  private readonly pending = new Set<Promise<void>>();
  private authorized: boolean;
  private end: RpcEnd | undefined;
  /** what aborts the running turn when the server stops */
  private stopReason = "stdin closed";
  private readonly ended: Promise<void>;
  private signalEnd!: () => void;

  constructor(
    private readonly conversation: Conversation,
    private readonly options: RpcModeOptions,
  ) {
    this.authorized = !options.token;
    this.session = {
      conversation,
      confirmations: this.confirmations,
      closing: this.closing.signal,
      send: (response) => this.send(response),
    };
    this.ended = new Promise((resolve) => {
      this.signalEnd = resolve;
    });
  }

  async run(input: ReadableStream<Uint8Array>): Promise<RpcEnd> {
    // Every event, the extensions' notes, displays and panels among them, is a line on stdout.
    const writeEvent = (event: AgentEvent) => this.writer.write(event);
    // Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
    noFTL(writeEvent);
    const offEvents = this.conversation.onEvent(writeEvent);
    const releaseHold = this.conversation.holdBack(() => this.writer.pressure());
    const onInterrupt = () => this.stop("interrupted");
    if (this.options.interrupt.aborted) onInterrupt();
    else this.options.interrupt.addEventListener("abort", onInterrupt, { once: true });
    const onOutputClosed = () => this.stop("closed", "stdout closed");
    if (this.options.outputClosed?.aborted) onOutputClosed();
    else this.options.outputClosed?.addEventListener("abort", onOutputClosed, { once: true });
    try {
      await this.read(input);
      // Nobody can answer a confirm_request any more: those waiting, and later ones, are refused.
      this.confirmations.close(this.end === undefined ? "the client closed stdin" : "zot is stopping");
      // stdin ended (rather than a stop): what was sent before the end is still done.
      if (this.end === undefined) await this.finishAccepted();
      this.stop("closed");
      await this.shutdown();
    } finally {
      offEvents();
      releaseHold();
      this.options.interrupt.removeEventListener("abort", onInterrupt);
      this.options.outputClosed?.removeEventListener("abort", onOutputClosed);
      await this.writer.close();
    }
    // The last lines may fail only as they are flushed (a full disk): the output was lost all the same.
    if (this.writer.failure && this.end !== "interrupted") return "output_lost";
    return this.end ?? "closed";
  }

  /**
   * Reads lines until stdin ends or the server stops. Lines are taken one at a time, and none while
   * the client is behind on reading our output (1,000 pipelined commands in one chunk wait their
   * turn instead of piling up 1,000 answers).
   */
  private async read(input: ReadableStream<Uint8Array>): Promise<void> {
    const lines: RpcRequest[] = [];
    const splitter = new LineSplitter(
      RPC_MAX_LINE_BYTES,
      (line) => {
        if (line.trim() !== "") lines.push(readRequest(line));
      },
      (bytes, head) => lines.push({ ok: false, failure: tooLong(bytes, head) }),
    );
    const reader = input.getReader();
    const stopping = new AbortController();
    void this.ended.then(() => stopping.abort());
    const take = async () => {
      for (let request = lines.shift(); request && this.end === undefined; request = lines.shift()) {
        const pressure = this.writer.pressure();
        if (pressure) await untilStopped(pressure, stopping.signal);
        this.onRequest(request);
      }
      lines.length = 0;
    };
    try {
      while (this.end === undefined) {
        const chunk = await untilStopped(reader.read(), stopping.signal);
        if (!chunk || chunk.done) break;
        splitter.push(chunk.value);
        await take();
      }
      if (this.end === undefined) {
        splitter.end();
        await take();
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  private onRequest(request: RpcRequest): void {
    if (this.end !== undefined) return;
    if (!this.authorized) return this.authorize(request);
    if (!request.ok) return this.send(request.failure);
    const answered = dispatch(request.command, this.session);
    this.pending.add(answered);
    void answered.finally(() => this.pending.delete(answered));
  }

  /** The first command when a token is required: hello with it, or the end. */
  private authorize(request: RpcRequest): void {
    if (request.ok && request.command.type === "hello" && tokenMatches(this.options.token ?? "", request.command.token)) {
      this.authorized = true;
      return this.onRequest(request);
    }
    const { id, command } = request.ok ? { id: request.command.id, command: request.command.type } : request.failure;
    const answer: RpcFailure =
      command === "hello"
        ? failure(id, command, "invalid token: hello must carry the token from ZOTCORE_RPC_TOKEN; the server exits")
        : failure(id, command, 'auth required: ZOTCORE_RPC_TOKEN is set, so the first command must be {"type":"hello","token":…}; the server exits');
    this.send(answer);
    this.options.log(`rpc: ${answer.error.split(":")[0]}; exiting`);
    this.stop("unauthorized");
  }

  private send(response: RpcResponse): void {
    this.writer.write(response);
  }

  private stop(end: RpcEnd, reason = end === "interrupted" ? "interrupted" : "stdin closed"): void {
    if (this.end !== undefined) return;
    this.end = end;
    this.stopReason = reason;
    this.signalEnd();
  }

  /**
   * After stdin ended: waits until the commands still being answered, the running turn and every
   * queued one are over, unless a signal or a closed stdout stops the server first. An `abort` read
   * before the end has already acted on its turn; the queued turns behind it still run.
   */
  private async finishAccepted(): Promise<void> {
    const stopped = this.ended;
    while (this.end === undefined) {
      // Pending answers may queue work (an extension's prompt answer), so they are waited for first.
      if (this.pending.size > 0) await Promise.race([Promise.allSettled([...this.pending]), stopped]);
      else if (this.conversation.busy) await Promise.race([this.conversation.idle(), stopped]);
      else return;
    }
  }

  /** Aborts the running turn, drops the queued ones, lets pending answers finish, stops the extensions. */
  private async shutdown(): Promise<void> {
    this.closing.abort(new Error(this.stopReason));
    this.conversation.stop(this.stopReason);
    await Promise.allSettled([...this.pending]);
    await this.conversation.idle();
    await this.conversation.dispose();
  }
}

/** Anything that would print to stdout (a library's console.log) goes to stderr while rpc runs. */
function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, warn: console.warn, debug: console.debug };
  const toStderr = (...args: unknown[]) => console.error(...args);
  Object.assign(console, { log: toStderr, info: toStderr, warn: toStderr, debug: toStderr });
  return () => Object.assign(console, saved);
}
