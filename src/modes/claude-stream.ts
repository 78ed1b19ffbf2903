// `--input-format stream-json --output-format stream-json`: zot in Claude Code's place under a
// program that drives it the way the Claude Agent SDK drives `claude` (protocol/claude-control.ts).
// Each user message on stdin is a prompt, answered with Claude Code's messages and its `result`
// line (claude-messages.ts); control requests are answered with control responses; zot's own
// requests (can_use_tool, hook_callback, mcp_message) go out through the control channel.
// Rule: stdout holds only protocol lines. Prompts run one after another in the order they came;
// `interrupt` ends the running one, and the ones sent after it still run. stdin closing ends the
// mode once every prompt sent is answered. A line zot cannot read is said on stderr and skipped.
import * as v from "valibot";
import type { Conversation, ConversationPrompt, UnitOutcome } from "../conversation/conversation.ts";
import { type ClaudeControlRequest, type ClaudeUserInput, InitializeRequest, McpReconnectRequest, SetModelRequest, SetPermissionModeRequest } from "../protocol/claude-control.ts";
import { errorText } from "../protocol/error-text.ts";
import { ClaudeRun } from "./claude-messages.ts";
import type { ClaudeControlChannel } from "./claude-control-channel.ts";
import type { ClaudeInputRead } from "./claude-input.ts";
import { CLAUDE_MCP_STATUS, type ClaudeNaming, claudeInit, followClaudeRun } from "./claude-follow.ts";
import type { NdjsonWriter } from "./ndjson-writer.ts";
import { unsendableImage } from "../protocol/sendable-images.ts";
import { untilStopped } from "../protocol/until-stopped.ts";

export interface ClaudeStreamOptions extends ClaudeNaming {
  writer: NdjsonWriter;
  channel: ClaudeControlChannel;
  /** `--include-partial-messages`: the answer as it streams, as stream_event lines */
  partial: boolean;
  /** Claude Code's name for how this run confirms tool calls */
  permissionMode(): string;
  /** the model the run started on (set_model's "default") */
  startModel: string;
  /** the answer to `initialize` (the first one was answered before the conversation opened) */
  initializeAnswer(): Record<string, unknown>;
  /** aborted on SIGINT/SIGTERM: the running prompt ends, the rest are dropped */
  interrupt: AbortSignal;
  log(message: string): void;
}

export class ClaudeStream {
  private readonly writer: NdjsonWriter;
  /** the prompts sent so far, each answered after the one before */
  private answering: Promise<void> = Promise.resolve();
  private initSent = false;
  private stopped = false;
  /** why the running prompt was interrupted by the program's answer (canUseTool's interrupt), for its result */
  private interruptedBecause: string | undefined;
  /** the refused call whose result ends the running prompt, and why */
  private pendingInterrupt: { callId: string; reason: string } | undefined;
  /** prompts sent and not yet answered */
  private queued = 0;
  private state: "idle" | "running" | "requires_action" = "idle";
  /**
   * The id the lines carry when the run records no session (--no-session-persistence): Claude
   * Code's lines always carry one, and programs read it as a string.
   */
  private readonly unrecorded = crypto.randomUUID();

  constructor(
    private readonly conversation: Conversation,
    private readonly options: ClaudeStreamOptions,
  ) {
    this.writer = options.writer;
  }

  /** Serves the lines until stdin ends (then the prompts sent are answered) or a signal stops it. */
  async serve(lines: AsyncIterator<ClaudeInputRead>, early: readonly ClaudeInputRead[] = []): Promise<"closed" | "interrupted"> {
    const { interrupt } = this.options;
    const onInterrupt = () => {
      this.stopped = true;
      this.conversation.dropQueued();
      this.conversation.abort("interrupted");
    };
    interrupt.addEventListener("abort", onInterrupt, { once: true });
    const releaseHold = this.conversation.holdBack(() => this.writer.pressure());
    try {
      for (const read of early) this.take(read);
      while (!interrupt.aborted) {
        const pressure = this.writer.pressure();
        if (pressure) await pressure;
        const next = await untilStopped(lines.next(), interrupt);
        if (!next || next.done) break;
        this.take(next.value);
      }
      this.options.channel.close(interrupt.aborted ? "zot is stopping" : "the program closed stdin");
      await this.answering;
      return interrupt.aborted ? "interrupted" : "closed";
    } finally {
      releaseHold();
      interrupt.removeEventListener("abort", onInterrupt);
    }
  }

  private take(read: ClaudeInputRead): void {
    if (!read.ok) {
      this.options.log(`stream-json: ${read.problem}`);
      // A prompt zot could not read still gets its result: the program may be waiting for one.
      if (read.prompt) this.queue(() => this.refuse(`zot could not read this user message: ${read.problem}`));
      return;
    }
    const { line } = read;
    switch (line.type) {
      case "user":
        return this.prompt(line);
      case "control_request":
        void this.control(line);
        return;
      case "control_response":
        return this.options.channel.settle(line);
      case "control_cancel_request":
      case "keep_alive":
        // zot answers every request of the program's at once: there is nothing to cancel.
        return;
    }
  }

  /** A user message: answered once the ones before it are. */
  private prompt(message: ClaudeUserInput): void {
    const input = promptOf(message);
    if ("problem" in input) {
      this.options.log(`stream-json: ${input.problem}`);
      this.queue(() => this.refuse(input.problem));
      return;
    }
    this.queue(() => this.answer(input));
  }

  /**
   * Runs `work` after what was queued before it; what one piece throws is said and stops none after
   * it. The session's state goes to running as the first starts, and back to idle once none is left.
   */
  private queue(work: () => Promise<void>): void {
    this.queued++;
    this.answering = this.answering
      .then(() => {
        this.sendInit();
        this.setState("running");
        return work();
      })
      .catch((error: unknown) => this.options.log(`stream-json: a prompt failed: ${errorText(error)}`))
      .finally(() => {
        if (--this.queued === 0) this.setState("idle");
      });
  }

  /**
   * The program is asked something (can_use_tool), or has answered: requires_action, then running
   * again, or idle when the question came from outside any prompt (an extension's call).
   */
  asking(asked: boolean): void {
    this.setState(asked ? "requires_action" : this.queued > 0 ? "running" : "idle");
  }

  /**
   * Claude Code's `session_state_changed`: running while prompts are answered, requires_action
   * while one waits for the program's answer (can_use_tool), idle once every prompt sent is. The
   * SDK keeps its stdin open across its prompts, for its callbacks, while the state is not idle.
   */
  setState(state: "idle" | "running" | "requires_action"): void {
    if (state === this.state) return;
    this.state = state;
    this.writer.write({ type: "system", subtype: "session_state_changed", state, uuid: crypto.randomUUID(), session_id: this.sessionId() });
  }

  private async answer(input: ConversationPrompt): Promise<void> {
    if (this.stopped) return;
    const { conversation, options } = this;
    const { run, off } = followClaudeRun(conversation, { ...options, write: (line) => this.writer.write(line), unrecorded: this.unrecorded });
    // A canUseTool deny with interrupt ends this prompt once its refusal is recorded, never a later one.
    const offInterrupt = conversation.onEvent(
      (event) => {
        const pending = this.pendingInterrupt;
        if (event.type !== "tool_result" || pending?.callId !== event.id) return;
        this.pendingInterrupt = undefined;
        this.interruptedBecause = pending.reason;
        conversation.abort(pending.reason);
      },
      { deltas: false },
    );
    let outcome: UnitOutcome;
    this.interruptedBecause = undefined;
    try {
      outcome = await conversation.submit(input);
    } catch (error) {
      outcome = { status: "command_error", message: errorText(error) };
    } finally {
      off();
      offInterrupt();
      this.pendingInterrupt = undefined;
    }
    for (const line of run.unanswered()) this.writer.write(line);
    this.writer.write(run.result(outcome, this.interruptedBecause));
  }

  /**
   * Ends the running prompt because the program said so (a canUseTool deny with interrupt), once
   * the refused call's result is recorded (a permission denial); its result says why.
   */
  interruptAfter(callId: string, reason: string): void {
    this.pendingInterrupt = { callId, reason };
  }

  /** A message zot cannot take still gets its result line, so the program is not left waiting. */
  private async refuse(problem: string): Promise<void> {
    this.writer.write(this.newRun().result({ status: "command_error", message: problem }));
  }

  /** Claude Code's `system` init line, before the first prompt's messages. */
  private sendInit(): void {
    if (this.initSent) return;
    this.initSent = true;
    this.writer.write(claudeInit(this.conversation, this.newRun(), this.options.toolNames, this.options.permissionMode()));
  }

  private sessionId(): string {
    return this.conversation.session?.id ?? this.unrecorded;
  }

  /** A run of the conversation as it is now, for a line that needs no events (the init line, a refused message's result). */
  private newRun(): ClaudeRun {
    const { conversation } = this;
    return new ClaudeRun({ sessionId: this.sessionId(), model: conversation.model.id, claudeCall: this.options.claudeCall, costBefore: conversation.usage.cost_usd });
  }

  /** A request of the program's, answered with a control_response. */
  private async control(frame: ClaudeControlRequest): Promise<void> {
    const respond = (response: Record<string, unknown>) =>
      this.writer.write({ type: "control_response", response: { subtype: "success", request_id: frame.request_id, response } });
    try {
      respond(await this.serveRequest(frame.request));
    } catch (error) {
      this.writer.write({ type: "control_response", response: { subtype: "error", request_id: frame.request_id, error: errorText(error) } });
    }
  }

  private async serveRequest(request: ClaudeControlRequest["request"]): Promise<Record<string, unknown>> {
    const { conversation } = this;
    switch (request.subtype) {
      case "initialize": {
        // The first line configured the run before it started; a later one cannot change it.
        const configures = CONFIGURING_FIELDS.filter((key) => {
          const value = request[key];
          return value !== undefined && value !== null && !(Array.isArray(value) && value.every((part) => part === "")) && !(typeof value === "object" && Object.keys(value).length === 0);
        });
        if (configures.length > 0) {
          throw new Error(`zot takes initialize's ${configures.join(", ")} only before the first prompt or request; this run started without them`);
        }
        return this.options.initializeAnswer();
      }
      case "interrupt":
        conversation.abort("interrupted");
        return {};
      case "set_model": {
        const { model } = v.parse(SetModelRequest, request);
        // None, or "default": the model the run started on.
        await conversation.setModel(model === undefined || model === null || model === "default" ? this.options.startModel : model);
        return {};
      }
      case "set_permission_mode":
        return this.setPermissionMode(v.parse(SetPermissionModeRequest, request).mode);
      case "mcp_status":
        return {
          mcpServers: (conversation.mcpServers()?.servers ?? []).map((server) => ({
            name: server.name,
            status: CLAUDE_MCP_STATUS[server.state],
            ...(server.error ? { error: server.error } : {}),
          })),
        };
      case "mcp_reconnect": {
        const answer = await conversation.reconnectMcp(v.parse(McpReconnectRequest, request).serverName);
        if ("error" in answer) throw new Error(answer.error);
        return {};
      }
      default:
        throw new Error(`zot does not serve "${request.subtype}"; it serves ${SERVED.join(", ")}`);
    }
  }

  /** default asks before each call (the program's canUseTool answers); bypassPermissions asks nothing. */
  private setPermissionMode(mode: string): Record<string, unknown> {
    const { guards } = this.conversation;
    if (mode !== "default" && mode !== "bypassPermissions") {
      throw new Error(`zot switches between default and bypassPermissions while it runs; start it with --permission-mode ${mode} for that mode`);
    }
    if (!guards.confirmable) {
      throw new Error("this run cannot confirm tool calls: start zot with --permission-prompt-tool stdio (the SDK's canUseTool) or --permission-mode default");
    }
    if (mode === "bypassPermissions" && guards.lockedOn !== undefined) throw new Error(`bypassPermissions is turned off: ${guards.lockedOn}`);
    if (guards.confirming !== (mode === "default")) guards.toggleConfirmations();
    return {};
  }
}

/** What an initialize configures a run with: the fields zot reads of it. */
const CONFIGURING_FIELDS = Object.keys(InitializeRequest.entries).filter((key) => key !== "subtype");

const SERVED = ["initialize", "interrupt", "set_model", "set_permission_mode", "mcp_status", "mcp_reconnect"];

/** A user message as zot's prompt: its text blocks joined, its base64 images attached. */
function promptOf(message: ClaudeUserInput): ConversationPrompt | { problem: string } {
  const { content } = message.message;
  if (typeof content === "string") return content.trim() === "" ? { problem: "a user message with no text is no prompt" } : { text: content };
  const texts: string[] = [];
  const images: { mime_type: string; data: string }[] = [];
  for (const block of content) {
    if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
    else if (block.type === "image" && isBase64Image(block)) {
      // Taken, an image the APIs refuse would fail this prompt and every later one of the session.
      const image = { mime_type: block.source.media_type, data: block.source.data };
      const why = unsendableImage(image);
      if (why) return { problem: `a user message's image cannot be sent to the model: ${why}` };
      images.push(image);
    }
    else return { problem: `a user message's "${block.type}" block is not something zot takes as a prompt (text, and base64 images, are)` };
  }
  const text = texts.join("\n\n");
  if (text.trim() === "" && images.length === 0) return { problem: "a user message with no text is no prompt" };
  return { text, ...(images.length > 0 ? { images } : {}) };
}

function isBase64Image(block: { type: string }): block is { type: "image"; source: { type: "base64"; media_type: string; data: string } } {
  const source = (block as { source?: { type?: unknown; media_type?: unknown; data?: unknown } }).source;
  return source?.type === "base64" && typeof source.media_type === "string" && typeof source.data === "string";
}
