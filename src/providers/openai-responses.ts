// The OpenAI Responses provider (api.openai.com `/v1/responses`), through the openai SDK.
// Rule: stateless on the server (store:false), so every request carries the whole conversation,
// including the encrypted reasoning items a reasoning model needs back to keep its train of thought
// across tool calls.
import { noFTL } from "bun:jsc";
import type {
  ResponseCreateParamsStreaming,
  ResponseInputContent,
  ResponseInputItem,
  ResponseStreamEvent,
  Response as ResponsesResponse,
} from "openai/resources/responses/responses";
import { GrowingText } from "../protocol/growing-text.ts";
import type { JsonObject } from "../protocol/json-object.ts";
import type { ContentBlock, ImageBlock, Message, ToolResultBlock } from "../protocol/messages.ts";
import { type ModelRequest, type OpenedAnswer, outputLimit, type Provider, type ProviderBatch, type ProviderEvent, type ProviderStopReason } from "../protocol/provider.ts";
import type { CustomHeaders } from "./custom-headers.ts";
import { callsById, imageDataUrl, openaiBaseUrl, openaiCall, openaiClient, openaiUsage, TOOL_IMAGES_INTRO, toolImagesLabel, toolResultText } from "./openai-mapping.ts";
import { openaiEffort } from "./openai-effort.ts";
import type { KeyOrigin, ProviderSpeaker } from "./provider-error-text.ts";
import { type StoppedAnswer, streamErrorFailure } from "./provider-failure.ts";
import type { RetryOptions } from "./retry.ts";
import { driveStream, type WireAssembler } from "./stream-driver.ts";
import { ToolCallAssembly } from "./tool-call-assembly.ts";
import { warmConnection } from "./warm-connection.ts";
import { OPENAI_IMAGE_LIMITS, requestImages } from "../protocol/request-images.ts";

export interface OpenAIResponsesOptions {
  apiKey: string;
  baseUrl?: string;
  /** where the key came from, for the sentence of an auth failure */
  key?: KeyOrigin;
  /** told about each retry of the open, for --debug */
  onRetry?: RetryOptions["onRetry"];
  /** the run's limit on retries of a failed call (CLAUDE_CODE_MAX_RETRIES), when it set one */
  maxRetries?: number;
  /** told each time a response opened, before its body is read */
  onOpen?: OpenedAnswer;
  /** how long a call may stay silent (silence-limit.ts); default: what zot's environment says */
  silenceMs?: number;
  /** the custom headers for this server (custom-headers.ts; null: taken out) */
  headers?: CustomHeaders;
}

const NAME = "openai";
const DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Streamed reasoning summaries are separate paragraphs; this joins them, live and stored alike. */
const SUMMARY_SEPARATOR = "\n\n";

export function createOpenAIResponsesProvider(options: OpenAIResponsesOptions): Provider {
  const baseUrl = openaiBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL);
  const client = openaiClient(options.apiKey, baseUrl, options.silenceMs, options.headers);
  const speaker: ProviderSpeaker = {
    provider: NAME,
    baseUrl,
    ...(options.key ? { key: options.key } : {}),
    ...(options.apiKey ? { secret: options.apiKey } : {}),
    ...(options.silenceMs !== undefined ? { silenceMs: options.silenceMs } : {}),
  };
  return {
    name: NAME,
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    warm: (signal) => {
      warmConnection(baseUrl, signal);
      client().catch(() => {}); // the SDK and client too, while no call waits; a failure is the call's to report
    },
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderBatch> {
      const body = responsesRequestBody(request);
      return driveStream(
        {
          ...speaker,
          onRetry: options.onRetry,
          maxRetries: options.maxRetries,
          retriesBefore: request.retriesBefore,
          onOpen: options.onOpen,
          assembler: new ResponsesAssembler(speaker),
          connect: () => openaiCall(client, (openai, signal) => openai.responses.create(body, { signal }).asResponse()),
        },
        signal,
      );
    },
  };
}

export function responsesRequestBody(request: ModelRequest): ResponseCreateParamsStreaming {
  const { model } = request;
  const body: ResponseCreateParamsStreaming = {
    model: model.id,
    instructions: request.system || null,
    input: toResponsesInput(requestImages(request.messages, request.model, OPENAI_IMAGE_LIMITS)),
    stream: true,
    store: false,
    max_output_tokens: outputLimit(request),
  };
  // Reasoning models think whether asked to or not; without the encrypted items in the reply
  // there is nothing to hand back next turn. Other models reject the include.
  if (model.reasoning) body.include = ["reasoning.encrypted_content"];
  if (request.reasoning && model.reasoning) body.reasoning = { effort: openaiEffort(request.reasoning), summary: "auto" };
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
  let calls = callsById([]);
  for (const message of messages) {
    if (message.role === "user") {
      const content = inputContent(message.content);
      if (content.length > 0) input.push({ type: "message", role: "user", content });
    } else if (message.role === "assistant") {
      calls = callsById(message.content);
      input.push(...assistantItems(message.content));
    } else {
      input.push(...toolOutputItems(message.content, calls));
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
function toolOutputItems(blocks: readonly ContentBlock[], calls: ReturnType<typeof callsById>): ResponseInputItem[] {
  const results = blocks.filter((b): b is ToolResultBlock => b.type === "tool_result");
  const items: ResponseInputItem[] = results.map((result) => ({
    type: "function_call_output",
    call_id: result.call_id,
    output: toolResultText(result),
  }));
  const withImages = results.filter((r) => r.content.some((c) => c.type === "image"));
  if (withImages.length > 0) {
    // Results of several calls with images: each call's images after its name, so before.png and after.png are told apart.
    const content: ResponseInputContent[] = [{ type: "input_text", text: TOOL_IMAGES_INTRO }];
    for (const result of withImages) {
      if (withImages.length > 1) content.push({ type: "input_text", text: toolImagesLabel(result.call_id, calls.get(result.call_id)) });
      content.push(...result.content.filter((c): c is ImageBlock => c.type === "image").map(inputImage));
    }
    items.push({ type: "message", role: "user", content });
  }
  return items;
}

function inputImage(image: ImageBlock): ResponseInputContent {
  return { type: "input_image", image_url: imageDataUrl(image), detail: "auto" };
}

/** One item of the response's output, by its output_index; a function call's pieces live in the assembly. */
interface OutputSlot {
  index: number;
  itemId: string;
  kind: "reasoning" | "message" | "function_call" | "other";
  text: GrowingText;
  /** reasoning: the summary parts by summary_index */
  summary: GrowingText[];
  encrypted?: string;
}

/** Builds provider events and the final message from Responses stream events. */
class ResponsesAssembler implements WireAssembler {
  private readonly slots = new Map<number, OutputSlot>();
  private readonly calls = new ToolCallAssembly();
  private final: ResponsesResponse | undefined;
  private thinkingStreamed = false;

  constructor(private readonly speaker: ProviderSpeaker) {}

  /** the response's last event (completed or incomplete) arrived */
  ended = false;

  get finished(): boolean {
    return this.ended;
  }

  get stoppedBy(): StoppedAnswer | undefined {
    if (this.final?.status !== "incomplete" || this.final.incomplete_details?.reason !== "content_filter") return undefined;
    return { code: "refused", detail: "the provider's content filter stopped the answer (incomplete: content_filter)" };
  }

  push(data: JsonObject, out: ProviderEvent[]): void {
    const event = data as unknown as ResponseStreamEvent;
    switch (event.type) {
      case "response.output_item.added": {
        const item = event.item;
        const slot = this.slot(event.output_index, item.id ?? "");
        if (item.type === "function_call") {
          slot.kind = "function_call";
          this.calls.add(event.output_index, { id: item.call_id, name: item.name, args: item.arguments }, out);
        } else {
          slot.kind = item.type === "reasoning" ? "reasoning" : item.type === "message" ? "message" : "other";
        }
        break;
      }
      case "response.output_text.delta":
      // A refusal is the model's answer, in a part of its own: shown and kept as its text.
      case "response.refusal.delta": {
        const slot = this.slot(event.output_index, event.item_id);
        slot.kind = "message";
        slot.text.append(event.delta);
        if (event.delta) out.push({ type: "text_delta", delta: event.delta });
        break;
      }
      case "response.reasoning_summary_text.delta": {
        const slot = this.slot(event.output_index, event.item_id);
        slot.kind = "reasoning";
        let part = slot.summary[event.summary_index];
        if (part === undefined) {
          if (this.thinkingStreamed) out.push({ type: "thinking_delta", delta: SUMMARY_SEPARATOR });
          part = slot.summary[event.summary_index] = new GrowingText();
        }
        part.append(event.delta);
        if (event.delta) {
          this.thinkingStreamed = true;
          out.push({ type: "thinking_delta", delta: event.delta });
        }
        break;
      }
      case "response.function_call_arguments.delta":
        this.slot(event.output_index, event.item_id);
        this.calls.add(event.output_index, { args: event.delta }, out);
        break;
      case "response.function_call_arguments.done":
        // A server that skipped the deltas still sends the whole arguments here.
        this.slot(event.output_index, event.item_id);
        this.calls.complete(event.output_index, event.arguments, out);
        break;
      case "response.output_item.done":
        this.itemDone(event.output_index, event.item, out);
        break;
      case "response.completed":
      case "response.incomplete":
        this.final = event.response;
        this.ended = true;
        this.calls.endAll(out);
        break;
      case "response.failed":
        throw streamErrorFailure(this.speaker, event.response.error ?? { message: "the response failed" });
    }
  }

  finish(out: ProviderEvent[]): void {
    this.calls.endAll(out);
    this.finishUsage(out);
    const content: ContentBlock[] = [];
    for (const slot of [...this.slots.values()].sort((a, b) => a.index - b.index)) {
      if (slot.kind === "reasoning") {
        const text = slot.summary.flatMap((part) => (part === undefined ? [] : [part.text])).join(SUMMARY_SEPARATOR);
        if (text || slot.encrypted) {
          content.push({
            type: "thinking",
            text,
            reasoning_id: slot.itemId,
            ...(slot.encrypted ? { opaque: slot.encrypted } : {}),
          });
        }
      } else if (slot.kind === "message" && !slot.text.isEmpty) {
        content.push({ type: "text", text: slot.text.text });
      } else if (slot.kind === "function_call") {
        const call = this.calls.block(slot.index);
        if (call) content.push(call);
      }
    }
    out.push({ type: "done", content, stop: this.stopReason(content) });
  }

  /** The usage, which the last event carries: response.incomplete's too, when a content filter stopped it. */
  finishUsage(out: ProviderEvent[]): void {
    const usage = this.final?.usage;
    if (!usage) return;
    out.push({
      type: "usage",
      usage: openaiUsage({
        input: usage.input_tokens,
        output: usage.output_tokens,
        cached: usage.input_tokens_details?.cached_tokens,
        reasoning: usage.output_tokens_details?.reasoning_tokens,
      }),
    });
  }

  private stopReason(content: readonly ContentBlock[]): ProviderStopReason {
    if (this.final?.status === "incomplete" && this.final.incomplete_details?.reason === "max_output_tokens") {
      return "length";
    }
    return content.some((b) => b.type === "tool_call") ? "tool_use" : "end_turn";
  }

  private itemDone(
    index: number,
    item: Extract<ResponseStreamEvent, { type: "response.output_item.done" }>["item"],
    out: ProviderEvent[],
  ): void {
    const slot = this.slot(index, item.id ?? "");
    if (item.type === "function_call") {
      slot.kind = "function_call";
      this.calls.add(index, { id: item.call_id, name: item.name }, out);
      this.calls.complete(index, item.arguments, out);
      this.calls.end(index, out);
    } else if (item.type === "reasoning") {
      slot.kind = "reasoning";
      slot.encrypted = item.encrypted_content ?? undefined;
      // The finished item is the authority on the summary text.
      if (item.summary.length > 0) slot.summary = item.summary.map((s) => new GrowingText(s.text));
    } else if (item.type === "message") {
      slot.kind = "message";
      const text = item.content.flatMap((c) => (c.type === "output_text" ? [c.text] : [])).join("");
      if (slot.text.isEmpty && text) out.push({ type: "text_delta", delta: text });
      if (text) slot.text.text = text;
    }
  }

  private slot(index: number, itemId: string): OutputSlot {
    let slot = this.slots.get(index);
    if (!slot) {
      slot = { index, itemId, kind: "other", text: new GrowingText(), summary: [] };
      this.slots.set(index, slot);
    }
    if (!slot.itemId && itemId) slot.itemId = itemId;
    return slot;
  }
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(ResponsesAssembler.prototype.push);
noFTL(ResponsesAssembler.prototype["slot"]);
