// Records a running agent into its session, as things happen: every message, each tool result the
// moment it is known, model call usage, model switch (when it happens), compaction and interception
// decision. Rule: after every write the records replay to exactly the agent's transcript (tool
// results written so far replay as the tool message they will be part of); whatever changed the
// transcript other than an append (a hard_abort, a clear, a repaired resume) is caught by comparing
// it with what was recorded and written as a rewind plus the messages that differ. A failed write
// is reported once and ends the recording; the agent goes on. The first record waits for the event
// loop's next turn (the first request is on the wire by then), the next record or the unit's end.
import type { Agent, Compacted, FinishedResult } from "../core/agent.ts";
import { errorText } from "../protocol/error-text.ts";
import type { AgentEvent } from "../protocol/events.ts";
import { type Message, nowIso, type ToolResultBlock } from "../protocol/messages.ts";
import type { SessionEntry } from "../protocol/session-records.ts";
import { addUsage, emptyUsage, type Usage } from "../protocol/usage.ts";

/** A rewind's reason when nothing said why (a /clear, a repaired resume); `sessions show` leaves it out. */
export const UNEXPLAINED_REWIND = "the transcript was cut back";

/** Where records go: the session file (created on the first record), or memory in tests. */
export interface SessionOutput {
  write(entry: SessionEntry): void;
  close(): void;
}

export interface RecorderStart {
  /** the transcript the records replay to so far */
  messages: readonly Message[];
  model: string;
  provider: string;
  /** the session's own usage so far (a resumed session's last cumulative); none: a new session, from zero */
  cumulative?: Usage;
}

export class SessionRecorder {
  private readonly recorded: Message[];
  private model: string;
  private provider: string;
  private agent: Agent | undefined;
  private failed = false;
  private closed = false;
  private rewindReason: string | undefined;
  /**
   * Tool results written as tool_result records whose tool message the agent has not appended yet:
   * a replay of the file ends with them as one tool message.
   */
  private pending: ToolResultBlock[] = [];
  private readonly unsubscribe: (() => void)[] = [];
  /** the first record, while it waits for the event loop's next turn (see write) */
  private held: SessionEntry | undefined;
  private wroteAny = false;
  /** some of the conversation is in the file: a resumed one's start, or a record written since */
  private savedAny: boolean;
  /**
   * The session's own running usage: its start plus each call recorded since. The agent's cumulative
   * is the process's (a /clear keeps it), which would charge a new session the one before.
   */
  private cumulative: Usage;

  constructor(
    private readonly output: SessionOutput,
    start: RecorderStart,
    private readonly log: (message: string) => void,
  ) {
    this.recorded = start.messages.slice();
    this.model = start.model;
    this.provider = start.provider;
    this.cumulative = start.cumulative ?? emptyUsage();
    this.savedAny = start.messages.length > 0;
  }

  /** Says why the next rewind happens (a repaired resume's), for the record and `sessions show`. */
  explainNextRewind(reason: string): void {
    this.rewindReason = reason;
  }

  /** Starts recording `agent`; a transcript that differs from the records (a repaired resume) is written at once. */
  attach(agent: Agent): void {
    this.agent = agent;
    this.unsubscribe.push(
      agent.onMessage(() => this.sync()),
      // The records are messages, usage and decisions: an answer's deltas are in its message.
      agent.onEvent((event) => this.onEvent(event), { deltas: false }),
      agent.onCompacted((compacted) => this.onCompacted(compacted)),
      agent.onToolResult((finished) => this.onToolResult(finished)),
      // A switch is recorded at once (a list of sessions shows the model a session is on), unless
      // nothing is recorded yet: the file does not exist, and its header will name the model.
      agent.onModelChange(() => {
        if (this.recorded.length > 0) this.syncModel();
      }),
    );
    this.sync();
  }

  /** Writes what is still unwritten and closes the file. */
  close(): void {
    if (this.closed) return;
    this.sync();
    this.writeHeld();
    this.closed = true;
    for (const off of this.unsubscribe) off();
    try {
      this.output.close();
    } catch (error) {
      this.fail(error);
    }
  }

  private onEvent(event: AgentEvent): void {
    switch (event.type) {
      case "usage": {
        this.syncModel();
        const { type: _type, cumulative: _process, ...usage } = event;
        this.cumulative = addUsage(this.cumulative, usage);
        this.write({ type: "usage", time: nowIso(), usage, cumulative: this.cumulative });
        return;
      }
      case "intercept": {
        const { type: _type, ...decision } = event;
        if (decision.action === "hard_abort") this.rewindReason = `hard_abort by ${decision.participant}`;
        this.write({ type: "intercept", time: nowIso(), ...decision });
        return;
      }
      case "done":
        this.sync();
        // The first record, if it still waits, is on disk when the unit of work ends.
        this.writeHeld();
        return;
    }
  }

  private onToolResult({ block, time }: FinishedResult): void {
    if (this.closed) return;
    this.sync();
    this.write({ type: "tool_result", time, result: block });
    this.pending.push(block);
  }

  /** Results written ahead that will not become the message they were written for: replay assembles them, the rewind takes them back. */
  private dropPending(): void {
    if (this.pending.length === 0) return;
    this.write({ type: "rewind", time: nowIso(), to: this.recorded.length, reason: "tool results that were not kept" });
    this.pending = [];
  }

  private onCompacted(compacted: Compacted): void {
    const agent = this.agent;
    if (!agent) return;
    this.dropPending();
    const kept = agent.messages.slice(1);
    const tail = this.recorded.slice(this.recorded.length - kept.length);
    // The kept messages are normally the recorded tail itself; if not, they are written again after the summary.
    const keptIsTail = kept.length <= this.recorded.length && kept.every((m, i) => m === tail[i]);
    this.write({
      type: "compaction",
      time: nowIso(),
      reason: compacted.reason,
      summary: compacted.summary,
      message: compacted.message,
      kept: keptIsTail ? kept.length : 0,
      messages_before: compacted.messagesBefore,
    });
    this.recorded.length = 0;
    this.recorded.push(compacted.message, ...(keptIsTail ? kept : []));
    this.sync();
  }

  /** Brings the records level with the agent's transcript and model. */
  private sync(): void {
    const agent = this.agent;
    if (!agent || this.closed) return;
    const current = agent.messages;
    let same = 0;
    const shorter = Math.min(this.recorded.length, current.length);
    while (same < shorter && this.recorded[same] === current[same]) same++;
    // The model a run opened the session on is recorded once the run adds to it: a look at a
    // session (get_messages with another --provider) leaves the model it ended on as it was.
    if (same < this.recorded.length || same < current.length) this.syncModel();
    if (same < this.recorded.length) {
      // Replay makes the results written ahead a message before it cuts back, so the cut takes them too.
      this.write({ type: "rewind", time: nowIso(), to: same, reason: this.rewindReason ?? UNEXPLAINED_REWIND });
      this.recorded.length = same;
      this.pending = [];
    }
    this.rewindReason = undefined;
    for (let i = same; i < current.length; i++) {
      const message = current[i]!;
      if (!this.completesPending(message)) {
        this.dropPending();
        this.write({ type: "message", message });
      }
      this.recorded.push(message);
    }
  }

  /**
   * The tool message whose results were written ahead as they came: only the results it has
   * beyond them are written (those of calls a turn's end left unrun), and it is recorded.
   */
  private completesPending(message: Message): boolean {
    const pending = this.pending;
    if (pending.length === 0 || message.role !== "tool") return false;
    if (!pending.every((block, i) => message.content[i] === block)) return false;
    const rest = message.content.slice(pending.length);
    if (!rest.every((block) => block.type === "tool_result")) return false;
    for (const block of rest) this.write({ type: "tool_result", time: message.time, result: block });
    this.pending = [];
    return true;
  }

  private syncModel(): void {
    const model = this.agent?.model;
    if (!model || (model.id === this.model && model.provider === this.provider)) return;
    this.model = model.id;
    this.provider = model.provider;
    this.write({ type: "model_change", time: nowIso(), model: model.id, provider: model.provider });
  }

  /**
   * The first record (the first prompt) waits for the event loop's next turn, which comes once
   * the first request is on the wire: a new session's file (its directory, lock and header) is
   * made while the model is asked, not before. It waits no longer than the next record or the
   * unit's end; every later record is written the moment it is known.
   */
  private write(entry: SessionEntry): void {
    if (this.failed) return;
    if (!this.wroteAny) {
      this.wroteAny = true;
      this.held = entry;
      setImmediate(() => this.writeHeld());
      return;
    }
    this.writeHeld();
    this.writeNow(entry);
  }

  private writeHeld(): void {
    const held = this.held;
    this.held = undefined;
    if (held) this.writeNow(held);
  }

  private writeNow(entry: SessionEntry): void {
    if (this.failed) return;
    try {
      this.output.write(entry);
      this.savedAny = true;
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.log(`session: ${errorText(error)}; ${this.savedAny ? "the rest of this conversation" : "this conversation"} is not saved`);
  }
}
