// Tool call ids are unique across a transcript: every provider refuses a request in which two
// tool_use blocks share one (and then every later request of the session). The model never repeats
// one, but a hook's after_llm rewrite may (or leave them out), and a session file may hold such a
// transcript. Rule: a repeat is renamed `<id>_2`, `<id>_3`…, an empty id `call_1`…, and nothing else
// about the call changes.
import type { ContentBlock, Message } from "./messages.ts";

/** Where ids are looked up and marked: a Set, or an IdsOver a Set. */
export interface IdSet {
  has(id: string): boolean;
  add(id: string): unknown;
}

/** The ids of `base` and those added here, without copying `base` (a long run's ids are many). */
export class IdsOver implements IdSet {
  private readonly own = new Set<string>();
  constructor(private readonly base: ReadonlySet<string>) {}
  has(id: string): boolean {
    return this.own.has(id) || this.base.has(id);
  }
  add(id: string): this {
    this.own.add(id);
    return this;
  }
}

/** `id`, or the first of `<id>_2`, `<id>_3`… (`call_1`… for an empty id) not in `seen`; marked seen. */
export function freshCallId(id: string, seen: IdSet): string {
  let fresh = id;
  for (let n = id ? 2 : 1; fresh === "" || seen.has(fresh); n++) fresh = `${id || "call"}_${n}`;
  seen.add(fresh);
  return fresh;
}

/** The ids of every tool call the transcript's assistant messages made. */
export function callIdsIn(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) if (block.type === "tool_call") ids.add(block.id);
  }
  return ids;
}

/** The content with its tool calls' ids replaced by `ids`, in order. */
export function withCallIds(content: readonly ContentBlock[], ids: readonly string[]): ContentBlock[] {
  let k = 0;
  return content.map((block) => (block.type === "tool_call" ? { ...block, id: ids[k++] ?? block.id } : block));
}

/** The content with every tool call's id new to `seen` (the same array when none had to change); marks them seen. */
export function withFreshCallIds(content: ContentBlock[], seen: IdSet): ContentBlock[] {
  const original = content.flatMap((block) => (block.type === "tool_call" ? [block.id] : []));
  const ids = original.map((id) => freshCallId(id, seen));
  return ids.every((id, k) => id === original[k]) ? content : withCallIds(content, ids);
}
