// The in-process SDK for Bun programs: `import { createZot } from "zot/sdk"` gives an agent in
// this process, with the same parts as the command line (providers, tools, skills, extensions).
// Rule: one prompt or compaction at a time; starting a second throws ZotBusyError at once (no
// queue: the program that wants one waits for the first's end). Shapes are those of `zot rpc`, so
// code that reads one reads the other.
//
//   const zot = await createZot({ provider: "anthropic", cwd: "/my/project" });
//   for await (const event of zot.prompt("what does this repo do?")) {
//     if (event.type === "text_delta") process.stdout.write(event.delta);
//   }
//   await zot.close();
import { panelEventSink } from "../extensions/panel-events.ts";
import type { Agent } from "../core/agent.ts";
import type { AgentEvent } from "../protocol/events.ts";
import { promptOrCommand } from "../extensions/slash-command.ts";
import { errorText } from "../protocol/error-text.ts";
import { toWireMessage } from "../protocol/messages.ts";
import type { ImageInput, RpcDataOf } from "../protocol/rpc-frames.ts";
import { loadCatalog, resolveModel } from "../providers/catalog.ts";
import { createRuntime, type Runtime, type RuntimeOptions } from "../runtime.ts";
import { EventQueue } from "./event-queue.ts";
import { type TurnResult, turnResult } from "./turn-result.ts";

export type { AgentEvent } from "../protocol/events.ts";
export type { TurnOutcome, TurnResult } from "./turn-result.ts";
export type ZotState = RpcDataOf<"get_state">;
export type WireMessage = RpcDataOf<"get_messages">["messages"][number];
export type ModelEntry = RpcDataOf<"get_models">["models"][number];

export interface ZotOptions extends Omit<RuntimeOptions, "extensions" | "withSkills" | "noSkill"> {
  /**
   * Off unless asked for: `true` discovers them as `zot` does (project, then $ZOT_HOME);
   * `{ paths }` loads those (and discovers too with `discover: true`).
   */
  extensions?: boolean | { paths?: string[]; discover?: boolean };
  /** "builtin" (default: the skills inside zot), "all" (also skill folders, as --with-skills), "none" */
  skills?: "builtin" | "all" | "none";
}

/** A prompt or compaction was started while another one ran, or the model changed mid-turn. */
export class ZotBusyError extends Error {
  override readonly name = "ZotBusyError";
}

/** The events of one prompt or compaction, up to and including `done`, and what it came to. */
export interface ZotRun extends AsyncIterable<AgentEvent> {
  /** resolves after `done`, whether or not the events are read; never rejects (a failure is an error event) */
  result: Promise<TurnResult>;
}

export async function createZot(options: ZotOptions = {}): Promise<Zot> {
  const { extensions, skills = "builtin", ...rest } = options;
  const runtime = await createRuntime({
    ...rest,
    extensions: extensionOptions(extensions),
    withSkills: skills === "all",
    noSkill: skills === "none",
  });
  return new Zot(runtime);
}

function extensionOptions(wanted: ZotOptions["extensions"]): RuntimeOptions["extensions"] {
  if (wanted === undefined || wanted === false) return { explicit: [], noDiscovery: true };
  if (wanted === true) return { explicit: [], noDiscovery: false };
  return { explicit: wanted.paths ?? [], noDiscovery: !wanted.discover };
}

interface Running {
  controller: AbortController;
  result?: Promise<TurnResult>;
}

export class Zot {
  private running: Running | undefined;
  private closed = false;
  private notesWired = false;
  private readonly agent: Agent;

  constructor(private readonly runtime: Runtime) {
    this.agent = runtime.agent;
  }

  /** One-line notes from starting up (a fallback taken, a config file ignored, an extension that failed). */
  get notes(): readonly string[] {
    return this.runtime.notes;
  }

  /**
   * Starts a prompt now and returns its events: every event from user_message to `done`, then
   * the stream ends. Throws ZotBusyError (synchronously) while another prompt or compaction runs.
   * Events are kept until read; each run has one reader. As in `zot -p`, text that starts with
   * an extension's command (`/weather berlin`) runs the command (a command_result event).
   */
  prompt(text: string, options: { images?: ImageInput[] } = {}): ZotRun {
    return this.start((signal) => promptOrCommand(this.agent, this.runtime.extensions, { text, images: options.images }, signal));
  }

  /**
   * Compacts the transcript: a summary by the model replaces the older turns, the recent ones
   * stay. Events compact_start … compact_done (or error), then `done`; `result.summary` holds
   * the summary. Busy like prompt().
   */
  compact(instructions?: string): ZotRun {
    return this.start((signal) => this.agent.compact(signal, instructions === undefined ? {} : { instructions }));
  }

  /** Stops the running prompt or compaction (its events end with turn_end aborted, then done); idle, nothing. */
  abort(): void {
    this.running?.controller.abort();
  }

  /** The same shape as `zot rpc`'s get_state (queued is always 0: this SDK does not queue). */
  state(): ZotState {
    const agent = this.agent;
    return {
      provider: agent.model.provider,
      model: agent.model.id,
      cwd: agent.cwd,
      message_count: agent.messages.length,
      busy: this.running !== undefined,
      queued: 0,
      usage: agent.cumulative,
      context: agent.contextUse(),
      session: this.runtime.session ?? null,
    };
  }

  /** The transcript in wire form (images as byte counts), as `zot rpc`'s get_messages. */
  messages(): WireMessage[] {
    return this.agent.messages.map(toWireMessage);
  }

  /** Empties the transcript; usage and cost so far stay. Not while busy. */
  clear(): void {
    this.idleFor("clear the transcript");
    this.agent.clear();
  }

  /** Switches to another model of the same provider; resolves with its id. Not while busy. */
  async setModel(id: string): Promise<string> {
    this.idleFor("change the model");
    if (!id.trim()) throw new Error("setModel needs a model id; models() lists them");
    const resolved = resolveModel(loadCatalog(this.runtime.home).models, this.agent.model.provider, id);
    if ("error" in resolved) throw new Error(resolved.error);
    await this.runtime.setModel(resolved.model);
    return resolved.model.id;
  }

  /** The models of the current provider (the current one first when the catalog does not list it, as for ollama). */
  models(): ModelEntry[] {
    const current = this.agent.model;
    const known = loadCatalog(this.runtime.home).models.filter((m) => m.provider === current.provider);
    const models = known.some((m) => m.id === current.id) ? known : [current, ...known];
    return models.map((m) => ({
      id: m.id,
      provider: m.provider,
      context_window: m.context_window,
      max_output: m.max_output,
      reasoning: m.reasoning,
    }));
  }

  /** Every event of this agent (those of every run, and extension notes between runs); returns the unsubscribe function. */
  onEvent(listener: (event: AgentEvent) => void): () => void {
    const off = this.agent.onEvent(listener);
    this.wireNotes();
    return off;
  }

  /** Aborts a running turn, waits for it to end, and stops the extensions. The Zot is done after it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const running = this.running;
    running?.controller.abort();
    await running?.result;
    await this.runtime.dispose();
  }

  private start(work: (signal: AbortSignal) => Promise<unknown>): ZotRun {
    if (this.closed) throw new Error("this zot was closed; createZot() makes a new one");
    this.idleFor("start another prompt or compaction");
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const queue = new EventQueue<AgentEvent>();
    const off = this.agent.onEvent((event) => {
      events.push(event);
      queue.push(event);
    });
    this.wireNotes();
    // Busy from here until run() ends.
    const running: Running = { controller };
    this.running = running;
    const result = this.run(work, controller.signal, events, () => {
      off();
      queue.end();
    });
    running.result = result;
    return { result, [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator]() };
  }

  private async run(
    work: (signal: AbortSignal) => Promise<unknown>,
    signal: AbortSignal,
    events: AgentEvent[],
    end: () => void,
  ): Promise<TurnResult> {
    try {
      await work(signal);
    } catch (error) {
      // As over rpc: whatever happens inside, the run reports it as an event and ends with done.
      this.agent.emit({ type: "error", message: errorText(error), code: "internal" });
    } finally {
      if (!events.some((e) => e.type === "done")) this.agent.emit({ type: "done" });
      // Idle again before the stream ends, so the reader's next prompt after the loop is accepted.
      this.running = undefined;
      end();
    }
    return turnResult(events);
  }

  /**
   * Extension notes become ext_notify events once someone listens: the first listener or run
   * gets the notes sent while the extensions started, which no one could have heard.
   */
  private wireNotes(): void {
    if (this.notesWired) return;
    this.notesWired = true;
    this.runtime.extensions?.onNotify({ notify: (note) => this.agent.emit({ type: "ext_notify", ...note }) });
    this.runtime.extensions?.panels.show(panelEventSink(this.agent));
  }

  private idleFor(what: string): void {
    if (this.running) {
      throw new ZotBusyError(`cannot ${what} while a prompt or compaction runs; wait for its done event, or abort() it first`);
    }
  }
}
