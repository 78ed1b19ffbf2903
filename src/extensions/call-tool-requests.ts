// The bookkeeping of one extension's calls in both directions that call_tool's rules depend on:
// the host tool_calls it is handling right now (what a parent_id may name, and whose cancellation a
// nested call inherits), and its own outstanding call_tool requests (what call_tool_cancel, the
// 60 s deadline and its exit end).
// Rule: every request ends exactly once, and with a reason a person can read: a nested call ends
// when the call it was made under ends, a call whose extension is gone is never answered, and a
// parent_id that names nothing running (unknown, or already over) is refused, never guessed.
import type { ExtFrameOf } from "../protocol/ext-frames.ts";
import { timerDelay } from "../protocol/timer-delay.ts";
import { seconds } from "./child.ts";

/** A call_tool the host accepted: what the manager needs to run it. */
export interface CallToolRequest {
  /** the extension's id, as a string */
  id: string;
  name: string;
  args: Record<string, unknown>;
  /**
   * the tool names of the host call it was made under (parent_id), outermost first; empty for a
   * call made outside any tool call
   */
  parentChain: readonly string[];
  /** ends with call_tool_cancel, the deadline, the parent call's end, or the extension's exit */
  signal: AbortSignal;
}

/** Why a request ended early, as the sentence the extension's tool_result carries. */
export class CallToolStop extends Error {}

interface Handling {
  tool: string;
  chain: readonly string[];
  controller: AbortController;
}

export class CallToolRequests {
  /** host tool_call id → the call the extension is handling */
  private readonly handling = new Map<string, Handling>();
  /** call_tool id → what ends it */
  private readonly outstanding = new Map<string, AbortController>();

  constructor(private readonly deadlineMs: number) {}

  /**
   * A host tool_call was sent: until `end` is called (its answer came, or zot gave up on it), a
   * call_tool may name it as parent_id. `signal` is the call's own cancellation.
   */
  handle(id: string, tool: string, chain: readonly string[], signal: AbortSignal): () => void {
    const controller = new AbortController();
    const onAbort = () => controller.abort(new CallToolStop(`cancelled: the tool_call it was made under (parent_id "${id}", ${tool}) was cancelled`));
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    this.handling.set(id, { tool, chain, controller });
    return () => {
      signal.removeEventListener("abort", onAbort);
      if (this.handling.get(id)?.controller !== controller) return;
      this.handling.delete(id);
      controller.abort(new CallToolStop(`cancelled: the tool_call it was made under (parent_id "${id}", ${tool}) has ended`));
    };
  }

  /**
   * Checks a call_tool frame against the rules: a fresh id, a parent_id naming a call being
   * handled, and a parent_id whenever one is. Returns the request (with its deadline running; call
   * `finish` when it is answered), a refusal to answer with, or "duplicate" (ignored: the call of
   * that id is still running and will be answered).
   */
  accept(frame: ExtFrameOf<"call_tool">): { request: CallToolRequest; finish: () => void } | { refusal: string } | "duplicate" {
    const id = String(frame.id);
    if (this.outstanding.has(id)) return "duplicate";
    let parent: Handling | undefined;
    if (frame.parent_id !== undefined) {
      parent = this.handling.get(String(frame.parent_id));
      if (!parent) {
        return { refusal: `parent_id ${JSON.stringify(frame.parent_id)} names no tool_call this extension is handling (unknown, or already over)` };
      }
    } else if (this.handling.size > 0) {
      const ids = [...this.handling.keys()].map((key) => `"${key}"`).join(", ");
      return {
        refusal: `call_tool without parent_id while this extension is handling tool_call ${ids}; send the id of the tool_call it belongs to as parent_id, so the call ends with it`,
      };
    }
    const controller = new AbortController();
    this.outstanding.set(id, controller);
    const timer = setTimeout(
      () => controller.abort(new CallToolStop(`timed out after ${seconds(this.deadlineMs)}`)),
      timerDelay(this.deadlineMs),
    );
    const signal = parent ? AbortSignal.any([controller.signal, parent.controller.signal]) : controller.signal;
    const request: CallToolRequest = { id, name: frame.name, args: frame.args, parentChain: parent?.chain ?? [], signal };
    return {
      request,
      finish: () => {
        clearTimeout(timer);
        if (this.outstanding.get(id) === controller) this.outstanding.delete(id);
      },
    };
  }

  /** call_tool_cancel: false when no call of that id is outstanding. */
  cancel(id: string): boolean {
    const controller = this.outstanding.get(id);
    if (!controller) return false;
    controller.abort(new CallToolStop("cancelled by call_tool_cancel"));
    return true;
  }

  /** The extension is gone: everything it asked for, and everything made under its calls, ends. */
  endAll(reason: string): void {
    for (const controller of this.outstanding.values()) controller.abort(new CallToolStop(reason));
    for (const handling of this.handling.values()) handling.controller.abort(new CallToolStop(reason));
    this.outstanding.clear();
    this.handling.clear();
  }
}

/** The sentence for a request that ended early. */
export function stopReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof CallToolStop ? reason.message : "cancelled";
}
