// The interactive app: the chat view, the queue, the status bar, the editor and its popups on one
// Tui, a front end of the conversation: the conversation's events drawn as they come, what the user
// types handed to it (a prompt waits its turn in the conversation's queue, a built-in or an
// extension's slash command runs at once, a Markdown command or a skill waits its turn whole, a
// `!command` runs as queued work and its output joins the conversation as context,
// shell-command.ts; a command no one provides while extensions are still starting waits for them,
// as theirs may be). It is the AppContext the commands see. Rule: the first
// frame is painted before the conversation exists (the user can type while providers and extensions
// load; what is sent meanwhile waits and goes in order once it is ready), and nothing is written to
// the terminal except through the renderer: startup notes and diagnostics are chat notes. On exit
// the last frame is the transcript alone (no status bar, editor or hints left in the scrollback),
// and once the terminal is given back one line says how to resume the session, if one was recorded.
import { noFTL } from "bun:jsc";
import { homedir } from "node:os";
import type { Conversation, ConversationPrompt } from "../../conversation/conversation.ts";
import { errorText } from "../../protocol/error-text.ts";
import type { AgentEvent } from "../../protocol/events.ts";
import { textOf } from "../../protocol/messages.ts";
import { parseSlash, type SlashInvocation } from "../../protocol/slash-command.ts";
import { type Component, Stack } from "../../tui/component.ts";
import { Editor } from "../../tui/editor.ts";
import { Spinner } from "../../tui/spinner.ts";
import { Spacer, Text } from "../../tui/text.ts";
import type { Theme } from "../../tui/theme.ts";
import type { Tui } from "../../tui/tui.ts";
import { AppActivity } from "./app-activity.ts";
import type { AppContext, NoteLevel, SlashCommand } from "./app-context.ts";
import { AppExtensions } from "./app-extensions.ts";
import { AppFrame } from "./app-frame.ts";
import { AppKeys } from "./app-keys.ts";
import { editInEditor, editorCommand } from "./external-editor.ts";
import { ChatView } from "./chat-view.ts";
import { runExtensionCommand } from "./extension-commands.ts";
import { ATTACH_MAX_BYTES, attachMentions, splitAttachments } from "../../conversation/file-mentions.ts";
import { noteStyle } from "./note-line.ts";
import { type QueuedInput, QueuedPrompts } from "./queued-prompts.ts";
import { runShellCommand } from "./shell-command.ts";
import { parseShellContext, shellCommandOf } from "./shell-context.ts";
import { type StatusSnapshot, StatusBar } from "./status-bar.ts";
import { TranscriptPager } from "./transcript-pager.ts";
import { ownEntry } from "../../protocol/own-key.ts";

/** Opens the conversation; `log` takes its diagnostics (they become chat notes). */
export type ConversationFactory = (log: (message: string) => void) => Promise<Conversation>;

export interface AppOptions {
  /** sent (or run, if it is a command) as soon as the conversation is ready */
  initialPrompt?: string;
  commands: readonly SlashCommand[];
  /** runs a program of the user's (the editor of Ctrl+G) so that what it leaves running is spared at zot's exit */
  runUserProgram?: <T>(run: () => Promise<T>) => Promise<T>;
}

/** Input typed (or submitted by an extension) before the conversation was ready. */
interface EarlyInput extends QueuedInput {
  /** as typed: a slash command in it still has to be recognised */
  raw: boolean;
  /** what a command's answer adds: its tool_prompt's call, the model the prompt runs on */
  command?: Pick<ConversationPrompt, "tool" | "model" | "allow">;
}

/** How long cancelTurn and exit wait for the conversation to notice the abort. */
const CANCEL_WAIT_MS = 2000;

/** Commands of Claude Code, pi and Codex that zot names otherwise: what to type instead. */
const OTHER_AGENTS_COMMANDS: Readonly<Record<string, string>> = {
  resume: "/sessions (a picker of this folder's sessions)",
  continue: "/sessions, or zot -c from the shell",
  fork: "/session fork [turn]",
  branch: "/session fork [turn]",
  rewind: "/session fork [turn] (a new session from an earlier turn)",
  undo: "/session fork [turn] (a new session from an earlier turn)",
  new: "/clear (a new session)",
  reset: "/clear (a new session)",
  export: "/session export [file]",
  tree: "/session tree",
  cost: "the status bar (the cost so far), or zot sessions list",
  usage: "the status bar (tokens, cost and context use)",
  context: "the status bar (context use), or /compact to free it",
  status: "the status bar, /model and /mcp",
  memory: "AGENTS.md or CLAUDE.md in the project (edit them yourself)",
  init: "AGENTS.md or CLAUDE.md in the project (ask the model to write one)",
  permissions: "/yolo [on|off] and the settings files' permissions (docs/permissions.md)",
  config: "$ZOT_HOME's files and the settings files (README)",
  agents: "none yet: zot has no subagents",
};

export class InteractiveApp implements AppContext {
  readonly editor: Editor;
  readonly chat: ChatView;
  readonly queue: QueuedPrompts;
  readonly frame: AppFrame;
  readonly commands: readonly SlashCommand[];
  private conv: Conversation | undefined;
  private extensions: AppExtensions | undefined;
  private early: EarlyInput[] = [];
  /** slash commands typed while extensions were still starting, which no one provided yet: they run once those are up */
  private awaitingExtensions: QueuedInput[] = [];
  /** what the prompt about to start @mentioned but could not attach, said under it */
  private mentionNotes: string[] = [];
  private readonly activity: AppActivity;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly spinner: Spinner;
  private readonly overlaySlot = new Stack();
  private readonly overlays: Component[] = [];
  private readonly statusLine: Text;
  private readonly keys: AppKeys;
  private endRun: ((code: number) => void) | undefined;
  /** Ctrl+G's editor while it has the terminal: what ends it (zot exiting), and its end. */
  private inEditor: { stop: AbortController; done: Promise<void> } | undefined;
  private readonly ended: Promise<number>;

  constructor(
    readonly tui: Tui,
    readonly theme: Theme,
    private readonly options: AppOptions,
  ) {
    this.commands = options.commands;
    this.chat = new ChatView(theme, { toolExtension: (name) => this.conv?.toolExtension(name) });
    this.queue = new QueuedPrompts(theme, () => [...this.early, ...this.awaitingExtensions, ...(this.conv?.queued.map(({ text = "", from }) => ({ text, from })) ?? [])]);
    this.spinner = new Spinner(() => tui.requestRender(), { style: theme.accent });
    this.activity = new AppActivity(this.spinner);
    this.editor = new Editor(theme, { prompt: "> ", placeholder: "ask anything · / for commands · @ for files · ! for shell" });
    this.statusLine = new Text("");
    const statusBar = new StatusBar(theme, this.spinner, () => this.statusSnapshot());
    this.keys = new AppKeys(this);
    this.frame = new AppFrame(this.chat, () => tui.terminal.rows);
    this.frame.band.add(this.overlaySlot).add(new Spacer()).add(this.queue).add(statusBar).add(this.editor).add(this.statusLine).add(this.keys.popupSlot);
    tui.root.add(this.frame);
    tui.setFocus(this.editor);
    tui.onKey((key) => this.keys.handle(key));
    tui.onContinue = (after) => {
      this.frame.hideBand(false);
      if (after === "suspend") this.frame.continueBelow();
      else this.frame.fillScreen();
    };
    tui.onStopRequested = () => this.suspend();
    this.editor.onSubmit = (text) => {
      // Kept for ↑ in later runs in this folder (what was typed before the conversation was ready is not).
      this.conv?.rememberPrompt(text);
      this.handleInput(text);
    };
    this.editor.onChange = (text, change) => {
      this.keys.updatePopup(change);
      // A prompt being written: the model's connection may be opened again meanwhile.
      if (text !== "") this.conv?.promptComing();
    };
    this.ended = new Promise((resolve) => (this.endRun = resolve));
  }

  /**
   * Paints, opens the conversation, runs until exit; resolves with the exit code. A conversation
   * that cannot be opened takes the drawn frame away before the error is reported (by the caller).
   */
  async run(source: Conversation | ConversationFactory): Promise<number> {
    this.activity.starting(true);
    this.tui.start();
    let exitCode: number | undefined;
    void this.ended.then((code) => (exitCode = code));
    let conversation: Conversation;
    try {
      conversation = typeof source === "function" ? await source((message) => this.showNote(message, "warn")) : source;
    } catch (error) {
      this.tui.root.clear();
      await this.tui.stop();
      throw error;
    } finally {
      this.activity.starting(false);
      this.render();
    }
    this.attach(conversation);
    // Quit while starting: nothing typed meanwhile is sent.
    if (exitCode === undefined) {
      if (this.options.initialPrompt?.trim()) this.handleInput(this.options.initialPrompt.trim());
      else this.sendEarly();
    }
    const code = await this.ended;
    await this.shutdown();
    return code;
  }

  // ── AppContext ─────────────────────────────────────────────────────────────────────────────

  get conversation(): Conversation {
    if (!this.conv) throw new Error("zot is still starting");
    return this.conv;
  }

  get busy(): boolean {
    return this.conv?.busy ?? false;
  }

  showNote(text: string, level: NoteLevel = "info"): void {
    this.chat.addNote(text, level);
    this.render();
  }

  showMarkdown(markdown: string): void {
    this.chat.addMarkdown(markdown);
    this.render();
  }

  setStatus(text: string, level: NoteLevel = "info"): void {
    this.statusLine.setText(text === "" ? "" : `  ${noteStyle(this.theme, level === "info" ? "muted" : level)(text)}`);
    this.render();
  }

  /**
   * Sends text as a prompt: it waits its turn behind what runs. `from`: the extension that submitted
   * it, named in the queue and in a grey line above it; the user's own prompts go with the content
   * of the files they @mention, read when the prompt starts. (A Markdown command's prompt is not
   * one of these: the command is queued whole, extension-commands.ts.)
   */
  submitPrompt(text: string, from?: string, command?: Pick<ConversationPrompt, "tool" | "model" | "allow">): void {
    const conversation = this.conv;
    if (!conversation) {
      this.early.push({ text, raw: false, ...(from ? { from } : {}), ...(command ? { command } : {}) });
      return this.render();
    }
    void conversation.prompt(
      { text, ...command },
      {
        ...(from ? { from } : {}),
        onStart: () => {
          this.chat.notes.clear();
          if (from) this.chat.addNote(`prompt from extension ${from}`, "muted");
        },
        prepare: from ? undefined : async (input, signal) => ({ ...input, ...(await this.withMentions(input.text, signal)) }),
      },
    );
    this.render();
  }

  insertText(text: string): void {
    this.editor.insertText(text);
    this.render();
  }

  async cancelTurn(): Promise<void> {
    this.early = [];
    this.awaitingExtensions = [];
    const conversation = this.conv;
    this.render();
    if (!conversation) return;
    await within(conversation.cancel(), CANCEL_WAIT_MS);
  }

  async compact(instructions?: string): Promise<void> {
    if (this.busy) await this.cancelTurn();
    await this.conversation.compact(instructions);
  }

  reloadTranscript(): void {
    this.chat.notes.clear();
    this.chat.load(this.conversation.messages);
    this.render();
  }

  readonly sideQuestions = new Set<AbortController>();

  screenRows(): number {
    return this.tui.terminal.rows;
  }

  openOverlay(component: Component): { close(): void } {
    this.overlays.push(component);
    this.overlaySlot.add(component);
    this.keys.closePopup();
    this.tui.setFocus(component);
    this.render();
    let open = true;
    return {
      close: () => {
        if (!open) return;
        open = false;
        this.overlays.splice(this.overlays.indexOf(component), 1);
        this.overlaySlot.remove(component);
        this.tui.setFocus(this.overlays.at(-1) ?? this.editor);
        this.render();
      },
    };
  }

  jumpToTurn(n: number): void {
    const { rows, turns } = this.chat.rowsWithTurns(this.tui.terminal.columns);
    // The view keeps turns a compaction took out of the transcript: count from the newest.
    const total = this.conversation.userTurns().length;
    const start = turns[turns.length - total + n - 1];
    if (start === undefined) {
      this.showNote(`there is no turn ${n} on screen`, "error");
      return;
    }
    const pager = new TranscriptPager(rows, start, `turn ${n} of ${total}`, this.theme, () => this.tui.terminal.rows);
    const overlay = this.openOverlay(pager);
    pager.onClose = () => overlay.close();
  }

  exit(code = 0): void {
    this.endRun?.(code);
  }

  /**
   * Ctrl+Z, as in a shell, Claude Code and Codex: the band goes (the conversation is left on screen
   * and the shell's lines come under it), zot stops, and `fg` brings it back under them; a turn
   * that runs goes on from where it stopped. Where nothing could continue zot (no job control) it
   * says so and goes on.
   */
  suspend(): void {
    if (!this.tui.canSuspend) {
      // before the terminal has answered zot's first question (its answer would reach the shell)
      if (this.tui.terminal.starting) this.setStatus("Ctrl+Z: zot is still starting; press it again in a moment", "warn");
      return;
    }
    this.frame.hideBand(true);
    let stopped: Promise<boolean>;
    try {
      stopped = this.tui.suspend();
    } finally {
      this.frame.hideBand(false);
    }
    void stopped.then((yes) => {
      if (!yes) this.setStatus("Ctrl+Z: zot cannot be suspended here (no shell with job control started it)", "warn");
    });
  }

  /**
   * Ctrl+G: the prompt in the user's own editor (external-editor.ts), which has the terminal until
   * it exits; what it saved replaces the prompt as one step Ctrl+_ undoes. A turn running goes on
   * meanwhile, and is drawn again below once the editor is done.
   */
  async editPromptInEditor(): Promise<void> {
    if (this.inEditor) return;
    if (!this.tui.canLend) {
      if (this.tui.terminal.starting) this.setStatus("Ctrl+G: zot is still starting; press it again in a moment", "warn");
      return;
    }
    const stop = new AbortController();
    const command = editorCommand(process.env);
    this.frame.hideBand(true);
    const outcome = editInEditor(this.editor.value, {
      command,
      cwd: this.ready ? this.conversation.cwd : process.cwd(),
      env: process.env,
      lend: (run) => this.tui.lend(run),
      signal: stop.signal,
      ...(this.options.runUserProgram ? { spare: this.options.runUserProgram } : {}),
    });
    this.inEditor = { stop, done: outcome.then(() => {}) };
    try {
      const result = await outcome;
      if (stop.signal.aborted) return;
      if (result.kind === "edited") this.editor.setText(result.text);
      else if (result.kind === "failed") this.setStatus(`Ctrl+G: ${result.reason}`, "warn");
    } finally {
      this.inEditor = undefined;
      this.frame.hideBand(false);
      this.render();
    }
  }

  // ── the app's own ──────────────────────────────────────────────────────────────────────────

  /** The confirmation dialog's: the call's tool box says it waits for the answer, not that it runs. */
  markAwaitingAnswer(callId: string, waiting: boolean): void {
    this.chat.setAwaitingAnswer(callId, waiting);
    this.render();
  }

  get ready(): boolean {
    return this.conv !== undefined;
  }

  get hasOverlay(): boolean {
    return this.overlays.length > 0;
  }

  /** The component on top (a picker, a dialog), which has the keyboard. */
  get topOverlay(): Component | undefined {
    return this.overlays.at(-1);
  }

  render(): void {
    this.tui.requestRender();
  }

  /** What the user submitted: a built-in command, an extension's command, a `!command`, or a prompt. */
  handleInput(text: string): void {
    const conversation = this.conv;
    if (!conversation) {
      this.early.push({ text, raw: true });
      this.render();
      return;
    }
    const slash = parseSlash(text);
    if (slash) return this.runSlash(conversation, text, slash, true);
    const command = shellCommandOf(text);
    if (command !== undefined) {
      void runShellCommand(this, command).catch((error) => this.showNote(errorText(error), "error"));
      this.render();
      return;
    }
    this.submitPrompt(text);
  }

  /**
   * Esc or Ctrl+C while a turn runs, or at its confirmation question: the turn cancelled and the
   * extensions' notes dropped; what the user queued comes back into the editor, after the draft (as
   * Claude Code gives it back), to send again or edit; what extensions queued is dropped.
   */
  cancelTurnByUser(): void {
    this.chat.notes.clear();
    const typed = this.queuedByUser();
    void this.cancelTurn();
    if (typed.length > 0) {
      const draft = this.editor.text;
      this.editor.setText([draft, ...typed].filter((text) => text.trim() !== "").join("\n"));
    }
    this.setStatus(typed.length > 0 ? `turn cancelled; ${typed.length === 1 ? "the queued prompt is" : `the ${typed.length} queued prompts are`} back in the editor` : "turn cancelled");
  }

  /** The texts the user queued (typed while a turn ran, or before zot was ready), in order; not what extensions submitted. */
  queuedByUser(): string[] {
    return [...this.early, ...this.awaitingExtensions, ...(this.conv?.queued ?? [])].flatMap((entry) => (entry.from ? [] : [entry.text ?? ""]));
  }

  /** Drops what waits (the conversation's queue and what was typed before it was ready); what runs goes on. */
  dropQueued(): void {
    this.early = [];
    this.awaitingExtensions = [];
    this.conv?.dropQueued();
    this.render();
  }

  /**
   * A built-in command, an extension's, or one no one provides: while extensions are still starting
   * it may be theirs, so it waits for them (shown in the queue) and then runs or is unknown.
   * `typed`: an unknown command goes back into the editor; one that waited does not take the editor
   * over from what was typed since.
   */
  private runSlash(conversation: Conversation, text: string, slash: SlashInvocation, typed: boolean): void {
    // As Markdown commands and -p read them: the case of a built-in's name does not matter (/Compact keep names).
    const builtin = this.commands.find((command) => command.name === slash.name.toLowerCase());
    // A second /compact while one runs would throw its summary (a paid call) away for another.
    if (builtin?.startsUnit && this.conversation.running?.label === builtin.startsUnit) {
      return this.setStatus(`/${builtin.name}: ${builtin.startsUnit} runs already; Esc cancels it`, "warn");
    }
    if (builtin) return void this.runCommand(`/${builtin.name}`, builtin.cancelsTurn ?? false, () => builtin.run(this, slash.args));
    if (conversation.commands.has(slash.name)) return void this.runCommand(`/${slash.name}`, false, () => runExtensionCommand(this, slash));
    const starting = conversation.startingExtensions();
    if (starting.length > 0) return this.waitForExtensions(conversation, text, slash, starting);
    if (!typed) return this.showNote(`unknown command /${slash.name}: no extension provides it now that they have started; /help lists the commands`, "error");
    // A typo of a command is not worth a model call; the text goes back into the editor.
    this.editor.setText(text);
    const instead = ownEntry(OTHER_AGENTS_COMMANDS, slash.name.toLowerCase());
    this.setStatus(`unknown command /${slash.name}; ${instead ? `zot's is ${instead}` : "/help lists the commands"}`, "error");
  }

  /** Holds /name until the extensions still starting are up (or gave up), then dispatches it again; Esc and Ctrl+C drop it. */
  private waitForExtensions(conversation: Conversation, text: string, slash: SlashInvocation, starting: string[]): void {
    const who = starting.length === 1 ? `extension ${starting[0]}` : `extensions ${starting.join(", ")}`;
    const waiting: QueuedInput = { text, waitingFor: who };
    this.awaitingExtensions.push(waiting);
    this.setStatus(`/${slash.name} waits for ${who}, still starting; it runs once ${starting.length === 1 ? "that is" : "they are"} up`);
    void conversation.extensionsStarted().then(() => {
      const at = this.awaitingExtensions.indexOf(waiting);
      if (at === -1 || this.conv !== conversation) return;
      this.awaitingExtensions.splice(at, 1);
      this.runSlash(conversation, text, slash, false);
      this.render();
    });
  }

  private async runCommand(label: string, cancelsTurn: boolean, run: () => Promise<void> | void): Promise<void> {
    try {
      if (cancelsTurn && this.busy) await this.cancelTurn();
      await run();
    } catch (error) {
      this.showNote(`${label}: ${errorText(error)}`, "error");
    } finally {
      this.render();
      this.sendEarly();
    }
  }

  /** The prompt with the files and MCP resources it @mentions; what could not go is said under the prompt. */
  private async withMentions(text: string, signal: AbortSignal): Promise<{ text: string; memory?: string[] }> {
    const conversation = this.conversation;
    const sent = await attachMentions(
      text,
      conversation.cwd,
      (server, uri) => conversation.mcpResourceText(server, uri, signal, ATTACH_MAX_BYTES),
      (path) => conversation.mayAttach(path),
    );
    // The subfolders' CLAUDE.md the files bring go with the prompt, as Claude Code sends them.
    const memory = conversation.attachedMemory(sent.seen);
    // Said under the user_message this prompt is about to add (onEvent).
    this.mentionNotes = [...sent.skipped, ...memory.notes];
    conversation.sawAttached(sent.seen);
    return { text: sent.text, ...(memory.blocks.length > 0 ? { memory: memory.blocks } : {}) };
  }

  /** The next input typed before the conversation was ready, once nothing runs. */
  private sendEarly(): void {
    if (!this.conv || this.conv.busy) return;
    const next = this.early.shift();
    if (!next) return;
    if (next.raw) this.handleInput(next.text);
    else this.submitPrompt(next.text, next.from, next.command);
    this.render();
  }

  private attach(conversation: Conversation): void {
    this.conv = conversation;
    // Before the first subscription, which delivers the notes and the panel the extensions sent while starting.
    this.extensions = new AppExtensions(this, conversation);
    noFTL(this.takeEvent);
    this.unsubscribe.push(
      conversation.onEvent(this.takeEvent),
      conversation.onQueueChange(() => this.onQueueChange()),
    );
    const messages = conversation.messages;
    if (messages.length > 0) this.chat.load(messages);
    // ↑ walks what was typed here in earlier runs, then this session's own prompts (each once).
    const own = conversation.userTurns().map((index) => {
      const text = textOf(messages[index]!.content);
      const shell = parseShellContext(text);
      return shell ? `!${shell.command}` : splitAttachments(text).prompt;
    });
    for (const text of conversation.promptHistory()) if (!own.includes(text)) this.editor.history.add(text);
    for (const text of own) this.editor.history.add(text);
    for (const note of conversation.startupNotes) this.chat.addNote(note, "warn");
    if (conversation.session?.resumed) this.chat.addNote(`resumed session ${conversation.session.id}`, "muted");
    // A popup opened while starting now knows the extensions' commands and the working directory.
    this.keys.updatePopup();
    this.render();
  }

  /** What the conversation's event stream calls (bound once, so it can be kept below FTL). */
  private readonly takeEvent = (event: AgentEvent): void => this.onEvent(event);

  private onEvent(event: AgentEvent): void {
    if (!this.extensions?.handle(event)) this.chat.handleEvent(event);
    if (event.type === "user_message" && this.mentionNotes.length > 0) {
      for (const why of this.mentionNotes) this.chat.addNote(why, "muted");
      this.mentionNotes = [];
    }
    this.activity.event(event);
    this.render();
  }

  /** What runs changed: the spinner follows it, and once nothing runs the input typed while starting goes on. */
  private onQueueChange(): void {
    const running = this.conv?.running;
    this.activity.follow(running);
    if (!running) this.sendEarly();
    this.render();
  }

  private statusSnapshot(): StatusSnapshot {
    const conversation = this.conv;
    return {
      busy: this.activity.shown,
      provider: conversation?.model.provider,
      model: conversation?.model.id,
      usage: conversation?.usage,
      context: conversation?.contextUse(),
      cwd: conversation?.cwd ?? process.cwd(),
      home: homedir(),
      tags: conversation ? guardTags(conversation) : [],
    };
  }

  private async shutdown(): Promise<void> {
    // The editor of Ctrl+G ends first (SIGTERM: vim keeps its swap file) and gives the terminal back.
    if (this.inEditor) {
      this.inEditor.stop.abort();
      await within(this.inEditor.done, CANCEL_WAIT_MS);
    }
    const conversation = this.conv;
    if (conversation) {
      conversation.stop("zot is exiting");
      await within(conversation.idle(), CANCEL_WAIT_MS);
    }
    for (const off of this.unsubscribe) off();
    this.frame.closeBand();
    await this.tui.stop();
    await conversation?.dispose();
    const resume = conversation && resumeHint(conversation);
    if (resume) this.tui.terminal.write(`${resume}\n`);
  }
}

/**
 * How to come back to this conversation, as Codex says `codex resume <id>`: only for a session
 * that left a file (not --no-session, not a new one nothing was said in).
 */
function resumeHint(conversation: Conversation): string | undefined {
  const session = conversation.session;
  if (!session || !conversation.sessions.recorded) return undefined;
  return `resume this session with: zot -r ${session.id}`;
}

/** The status bar's tags: the jail (/jail, --jail) and the confirmations (/yolo, --no-yolo). */
function guardTags(conversation: Conversation): string[] {
  const tags: string[] = [];
  if (conversation.guards.jailed) tags.push("jailed");
  if (conversation.guards.confirming) tags.push(conversation.guards.asksSomeone ? "confirmations on" : "dontAsk");
  return tags;
}

/** Waits for `promise`, at most `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(InteractiveApp.prototype["onEvent"]);
noFTL(InteractiveApp.prototype.render);
