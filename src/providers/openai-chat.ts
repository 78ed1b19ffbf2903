// The OpenAI Chat Completions provider: api.openai.com, ollama, and any OpenAI-compatible server
// (vLLM, llama.cpp, LM Studio, OpenRouter …), through the openai SDK.
// Rule: the wire request is derived from the transcript alone and the transcript is never changed
// for the wire: thinking stays home, and tool-result images (which a `tool` message cannot carry)
// travel in a user message built here, not stored in the session.
import OpenAI from "openai";
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { parseJsonObject } from "../protocol/json-object.ts";
import { type ContentBlock, type ImageBlock, type Message, textOf, type ToolResultBlock } from "../protocol/messages.ts";
import type { ModelRequest, Provider, ProviderEvent, ProviderStopReason } from "../protocol/provider.ts";
import type { TokenUsage } from "../protocol/usage.ts";
import { abortReason, toProviderError, truncatedStreamError } from "./openai-errors.ts";
import { openWithRetry } from "./retry.ts";

export interface OpenAIChatOptions {
  /** names the provider in errors (`ollama: HTTP 404: …`) and picks the defaults */
  name: "openai" | "ollama";
  apiKey: string;
  baseUrl?: string;
}

const DEFAULT_BASE_URL = { openai: "https://api.openai.com/v1", ollama: "http://localhost:11434/v1" } as const;
/** ollama ignores the key, but the SDK insists on one. */
const OLLAMA_KEY = "ollama";
/**
 * Introduces the user message that carries tool-result images (a tool message or output item holds
 * text only); the Responses provider sends the same words.
 */
export const TOOL_IMAGES_INTRO = "Tool output included the following image content:";
/** A tool result's text this long or shorter is repeated next to its images, to say what they are. */
const IMAGE_CAPTION_MAX_BYTES = 500;

export function createOpenAIChatProvider(options: OpenAIChatOptions): Provider {
  const name = options.name;
  const baseUrl = chatBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL[name]);
  const client = new OpenAI({
    apiKey: options.apiKey || (name === "ollama" ? OLLAMA_KEY : ""),
    // Always explicit: the runtime has already read OPENAI_BASE_URL / OLLAMA_HOST; the SDK must not again.
    baseURL: baseUrl,
    maxRetries: 0, // openWithRetry owns the retry policy
    logLevel: "off", // failures reach the user as ProviderErrors; the SDK must not print to the terminal
  });
  return {
    name,
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      const body = chatRequestBody(request);
      const stream = yield* openWithRetry(async () => {
        try {
          return await client.chat.completions.create(body, { signal });
        } catch (error) {
          throw toProviderError(name, error, "open", signal, baseUrl);
        }
      }, { signal });
      const assembler = new ChatStreamAssembler();
      try {
        for await (const chunk of stream) {
          // Events already buffered when the user aborted are not worth showing.
          if (signal.aborted) break;
          yield* assembler.push(chunk);
        }
      } catch (error) {
        throw toProviderError(name, error, "stream", signal);
      }
      // The SDK ends the iteration quietly when its request is aborted.
      if (signal.aborted) throw abortReason(signal);
      if (!assembler.finished) throw truncatedStreamError(name);
      yield* assembler.finish();
    },
  };
}

/**
 * A base URL with no path (`http://localhost:11434`, `http://127.0.0.1:8080`) gets `/v1`, where
 * every OpenAI-compatible server serves; a URL with a path (`…/api/v1`, `…/v1beta/openai`) is
 * taken as given.
 */
export function chatBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  try {
    return new URL(trimmed).pathname === "/" ? `${trimmed}/v1` : trimmed;
  } catch {
    return trimmed; // the SDK reports an unusable URL in its own words
  }
}

export function chatRequestBody(request: ModelRequest): ChatCompletionCreateParamsStreaming {
  const { model } = request;
  const maxTokens = request.maxTokens ?? model.max_output;
  const body: ChatCompletionCreateParamsStreaming = {
    model: model.id,
    messages: toChatMessages(request.system, request.messages),
    stream: true,
    stream_options: { include_usage: true },
    // Reasoning models reject max_tokens; older and compatible servers only know max_tokens.
    ...(model.reasoning ? { max_completion_tokens: maxTokens } : { max_tokens: maxTokens }),
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    body.tool_choice = "auto";
  }
  if (request.reasoning && model.reasoning) body.reasoning_effort = request.reasoning;
  return body;
}

export function toChatMessages(system: string, messages: readonly Message[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (system) out.push({ role: "system", content: system });
  for (const message of messages) {
    if (message.role === "user") {
      const user = userMessage(message.content);
      if (user) out.push(user);
    } else if (message.role === "assistant") {
      const assistant = assistantMessage(message.content);
      if (assistant) out.push(assistant);
    } else {
      out.push(...toolMessages(message.content));
    }
  }
  return out;
}

function userMessage(blocks: readonly ContentBlock[]): ChatCompletionMessageParam | undefined {
  const texts = blocks.flatMap((b) => (b.type === "text" && b.text ? [b.text] : []));
  if (!blocks.some((b) => b.type === "image")) {
    return texts.length > 0 ? { role: "user", content: texts.join("\n") } : undefined;
  }
  const parts: ChatCompletionContentPart[] = [];
  for (const block of blocks) {
    if (block.type === "text" && block.text) parts.push({ type: "text", text: block.text });
    else if (block.type === "image") parts.push(imagePart(block));
  }
  return { role: "user", content: parts };
}

/** Text and tool calls; an assistant message with neither is left out (some servers reject it). */
function assistantMessage(blocks: readonly ContentBlock[]): ChatCompletionAssistantMessageParam | undefined {
  const text = blocks.flatMap((b) => (b.type === "text" && b.text.trim() ? [b.text] : [])).join("\n");
  const toolCalls = blocks.flatMap((b) =>
    b.type === "tool_call"
      ? [{ id: b.id, type: "function" as const, function: { name: b.name, arguments: JSON.stringify(b.args ?? {}) } }]
      : [],
  );
  if (!text && toolCalls.length === 0) return undefined;
  return {
    role: "assistant",
    content: text || null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

/**
 * One `tool` message per result. A `tool` message holds text only, so images go in a user message
 * right after the last of them (a user message between two tool messages would break the pairing
 * with the assistant's tool_calls).
 */
function toolMessages(blocks: readonly ContentBlock[]): ChatCompletionMessageParam[] {
  const results = blocks.filter((b): b is ToolResultBlock => b.type === "tool_result");
  const out: ChatCompletionMessageParam[] = results.map((result) => ({
    role: "tool",
    tool_call_id: result.call_id,
    content: toolResultText(result),
  }));
  const withImages = results.filter((r) => r.content.some((c) => c.type === "image"));
  if (withImages.length > 0) {
    const parts: ChatCompletionContentPart[] = [
      { type: "text", text: TOOL_IMAGES_INTRO },
    ];
    for (const result of withImages) {
      for (const item of result.content) {
        if (item.type === "image") parts.push(imagePart(item));
        else if (item.text && new TextEncoder().encode(item.text).length <= IMAGE_CAPTION_MAX_BYTES) {
          parts.push({ type: "text", text: item.text });
        }
      }
    }
    out.push({ role: "user", content: parts });
  }
  return out;
}

/** The result's text; an error is marked so the model knows the call failed. */
export function toolResultText(result: ToolResultBlock): string {
  let text = textOf(result.content);
  if (!text) text = result.content.some((c) => c.type === "image") ? "(image output follows)" : "(no output)";
  return result.is_error ? `${text} [error]` : text;
}

function imagePart(image: ImageBlock): ChatCompletionContentPart {
  return { type: "image_url", image_url: { url: imageDataUrl(image) } };
}

/** An image inline as a `data:` URL, the way both OpenAI APIs take one. */
export function imageDataUrl(image: ImageBlock): string {
  return `data:${image.mime_type};base64,${image.data}`;
}

interface CallSlot {
  id?: string;
  name?: string;
  args: string;
  announced: boolean;
  ended: boolean;
}

/** Builds provider events and the final message from chat.completion.chunk objects. */
class ChatStreamAssembler {
  private text = "";
  private thinking = "";
  private readonly slots: CallSlot[] = [];
  private readonly byIndex = new Map<number, CallSlot>();
  private finishReason: ChatCompletionChunk.Choice["finish_reason"] = null;
  private usage: TokenUsage | undefined;

  get finished(): boolean {
    return this.finishReason !== null;
  }

  push(chunk: ChatCompletionChunk): ProviderEvent[] {
    const events: ProviderEvent[] = [];
    if (chunk.usage) {
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
      this.usage = {
        input: Math.max(0, chunk.usage.prompt_tokens - cached),
        output: chunk.usage.completion_tokens,
        cache_read: cached,
        cache_write: 0,
        // Part of completion_tokens; compatible servers (ollama, vLLM …) often leave the details out.
        reasoning: chunk.usage.completion_tokens_details?.reasoning_tokens ?? null,
      };
    }
    const choice = chunk.choices?.[0];
    if (!choice) return events;
    const delta = choice.delta ?? {};
    // Not in the SDK's types: DeepSeek, vLLM and llama.cpp send reasoning_content, ollama and
    // OpenRouter send reasoning.
    const extra = delta as { reasoning_content?: unknown; reasoning?: unknown };
    const reasoning = typeof extra.reasoning_content === "string" ? extra.reasoning_content : extra.reasoning;
    if (typeof reasoning === "string" && reasoning) {
      this.thinking += reasoning;
      events.push({ type: "thinking_delta", delta: reasoning });
    }
    if (delta.content) {
      this.text += delta.content;
      events.push({ type: "text_delta", delta: delta.content });
    }
    delta.tool_calls?.forEach((call, position) => events.push(...this.toolDelta(call, position)));
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      events.push(...this.closeCalls());
    }
    return events;
  }

  /** The usage and the done event; call once the stream has ended with a finish_reason. */
  finish(): ProviderEvent[] {
    const events = this.closeCalls();
    if (this.usage) events.push({ type: "usage", usage: this.usage });
    const content: ContentBlock[] = [];
    if (this.thinking) content.push({ type: "thinking", text: this.thinking });
    if (this.text) content.push({ type: "text", text: this.text });
    for (const slot of this.slots) {
      if (slot.announced && slot.id && slot.name) {
        content.push({ type: "tool_call", id: slot.id, name: slot.name, args: parseJsonObject(slot.args) });
      }
    }
    events.push({ type: "done", content, stop: this.stopReason() });
    return events;
  }

  private stopReason(): ProviderStopReason {
    if (this.finishReason === "length") return "length";
    // Some compatible servers (older ollama, vLLM) say "stop" even when they called tools.
    if (this.finishReason === "tool_calls" || this.finishReason === "function_call") return "tool_use";
    return this.slots.some((s) => s.announced) ? "tool_use" : "end_turn";
  }

  private toolDelta(call: ChatCompletionChunk.Choice.Delta.ToolCall, position: number): ProviderEvent[] {
    // Servers that leave out `index` send whole calls, one per array entry.
    const index = call.index ?? position;
    let slot = this.byIndex.get(index);
    if (!slot || (call.id && slot.id && call.id !== slot.id)) {
      slot = { args: "", announced: false, ended: false };
      this.byIndex.set(index, slot);
      this.slots.push(slot);
    }
    // Some servers repeat id and name in every fragment: the first one counts.
    if (call.id && !slot.id) slot.id = call.id;
    if (call.function?.name && !slot.name) slot.name = call.function.name;
    const fragment = call.function?.arguments ?? "";
    slot.args += fragment;
    if (slot.announced) return fragment ? [{ type: "tool_use_args", id: slot.id!, delta: fragment }] : [];
    return slot.id && slot.name ? this.announce(slot) : [];
  }

  private announce(slot: CallSlot): ProviderEvent[] {
    slot.announced = true;
    const events: ProviderEvent[] = [{ type: "tool_use_start", id: slot.id!, name: slot.name! }];
    if (slot.args) events.push({ type: "tool_use_args", id: slot.id!, delta: slot.args });
    return events;
  }

  private closeCalls(): ProviderEvent[] {
    const events: ProviderEvent[] = [];
    for (const slot of this.slots) {
      if (slot.ended) continue;
      if (!slot.announced) {
        if (!slot.name) continue; // nothing callable arrived
        slot.id ??= `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
        events.push(...this.announce(slot));
      }
      slot.ended = true;
      events.push({ type: "tool_use_end", id: slot.id! });
    }
    return events;
  }
}
