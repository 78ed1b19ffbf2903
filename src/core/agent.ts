// The agent: one transcript, one interception chain, and the work done on them (a prompt's turns,
// a compaction, a side question), reported as the event union. Rule: closed: its state is private,
// read through getters and changed only through intent methods (switch the model, replace the
// transcript, swap tools, set the jail), and every event comes from inside core/, so each unit of
// work it runs (a prompt, a compaction) ends with exactly one `done`, from here. It knows providers
// and tools only through their interfaces.
import { noFTL } from "bun:jsc";
import type { AgentEvent, EventOf } from "../protocol/events.ts";
import { isStreamDelta } from "../protocol/stream-delta.ts";
import { errorText } from "../protocol/error-text.ts";
import { type Message, nowIso } from "../protocol/messages.ts";
import type { ModelInfo, ReasoningLevel } from "../protocol/models.ts";
import type { Provider } from "../protocol/provider.ts";
import type { FileViews, ProtectedPath, Tool, ToolOrigin } from "../protocol/tool.ts";
import { emptyUsage, type Usage } from "../protocol/usage.ts";
import { type AgentOutlets, type AgentState, contextUse, failureOf, offeredTools, recordUsage, recountContext, setTranscript } from "./agent-state.ts";
import { Backpressure, type Pressure } from "./backpressure.ts";
import { compactNow } from "./compaction-run.ts";
import { ContextCount } from "./context-count.ts";
import { estimateTokens } from "./compact.ts";
import { InterceptChain } from "./intercept.ts";
import { type Listener, Listeners } from "./listeners.ts";
import type { CompactOutcome, Compacted, ContextUse, FinishedResult, PromptInput, PromptOutcome, ToolRun } from "./outcomes.ts";
import type { PromptHooks } from "./prompt-hooks.ts";
import { type SideEvent, type SideExchange, sideRequest, streamSideAnswer } from "./side-question.ts";
import { withOutputRoom } from "./output-room.ts";
import { type Preparer, runPrompt } from "./prompt-run.ts";
import { runToolCall } from "./tool-run.ts";
import { ABORT_GRACE_MS } from "./tool-wait.ts";
import type { ToolStep } from "./tool-step.ts";

export type { CompactOutcome, Compacted, ContextUse, FinishedResult, PromptInput, PromptOutcome, PromptTool, ToolRun, TurnFailure } from "./outcomes.ts";

export interface AgentOptions {
  provider: Provider;
  model: ModelInfo;
  tools: Tool[];
  system: string;
  cwd: string;
  reasoning?: ReasoningLevel;
  /** 0 = unlimited */
  maxSteps?: number;
  /** diagnostics of the interception chain (ignored decisions, timeouts) */
  log?: (message: string) => void;
  messages?: Message[];
  cumulative?: Usage;
  /** compact automatically when the context use reaches this fraction of the model's window; 0 = never (default 0.85) */
  autoCompact?: number;
  /** start jailed: tools confined to cwd (`--jail`) */
  jailed?: boolean;
  /** what the built-in tools must not write (the trust store; while jailed, executable configuration) */
  protectedPaths?: readonly ProtectedPath[];
  /** the environment of the processes the tools start (ToolContext.env); default: zot's own */
  env?: Readonly<Record<string, string | undefined>>;
}

export class Agent {
  private readonly state: AgentState;
  private readonly out: AgentOutlets;
  /** every subscriber to events, in the order they subscribed */
  private readonly events = new Listeners<AgentEvent>();
  /** those of them that also take the stream's deltas */
  private readonly deltaEvents = new Listeners<AgentEvent>();
  private readonly appended = new Listeners<Message>();
  private readonly compactions = new Listeners<Compacted>();
  private readonly toolSteps = new Listeners<ToolStep>();
  private readonly results = new Listeners<FinishedResult>();
  private readonly models = new Listeners<ModelInfo>();
  private readonly pressure = new Backpressure();
  /** the run's own system prompt (or the one before_agent_start set), before any owner's section */
  private baseSystem: string;
  /** the system prompt zot assembled, which before_agent_start rewrites start from */
  private assembled: string;
  private readonly reassembled = new Listeners<string>();
  /** awaited before each prompt's first model call (extensions' before_agent_start) */
  private readonly preparers = new Set<Preparer>();
  private readonly clears = new Listeners<void>();
  private unitCount = 0;
  private readonly systemSections = new Map<string, string>();
  /** call_tool runs in flight (an extension's tool calling others), with the signal that stops each */
  private readonly nestedRuns = new Set<{ settled: Promise<unknown>; signal: AbortSignal }>();

  constructor(options: AgentOptions) {
    // A delta reaches only who takes deltas: a long answer is tens of thousands of them.
    const emit = (event: AgentEvent) => (isStreamDelta(event) ? this.deltaEvents : this.events).fire(event);
    // Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
    noFTL(emit);
    this.baseSystem = options.system;
    this.assembled = options.system;
    this.state = {
      provider: options.provider,
      model: options.model,
      tools: options.tools,
      system: options.system,
      cwd: options.cwd,
      reasoning: options.reasoning,
      maxSteps: options.maxSteps ?? 0,
      autoCompact: options.autoCompact ?? 0.85,
      jailed: options.jailed ?? false,
      messages: options.messages ?? [],
      cumulative: options.cumulative ?? emptyUsage(),
      context: new ContextCount(),
      views: new Map(),
      protectedPaths: options.protectedPaths ?? [],
      env: options.env,
      // The agent owns its chain so every decision that changed something is one of its events.
      chain: new InterceptChain({ emit, log: options.log }),
    };
    recountContext(this.state);
    this.out = {
      emit,
      append: (message) => {
        this.state.messages.push(message);
        this.state.context.appended(message);
        this.appended.fire(message);
      },
      toolStep: (step) => this.toolSteps.fire(step),
      toolResult: (finished) => this.results.fire(finished),
      compacted: (compacted) => this.compactions.fire(compacted),
      backpressure: (signal) => this.pressure.wait(signal),
    };
  }

  // ── what it is ──────────────────────────────────────────────────────────────────────────────

  /** The agent's own model (while a prompt runs on another, still this one: see prompt()). */
  get model(): ModelInfo {
    return (this.state.lentFrom ?? this.state).model;
  }

  /** The client of the agent's own model (not a lent one's): the one a warm-up warms. */
  get provider(): Provider {
    return (this.state.lentFrom ?? this.state).provider;
  }

  /** The model answering now: a model lent to the running prompt (a command's `model:`), else the agent's own. */
  get answeringModel(): ModelInfo {
    return this.state.model;
  }

  get cwd(): string {
    return this.state.cwd;
  }

  get system(): string {
    return this.state.system;
  }

  /** the run's own prompt: the system prompt without the sections others added (setSystemSection) */
  get ownSystemPrompt(): string {
    return this.baseSystem;
  }

  /** the prompt zot assembled: the run's own before any rewrite (extensions' before_agent_start start from it) */
  get assembledPrompt(): string {
    return this.assembled;
  }

  /** the tools the model is offered (built-ins, skills, extensions') */
  get tools(): readonly Tool[] {
    return this.state.tools;
  }

  /** the tools the model is offered now: not a deferred one until it is activated, never a withheld one */
  get offeredTools(): readonly Tool[] {
    return offeredTools(this.state);
  }

  get reasoning(): ReasoningLevel | undefined {
    return this.state.reasoning;
  }

  /** the transcript, as it is now (a hard_abort or a compaction may change it) */
  get messages(): readonly Message[] {
    return this.state.messages;
  }

  /** usage and cost of every call so far (a resumed session's included) */
  get cumulative(): Usage {
    return this.state.cumulative;
  }

  /** the built-in tools refuse paths outside cwd and bash is confined (`--jail`, /jail); takes effect at the next tool call */
  get jailed(): boolean {
    return this.state.jailed;
  }

  /** what the model last saw of each file; forgotten with the transcript */
  get views(): FileViews {
    return this.state.views;
  }

  get protectedPaths(): readonly ProtectedPath[] {
    return this.state.protectedPaths;
  }

  /** the interception chain: participants are added to and removed from it */
  get chain(): InterceptChain {
    return this.state.chain;
  }

  /** The context against the agent's own model's window (a lent model's is the prompt's business). */
  contextUse(): ContextUse {
    return contextUse(this.state, this.model);
  }

  // ── intents ─────────────────────────────────────────────────────────────────────────────────

  /**
   * Switches the model; `provider` replaces the client too (a model of another wire API or base
   * URL). The caller checks the model belongs to this run's provider.
   */
  switchModel(model: ModelInfo, provider?: Provider): void {
    // While a prompt runs on another model, the switch is the agent's own, for after that prompt.
    const own = this.state.lentFrom ?? this.state;
    if (provider) own.provider = provider;
    own.model = model;
    this.models.fire(model);
  }

  /** The reasoning effort of the calls that follow (undefined: none asked for). */
  setReasoning(level: ReasoningLevel | undefined): void {
    this.state.reasoning = level;
  }

  /**
   * Puts another transcript in place (a resumed session, a fork), with its usage so far when given:
   * what is in the context is estimated from it until the next call reports the real count.
   */
  replaceTranscript(messages: Message[], cumulative?: Usage): void {
    setTranscript(this.state, messages);
    if (cumulative) this.state.cumulative = cumulative;
  }

  /** Empties the transcript (the /clear command), a new conversation in the same run; the cumulative usage and cost stay. */
  clear(): void {
    this.replaceTranscript([]);
    this.clears.fire();
  }

  /** Replaces `previous` tools with `next` (an extension reload), keeping every other tool where it was. */
  swapTools(previous: readonly Tool[], next: readonly Tool[]): void {
    const old = new Set(previous);
    this.state.tools = [...this.state.tools.filter((tool) => !old.has(tool)), ...next];
  }

  /**
   * Keeps the tools `withheld` says from the model from the next model call on (a permission rule
   * that denies every call of a tool); asked once per listing of the tools, it answers with the
   * test for each tool, or undefined for none. They stay in `tools`, and a call of one by name
   * still reaches the chain, which refuses it.
   */
  withholdTools(withheld: () => ((tool: Tool) => boolean) | undefined): void {
    this.state.withheld = withheld;
  }

  /** Jails or frees the tools from the next tool call on, in a running turn too. */
  setJail(jailed: boolean): void {
    this.state.jailed = jailed;
  }

  /**
   * Adds, replaces or (with "") removes `owner`'s section of the system prompt, after the run's own
   * prompt and the other owners' sections (SessionStart hooks' context). Takes effect at the next model call.
   */
  setSystemSection(owner: string, text: string): void {
    if (text) this.systemSections.set(owner, text);
    else this.systemSections.delete(owner);
    this.composeSystem();
  }

  /**
   * Replaces the run's own prompt from the next model call on (extensions' before_agent_start
   * rewrite it); the sections others added (setSystemSection) stay after it.
   */
  setSystemPrompt(text: string): void {
    this.baseSystem = text;
    this.composeSystem();
  }

  /**
   * Replaces the prompt zot assembled (the skills' list a reload read, at a new conversation or a
   * compaction): the run's own prompt becomes it, unless a rewrite (before_agent_start) replaced
   * that, whose makers hear it (onReassembled) and rewrite the new one.
   */
  setAssembledPrompt(text: string): void {
    if (text === this.assembled) return;
    const rewritten = this.baseSystem !== this.assembled;
    this.assembled = text;
    if (!rewritten) this.setSystemPrompt(text);
    this.reassembled.fire(text);
  }

  /** Subscribes to setAssembledPrompt; returns the unsubscribe function. */
  onReassembled(listener: (text: string) => void): () => void {
    return this.reassembled.add(listener);
  }

  private composeSystem(): void {
    this.state.system = [this.baseSystem, ...this.systemSections.values()].join("");
  }

  /**
   * A decision made outside the chain that changed something (an extension's before_agent_start
   * rewrite of the system prompt), reported as the chain reports its own: an intercept event.
   */
  reportDecision(decision: EventOf<"intercept">): void {
    this.out.emit(decision);
  }

  /**
   * Adds work awaited at the start of every prompt, before its first model call (the extensions'
   * before_agent_start pass); it must not throw. Returns the unsubscribe function.
   */
  onBeforePrompt(preparer: Preparer): () => void {
    this.preparers.add(preparer);
    return () => this.preparers.delete(preparer);
  }

  /** Subscribes to clear() (a new conversation in the same run); returns the unsubscribe function. */
  onClear(listener: () => void): () => void {
    return this.clears.add(listener);
  }

  /**
   * Runs a tool call an extension asked for (call_tool) exactly as the model's calls run: the
   * tool_call stage, the approvers (the confirmation gate), the tool, after_tool; its events carry
   * origin_extension. Nothing goes into the transcript. Never throws for a failure the caller should see.
   */
  runToolCall(call: { id: string; name: string; args: Record<string, unknown> }, options: { origin: ToolOrigin; signal: AbortSignal }): Promise<ToolRun> {
    const running = runToolCall(this.state, this.out, call, options);
    const entry = { settled: running.catch(() => {}), signal: options.signal };
    this.nestedRuns.add(entry);
    void entry.settled.then(() => this.nestedRuns.delete(entry));
    return running;
  }

  /**
   * The call_tool runs an abort stopped (their tool was cancelled with the turn) end before the
   * turn's `done`, so their tool_result is the turn's, not the next prompt's: each has the grace an
   * aborted tool has (tool-wait.ts), and a little more. A run not stopped (an extension's own call
   * outside the turn) goes on.
   */
  private async nestedStopped(): Promise<void> {
    const stopped = [...this.nestedRuns].filter((run) => run.signal.aborted).map((run) => run.settled);
    if (stopped.length > 0) await Promise.race([Promise.all(stopped), Bun.sleep(ABORT_GRACE_MS + 250)]);
  }

  /** Who answers at a prompt's points outside the chain (settings hooks: UserPromptSubmit, Stop, PreCompact); undefined: no one. */
  setPromptHooks(hooks: PromptHooks | undefined): void {
    this.state.promptHooks = hooks;
  }

  /**
   * Adds a user message without a turn (the TUI's `!command` output): the model reads it with the
   * next prompt, and the session records it. Emits no event, since no turn starts (observers of
   * turns would see a start without an end). Call it while no prompt runs.
   */
  addContext(text: string): void {
    this.out.append({ role: "user", content: [{ type: "text", text }], time: nowIso() });
  }

  // ── work ────────────────────────────────────────────────────────────────────────────────────

  /** Runs a prompt to its end: user_message, its turns, an `error` if it failed, then `done`. Never rejects. */
  async prompt(input: PromptInput, signal: AbortSignal): Promise<PromptOutcome> {
    const { model, ...prompt } = input;
    // A model for this prompt only (lent-model.ts): the state's, for its turns; the agent's own
    // waits in the state (and is what `model` says) until they are over or hand it back.
    if (model) {
      this.state.lentFrom = { model: this.state.model, provider: this.state.provider, handedBack: model.handedBack };
      this.state.model = model.info;
      if (model.provider) this.state.provider = model.provider;
    }
    let outcome: PromptOutcome;
    try {
      outcome = await runPrompt(this.state, this.out, prompt, signal, this.preparers);
    } finally {
      const lent = this.state.lentFrom;
      if (lent) {
        this.state.model = lent.model;
        this.state.provider = lent.provider;
        this.state.lentFrom = undefined;
      }
    }
    await this.nestedStopped();
    this.done();
    return outcome;
  }

  /**
   * Whether the transcript, as estimated now, and `promptText` fit `model` below the point where it
   * would be compacted (its whole window when auto-compaction is off): a prompt may start on it.
   */
  fitsIn(model: ModelInfo, promptText = ""): boolean {
    // The prompt's own text counts too (a command's expanded @files and `!` output), estimated as the transcript is.
    const window = model.context_window;
    const own = this.state.lentFrom ?? this.state;
    const tokens = this.state.context.tokens(own.model) + Math.ceil(estimateTokens(promptText.length) * this.state.context.scale(own.model));
    const fraction = window > 0 ? tokens / window : 1;
    return fraction < (this.state.autoCompact > 0 ? this.state.autoCompact : 1);
  }

  /** How many units of work (prompts, compactions) this agent has ended, each with its one `done`. */
  get unitsDone(): number {
    return this.unitCount;
  }

  private done(): void {
    this.unitCount += 1;
    this.out.emit({ type: "done" });
  }

  /**
   * Manual compaction (rpc `compact`, the TUI's /compact): summarises the older part of the
   * transcript with the model into one message and keeps the recent turns verbatim. Emits
   * compact_start, usage (the summarising call), compact_done or error, then done. Never rejects.
   */
  async compact(signal: AbortSignal, options: { instructions?: string } = {}): Promise<CompactOutcome> {
    let outcome: CompactOutcome;
    try {
      outcome = await compactNow(this.state, this.out, signal, "manual", options.instructions);
    } catch (error) {
      outcome = { status: "error", message: errorText(error), code: "internal" };
      this.out.emit({ type: "error", message: outcome.message, code: outcome.code });
    }
    // Ends like a prompt, whatever the outcome: an abort is compact_start, (usage,) done, with no
    // error event, as an aborted prompt has none.
    this.done();
    return outcome;
  }

  /**
   * A side question (the TUI's /btw): answered by the model with the whole transcript as context
   * and no tools; nothing is added to the transcript. The answer streams as side_delta events and
   * ends with side_done, side_error or side_aborted; the call's usage counts (a `usage` event).
   * `history`: earlier side questions and answers, for a side chat that goes on.
   */
  ask(question: string, signal: AbortSignal, options: { history?: readonly SideExchange[] } = {}): AsyncIterable<SideEvent> {
    const { state } = this;
    // Asked of the agent's own model, even while a prompt runs on a lent one.
    const own = state.lentFrom ?? state;
    // The request is built now: the question is about the conversation as it is when asked.
    const asked = sideRequest({ model: own.model, system: state.system, messages: state.messages, question, history: options.history });
    const request = withOutputRoom(asked, state.context.scale(own.model));
    return streamSideAnswer(own.provider, request, signal, {
      record: (usage) => recordUsage(state, this.out, usage, request.model),
      failureText: (error) => failureOf(state, error).message,
    });
  }

  // ── what it tells ───────────────────────────────────────────────────────────────────────────

  /**
   * Subscribes to every event; returns the unsubscribe function. `deltas: false` leaves out the
   * stream's deltas (text_delta, thinking_delta, tool_use_args), for a listener that keeps records
   * or tells others about milestones and has nothing to do with an answer's pieces.
   */
  onEvent(listener: Listener<AgentEvent>, options: { deltas?: boolean } = {}): () => void {
    const off = this.events.add(listener);
    if (options.deltas === false) return off;
    const offDeltas = this.deltaEvents.add(listener);
    return () => {
      off();
      offDeltas();
    };
  }

  /** Subscribes to every message appended to the transcript (full content, images included). */
  onMessage(listener: Listener<Message>): () => void {
    return this.appended.add(listener);
  }

  /** Subscribes to each successful compaction. */
  onCompacted(listener: Listener<Compacted>): () => void {
    return this.compactions.add(listener);
  }

  /** Subscribes to each tool call's approval and outcome. */
  onToolStep(listener: Listener<ToolStep>): () => void {
    return this.toolSteps.add(listener);
  }

  /**
   * Subscribes to each tool result as it is known, before the step's other calls end (the tool
   * message holding them all is appended after the last).
   */
  onToolResult(listener: Listener<FinishedResult>): () => void {
    return this.results.add(listener);
  }

  /** Subscribes to model switches (the session records them as they happen). */
  onModelChange(listener: Listener<ModelInfo>): () => void {
    return this.models.add(listener);
  }

  /**
   * A consumer of the events that cannot keep up (rpc's stdout not drained) holds the producers
   * back: `pressure` returns a promise to wait for, or undefined to go on, and while it waits the
   * model stream is not read and a tool's output is not taken. Returns what removes it.
   */
  holdBack(pressure: Pressure): () => void {
    return this.pressure.add(pressure);
  }
}

// Runs once per streamed event, in emit: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(isStreamDelta);
