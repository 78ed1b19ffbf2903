// The interactive app: the chat view, the queue, the status bar, the editor and its popups on one
// Tui; the agent's events drawn as they come; the turn loop (one prompt at a time, the rest queued
// and sent when the turn ends); slash commands, built-in and the extensions'; `!command`, run by the
// user and added to the conversation as context (shell-command.ts). It is the AppContext
// the commands see. Rule: the first frame is painted before the runtime exists (the user can type
// while providers and extensions load; what is sent meanwhile waits in the queue), and nothing is
// written to the terminal except through the renderer: runtime notes and diagnostics are chat notes.
import { homedir } from "node:os";
import type { Agent, PromptTool } from "../../core/agent.ts";
import { parseSlash } from "../../extensions/slash-command.ts";
import { errorText } from "../../protocol/error-text.ts";
import type { AgentEvent } from "../../protocol/events.ts";
import { textOf } from "../../protocol/messages.ts";
import { retryLabel } from "../../protocol/retry-text.ts";
import type { Runtime } from "../../runtime.ts";
import { userTurns } from "../../session/fork.ts";
import { type Component, Stack } from "../../tui/component.ts";
import { Editor } from "../../tui/editor.ts";
import { Spinner } from "../../tui/spinner.ts";
import { Spacer, Text } from "../../tui/text.ts";
import type { Theme } from "../../tui/theme.ts";
import type { Tui } from "../../tui/tui.ts";
import type { AppContext, NoteLevel, SlashCommand } from "./app-context.ts";
import { AppFrame } from "./app-frame.ts";
import { AppKeys } from "./app-keys.ts";
import { ChatView } from "./chat-view.ts";
import { connectExtensions } from "./app-extensions.ts";
import { runExtensionCommand } from "./extension-commands.ts";
import { noteStyle } from "./note-line.ts";
import { QueuedPrompts } from "./queued-prompts.ts";
import { attachMentions, splitAttachments } from "./file-mentions.ts";
import { runShellCommand } from "./shell-command.ts";
import { parseShellContext, shellCommandOf } from "./shell-context.ts";
import { type StatusSnapshot, StatusBar } from "./status-bar.ts";
import { TranscriptPager } from "./transcript-pager.ts";

/** Creates the runtime; `log` takes its diagnostics (they become chat notes). */
export type RuntimeFactory = (log: (message: string) => void) => Promise<Runtime>;

export interface AppOptions {
  /** sent (or run, if it is a command) as soon as the runtime is ready */
  initialPrompt?: string;
  commands: readonly SlashCommand[];
}

/** What runs: a turn, a compaction, or zot starting up. */
interface Activity {
  label: string;
  /** a provider's retry being waited out ("retrying in 30 s (HTTP 429)"), shown instead of the label until the next event */
  retry?: string;
  since: number;
  controller?: AbortController;
  done: Promise<void>;
}

/** How long cancelTurn and exit wait for the agent to notice the abort. */
const CANCEL_WAIT_MS = 2000;

export class InteractiveApp implements AppContext {
  readonly editor: Editor;
  readonly chat: ChatView;
  readonly queue: QueuedPrompts;
  readonly frame: AppFrame;
  readonly commands: readonly SlashCommand[];
  private rt: Runtime | undefined;
  private subscribed: { agent: Agent; off: () => void } | undefined;
  private activity: Activity | undefined;
  private readonly spinner: Spinner;
  private readonly overlaySlot = new Stack();
  private readonly overlays: Component[] = [];
  private readonly statusLine: Text;
  private readonly keys: AppKeys;
  private endRun: ((code: number) => void) | undefined;
  private readonly ended: Promise<number>;

  constructor(
    readonly tui: Tui,
    readonly theme: Theme,
    private readonly options: AppOptions,
  ) {
    this.commands = options.commands;
    this.chat = new ChatView(theme, { toolExtension: (name) => this.rt?.agent.tools.find((tool) => tool.name === name)?.extension });
    this.queue = new QueuedPrompts(theme);
    this.spinner = new Spinner(() => tui.requestRender(), { style: theme.accent });
    this.editor = new Editor(theme, { prompt: "> ", placeholder: "ask anything · / for commands · @ for files · ! for shell" });
    this.statusLine = new Text("");
    const statusBar = new StatusBar(theme, this.spinner, () => this.statusSnapshot());
    this.keys = new AppKeys(this);
    this.frame = new AppFrame(() => tui.terminal.rows);
    this.frame.body.add(this.chat).add(this.overlaySlot).add(new Spacer()).add(this.queue).add(statusBar).add(this.editor).add(this.statusLine).add(this.keys.popupSlot);
    tui.root.add(this.frame);
    tui.setFocus(this.editor);
    tui.onKey((key) => this.keys.handle(key));
    this.editor.onSubmit = (text) => this.handleInput(text);
    this.editor.onChange = () => this.keys.updatePopup();
    this.ended = new Promise((resolve) => (this.endRun = resolve));
  }

  /**
   * Paints, builds the runtime, runs until exit; resolves with the exit code. A runtime that
   * cannot be built takes the drawn frame away before the error is reported (by the caller).
   */
  async run(source: Runtime | RuntimeFactory): Promise<number> {
    const starting = this.begin("starting");
    this.tui.start();
    let exitCode: number | undefined;
    void this.ended.then((code) => (exitCode = code));
    let runtime: Runtime;
    try {
      runtime = typeof source === "function" ? await source((message) => this.showNote(message, "warn")) : source;
    } catch (error) {
      this.tui.root.clear();
      this.tui.stop();
      throw error;
    } finally {
      starting();
    }
    this.attach(runtime);
    // Quit while starting: nothing typed meanwhile is sent.
    if (exitCode === undefined) {
      if (this.options.initialPrompt?.trim()) this.handleInput(this.options.initialPrompt.trim());
      else this.drainQueue();
    }
    const code = await this.ended;
    await this.shutdown();
    return code;
  }

  // ── AppContext ─────────────────────────────────────────────────────────────────────────────

  get runtime(): Runtime {
    if (!this.rt) throw new Error("zot is still starting");
    return this.rt;
  }

  get agent(): Agent {
    return this.runtime.agent;
  }

  get busy(): boolean {
    return this.activity !== undefined && this.rt !== undefined;
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

  submitPrompt(text: string, from?: string, tool?: PromptTool): void {
    if (!this.rt || this.activity) this.queue.push({ text, raw: false, ...(from ? { from } : {}), ...(tool ? { tool } : {}) });
    else this.startTurn(text, from, tool);
    this.render();
  }

  insertText(text: string): void {
    this.editor.insertText(text);
    this.render();
  }

  async cancelTurn(): Promise<void> {
    this.queue.clear();
    const activity = this.activity;
    this.render();
    if (!activity?.controller) return;
    activity.controller.abort(new Error("cancelled by the user"));
    await within(activity.done, CANCEL_WAIT_MS);
  }

  async compact(instructions?: string): Promise<void> {
    if (this.activity) await this.cancelTurn();
    await this.runActivity("compacting", async (signal) => {
      await this.agent.compact(signal, instructions ? { instructions } : {}).catch((error) => {
        this.showNote(`compaction failed: ${errorText(error)}`, "error");
      });
    });
  }

  reloadTranscript(): void {
    this.subscribe();
    this.chat.notes.clear();
    this.chat.load(this.agent.messages);
    this.render();
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
    const total = userTurns(this.agent.messages).length;
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

  // ── the app's own ──────────────────────────────────────────────────────────────────────────

  get ready(): boolean {
    return this.rt !== undefined;
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

  /** What the user submitted: a built-in command, an extension's command, or a prompt. */
  handleInput(text: string): void {
    if (!this.rt) {
      this.queue.push({ text, raw: true });
      this.render();
      return;
    }
    const slash = parseSlash(text);
    if (slash) {
      const builtin = this.commands.find((command) => command.name === slash.name);
      if (builtin) return void this.runCommand(`/${builtin.name}`, builtin.cancelsTurn ?? false, () => builtin.run(this, slash.args));
      const extensions = this.rt.extensions;
      if (extensions?.hasCommand(slash.name)) {
        return void this.runCommand(`/${slash.name}`, false, () => runExtensionCommand(this, extensions, this.chat.notes, slash));
      }
      // A typo of a command is not worth a model call; the text goes back into the editor.
      this.editor.setText(text);
      this.setStatus(`unknown command /${slash.name}; /help lists the commands`, "error");
      return;
    }
    const command = shellCommandOf(text);
    if (command !== undefined) {
      if (this.activity) this.queue.push({ text, raw: true });
      else void runShellCommand(this, command);
      this.render();
      return;
    }
    this.submitPrompt(text);
  }

  /** Runs `work` as what the app is doing (spinner, Esc cancels it); what was queued meanwhile goes after. */
  async runActivity(label: string, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const controller = new AbortController();
    const finish = this.begin(label, controller);
    try {
      await work(controller.signal);
    } catch (error) {
      this.showNote(errorText(error), "error");
    } finally {
      finish();
      this.drainQueue();
    }
  }

  private async runCommand(label: string, cancelsTurn: boolean, run: () => Promise<void> | void): Promise<void> {
    try {
      if (cancelsTurn && this.activity) await this.cancelTurn();
      await run();
    } catch (error) {
      this.showNote(`${label}: ${errorText(error)}`, "error");
    } finally {
      this.render();
      this.drainQueue();
    }
  }

  /**
   * `from`: the extension that submitted the prompt, named in a grey line above it. The user's own
   * prompts go with the content of the files they @mention.
   */
  private startTurn(text: string, from?: string, tool?: PromptTool): void {
    const controller = new AbortController();
    const finish = this.begin("working", controller);
    this.chat.notes.clear();
    if (from) this.chat.addNote(`prompt from extension ${from}`, "muted");
    const sent = from ? { text, skipped: [] } : attachMentions(text, this.agent.cwd);
    const turn = this.agent.prompt({ text: sent.text, ...(tool ? { tool } : {}) }, controller.signal);
    for (const why of sent.skipped) this.chat.addNote(why, "muted");
    turn
      .catch((error) => this.showNote(errorText(error), "error"))
      .finally(() => {
        finish();
        this.drainQueue();
      });
  }

  /** The next queued input, once nothing runs. */
  private drainQueue(): void {
    if (!this.rt || this.activity) return;
    const next = this.queue.shift();
    if (!next) return;
    if (next.raw) this.handleInput(next.text);
    else this.startTurn(next.text, next.from, next.tool);
    this.render();
  }

  /** Marks something running (spinner, elapsed time, busy); returns what marks it finished. */
  private begin(label: string, controller?: AbortController): () => void {
    let resolve!: () => void;
    const activity: Activity = { label, since: performance.now(), controller, done: new Promise((r) => (resolve = r)) };
    this.activity = activity;
    this.spinner.start();
    this.render();
    return () => {
      if (this.activity === activity) {
        this.activity = undefined;
        this.spinner.stop();
      }
      resolve();
      this.render();
    };
  }

  private attach(runtime: Runtime): void {
    this.rt = runtime;
    this.subscribe();
    if (runtime.extensions) connectExtensions(this, runtime.extensions);
    const messages = runtime.agent.messages;
    if (messages.length > 0) this.chat.load(messages);
    for (const index of userTurns(messages)) {
      const text = textOf(messages[index]!.content);
      const shell = parseShellContext(text);
      this.editor.history.add(shell ? `!${shell.command}` : splitAttachments(text).prompt);
    }
    for (const note of runtime.notes) this.chat.addNote(note, "warn");
    if (runtime.session?.resumed) this.chat.addNote(`resumed session ${runtime.session.id}`, "muted");
    // A popup opened while starting now knows the extensions' commands and the working directory.
    this.keys.updatePopup();
    this.render();
  }

  /** Listens to the runtime's agent (again, if a resume or fork replaced it). */
  private subscribe(): void {
    const agent = this.runtime.agent;
    if (this.subscribed?.agent === agent) return;
    this.subscribed?.off();
    this.subscribed = { agent, off: agent.onEvent((event) => this.onAgentEvent(event)) };
  }

  private onAgentEvent(event: AgentEvent): void {
    this.chat.handleEvent(event);
    if (this.activity && (event.type === "compact_start" || event.type === "compact_done")) {
      this.activity.label = event.type === "compact_start" ? "compacting" : "working";
    }
    if (this.activity) this.activity.retry = event.type === "retry" ? retryLabel(event) : undefined;
    this.render();
  }

  private statusSnapshot(): StatusSnapshot {
    const agent = this.rt?.agent;
    const activity = this.activity;
    return {
      busy: activity && { label: activity.retry ?? activity.label, since: activity.since },
      provider: agent?.model.provider,
      model: agent?.model.id,
      usage: agent?.cumulative,
      context: agent?.contextUse(),
      cwd: agent?.cwd ?? process.cwd(),
      home: homedir(),
      tags: this.rt ? runtimeTags(this.rt) : [],
    };
  }

  private async shutdown(): Promise<void> {
    const activity = this.activity;
    if (activity?.controller) {
      activity.controller.abort(new Error("zot is exiting"));
      await within(activity.done, CANCEL_WAIT_MS);
    }
    this.subscribed?.off();
    this.tui.stop();
    await this.rt?.dispose();
  }
}

/** The status bar's tags: the jail (/jail, --jail) and the confirmation gate (/yolo, --no-yolo). */
function runtimeTags(runtime: Runtime): string[] {
  const tags: string[] = [];
  if (runtime.agent.jailed) tags.push("jailed");
  if (runtime.confirmGate?.confirming) tags.push("confirmations on");
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
