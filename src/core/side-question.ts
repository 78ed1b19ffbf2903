// /btw: a side question answered with the whole conversation as context, with no tools, and kept
// out of the transcript. Rule: the main transcript is only read (a snapshot when the question is
// asked), the answer streams through events of its own (never text_delta, which clients take for
// the main answer), and the call's usage and cost count like any other call's.
//
// The request carries the conversation with its tool calls and results written out as text: a
// request with tool blocks must also declare tools on some providers (Anthropic refuses it), and a
// question asked mid-turn may meet a tool call still waiting for its result.
import type { ContentBlock, Message } from "../protocol/messages.ts";
import type { ModelInfo } from "../protocol/models.ts";
import { type ModelRequest, type Provider, providerEvents } from "../protocol/provider.ts";
import type { TokenUsage, Usage } from "../protocol/usage.ts";
import { priceUsage } from "./cost.ts";

/** An earlier side question and its answer, for a side chat that goes on. */
export interface SideExchange {
  question: string;
  answer: string;
}

/** What a side question streams. Exactly one of done, error or aborted ends it. */
export type SideEvent =
  | { type: "side_delta"; text: string }
  | { type: "side_done"; answer: string; usage?: Usage }
  | { type: "side_error"; message: string }
  | { type: "side_aborted" };

/** Tells the model what kind of question this is, since the system prompt speaks of tools. */
export const SIDE_PREAMBLE =
  "[A side question (/btw), asked alongside the conversation above. Answer it from what is above, " +
  "briefly. You cannot use tools for this answer, and neither the question nor your answer becomes " +
  "part of the conversation.]";

export interface SideRequestInput {
  model: ModelInfo;
  system: string;
  messages: readonly Message[];
  question: string;
  history?: readonly SideExchange[];
}

/** The side question's request: same model and system prompt, the conversation as text blocks, no tools. */
export function sideRequest(input: SideRequestInput): ModelRequest {
  const asked = (question: string): Message => ({
    role: "user",
    content: [{ type: "text", text: `${SIDE_PREAMBLE}\n\n${question}` }],
    time: new Date().toISOString(),
  });
  const side: Message[] = [];
  for (const exchange of input.history ?? []) {
    side.push(asked(exchange.question), { role: "assistant", content: [{ type: "text", text: exchange.answer }], time: "" });
  }
  side.push(asked(input.question));
  return {
    model: input.model,
    system: input.system,
    messages: mergeRoles([...withoutToolBlocks(input.messages), ...side]),
    tools: [],
  };
}

/**
 * The conversation with tool calls and results as text: `[tool call read {"path":"a"}]`,
 * `[tool result read]` and the result's text (its images stay images); tool messages become user
 * messages; reasoning is left out; a message left empty is dropped.
 */
export function withoutToolBlocks(messages: readonly Message[]): Message[] {
  const names = new Map<string, string>();
  const out: Message[] = [];
  for (const message of messages) {
    const content: ContentBlock[] = [];
    for (const block of message.content) {
      if (block.type === "text" || block.type === "image") content.push(block);
      else if (block.type === "tool_call") {
        names.set(block.id, block.name);
        content.push({ type: "text", text: `[tool call ${block.name} ${JSON.stringify(block.args)}]` });
      } else if (block.type === "tool_result") {
        const name = names.get(block.call_id) ?? block.call_id;
        content.push({ type: "text", text: `[tool result ${name}${block.is_error ? " (error)" : ""}]` });
        content.push(...block.content);
      }
    }
    if (content.length > 0) out.push({ role: message.role === "tool" ? "user" : message.role, content, time: message.time });
  }
  return out;
}

/** Consecutive messages of one role become one, as every provider accepts. */
function mergeRoles(messages: Message[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    const last = out.at(-1);
    if (last && last.role === message.role) out[out.length - 1] = { ...last, content: [...last.content, ...message.content] };
    else out.push(message);
  }
  return out;
}

export interface SideCallHooks {
  /** counts the call's tokens (the agent's cumulative usage and its `usage` event) */
  record(usage: TokenUsage): void;
  /** a provider failure in words for the user */
  failureText(error: unknown): string;
}

/** Streams the answer to a side question; the usage is recorded whatever the ending. */
export async function* streamSideAnswer(
  provider: Provider,
  request: ModelRequest,
  signal: AbortSignal,
  hooks: SideCallHooks,
): AsyncGenerator<SideEvent> {
  let usage: TokenUsage | undefined;
  let answer: string | undefined;
  let failure: string | undefined;
  try {
    for await (const event of providerEvents(provider.stream(request, signal), signal)) {
      if (event.type === "text_delta") yield { type: "side_delta", text: event.delta };
      else if (event.type === "usage") usage = event.usage;
      else if (event.type === "done") answer = event.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    }
  } catch (error) {
    if (!signal.aborted) failure = hooks.failureText(error);
  } finally {
    if (usage) hooks.record(usage);
  }
  if (signal.aborted) yield { type: "side_aborted" };
  else if (failure) yield { type: "side_error", message: failure };
  else if (answer === undefined) yield { type: "side_error", message: `${provider.name}: the stream ended without a final message` };
  else yield { type: "side_done", answer, ...(usage ? { usage: priceUsage(request.model, usage) } : {}) };
}
