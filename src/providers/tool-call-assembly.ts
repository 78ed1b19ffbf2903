// Tool calls put together from the pieces a stream sends, for every wire API: Anthropic's tool_use
// blocks, Chat Completions' tool_call deltas, Responses' function_call items.
// Rule: a call is announced (tool_use_start, then its arguments so far) once it has both an id and
// a name, each later fragment is one tool_use_args, an empty fragment is never an event, and
// tool_use_end comes once, after the last fragment; a call that never got a name is dropped; an id
// a server gives two calls of one answer is made unique for the second (each call has its own box
// and result); arguments that are not one JSON object are kept as sent, for the model to be told.
import { noFTL } from "bun:jsc";
import { GrowingText } from "../protocol/growing-text.ts";
import { parseJsonObject } from "../protocol/json-object.ts";
import type { ToolCallBlock } from "../protocol/messages.ts";
import type { ProviderEvent } from "../protocol/provider.ts";

/** A piece of one call: any of its id, its name, a fragment of its arguments' JSON. */
export interface CallPiece {
  id?: string | null;
  name?: string | null;
  args?: string | null;
}

interface Call {
  id?: string;
  name?: string;
  args: GrowingText;
  announced: boolean;
  ended: boolean;
}

/** The calls of one model answer, by the key the wire places them at (a block or output index). */
export class ToolCallAssembly {
  private readonly calls: Call[] = [];
  private readonly byKey = new Map<number, Call>();
  /** the ids announced in this answer */
  private readonly ids = new Set<string>();

  /**
   * Adds a piece to the call at `key`. The first id and name count (some servers repeat them in
   * every fragment); a different id at the same key starts a new call there.
   */
  add(key: number, piece: CallPiece, out: ProviderEvent[]): void {
    let call = this.byKey.get(key);
    if (!call || (piece.id && call.id && piece.id !== call.id)) {
      call = { args: new GrowingText(), announced: false, ended: false };
      this.byKey.set(key, call);
      this.calls.push(call);
    }
    if (call.ended) return;
    if (piece.id && !call.id) call.id = piece.id;
    if (piece.name && !call.name) call.name = piece.name;
    if (piece.args) {
      call.args.append(piece.args);
      if (call.announced) out.push({ type: "tool_use_args", id: call.id!, delta: piece.args });
    }
    if (!call.announced && call.id && call.name) this.announce(call, out);
  }

  /**
   * The call's whole arguments, as a wire repeats them when the call is done: sent as one fragment
   * when none streamed, and kept as the authority on what the call's arguments are.
   */
  complete(key: number, args: string | null | undefined, out: ProviderEvent[]): void {
    const call = this.byKey.get(key);
    if (!call || !args) return;
    if (call.args.isEmpty) this.add(key, { args }, out);
    else call.args.text = args;
  }

  /** The call at `key` is complete; one that has a name but never got an id gets one now. */
  end(key: number, out: ProviderEvent[]): void {
    const call = this.byKey.get(key);
    if (call) this.endCall(call, out);
  }

  /** Ends every call still open, in the order they began. */
  endAll(out: ProviderEvent[]): void {
    for (const call of this.calls) this.endCall(call, out);
  }

  private announce(call: Call, out: ProviderEvent[]): void {
    if (this.ids.has(call.id!)) {
      let n = 2;
      while (this.ids.has(`${call.id}_${n}`)) n++;
      call.id = `${call.id}_${n}`;
    }
    this.ids.add(call.id!);
    call.announced = true;
    out.push({ type: "tool_use_start", id: call.id!, name: call.name! });
    if (!call.args.isEmpty) out.push({ type: "tool_use_args", id: call.id!, delta: call.args.text });
  }

  private endCall(call: Call, out: ProviderEvent[]): void {
    if (call.ended) return;
    if (!call.announced) {
      if (!call.name) return; // nothing callable arrived
      call.id ??= `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
      this.announce(call, out);
    }
    call.ended = true;
    out.push({ type: "tool_use_end", id: call.id! });
  }

  /** Whether any call was announced. */
  get any(): boolean {
    return this.calls.some((call) => call.announced);
  }

  /** The call at `key` as a transcript block; undefined when none was announced there. */
  block(key: number): ToolCallBlock | undefined {
    const call = this.byKey.get(key);
    return call ? toBlock(call) : undefined;
  }

  /** Every announced call as a transcript block, in the order they began. */
  blocks(): ToolCallBlock[] {
    return this.calls.flatMap((call) => toBlock(call) ?? []);
  }
}

function toBlock(call: Call): ToolCallBlock | undefined {
  if (!call.announced) return undefined;
  const text = call.args.text;
  const args = parseJsonObject(text);
  // {} from text that was something (broken JSON, an array): kept, so the model hears what it sent.
  // ({} and null, which some servers send for a tool without parameters, are no arguments.)
  const unparsed = Object.keys(args).length === 0 && !/^\s*(\{\s*\}|null)?\s*$/.test(text);
  return { type: "tool_call", id: call.id!, name: call.name!, args, ...(unparsed ? { unparsed_args: text } : {}) };
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(ToolCallAssembly.prototype.add);
