// zot's values in the shapes PicoClaw hooks read (OpenAI-style messages and tools, ToolResult
// JSON), and a hook's rewrites back into zot's values. Pure functions.
// Rule: a round trip through a hook that changed nothing changes nothing (what the wire cannot
// carry — images, reasoning signatures — is kept from the original wherever the hook left a
// message as it was), and an absent field means "unchanged", never "erase".
import type { LlmResponse } from "../core/intercept.ts";
import type {
  HookLlmRequest,
  HookLlmResponse,
  HookMessage,
  HookToolCall,
  HookToolDef,
  HookToolResult,
} from "../protocol/hook-rpc.ts";
import { isJsonObject, parseJsonObject } from "../protocol/json-object.ts";
import {
  base64ByteLength,
  type ContentBlock,
  type Message,
  nowIso,
  textOf,
  type ToolCallBlock,
  type ToolResultBlock,
  type ToolResultContent,
} from "../protocol/messages.ts";
import type { ModelRequest, ProviderStopReason, ToolSpec } from "../protocol/provider.ts";
import type { ToolResult } from "../protocol/tool.ts";

// ── requests ──────────────────────────────────────────────────────────────────────────────

/** One hook message and the zot message (or tool result) it came from. */
interface Sent {
  message: HookMessage;
  origin: Message;
}

/** The system prompt and transcript as hook messages, each remembering where it came from. */
export function toHookMessages(request: ModelRequest): Sent[] {
  const out: Sent[] = [];
  if (request.system) {
    out.push({ message: { role: "system", content: request.system }, origin: { role: "user", content: [], time: "" } });
  }
  for (const message of request.messages) {
    if (message.role === "tool") {
      for (const block of message.content) {
        if (block.type !== "tool_result") continue;
        out.push({ message: toolMessage(block), origin: { ...message, content: [block] } });
      }
      continue;
    }
    out.push({ message: chatMessage(message), origin: message });
  }
  return out;
}

function chatMessage(message: Message): HookMessage {
  const calls = message.content.filter((b): b is ToolCallBlock => b.type === "tool_call");
  const reasoning = message.content.flatMap((b) => (b.type === "thinking" && b.text ? [b.text] : [])).join("\n");
  const media = mediaOf(message.content);
  return {
    role: message.role,
    content: textOf(message.content),
    ...(reasoning ? { reasoning_content: reasoning } : {}),
    ...(calls.length > 0 ? { tool_calls: calls.map(toHookToolCall) } : {}),
    ...(media.length > 0 ? { media } : {}),
  };
}

function toolMessage(block: ToolResultBlock): HookMessage {
  const media = mediaOf(block.content);
  return { role: "tool", content: textOf(block.content), tool_call_id: block.call_id, ...(media.length > 0 ? { media } : {}) };
}

function toHookToolCall(call: ToolCallBlock): HookToolCall {
  return { id: call.id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args) } };
}

/** Images are described, not sent: `image/png, 1234 bytes`. */
function mediaOf(blocks: readonly (ContentBlock | ToolResultContent)[]): string[] {
  return blocks.flatMap((b) => (b.type === "image" ? [`${b.mime_type}, ${base64ByteLength(b.data)} bytes`] : []));
}

export function toHookTools(tools: readonly ToolSpec[]): HookToolDef[] {
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

export function llmOptions(request: ModelRequest): Record<string, unknown> {
  return { max_tokens: request.maxTokens ?? request.model.max_output };
}

/**
 * A before_llm `request` applied to zot's request: the model id, the messages (the system prompt
 * from their system messages), the tools and max_tokens, each only when the hook sent it.
 */
export function applyHookRequest(request: ModelRequest, sent: Sent[], change: HookLlmRequest): ModelRequest {
  let next = request;
  if (change.model && change.model !== request.model.id) next = { ...next, model: { ...next.model, id: change.model } };
  if (change.messages && !Bun.deepEquals(change.messages, sent.map((s) => s.message))) {
    const { system, messages } = fromHookMessages(change.messages, sent);
    next = { ...next, messages, ...(system !== undefined ? { system } : {}) };
  }
  if (change.tools && !Bun.deepEquals(change.tools, toHookTools(request.tools))) {
    next = { ...next, tools: change.tools.map(fromHookTool) };
  }
  const maxTokens = change.options?.max_tokens;
  if (typeof maxTokens === "number" && maxTokens > 0 && maxTokens !== llmOptions(request).max_tokens) {
    next = { ...next, maxTokens };
  }
  return next;
}

function fromHookTool(def: HookToolDef): ToolSpec {
  return {
    name: def.function.name,
    description: def.function.description ?? "",
    parameters: def.function.parameters ?? { type: "object", properties: {} },
  };
}

/** Hook messages back to a transcript; a message the hook left as it was keeps its original. */
function fromHookMessages(messages: readonly HookMessage[], sent: Sent[]): { system?: string; messages: Message[] } {
  const used = new Set<number>();
  const origin = (message: HookMessage, index: number): Message | undefined => {
    const candidates = [index, ...sent.keys()];
    for (const i of candidates) {
      if (used.has(i) || !sent[i] || !Bun.deepEquals(sent[i].message, message)) continue;
      used.add(i);
      return sent[i].origin;
    }
    return undefined;
  };
  const system: string[] = [];
  const out: Message[] = [];
  messages.forEach((message, index) => {
    if (message.role === "system") {
      system.push(message.content ?? "");
      return;
    }
    const next = origin(message, index) ?? freshMessage(message);
    // A rewrite zot cannot read is no rewrite: dropping the message could empty the conversation.
    if (!next) throw new Error(`messages[${index}] has the role ${JSON.stringify(message.role)}, which zot does not know (system, user, assistant, tool); the request is sent as it was`);
    const last = out.at(-1);
    // Tool results travel one per message; zot keeps a step's results in one tool message.
    if (next.role === "tool" && last?.role === "tool") last.content = [...last.content, ...next.content];
    else out.push({ ...next, content: [...next.content] });
  });
  return { ...(system.length > 0 ? { system: system.join("\n\n") } : {}), messages: out };
}

function freshMessage(message: HookMessage): Message | undefined {
  const time = nowIso();
  const text = message.content ?? "";
  if (message.role === "tool") {
    const block: ToolResultBlock = { type: "tool_result", call_id: message.tool_call_id ?? "", is_error: false, content: [{ type: "text", text }] };
    return { role: "tool", content: [block], time };
  }
  if (message.role !== "user" && message.role !== "assistant") return undefined;
  const content: ContentBlock[] = text ? [{ type: "text", text }] : [];
  if (message.role === "assistant") content.push(...(message.tool_calls ?? []).map(fromHookToolCall));
  return { role: message.role, content, time };
}

function fromHookToolCall(call: HookToolCall, index: number): ToolCallBlock {
  const args = call.function.arguments;
  const parsed = typeof args === "string" ? parseJsonObject(args) : isJsonObject(args) ? args : {};
  // Arguments that were something but no JSON object are not run as {}: the call is refused, quoting them (tool-run.ts).
  const given = typeof args === "string" ? args : args === undefined || args === null ? "" : JSON.stringify(args);
  const unparsed = Object.keys(parsed).length === 0 && !/^\s*(\{\s*\}|null)?\s*$/.test(given);
  return {
    type: "tool_call",
    // Unique across the transcript once the turn adopts it (protocol/unique-call-ids.ts).
    id: call.id || `hook_call_${index + 1}`,
    name: call.function.name,
    args: parsed,
    ...(unparsed ? { unparsed_args: given } : {}),
  };
}

// ── responses ─────────────────────────────────────────────────────────────────────────────

const FINISH: Record<ProviderStopReason, string> = { end_turn: "stop", tool_use: "tool_calls", length: "length" };

export function toHookResponse(response: LlmResponse): HookLlmResponse {
  const calls = response.content.filter((b): b is ToolCallBlock => b.type === "tool_call");
  const reasoning = response.content.flatMap((b) => (b.type === "thinking" && b.text ? [b.text] : [])).join("\n");
  const { input, output, cache_read, cache_write } = response.usage;
  const prompt = input + cache_read + cache_write;
  return {
    role: "assistant",
    content: textOf(response.content),
    ...(reasoning ? { reasoning_content: reasoning } : {}),
    ...(calls.length > 0 ? { tool_calls: calls.map(toHookToolCall) } : {}),
    finish_reason: FINISH[response.stop],
    usage: { prompt_tokens: prompt, completion_tokens: output, total_tokens: prompt + output },
  };
}

/**
 * A hook's response applied: its content replaces the text (reasoning stays), its tool_calls (when
 * sent and different) replace the calls. Undefined when nothing changed.
 */
export function applyHookResponse(response: LlmResponse, change: HookLlmResponse): LlmResponse | undefined {
  const sent = toHookResponse(response);
  const text = change.content ?? sent.content ?? "";
  const callsChanged = change.tool_calls !== undefined && !Bun.deepEquals(change.tool_calls ?? [], sent.tool_calls ?? []);
  if (text === sent.content && !callsChanged) return undefined;
  const calls = callsChanged
    ? (change.tool_calls ?? []).map(fromHookToolCall)
    : response.content.filter((b): b is ToolCallBlock => b.type === "tool_call");
  const content: ContentBlock[] = [
    ...response.content.filter((b) => b.type === "thinking"),
    ...(text ? [{ type: "text" as const, text }] : []),
    ...calls,
  ];
  const stop: ProviderStopReason = calls.length > 0 ? "tool_use" : response.stop === "tool_use" ? "end_turn" : response.stop;
  return { ...response, content, stop };
}

// ── tool results ──────────────────────────────────────────────────────────────────────────

export function toHookToolResult(result: ToolResult): HookToolResult {
  const media = mediaOf(result.content);
  return {
    for_llm: textOf(result.content),
    silent: false,
    is_error: result.is_error,
    async: false,
    ...(media.length > 0 ? { media } : {}),
  };
}

/** An after_tool rewrite: new text (the images stay) or a new error flag. Undefined when unchanged. */
export function applyHookToolResult(result: ToolResult, change: HookToolResult): ToolResult | undefined {
  const text = change.for_llm ?? textOf(result.content);
  const isError = change.is_error ?? result.is_error;
  if (text === textOf(result.content) && isError === result.is_error) return undefined;
  const images = result.content.filter((b) => b.type === "image");
  return { ...result, content: [{ type: "text", text }, ...images], is_error: isError };
}

/** A respond result as the model sees it: for_llm, and the media references as text. */
export function respondedResult(hook: string, tool: string, result: HookToolResult): ToolResult {
  const lines = [result.for_llm ?? ""];
  if (result.media?.length) lines.push(`media: ${result.media.join(", ")}`);
  const text = lines.filter((line) => line !== "").join("\n") || `(hook ${hook} returned no content)`;
  return { content: [{ type: "text", text }], is_error: result.is_error ?? false, details: { hook, tool } };
}
