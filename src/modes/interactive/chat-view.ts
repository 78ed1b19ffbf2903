// The conversation as the user sees it: the transcript (prompts, answers, thinking, tool boxes,
// notes) and, under it, the extensions' notes. It is fed the conversation's events as they happen, or a
// whole transcript at once (a resumed session, after /clear). Rule: the view follows the events and
// never the transcript's internals, so an interceptor's rewrite (replace_text, modified arguments)
// is what the user sees, as in every other mode.
import { noFTL } from "bun:jsc";
import { CONFIRM_GATE_NAME, DECLINED } from "../../conversation/conversation.ts";
import { isSummaryMessage } from "../../protocol/messages.ts";
import type { AgentEvent, EventOf } from "../../protocol/events.ts";
import { type Message, textOf } from "../../protocol/messages.ts";
import { type Component, Stack } from "../../tui/component.ts";
import type { Theme } from "../../tui/theme.ts";
import type { NoteLevel } from "./app-context.ts";
import { AssistantMessage } from "./assistant-message.ts";
import { ExtensionNotes } from "./extension-notes.ts";
import { renderLiveTail, StableRows } from "./live-tail.ts";
import { NoteLine } from "./note-line.ts";
import { ThinkingBlock } from "./thinking-block.ts";
import { ToolBox } from "./tool-box.ts";
import { UserMessage } from "./user-message.ts";
import { EMPTY_ANSWER, saidSomething } from "../../protocol/printed-answer.ts";

export interface ChatViewOptions {
  /** The extension that provides a tool, if one does (shown on its box before the result says so). */
  toolExtension?(name: string): string | undefined;
}

const INTERCEPT_VERBS: Record<EventOf<"intercept">["action"], string> = {
  modify: "rewrote",
  respond: "answered",
  deny: "denied",
  block: "blocked",
  abort_turn: "ended the turn at",
  hard_abort: "aborted the turn at",
};

export class ChatView implements Component {
  readonly transcript = new Stack();
  readonly notes: ExtensionNotes;
  private readonly boxes = new Map<string, ToolBox>();
  /** The tool boxes of this turn still waiting for their result. */
  private readonly running = new Set<ToolBox>();
  /** The model's calls announced to run and not yet answered, in the order they run (one at a time). */
  private readonly unfinished: ToolBox[] = [];
  /** a compaction started and has not ended: an error now is its failure */
  /** a manual compaction under way (automatic and overflow failures come worded already) */
  private compacting = false;
  /** a compaction (of any reason) started and has not said how it ended: a cancel says it at the unit's end */
  private compactionOpen = false;
  private answer: AssistantMessage | undefined;
  /** The answer blocks of the model call being shown (text, tool boxes, more text). */
  private stepAnswers: AssistantMessage[] = [];
  private thinking: ThinkingBlock | undefined;
  private expanded = false;
  /** the rows of the settled blocks, kept from frame to frame */
  private readonly stable = new StableRows();
  /** how many of the first rows the last frame drew are final (live-tail.ts) */
  private settled = 0;
  private readonly settle = (count: number, live?: { block: Component; row: number }) => {
    // A running tool's box counts from its top: drawn again after a stop, it is whole, its command with its output.
    this.settled = live?.block instanceof ToolBox ? live.row : count;
  };
  /** the last frame's width, rows and the rows the screen had for them */
  private shown = { width: 0, rows: 0, room: Number.POSITIVE_INFINITY };
  /** the model call being shown said something: text, a tool call, or a message an interceptor took */
  private stepSaid = false;

  constructor(
    private readonly theme: Theme,
    private readonly options: ChatViewOptions = {},
  ) {
    this.notes = new ExtensionNotes(theme);
  }

  get isExpanded(): boolean {
    return this.expanded;
  }

  render(width: number): string[] {
    return this.renderWithin(width, Number.POSITIVE_INFINITY);
  }

  /**
   * The rows, when the screen has `room` rows for them: what would push the end of a block that is
   * still changing off the screen waits until it is done (live-tail.ts).
   */
  renderWithin(width: number, room: number): string[] {
    const notes = this.notes.render(width);
    const rows = renderLiveTail(
      width,
      { blocks: this.transcript.children, stable: this.stable, isLive: this.isLive, room, below: notes.length, settledRows: this.settle },
      this.theme,
    );
    for (const row of notes) rows.push(row);
    this.shown = { width, rows: rows.length, room };
    return rows;
  }

  /** How many of the first rows the last renderWithin gave stay as they are (the notes under the transcript do not). */
  finalRows(): number {
    return this.settled;
  }

  /** The frame shows only the last `rows` of the chat's rows (blank rows under a shrunk frame take the rest of the room). */
  shownRows(rows: number): void {
    this.shown.room = Math.min(this.shown.room, rows);
  }

  handleEvent(event: AgentEvent): void {
    switch (event.type) {
      case "user_message":
        this.addUserMessage(textOf(event.content), event.content.filter((b) => b.type === "image").length);
        break;
      case "turn_start":
        this.endStep();
        this.stepSaid = false;
        break;
      case "thinking_delta":
        this.thinkingBlock().append(event.delta);
        break;
      case "text_delta":
        this.thinking?.finish();
        this.answerBlock().append(event.delta);
        break;
      case "tool_use_start":
        this.endText();
        this.running.add(this.toolBox(event.id, event.name));
        break;
      case "tool_use_args":
        this.boxes.get(event.id)?.appendArgs(event.delta);
        break;
      case "tool_call": {
        this.endText();
        const box = this.toolBox(event.id, event.name);
        box.setArgs(event.name, event.args);
        if (!box.done) this.running.add(box);
        // The model's calls run in order; an extension's (call_tool, a command's tool) runs when asked.
        if (!box.done && event.origin_extension === undefined && !this.unfinished.includes(box)) {
          this.unfinished.push(box);
          this.showCallsAhead();
        }
        break;
      }
      case "tool_progress":
        this.boxes.get(event.id)?.appendProgress(event.text);
        break;
      case "tool_result": {
        const box = this.toolBox(event.id, event.name ?? "tool");
        box.setResult(event.content, event.is_error, event.extension);
        this.running.delete(box);
        this.finishCall(box);
        break;
      }
      case "assistant_message":
        this.stepSaid ||= saidSomething(event.content);
        this.showFinalText(textOf(event.content));
        break;
      case "turn_end":
        if (event.stop === "aborted") this.addNote(event.error ? `cancelled: ${event.error}` : "cancelled", "warn");
        // As -p says on stderr: an answer the output limit cut, or one that said nothing, is no whole answer.
        if (event.stop === "length") this.addNote('the answer was cut off at the model\'s output limit; ask for less, or say "go on" to continue it', "warn");
        if (event.stop === "end_turn" && !this.stepSaid) this.addNote(EMPTY_ANSWER, "warn");
        // A compaction aborted mid-way ends with neither compact_done nor error.
        this.compacting = false;
        this.endStep();
        break;
      case "error":
        // A compaction that started and ends in an error says what failed, not only the provider's words.
        this.addNote(this.compacting ? `compaction failed: ${event.message}` : event.message, "error");
        this.compactionOpen = false;
        this.compacting = false;
        break;
      case "intercept":
        if (event.stage === "assistant_message") this.stepSaid = true;
        // A blocked message is not shown in any mode; here it had already streamed.
        if (event.stage === "assistant_message" && event.action === "block") this.showFinalText("");
        this.add(new NoteLine(interceptLine(event), "muted", this.theme));
        break;
      case "compact_start":
        this.compactionOpen = true;
        this.compacting = event.reason === "manual";
        this.addNote(event.reason === "manual" ? "compacting the transcript…" : `compacting the transcript (${event.reason})…`, "muted");
        break;
      case "compact_done":
        this.compactionOpen = false;
        this.compacting = false;
        this.addNote(`compacted: ${event.messages_before} messages → ${event.messages_after}`, "success");
        break;
      case "done":
        // A compaction cancelled mid-way (Esc) ends with neither compact_done nor error: said here, so
        // the transcript does not end at "compacting the transcript…".
        if (this.compactionOpen) this.addNote("compaction cancelled: the transcript is as it was", "warn");
        this.compactionOpen = false;
        this.compacting = false;
        // Every call got its result by now; one that did not runs no more. Not at turn_end: a
        // model call's turn ends before its tools run, and a running box is live (live-tail.ts).
        for (const box of [...this.unfinished]) this.finishCall(box);
        this.running.clear();
        break;
      default:
        // usage, tool_use_end, assistant_start: the status bar's or nobody's business;
        // ext_notify and command_result reach the notes through the app.
        break;
    }
  }

  addUserMessage(text: string, images = 0): void {
    this.endStep();
    const message = new UserMessage(text, this.theme, images);
    message.setExpanded(this.expanded);
    this.add(message);
  }

  addNote(text: string, level: NoteLevel | "muted" = "info"): void {
    this.add(new NoteLine(text, level, this.theme));
  }

  addMarkdown(markdown: string): void {
    this.add(new AssistantMessage(markdown, this.theme));
  }

  /** The --no-yolo question about this call waits for the person's answer (true), or no longer does. */
  setAwaitingAnswer(callId: string, waiting: boolean): void {
    this.boxes.get(callId)?.setAwaitingAnswer(waiting);
  }

  /**
   * Ctrl+O: the tool results, thinking blocks and long prompts on screen, and those still to come,
   * expanded, or collapsed again. Those above the screen stay as they are: their rows are in the
   * scrollback, which is final (tui/renderer.ts); a block that grew or shrank up there would move
   * every row under it, and the scrollback would get them twice. The pager (/jump) shows them all.
   */
  toggleExpanded(): boolean {
    this.expanded = !this.expanded;
    const { width, rows, room } = this.shown;
    // The first row of the transcript on screen, as the last frame drew it (its last `room` rows,
    // fewer when blank rows under a shrunk frame are on screen too: AppFrame says, shownRows).
    const top = Math.max(0, rows - room);
    let at = 0;
    for (const child of this.transcript.children) {
      const start = at;
      if (width > 0) at += child.render(width).length;
      if (start < top) continue;
      if (child instanceof ToolBox || child instanceof ThinkingBlock || child instanceof UserMessage) child.setExpanded(this.expanded);
    }
    return this.expanded;
  }

  /** Empties the transcript (not the notes). */
  clear(): void {
    this.transcript.clear();
    this.boxes.clear();
    this.running.clear();
    this.unfinished.length = 0;
    this.answer = undefined;
    this.stepAnswers = [];
    this.thinking = undefined;
  }

  /** Shows a whole transcript (a resumed session, after /clear or a fork). */
  load(messages: readonly Message[]): void {
    this.clear();
    for (const message of messages) this.loadMessage(message);
    this.endStep();
  }

  /** The transcript's rows and the row where each user prompt starts (for /jump). */
  rowsWithTurns(width: number): { rows: string[]; turns: number[] } {
    const rows: string[] = [];
    const turns: number[] = [];
    for (const child of this.transcript.children) {
      if (child instanceof UserMessage) turns.push(rows.length);
      for (const row of child.render(width)) rows.push(row);
    }
    return { rows, turns };
  }

  private loadMessage(message: Message): void {
    if (message.role === "user") {
      if (isSummaryMessage(message)) this.addNote("(earlier turns were compacted into a summary)", "muted");
      else this.addUserMessage(textOf(message.content), message.content.filter((b) => b.type === "image").length);
      return;
    }
    for (const block of message.content) {
      switch (block.type) {
        case "thinking":
          if (block.text.trim() !== "") this.thinkingBlock().append(block.text);
          break;
        case "text":
          this.thinking?.finish();
          this.answerBlock().append(block.text);
          break;
        case "tool_call":
          this.endText();
          this.toolBox(block.id, block.name).setArgs(block.name, block.args);
          break;
        case "tool_result":
          this.boxes.get(block.call_id)?.setResult(block.content, block.is_error);
          break;
      }
    }
    this.endStep();
  }

  /** What the user is meant to see of a complete message (an interceptor may have rewritten it). */
  private showFinalText(text: string): void {
    this.thinking?.finish();
    const [first, ...rest] = this.stepAnswers;
    if (!first) {
      if (text.trim() !== "") this.answerBlock().append(text);
    } else if (this.stepAnswers.map((answer) => answer.text).join("\n") !== text) {
      first.setText(text);
      for (const answer of rest) answer.setText("");
    }
    this.answer = undefined;
  }

  /** Whether a block of the transcript may still change: the answer streaming, the thinking, a running tool. */
  private readonly isLive = (block: Component): boolean =>
    block === this.answer || (block === this.thinking && this.thinking.streaming) || (block instanceof ToolBox && this.running.has(block));

  /** A call is answered (or runs no more): the calls behind it move up. */
  private finishCall(box: ToolBox): void {
    const at = this.unfinished.indexOf(box);
    if (at === -1) return;
    this.unfinished.splice(at, 1);
    box.setCallsAhead(0);
    this.showCallsAhead();
  }

  /** Calls run one at a time: only the first unfinished one runs (or is asked about); the rest wait. */
  private showCallsAhead(): void {
    this.unfinished.forEach((box, ahead) => box.setCallsAhead(ahead));
  }

  private add(block: Component): void {
    this.transcript.add(block);
  }

  private answerBlock(): AssistantMessage {
    if (!this.answer) {
      this.answer = new AssistantMessage("", this.theme);
      this.stepAnswers.push(this.answer);
      this.add(this.answer);
    }
    return this.answer;
  }

  private thinkingBlock(): ThinkingBlock {
    if (!this.thinking) {
      this.thinking = new ThinkingBlock(this.theme);
      this.thinking.setExpanded(this.expanded);
      this.add(this.thinking);
    }
    return this.thinking;
  }

  private toolBox(id: string, name: string): ToolBox {
    let box = this.boxes.get(id);
    if (!box) {
      box = new ToolBox(id, name, this.theme, this.options.toolExtension?.(name));
      box.setExpanded(this.expanded);
      this.boxes.set(id, box);
      this.add(box);
    }
    return box;
  }

  /** Text after a tool box starts a new answer block below it. */
  private endText(): void {
    this.thinking?.finish();
    this.thinking = undefined;
    this.answer = undefined;
  }

  private endStep(): void {
    this.endText();
    this.stepAnswers = [];
  }
}

/** `guard denied tool_call: rm -rf is not allowed`; the person's own "no" as `you declined: <reason>`. */
function interceptLine(event: EventOf<"intercept">): string {
  // The confirmation question's "no" was the person's: said in their words, not the chain's.
  if (event.participant === CONFIRM_GATE_NAME && event.action === "deny") {
    const reason = event.reason?.startsWith(DECLINED) ? event.reason.slice(DECLINED.length).replace(/^:\s*/, "") : event.reason;
    return reason ? `you declined: ${reason}` : "you declined";
  }
  const what = `${event.participant} ${INTERCEPT_VERBS[event.action]} ${event.stage}`;
  return event.reason ? `${what}: ${event.reason}` : what;
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(ChatView.prototype.handleEvent);
noFTL(ChatView.prototype["answerBlock"]);
noFTL(ChatView.prototype["thinkingBlock"]);
