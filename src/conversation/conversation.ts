// The session controller: one conversation for every front end (the TUI, -p, --json, rpc, the SDK),
// on top of what runtime.ts assembled. It takes input (a prompt, an extension's slash command, a
// compaction) as units of work under one busy policy the front end picks ("queue": the TUI and rpc;
// "refuse": the SDK, with ZotBusyError), and gives out one event stream: the agent's events merged
// with its own (extension notes, displays, cleared notes, command results, panels). It holds the
// state a front end shows (model, usage, context, session, queue, jail, confirmations) and the
// operations on it (models and reasoning, sessions, extensions reload).
// Rule: front ends are adapters (input in, events out, and what only they show); none reaches the
// agent, the runtime's parts or the extensions but through here, and every unit of work ends with
// `done` on the stream (work-policy.ts).
import type { Pressure } from "../core/backpressure.ts";
import type { CompactOutcome, ContextUse, PromptInput, PromptOutcome } from "../core/outcomes.ts";
import type { SideEvent, SideExchange } from "../core/side-question.ts";
import type { ExtensionInfo, ExtensionManager, InputSink, ReloadReport } from "../extensions/manager.ts";
import type { McpServerOff } from "../mcp/config-files.ts";
import type { McpServerInfo } from "../mcp/manager.ts";
import type { AgentEvent } from "../protocol/events.ts";
import type { Message } from "../protocol/messages.ts";
import type { ModelInfo, ReasoningLevel } from "../protocol/models.ts";
import type { RpcDataOf } from "../protocol/rpc-frames.ts";
import { type CommandResult, commandErrorMessage } from "../protocol/slash-command.ts";
import { untilAborted } from "../protocol/until-aborted.ts";
import type { Usage } from "../protocol/usage.ts";
import { createRuntime, type Runtime, type RuntimeOptions } from "../runtime/runtime.ts";
import type { Skill } from "../skills/discover.ts";
import { type BusyWording, RPC_BUSY_WORDING } from "./busy.ts";
import { EventStream } from "./event-stream.ts";
import { commandPrompt, commandResultEvent, type ConversationPrompt, SlashCommands } from "./slash-commands.ts";
import { resolvePromptModel } from "./prompt-model.ts";
import { connectExtensionOutlets, type PanelControls, panelControls } from "./extension-outlets.ts";
import { ModelChoices } from "./model-choices.ts";
import { userTurns } from "../protocol/messages.ts";
import { type SessionInfo, SessionOperations } from "./session-operations.ts";
import { ToolGuards } from "./tool-guards.ts";
import { type BusyPolicy, type UnitOptions, type UnitOutcome, WorkPolicy } from "./work-policy.ts";
import { appendPromptLog, readPromptLog } from "../session/prompt-log.ts";
import { parseSlash, type SlashInvocation } from "../protocol/slash-command.ts";
import type { FileView } from "../protocol/tool.ts";

// What a front end needs to name, from below it: it imports them from here.
export type { PromptInput, PromptOutcome, PromptTool, ContextUse } from "../core/outcomes.ts";
export { commandPrompt, type ConversationPrompt } from "./slash-commands.ts";
export type { SideEvent, SideExchange } from "../core/side-question.ts";
export type { ConfirmAnswer, Confirmer, ConfirmRequest } from "../core/confirm-gate.ts";
export { allArgsText, argsText, CONFIRM_GATE_NAME, DECLINED } from "../core/confirm-gate.ts";
export type { TrustAnswer, TrustAsker, TrustQuestion } from "../config/workspace-trust.ts";
export type { ExtensionInfo, InputSink, ReloadReport } from "../extensions/manager.ts";
export type { McpServerInfo } from "../mcp/manager.ts";
export type { McpServerOff } from "../mcp/config-files.ts";
export type { Skill } from "../skills/discover.ts";
export type { RuntimeOptions } from "../runtime/runtime.ts";
export type { SessionChoice } from "../session/open.ts";
export type { BusyWording } from "./busy.ts";
export type { PanelControls } from "./extension-outlets.ts";
export type { ForkResult, SessionInfo, SessionNode, SessionSummary } from "./session-operations.ts";
export type { BusyPolicy, UnitOptions, UnitOutcome } from "./work-policy.ts";
export { ZotBusyError } from "./busy.ts";

export interface ConversationOptions {
  busy: BusyPolicy;
  /** how a busy refusal tells the user what to do (default: rpc's words) */
  wording?: BusyWording;
  /** where the queue logs what an item threw that no one was told of (a unit's failure is its error event) */
  log?: (message: string) => void;
}

/** A prompt unit's options: also the input as it goes to the model, worked out when it starts (the TUI reads @files then). */
export interface PromptOptions extends UnitOptions {
  prepare?(input: ConversationPrompt, signal: AbortSignal): ConversationPrompt | Promise<ConversationPrompt>;
  /**
   * A prompt (not a command) goes with the content of the files and MCP resources it @mentions, as
   * the TUI sends them (-p, --json and rpc, as Claude Code's -p does), each file held to what the
   * read tool may read; what could not go is an ext_notify warning from "zot" before the prompt.
   * "typed": a person wrote it (-p's argument); "sent": a program did (rpc), so nothing the rules or
   * the confirmations would ask about is attached.
   */
  mentions?: "typed" | "sent";
  /**
   * What the queue lists for this prompt while it waits, and what a front end gives back when the
   * user cancels: the command line the person typed (`/review src`), when the prompt is its expansion.
   */
  shown?: string;
}

/** The conversation's state, as rpc's get_state and the SDK's state() give it. */
export type ConversationState = RpcDataOf<"get_state">;

/** A queued unit or task as a front end lists it. */
export interface QueuedEntry {
  text?: string;
  from?: string;
}

/** A model name this provider does not know. */
export class UnknownModelError extends Error {
  override readonly name = "UnknownModelError";
}

/** Builds the runtime from `options` and the conversation on it. */
export async function openConversation(options: RuntimeOptions, conversation: ConversationOptions): Promise<Conversation> {
  return new Conversation(await createRuntime(options), conversation);
}

/** The label of a compaction while it runs (`running.label`): a front end tells it from a prompt by it. */
export const COMPACTION_UNIT = "a compaction";

export class Conversation {
  readonly models: ModelChoices;
  readonly sessions: SessionOperations;
  readonly guards: ToolGuards;
  readonly commands: SlashCommands;
  /** the user's side of the extension panel on show */
  readonly panels: PanelControls;
  private readonly stream: EventStream;
  private readonly work: WorkPolicy;
  private connected = false;

  constructor(
    private readonly runtime: Runtime,
    options: ConversationOptions,
  ) {
    this.stream = new EventStream(runtime.agent);
    this.work = new WorkPolicy(
      options.busy,
      options.wording ?? RPC_BUSY_WORDING,
      this.stream,
      () => runtime.agent.unitsDone,
      (message) => options.log?.(message),
      () => runtime.workArrived(),
    );
    this.models = new ModelChoices(runtime);
    this.sessions = new SessionOperations(runtime, (what, label, work) => this.work.exclusive(what, label, work));
    this.guards = new ToolGuards(runtime);
    this.commands = new SlashCommands(runtime.commandSources, (event) => this.stream.fire(event));
    this.panels = panelControls(() => runtime.extensions);
  }

  // ── the event stream ────────────────────────────────────────────────────────────────────────

  /**
   * Subscribes to every event: the agent's and the conversation's own (`deltas: false`: all but the
   * model stream's deltas, tens of thousands on a long answer). The first subscriber connects the
   * extensions' notes and panels, so those sent while they started are heard.
   */
  onEvent(listener: (event: AgentEvent) => void, options: { deltas?: boolean } = {}): () => void {
    const off = this.stream.add(listener, options);
    if (!this.connected) {
      this.connected = true;
      if (this.runtime.extensions) connectExtensionOutlets(this.runtime.extensions, (event) => this.stream.fire(event));
    }
    return off;
  }

  /** A reader of the events that falls behind holds the model stream and tool output back (see Agent.holdBack). */
  holdBack(pressure: Pressure): () => void {
    return this.runtime.agent.holdBack(pressure);
  }

  /** Hears every change of what runs and what waits (a unit queued, started, ended, dropped). */
  onQueueChange(listener: () => void): () => void {
    return this.work.queue.onChange(listener);
  }

  /** Where extensions' `submit` and `submit_slash` go (the TUI's input); without it they are logged and ignored. */
  onExtensionInput(sink: InputSink): void {
    this.input = sink;
    this.runtime.extensions?.onInput(sink);
  }

  /** the extensions' input, kept for extensions a reload starts in a run that had none (connectLate) */
  private input: InputSink | undefined;

  // ── what it is ──────────────────────────────────────────────────────────────────────────────

  get model(): ModelInfo {
    return this.runtime.agent.model;
  }

  /** The model answering now: the one a command's `model:` chose while its prompt runs on it, else `model`. */
  get answeringModel(): ModelInfo {
    return this.runtime.agent.answeringModel;
  }

  /** The prompts typed in this folder in earlier runs, oldest first (the TUI's ↑ walks them). */
  promptHistory(): string[] {
    return readPromptLog(this.runtime.home, this.cwd);
  }

  /** Keeps a prompt the user typed for later runs' history; a run that records no session keeps none. */
  rememberPrompt(text: string): void {
    if (this.runtime.session && text.trim()) appendPromptLog(this.runtime.home, this.cwd, text);
  }

  get cwd(): string {
    return this.runtime.agent.cwd;
  }

  /** the permission mode by Claude Code's name, as a flag or a settings file's defaultMode chose it (undefined: neither) */
  get permissionMode(): string | undefined {
    return this.runtime.permissionMode;
  }

  get messages(): readonly Message[] {
    return this.runtime.agent.messages;
  }

  get usage(): Usage {
    return this.runtime.agent.cumulative;
  }

  contextUse(): ContextUse {
    return this.runtime.agent.contextUse();
  }

  get session(): SessionInfo | undefined {
    return this.runtime.session;
  }

  /** one-line notes from starting up (a fallback taken, a config file ignored, an extension that failed) */
  get startupNotes(): readonly string[] {
    return this.runtime.notes;
  }

  /** the run's skills: the model's and the user's slash commands (a skill's modelInvocable / userInvocable say which it is not) */
  get skills(): readonly Skill[] {
    return this.runtime.skills;
  }

  /** Where the transcript's user turns are (a compaction's summary is not one), numbered as /jump and forks number them. */
  userTurns(): number[] {
    return userTurns(this.runtime.agent.messages);
  }

  /** The tools the model is offered now, by name, with the extension that provides each that an extension does. */
  offeredTools(): { name: string; extension?: string }[] {
    return this.runtime.agent.offeredTools.map((tool) => ({ name: tool.name, ...(tool.extension ? { extension: tool.extension } : {}) }));
  }

  /** The extension that provides a tool, if one does. */
  toolExtension(name: string): string | undefined {
    return this.runtime.agent.tools.find((tool) => tool.name === name)?.extension;
  }

  /** Something runs, or is about to start after what just ended. */
  get busy(): boolean {
    return this.work.queue.busy;
  }

  /** What runs now, or undefined: a unit of work ("turn": a prompt, a compaction) or an operation, with its label. */
  get running(): { kind: "turn" | "operation"; label: string } | undefined {
    const current = this.work.queue.current;
    return current && { kind: current.kind, label: current.label };
  }

  /** What waits its turn, in order. */
  get queued(): QueuedEntry[] {
    return this.work.queue.queued.map(({ text, from }) => ({ ...(text !== undefined ? { text } : {}), ...(from ? { from } : {}) }));
  }

  state(): ConversationState {
    const agent = this.runtime.agent;
    // Prompts and compactions only: a model switch or a clear in the queue is no turn (rpc.md's busy).
    const queue = this.work.queue;
    const queuedTurns = queue.queued.filter((work) => work.kind === "turn").length;
    return {
      provider: agent.model.provider,
      model: agent.model.id,
      cwd: agent.cwd,
      message_count: agent.messages.length,
      busy: queue.current?.kind === "turn" || queuedTurns > 0,
      queued: queuedTurns,
      usage: agent.cumulative,
      context: agent.contextUse(),
      session: this.runtime.session ?? null,
    };
  }

  /**
   * Someone is writing a prompt (the TUI's editor changed, not empty): the model's connection is
   * opened again while they write, if the pool may have closed it (Runtime.promptComing).
   */
  promptComing(): void {
    this.runtime.promptComing();
  }

  // ── input: units of work ───────────────────────────────────────────────────────────────────

  /**
   * Input as -p, --json, rpc's prompt and the SDK take it: an extension's `/command` (its answer a
   * command_result event; a `prompt` answer becomes this unit's turn), anything else a prompt.
   */
  submit(input: ConversationPrompt, options: PromptOptions = {}): Promise<UnitOutcome> {
    return this.work.unit("a prompt", input.text, options, async (signal) => {
      const named = parseSlash(input.text);
      // `/compact [focus]` sent as a prompt (-p -c, rpc, a Claude Agent SDK program) compacts, as
      // in the TUI and Claude Code, instead of reaching the model with the whole context.
      // Text piped with it (`echo "keep the API names" | zot -p -c /compact`) is what the summary should keep, as focus words are.
      if (named?.name.toLowerCase() === "compact" && !input.images?.length) {
        const instructions = [named.args, input.context?.trim()].filter(Boolean).join("\n\n");
        return unitOfCompaction(await this.runtime.agent.compact(signal, instructions ? { instructions } : {}));
      }
      // `/clear` as a prompt (a Claude Agent SDK program sends it, `zot -p -c /clear`) starts over as rpc's clear does.
      if (named?.name.toLowerCase() === "clear" && !named.args && !input.images?.length) {
        if (input.context?.trim()) {
          // What was piped would be lost without a word: said, and nothing is cleared.
          const message = "/clear takes no piped text, which would be lost; nothing was cleared (run it with </dev/null, then send the text as a prompt of its own)";
          this.stream.fire({ type: "command_result", command: "clear", extension: "zot", action: "error", text: message });
          return { status: "command_error", message };
        }
        await this.startOver();
        return { status: "ok" };
      }
      // The TUI's other commands (/model, /help …) mean nothing here; sent as a prompt they
      // would cost a model call with the whole context and do nothing they say.
      if (named && this.commands.isBuiltin(named.name)) {
        const message = `/${named.name} is a command of zot's interactive TUI and does nothing here, so it was not sent to the model; a script does the same with flags (zot --help) or rpc's run_command (get_commands lists them)`;
        // Said as a command's failure is (--json, rpc), as well as in the outcome (-p's stderr).
        this.stream.fire({ type: "command_result", command: named.name, extension: "zot", action: "error", text: message });
        return { status: "command_error", message };
      }
      const slash = named && (await this.awaitCommand(named.name, signal)) ? named : undefined;
      if (signal.aborted) return { status: "aborted" };
      if (!slash) {
        const prepared = (await options.prepare?.(input, signal)) ?? input;
        const mentions = input.mentions === false ? undefined : options.mentions;
        return this.promptNow(mentions ? await this.withMentions(prepared, signal, mentions === "typed") : prepared, signal);
      }
      return this.commandNow(slash, input, signal);
    });
  }

  /**
   * A command that runs when its turn comes (SlashCommands.runsInTurn: a Markdown command, a skill,
   * typed in the TUI or sent by rpc's run_command), as a unit of work: queued as a prompt is, listed
   * as `options.shown`, run when it starts (its `!` lines then, stopped by the unit's abort), its
   * prompt answer sent at once. `onResult` hears the command's answer before that prompt is sent
   * (an `error` with `aborted` when it was cancelled before it had one), never when it was dropped.
   */
  runCommand(slash: SlashInvocation, options: UnitOptions & { shown?: string; onResult?(result: CommandResult, aborted: boolean): void } = {}): Promise<UnitOutcome> {
    return this.work.unit("a prompt", options.shown ?? `/${slash.name}${slash.args ? ` ${slash.args}` : ""}`, options, (signal) => this.commandNow(slash, {}, signal, options.onResult));
  }

  /** Runs a command inside its unit: its answer a command_result event, a `prompt` answer the unit's turn; `input`: what came with it (-p's piped stdin). */
  private async commandNow(slash: SlashInvocation, input: Omit<PromptInput, "text" | "model">, signal: AbortSignal, onResult?: (result: CommandResult, aborted: boolean) => void): Promise<UnitOutcome> {
    const result = await this.commands.run(slash.name, slash.args, signal);
    // Stopped by the abort, it did not fail: said so on its event, and the unit ends aborted.
    const aborted = signal.aborted && result.action === "error";
    onResult?.(result, aborted);
    if (aborted) {
      this.stream.fire({ ...commandResultEvent(result), aborted: true });
      return { status: "aborted" };
    }
    this.stream.fire(commandResultEvent(result));
    if (result.action === "error") return { status: "command_error", message: commandErrorMessage(result) };
    const prompt = commandPrompt(result, input);
    return prompt ? this.promptNow(prompt, signal) : { status: "ok" };
  }

  /**
   * The prompt with the files and MCP resources it @mentions attached, each file held to what the
   * read tool may read (`typed`: a person wrote it; runtime.attachable); each that could not be is said.
   */
  private async withMentions(input: ConversationPrompt, signal: AbortSignal, typed: boolean): Promise<ConversationPrompt> {
    // Loaded only for a prompt that has an @: a one-shot without one does without it (scripts/bench floor).
    if (!input.text.includes("@")) return input;
    const { ATTACH_MAX_BYTES, attachMentions } = await import("./file-mentions.ts");
    const sent = await attachMentions(
      input.text,
      this.cwd,
      (server, uri) => this.mcpResourceText(server, uri, signal, ATTACH_MAX_BYTES),
      (path) => this.runtime.attachable(path, typed),
    );
    const memory = this.attachedMemory(sent.seen);
    for (const why of [...sent.skipped, ...memory.notes]) this.stream.fire({ type: "ext_notify", extension: "zot", level: "warn", message: why });
    this.sawAttached(sent.seen);
    return { ...input, text: sent.text, ...(memory.blocks.length > 0 ? { memory: [...(input.memory ?? []), ...memory.blocks] } : {}) };
  }

  /** A prompt for the model, never a command (the TUI's typed prompt, an extension's `submit`, a command's prompt answer). */
  prompt(input: ConversationPrompt, options: PromptOptions = {}): Promise<UnitOutcome> {
    return this.work.unit("a prompt", options.shown ?? input.text, options, async (signal) => {
      return this.promptNow((await options.prepare?.(input, signal)) ?? input, signal);
    });
  }

  /** The agent's prompt, on the model it asks for when it can have it (prompt-model.ts). */
  private async promptNow(input: ConversationPrompt, signal: AbortSignal): Promise<PromptOutcome> {
    const { model: wanted, allow, mentions: _typed, ...prompt } = input;
    const note = (extension: string, message: string) => this.stream.fire({ type: "ext_notify", extension, level: "warn", message });
    const model = wanted ? await resolvePromptModel(this.runtime, this.models, wanted, `${prompt.context ?? ""}${prompt.text}`, note) : undefined;
    // A command's allowed tools hold for its prompt only.
    const release = allow ? await this.runtime.allowWhilePrompting(allow.rules, allow.source, (message) => note("commands", message)) : undefined;
    try {
      return await this.runtime.agent.prompt(model ? { ...prompt, model } : prompt, signal);
    } finally {
      release?.();
    }
  }

  /** A manual compaction (instructions guide the summary): compact_start … compact_done or error, then done. */
  compact(instructions?: string, options: UnitOptions = {}): Promise<UnitOutcome> {
    const wanted = instructions?.trim();
    return this.work.unit(COMPACTION_UNIT, undefined, options, async (signal) =>
      unitOfCompaction(await this.runtime.agent.compact(signal, wanted ? { instructions: wanted } : {})),
    );
  }

  /**
   * The user's own shell command (the TUI's `!command`), queued behind what runs and run in the
   * working directory as the bash tool runs one (no interceptor sees it, the jail does not apply);
   * unless cancelled, `context(output)` joins the transcript for the next prompt.
   */
  async shell(command: string, context: (output: string) => string): Promise<{ status: "added"; text: string } | { status: "cancelled" | "dropped" }> {
    const label = `running ${command.split("\n")[0]}`;
    const outcome = await this.work.task(label, `!${command}`, async (signal) => {
      const result = await this.runtime.shell(command, signal);
      if (result.aborted) return { status: "cancelled" as const };
      const text = context(result.text);
      this.runtime.agent.addContext(text);
      return { status: "added" as const, text };
    });
    return outcome ?? { status: "dropped" };
  }

  /** Aborts what runs (its events end with turn_end aborted, then done); the queued units still run. */
  abort(reason = "aborted"): void {
    this.work.queue.abort(reason);
  }

  /** Drops the queued units (told: dropped); what runs goes on (the TUI's Ctrl+C). */
  dropQueued(): void {
    this.work.queue.clear();
  }

  /** Drops the queued units and aborts what runs (the TUI's Esc); resolves once nothing runs. */
  cancel(reason = "cancelled by the user"): Promise<void> {
    this.work.queue.clear();
    this.work.queue.abort(reason);
    return this.work.queue.idle();
  }

  /** Resolves once nothing runs and nothing waits. */
  idle(): Promise<void> {
    return this.work.queue.idle();
  }

  // ── operations refused while busy ──────────────────────────────────────────────────────────

  /** Throws ZotBusyError, saying what runs and what to do, unless nothing runs or waits. */
  refuseWhileBusy(what: string): void {
    this.work.refuseWhileBusy(what);
  }

  /**
   * Empties the transcript; usage and cost so far stay. While a session is recorded, what follows
   * goes into a new one and the conversation so far stays resumable in its own, as the TUI's /clear
   * and Claude Code's do. Refused while a prompt or compaction runs or waits; behind a model or
   * session switch it waits its turn. Idle, it is done before this returns.
   */
  clear(): Promise<void> {
    // A session switch takes time: queued, so a prompt sent right after goes into the new session.
    if (this.runtime.session) return this.work.exclusive("clear", "a clear", () => this.startOver());
    return this.work.inOrder("clear", "a clear", () => this.runtime.agent.clear());
  }

  /** A new session when one is recorded (settings hooks hear SessionEnd and SessionStart "clear"), else the transcript emptied. */
  private async startOver(): Promise<void> {
    // Its file made at once: the next -c (a script's `zot -p -c /clear`, then `zot -p -c …`) goes on from the empty conversation.
    if (this.runtime.session) await this.runtime.switchSession({ kind: "new" }, false, true);
    else await this.runtime.agent.clear();
  }

  /**
   * Switches to another model of this provider (an id, an alias, a snapshot, or one of models.own()),
   * as queued work so a prompt sent right after runs on the new model. Rejects with ZotBusyError, or
   * an UnknownModelError saying why no such model is usable.
   */
  setModel(wanted: string | ModelInfo): Promise<ModelInfo> {
    try {
      this.work.refuseWhileTurns("switch the model");
    } catch (error) {
      return Promise.reject(error);
    }
    const found = typeof wanted === "string" ? this.models.find(wanted) : { model: wanted };
    if ("error" in found) return Promise.reject(new UnknownModelError(found.error));
    return this.work.exclusive("switch the model", "a model switch", () => this.runtime.setModel(found.model)).then(() => found.model);
  }

  /** The reasoning effort of the prompts that follow (undefined: none asked for); busy and in order like clear. */
  setReasoning(level: ReasoningLevel | undefined): Promise<void> {
    return this.work.inOrder("change the reasoning level", "a reasoning change", () => this.runtime.agent.setReasoning(level));
  }

  /** Extensions were looked for in this run (not --no-ext without --ext), whether or not any were there. */
  get hasExtensions(): boolean {
    return this.runtime.extensions !== undefined || this.runtime.startExtensions !== undefined;
  }

  /** Every extension and hook of this run, with its state. */
  extensions(): ExtensionInfo[] {
    return this.runtime.extensions?.list() ?? [];
  }

  /** The extensions still starting: the TUI and rpc went on without them, and each joins (its commands too) when up. */
  startingExtensions(): string[] {
    return this.runtime.extensions?.starting() ?? [];
  }

  /**
   * Whether some source provides /name, waiting for the extensions still starting when none does
   * yet (a command typed or sent right after zot started, before a slow extension joined).
   */
  async awaitCommand(name: string, signal?: AbortSignal): Promise<boolean> {
    // A command sent right behind a reload runs on the new processes, not the stopping ones.
    if (this.reloading) await this.reloading;
    if (this.commands.has(name)) return true;
    if (this.startingExtensions().length === 0) return false;
    // An abort ends the wait at once (the unit then ends aborted), not when the extension gives up.
    await (signal ? untilAborted(this.extensionsStarted(), signal) : this.extensionsStarted());
    return !signal?.aborted && this.commands.has(name);
  }

  /** Resolves once no extension is still starting: each joined or gave up. */
  extensionsStarted(): Promise<void> {
    return this.runtime.extensions?.lateStartsSettled() ?? Promise.resolve();
  }

  /**
   * `server`'s resource `uri` as text to attach to a prompt (`@server:uri`), or why it cannot be;
   * undefined when no MCP server of that name has resources.
   */
  mcpResourceText(server: string, uri: string, signal: AbortSignal, maxBytes: number): Promise<{ text: string } | { why: string }> | undefined {
    return this.runtime.mcp?.resourceText(server, uri, signal, maxBytes);
  }

  /** The files a prompt attached are files the model has seen, as if it had read them (write and edit judge by it). */
  sawAttached(views: ReadonlyMap<string, FileView>): void {
    for (const [file, view] of views) this.runtime.agent.views.set(file, view);
  }

  /**
   * The memory files of the subfolders the attached files are in that the model does not have yet
   * (packages/api/CLAUDE.md for @packages/api/src/a.ts): blocks to send with the prompt, and what was left out.
   */
  attachedMemory(attached: ReadonlyMap<string, FileView>): { blocks: string[]; notes: string[] } {
    if (attached.size === 0) return { blocks: [], notes: [] };
    const { blocks, notes } = this.runtime.memoryFor([...attached.keys()]);
    return { blocks, notes };
  }

  /** Why a file a person @mentioned may not be attached (the jail, a Read rule), or undefined when it may. */
  mayAttach(path: string): Promise<string | undefined> {
    return this.runtime.attachable(path, true);
  }

  /** The MCP resources a prompt can mention now (`server:uri`, with the resource's name): the TUI's @ picker lists them. */
  mcpResourceMentions(): { mention: string; name: string }[] {
    return this.runtime.mcp?.resourceMentions() ?? [];
  }

  /** The MCP servers of this run as they are now, and whether their tools wait behind tool_search; undefined when none is configured. */
  mcpServers(): { servers: McpServerInfo[]; deferring: boolean } | undefined {
    const mcp = this.runtime.mcp;
    return mcp && { servers: mcp.list(), deferring: mcp.deferring };
  }

  /** The MCP servers configured but not started in this run (turned off in Claude Code, an untrusted folder's, broken), and why. */
  mcpServersOff(): McpServerOff[] {
    return this.runtime.mcpOff;
  }

  /** Starts MCP servers again now: the one named, or every one that is not up (McpManager.reconnect). */
  reconnectMcp(name?: string): Promise<McpServerInfo[] | { error: string }> {
    const mcp = this.runtime.mcp;
    return mcp ? mcp.reconnect(name) : Promise.resolve({ error: "no MCP servers in this run" });
  }

  /**
   * Stops every extension, reads the manifests again and starts them (in a run that had none to
   * start, starts those there now; with --no-ext, none), then reads the Markdown commands and the
   * skills again (their warnings join the report's). `exclusive` (rpc): refused while busy and run
   * as queued work, so no turn starts while they come and go; otherwise at once, a running turn
   * untouched (the TUI).
   */
  reloadExtensions(options: { exclusive?: boolean } = {}): Promise<ReloadReport> {
    const restart = async (): Promise<ReloadReport> => {
      if (!this.hasExtensions) return { stopped: 0, started: 0, ready: 0, warnings: [] };
      return this.runtime.extensions?.reload() ?? this.runtime.startExtensions!((extensions) => this.connectLate(extensions));
    };
    // After the extensions, whose skills join the folders'.
    const reload = async (): Promise<ReloadReport> => {
      const report = await restart();
      return { ...report, warnings: [...report.warnings, ...(await this.runtime.rereadCommands())] };
    };
    const reloading = options.exclusive ? this.work.exclusive("reload the extensions", "an extension reload", reload) : reload();
    // A command sent meanwhile waits for it (awaitCommand), and runs on the new processes.
    const settled = reloading.then(
      () => undefined,
      () => undefined,
    );
    this.reloading = settled;
    void settled.then(() => {
      if (this.reloading === settled) this.reloading = undefined;
    });
    return reloading;
  }

  /** The reload of the extensions under way, settled (either way) once it is over. */
  private reloading: Promise<void> | undefined;

  /** Extensions a reload starts in a run that had none: their notes, panels and input go where those of the start's would. */
  private connectLate(extensions: ExtensionManager): void {
    if (this.connected) connectExtensionOutlets(extensions, (event) => this.stream.fire(event));
    if (this.input) extensions.onInput(this.input);
  }

  /**
   * An extension's command run now (rpc's run_command: a display answers at once, even while a turn
   * runs) whose place in the queue is held from now, so a prompt sent after it runs after the turn
   * its `prompt` answer starts. `onTurn` is told the answer just before that turn; `onDropped`, when
   * its turn never came (aborted, or the queue cleared, while it waited for the extension).
   */
  async commandTurn(
    running: Promise<CommandResult | undefined>,
    on: { onTurn(result: CommandResult): void; onDropped(result: CommandResult): void },
  ): Promise<UnitOutcome | undefined> {
    let turned = false;
    const decision = running.then((result) => {
      const prompt = result && commandPrompt(result);
      if (!prompt) return undefined;
      return (signal: AbortSignal) => {
        turned = true;
        on.onTurn(result);
        return this.promptNow(prompt, signal);
      };
    });
    const outcome = await this.work.heldUnit("a prompt", {}, decision);
    const result = await running.catch(() => undefined);
    if (!turned && result && commandPrompt(result)) on.onDropped(result);
    return outcome;
  }

  /**
   * A side question about the conversation (the TUI's /btw), answered with the whole transcript as
   * context and no tools, while a turn may run; nothing joins the transcript.
   */
  ask(question: string, signal: AbortSignal, options: { history?: readonly SideExchange[] } = {}): AsyncIterable<SideEvent> {
    // Work beside the queue: the work policy does not see it.
    this.runtime.workArrived();
    return this.runtime.agent.ask(question, signal, options);
  }

  // ── the end ────────────────────────────────────────────────────────────────────────────────

  /** Takes no more work: drops what waits and aborts what runs. */
  stop(reason: string): void {
    this.work.queue.close();
    this.work.queue.abort(reason);
  }

  /** Stops every extension (each gets its shutdown frame and grace); call it once, when the run is over. */
  dispose(): Promise<void> {
    return this.runtime.dispose();
  }

  /** stop, wait for what ran to end, dispose. */
  async close(reason = "closing"): Promise<void> {
    this.stop(reason);
    await this.work.queue.idle();
    await this.dispose();
  }
}

function unitOfCompaction(outcome: CompactOutcome): UnitOutcome {
  return outcome.status === "ok" ? { status: "ok" } : outcome;
}
