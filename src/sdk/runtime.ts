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
import {
  type BusyWording,
  type Conversation,
  openConversation,
  type RuntimeOptions,
  UnknownModelError,
  type UnitOutcome,
} from "../conversation/conversation.ts";
import type { AgentEvent } from "../protocol/events.ts";
import { toWireMessage } from "../protocol/messages.ts";
import { imagesIssue } from "../protocol/image-input.ts";
import type { ImageInput, RpcDataOf } from "../protocol/rpc-frames.ts";
import { EventQueue } from "./event-queue.ts";
import { type TurnResult, turnResult } from "./turn-result.ts";

export type { AgentEvent } from "../protocol/events.ts";
export type { TurnOutcome, TurnResult } from "./turn-result.ts";
/** A prompt or compaction was started while another one ran, or the model changed mid-turn. */
export { ZotBusyError } from "../conversation/conversation.ts";
export type ZotState = RpcDataOf<"get_state">;
export type WireMessage = RpcDataOf<"get_messages">["messages"][number];
export type ModelEntry = RpcDataOf<"get_models">["models"][number];

export interface ZotOptions extends Omit<RuntimeOptions, "extensions" | "withSkills" | "noSkill" | "noDemo"> {
  /**
   * Off unless asked for: `true` discovers them as `zot` does (project, then $ZOT_HOME);
   * `{ paths }` loads those (and discovers too with `discover: true`).
   */
  extensions?: boolean | { paths?: string[]; discover?: boolean };
  /** "builtin" (default: the skills inside zot), "all" (also skill folders, as --with-skills), "none" */
  skills?: "builtin" | "all" | "none";
}

/** The events of one prompt or compaction, up to and including `done`, and what it came to. */
export interface ZotRun extends AsyncIterable<AgentEvent> {
  /** resolves after `done`, whether or not the events are read; never rejects (a failure is an error event) */
  result: Promise<TurnResult>;
}

/** What this SDK's user does about a busy Zot. */
const SDK_WORDING: BusyWording = {
  turn: "wait for its done event, or abort() it first",
  operation: "try again once it has finished",
};

export async function createZot(options: ZotOptions = {}): Promise<Zot> {
  const { extensions, skills = "builtin", ...rest } = options;
  const found = extensionOptions(extensions);
  const conversation = await openConversation(
    {
      ...rest,
      // A program takes the demo's canned answer for the model's: without a key, or with the
      // scripted provider and no script, it is told so. After `rest`: no option turns it off.
      noDemo: { run: "createZot", remedy: 'give it an apiKey, or provider: "ollama", or provider: "scripted" with a script to play turns' },
      extensions: found,
      withSkills: skills === "all",
      noSkill: skills === "none",
      // A program's prompt is its own text: the user's Markdown commands and skill /names expand
      // only where it asked to discover the user's setup (extensions), as before.
      noCommands: found?.noDiscovery === true,
    },
    // One prompt or compaction at a time: a second is refused, never queued.
    { busy: "refuse", wording: SDK_WORDING },
  );
  return new Zot(conversation);
}

function extensionOptions(wanted: ZotOptions["extensions"]): RuntimeOptions["extensions"] {
  if (wanted === undefined || wanted === false) return { explicit: [], noDiscovery: true };
  if (wanted === true) return { explicit: [], noDiscovery: false };
  return { explicit: wanted.paths ?? [], noDiscovery: !wanted.discover };
}

export class Zot {
  private closed = false;

  constructor(private readonly conversation: Conversation) {}

  /** One-line notes from starting up (a fallback taken, a config file ignored, an extension that failed). */
  get notes(): readonly string[] {
    return this.conversation.startupNotes;
  }

  /**
   * Starts a prompt now and returns its events: every event from user_message to `done`, then
   * the stream ends. Throws ZotBusyError (synchronously) while another prompt or compaction runs,
   * and a TypeError for a prompt with neither text nor images, or an image rpc would refuse (a type
   * the model APIs do not take, over 5 MB of base64, not base64).
   * Events are kept until read; each run has one reader. As in `zot -p`, text that starts with
   * an extension's command (`/weather berlin`) runs the command (a command_result event).
   */
  prompt(text: string, options: { images?: ImageInput[] } = {}): ZotRun {
    // As rpc and -p: a request with no message would be refused by the API, and would leave the
    // conversation starting with the model's answer for every later request.
    if (!text.trim() && !options.images?.length) throw new TypeError('prompt: give a text, images, or both');
    // As rpc checks them: an image the provider refuses would fail every later request while it stays.
    const issue = options.images === undefined ? undefined : imagesIssue(options.images);
    if (issue) throw new TypeError(`prompt: ${issue}`);
    return this.start(() => this.conversation.submit({ text, images: options.images }));
  }

  /**
   * Compacts the transcript: a summary by the model replaces the older turns, the recent ones
   * stay. Events compact_start … compact_done (or error), then `done`; `result.summary` holds
   * the summary. Busy like prompt().
   */
  compact(instructions?: string): ZotRun {
    return this.start(() => this.conversation.compact(instructions));
  }

  /** Stops the running prompt or compaction (its events end with turn_end aborted, then done); idle, nothing. */
  abort(): void {
    this.conversation.abort();
  }

  /** The same shape as `zot rpc`'s get_state (queued is always 0: this SDK does not queue). */
  state(): ZotState {
    return this.conversation.state();
  }

  /** The transcript in wire form (images as byte counts), as `zot rpc`'s get_messages. */
  messages(): WireMessage[] {
    return this.conversation.messages.map(toWireMessage);
  }

  /** Empties the transcript; usage and cost so far stay. Not while busy. */
  clear(): void {
    // The SDK refuses rather than queues: nothing may run or wait, and then the clear is done at once.
    this.conversation.refuseWhileBusy("clear");
    void this.conversation.clear();
  }

  /** Switches to another model of the same provider; resolves with its id. Not while busy. */
  async setModel(id: string): Promise<string> {
    try {
      return (await this.conversation.setModel(id)).id;
    } catch (error) {
      if (!(error instanceof UnknownModelError)) throw error;
      throw new Error(id.trim() ? error.message : "setModel needs a model id; models() lists them");
    }
  }

  /** The models of the current provider (the current one first when the catalog does not list it, as for ollama). */
  models(): ModelEntry[] {
    return this.conversation.models.own().map((m) => ({
      id: m.id,
      provider: m.provider,
      context_window: m.context_window,
      max_output: m.max_output,
      reasoning: m.reasoning,
    }));
  }

  /** Every event of this agent (those of every run, and extension notes between runs); returns the unsubscribe function. */
  onEvent(listener: (event: AgentEvent) => void): () => void {
    return this.conversation.onEvent(listener);
  }

  /** Aborts a running turn, waits for it to end, and stops the extensions. The Zot is done after it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.conversation.close("closed");
  }

  private start(begin: () => Promise<UnitOutcome>): ZotRun {
    if (this.closed) throw new Error("this zot was closed; createZot() makes a new one");
    const events: AgentEvent[] = [];
    const queue = new EventQueue<AgentEvent>();
    // Listening before the unit starts: its first event comes before begin() returns.
    const off = this.conversation.onEvent((event) => {
      events.push(event);
      queue.push(event);
    });
    let unit: Promise<UnitOutcome>;
    try {
      unit = begin();
    } catch (error) {
      off();
      throw error;
    }
    // The unit resolves once the conversation is idle again, so the reader's next prompt after the loop is accepted.
    const result = unit.then(() => {
      off();
      queue.end();
      return turnResult(events);
    });
    return { result, [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator]() };
  }
}
