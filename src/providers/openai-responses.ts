// The OpenAI Responses provider (api.openai.com `/v1/responses`), through the openai SDK.
// Rule: stateless on the server (store:false), so every request carries the whole conversation,
// including the encrypted reasoning items a reasoning model needs back to keep its train of thought
// across tool calls.
import OpenAI from "openai";
import type {
  ResponseCreateParamsStreaming,
  ResponseInputContent,
  ResponseInputItem,
  ResponseStreamEvent,
  Response as ResponsesResponse,
} from "openai/resources/responses/responses";
import { parseJsonObject } from "../protocol/json-object.ts";
import type { ContentBlock, ImageBlock, Message, ToolResultBlock } from "../protocol/messages.ts";
import {
  ProviderError,
  type ModelRequest,
  type Provider,
  type ProviderEvent,
  type ProviderStopReason,
} from "../protocol/provider.ts";
import type { TokenUsage } from "../protocol/usage.ts";
import { imageDataUrl, TOOL_IMAGES_INTRO, toolResultText } from "./openai-chat.ts";
import { abortReason, isContextOverflow, toProviderError, truncatedStreamError } from "./openai-errors.ts";
import { openWithRetry } from "./retry.ts";

export interface OpenAIResponsesOptions {
  apiKey: string;
  baseUrl?: string;
}

const NAME = "openai";
const DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Streamed reasoning summaries are separate paragraphs; this joins them, live and stored alike. */
const SUMMARY_SEPARATOR = "\n\n";

export function createOpenAIResponsesProvider(options: OpenAIResponsesOptions): Provider {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  const client = new OpenAI({
    apiKey: options.apiKey,
    // Always explicit: the runtime has already read OPENAI_BASE_URL; the SDK must not again.
    baseURL: baseUrl,
    maxRetries: 0, // openWithRetry owns the retry policy
    logLevel: "off", // failures reach the user as ProviderErrors; the SDK must not print to the terminal
  });
  return {
    name: NAME,
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      const body = responsesRequestBody(request);
      const stream = yield* openWithRetry(async () => {
        try {
          return await client.responses.create(body, { signal });
        } catch (error) {
          throw toProviderError(NAME, error, "open", signal, baseUrl);
        }
      }, { signal });
      const assembler = new ResponsesStreamAssembler();
      try {
        for await (const event of stream) {
          // Events already buffered when the user aborted are not worth showing.
          if (signal.aborted) break;
          yield* assembler.push(event);
        }
      } catch (error) {
        throw toProviderError(NAME, error, "stream", signal);
      }
      // The SDK ends the iteration quietly when its request is aborted.
      if (signal.aborted) throw abortReason(signal);
      if (!assembler.finished) throw truncatedStreamError(NAME);
      yield* assembler.finish();
    },
  };
}

export function responsesRequestBody(request: ModelRequest): ResponseCreateParamsStreaming {
  const { model } = request;
  const body: ResponseCreateParamsStreaming = {
    model: model.id,
    instructions: request.system || null,
    input: toResponsesInput(request.messages),
    stream: true,
    store: false,
    max_output_tokens: request.maxTokens ?? model.max_output,
  };
  // Reasoning models think whether asked to or not; without the encrypted items in the reply
  // there is nothing to hand back next turn. Other models reject the include.
  if (model.reasoning) body.include = ["reasoning.encrypted_content"];
  if (request.reasoning && model.reasoning) body.reasoning = { effort: request.reasoning, summary: "auto" };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false, // zot's schemas are not written for strict mode (optional fields, open objects)
    }));
  }
  return body;
}

export function toResponsesInput(messages: readonly Message[]): ResponseInputItem[] {
  const input: ResponseInputItem[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const content = inputContent(message.content);
      if (content.length > 0) input.push({ type: "message", role: "user", content });
    } else if (message.role === "assistant") {
      input.push(...assistantItems(message.content));
    } else {
      input.push(...toolOutputItems(message.content));
    }
  }
  return input;
}

function inputContent(blocks: readonly ContentBlock[]): ResponseInputContent[] {
  const content: ResponseInputContent[] = [];
  for (const block of blocks) {
    if (block.type === "text" && block.text) content.push({ type: "input_text", text: block.text });
    else if (block.type === "image") content.push(inputImage(block));
  }
  return content;
}

/** In transcript order: a reasoning item must stay right before the output it led to. */
function assistantItems(blocks: readonly ContentBlock[]): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  let text: string[] = [];
  const flushText = () => {
    if (text.length > 0) items.push({ type: "message", role: "assistant", content: text.join("\n") });
    text = [];
  };
  for (const block of blocks) {
    if (block.type === "text") {
      if (block.text.trim()) text.push(block.text);
      continue;
    }
    flushText();
    if (block.type === "tool_call") {
      items.push({ type: "function_call", call_id: block.id, name: block.name, arguments: JSON.stringify(block.args ?? {}) });
    } else if (block.type === "thinking" && block.reasoning_id && block.opaque) {
      // Only encrypted items can be replayed: with store:false the server keeps nothing to look up
      // by id, and reasoning from another provider has no reasoning_id at all.
      items.push({
        type: "reasoning",
        id: block.reasoning_id,
        encrypted_content: block.opaque,
        summary: block.text ? [{ type: "summary_text", text: block.text }] : [],
      });
    }
  }
  flushText();
  return items;
}

/** function_call_output carries text; images follow in one user message after the outputs. */
function toolOutputItems(blocks: readonly ContentBlock[]): ResponseInputItem[] {
  const results = blocks.filter((b): b is ToolResultBlock => b.type === "tool_result");
  const items: ResponseInputItem[] = results.map((result) => ({
    type: "function_call_output",
    call_id: result.call_id,
    output: toolResultText(result),
  }));
  const images = results.flatMap((r) => r.content.filter((c): c is ImageBlock => c.type === "image"));
  if (images.length > 0) {
    items.push({
      type: "message",
      role: "user",
      content: [
        { type: "input_text", text: TOOL_IMAGES_INTRO },
        ...images.map(inputImage),
      ],
    });
  }
  return items;
}

function inputImage(image: ImageBlock): ResponseInputContent {
  return { type: "input_image", image_url: imageDataUrl(image), detail: "auto" };
}

interface OutputSlot {
  index: number;
  itemId: string;
  kind: "reasoning" | "message" | "function_call" | "other";
  text: string;
  /** reasoning: the summary parts by summary_index */
  summary: string[];
  encrypted?: string;
  callId?: string;
  name?: string;
  args: string;
  ended: boolean;
}

/** Builds provider events and the final message from Responses stream events. */
class ResponsesStreamAssembler {
  private readonly slots = new Map<number, OutputSlot>();
  private final: ResponsesResponse | undefined;
  private thinkingStreamed = false;

  get finished(): boolean {
    return this.final !== undefined;
  }

  push(event: ResponseStreamEvent): ProviderEvent[] {
    switch (event.type) {
      case "response.output_item.added": {
        const item = event.item;
        const slot = this.slot(event.output_index, item.id ?? "");
        if (item.type === "function_call") {
          slot.kind = "function_call";
          slot.callId = item.call_id;
          slot.name = item.name;
          const events: ProviderEvent[] = [{ type: "tool_use_start", id: item.call_id, name: item.name }];
          if (item.arguments) events.push(...this.appendArgs(slot, item.arguments));
          return events;
        }
        slot.kind = item.type === "reasoning" ? "reasoning" : item.type === "message" ? "message" : "other";
        return [];
      }
      case "response.output_text.delta": {
        const slot = this.slot(event.output_index, event.item_id);
        slot.kind = "message";
        slot.text += event.delta;
        return event.delta ? [{ type: "text_delta", delta: event.delta }] : [];
      }
      case "response.reasoning_summary_text.delta": {
        const slot = this.slot(event.output_index, event.item_id);
        slot.kind = "reasoning";
        const events: ProviderEvent[] = [];
        if (slot.summary[event.summary_index] === undefined) {
          if (this.thinkingStreamed) events.push({ type: "thinking_delta", delta: SUMMARY_SEPARATOR });
          slot.summary[event.summary_index] = "";
        }
        slot.summary[event.summary_index] += event.delta;
        if (event.delta) {
          this.thinkingStreamed = true;
          events.push({ type: "thinking_delta", delta: event.delta });
        }
        return events;
      }
      case "response.function_call_arguments.delta":
        return this.appendArgs(this.slot(event.output_index, event.item_id), event.delta);
      case "response.function_call_arguments.done": {
        // A server that skipped the deltas still sends the whole arguments here.
        const slot = this.slot(event.output_index, event.item_id);
        return slot.args ? [] : this.appendArgs(slot, event.arguments);
      }
      case "response.output_item.done":
        return this.itemDone(event.output_index, event.item);
      case "response.completed":
      case "response.incomplete":
        this.final = event.response;
        return this.closeCalls();
      case "response.failed":
        throw streamFailure(event.response.error?.message ?? "the response failed", event.response.error?.code);
      case "error":
        throw streamFailure(event.message || event.code || "unknown error", event.code);
      default:
        return [];
    }
  }

  finish(): ProviderEvent[] {
    const events = this.closeCalls();
    const usage = this.final?.usage;
    if (usage) {
      const cached = usage.input_tokens_details?.cached_tokens ?? 0;
      const tokens: TokenUsage = {
        input: Math.max(0, usage.input_tokens - cached),
        output: usage.output_tokens,
        cache_read: cached,
        cache_write: 0,
        // Part of output_tokens; a compatible server may leave the details out.
        reasoning: usage.output_tokens_details?.reasoning_tokens ?? null,
      };
      events.push({ type: "usage", usage: tokens });
    }
    const content: ContentBlock[] = [];
    for (const slot of [...this.slots.values()].sort((a, b) => a.index - b.index)) {
      if (slot.kind === "reasoning") {
        const text = slot.summary.filter((s) => s !== undefined).join(SUMMARY_SEPARATOR);
        if (text || slot.encrypted) {
          content.push({
            type: "thinking",
            text,
            reasoning_id: slot.itemId,
            ...(slot.encrypted ? { opaque: slot.encrypted } : {}),
          });
        }
      } else if (slot.kind === "message" && slot.text) {
        content.push({ type: "text", text: slot.text });
      } else if (slot.kind === "function_call" && slot.callId && slot.name) {
        content.push({ type: "tool_call", id: slot.callId, name: slot.name, args: parseJsonObject(slot.args) });
      }
    }
    events.push({ type: "done", content, stop: this.stopReason(content) });
    return events;
  }

  private stopReason(content: readonly ContentBlock[]): ProviderStopReason {
    if (this.final?.status === "incomplete" && this.final.incomplete_details?.reason === "max_output_tokens") {
      return "length";
    }
    return content.some((b) => b.type === "tool_call") ? "tool_use" : "end_turn";
  }

  private itemDone(index: number, item: Extract<ResponseStreamEvent, { type: "response.output_item.done" }>["item"]) {
    const slot = this.slot(index, item.id ?? "");
    const events: ProviderEvent[] = [];
    if (item.type === "function_call") {
      slot.kind = "function_call";
      if (!slot.callId) {
        slot.callId = item.call_id;
        slot.name = item.name;
        events.push({ type: "tool_use_start", id: item.call_id, name: item.name });
      }
      if (!slot.args && item.arguments) events.push(...this.appendArgs(slot, item.arguments));
      slot.args = item.arguments || slot.args;
      events.push(...this.closeCall(slot));
    } else if (item.type === "reasoning") {
      slot.kind = "reasoning";
      slot.encrypted = item.encrypted_content ?? undefined;
      // The finished item is the authority on the summary text.
      if (item.summary.length > 0) slot.summary = item.summary.map((s) => s.text);
    } else if (item.type === "message") {
      slot.kind = "message";
      const text = item.content.flatMap((c) => (c.type === "output_text" ? [c.text] : [])).join("");
      if (!slot.text && text) events.push({ type: "text_delta", delta: text });
      if (text) slot.text = text;
    }
    return events;
  }

  private slot(index: number, itemId: string): OutputSlot {
    let slot = this.slots.get(index);
    if (!slot) {
      slot = { index, itemId, kind: "other", text: "", summary: [], args: "", ended: false };
      this.slots.set(index, slot);
    }
    if (!slot.itemId && itemId) slot.itemId = itemId;
    return slot;
  }

  private appendArgs(slot: OutputSlot, delta: string): ProviderEvent[] {
    slot.args += delta;
    return delta && slot.callId && !slot.ended ? [{ type: "tool_use_args", id: slot.callId, delta }] : [];
  }

  private closeCall(slot: OutputSlot): ProviderEvent[] {
    if (slot.ended || !slot.callId) return [];
    slot.ended = true;
    return [{ type: "tool_use_end", id: slot.callId }];
  }

  private closeCalls(): ProviderEvent[] {
    return [...this.slots.values()].flatMap((slot) => (slot.kind === "function_call" ? this.closeCall(slot) : []));
  }
}

function streamFailure(message: string, code: string | null | undefined): ProviderError {
  const kind = isContextOverflow(code, message) ? "context_overflow" : "stream";
  return new ProviderError(`${NAME}: the model stopped with an error: ${message}`, kind);
}
