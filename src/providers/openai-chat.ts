// The OpenAI Chat Completions provider: api.openai.com, ollama, and any OpenAI-compatible server
// (vLLM, llama.cpp, LM Studio, OpenRouter …), through the openai SDK.
// Rule: the wire request is derived from the transcript alone and the transcript is never changed
// for the wire: thinking stays home, but for the reasoning a Chat server streamed in a turn that
// called tools (DeepSeek's and Kimi's thinking models refuse such a turn without its reasoning_content), and
// tool-result images (which a `tool` message cannot carry) travel in a user message built here, not
// stored in the session.
import { noFTL } from "bun:jsc";
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { GrowingText } from "../protocol/growing-text.ts";
import { isJsonObject, type JsonObject } from "../protocol/json-object.ts";
import type { ContentBlock, ImageBlock, Message, ToolResultBlock } from "../protocol/messages.ts";
import { type ModelRequest, type OpenedAnswer, outputLimit, type Provider, type ProviderBatch, type ProviderEvent, type ProviderStopReason } from "../protocol/provider.ts";
import type { TokenUsage } from "../protocol/usage.ts";
import { callsById, imageDataUrl, openaiBaseUrl, openaiCall, openaiClient, openaiUsage, TOOL_IMAGES_INTRO, toolImagesLabel, toolResultText } from "./openai-mapping.ts";
import { openaiEffort } from "./openai-effort.ts";
import type { KeyOrigin } from "./provider-error-text.ts";
import type { RetryOptions } from "./retry.ts";
import type { StoppedAnswer } from "./provider-failure.ts";
import type { TextSlot } from "./repeated-shape.ts";
import { driveStream, type WireAssembler } from "./stream-driver.ts";
import { ToolCallAssembly } from "./tool-call-assembly.ts";
import { warmConnection } from "./warm-connection.ts";
import { OPENAI_IMAGE_LIMITS, requestImages } from "../protocol/request-images.ts";
import type { CustomHeaders } from "./custom-headers.ts";

export interface OpenAIChatOptions {
  /** names the provider in errors (`ollama: HTTP 404: …`) and picks the defaults */
  name: "openai" | "ollama";
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

const DEFAULT_BASE_URL = { openai: "https://api.openai.com/v1", ollama: "http://localhost:11434/v1" } as const;
/** ollama ignores the key, but the SDK insists on one. */
const OLLAMA_KEY = "ollama";
/** A tool result's text this long or shorter is repeated next to its images, to say what they are. */
const IMAGE_CAPTION_MAX_BYTES = 500;

export function createOpenAIChatProvider(options: OpenAIChatOptions): Provider {
  const name = options.name;
  const baseUrl = openaiBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL[name]);
  const client = openaiClient(options.apiKey || (name === "ollama" ? OLLAMA_KEY : ""), baseUrl, options.silenceMs, options.headers);
  return {
    name,
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    warm: (signal) => {
      warmConnection(baseUrl, signal);
      client().catch(() => {}); // the SDK and client too, while no call waits; a failure is the call's to report
    },
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderBatch> {
      const body = chatRequestBody(request);
      return driveStream(
        {
          provider: name,
          baseUrl,
          ...(options.key ? { key: options.key } : {}),
          ...(options.apiKey ? { secret: options.apiKey } : {}),
          ...(options.silenceMs !== undefined ? { silenceMs: options.silenceMs } : {}),
          onRetry: options.onRetry,
          maxRetries: options.maxRetries,
          retriesBefore: request.retriesBefore,
          onOpen: options.onOpen,
          assembler: new ChatAssembler(),
          connect: () => openaiCall(client, (openai, signal) => openai.chat.completions.create(body, { signal }).asResponse()),
        },
        signal,
      );
    },
  };
}

export function chatRequestBody(request: ModelRequest): ChatCompletionCreateParamsStreaming {
  const { model } = request;
  const maxTokens = outputLimit(request);
  const body: ChatCompletionCreateParamsStreaming = {
    model: model.id,
    messages: toChatMessages(request.system, requestImages(request.messages, request.model, OPENAI_IMAGE_LIMITS), request.model.id),
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
  if (request.reasoning && model.reasoning) body.reasoning_effort = openaiEffort(request.reasoning);
  return body;
}

export function toChatMessages(system: string, messages: readonly Message[], modelId = ""): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (system) out.push({ role: "system", content: system });
  const withReasoning = turnsWithToolCalls(messages);
  let calls = callsById([]);
  // DeepSeek's and Kimi's models want reasoning_content on each of those messages, empty where there
  // was none (a step that streamed none, a turn another model answered before a switch); a server
  // that streams `reasoning` (Groq) refuses the field, so others get it only where it was streamed.
  const alwaysField = REASONING_CONTENT_MODELS.test(modelId);
  for (const [index, message] of messages.entries()) {
    if (message.role === "user") {
      const user = userMessage(message.content);
      if (user) out.push(user);
    } else if (message.role === "assistant") {
      calls = callsById(message.content);
      const assistant = assistantMessage(message.content, withReasoning.has(index) ? (alwaysField ? "always" : "streamed") : "none");
      if (assistant) out.push(assistant);
    } else {
      out.push(...toolMessages(message.content, calls));
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

/** The models that want reasoning_content back, by id (DeepSeek's, Kimi's: `deepseek-v4-pro`, `moonshotai/kimi-k2-thinking`). */
const REASONING_CONTENT_MODELS = /deepseek|kimi|moonshot/i;

/**
 * The assistant messages of the turns (from a user message to the next) in which the model called
 * tools: DeepSeek's thinking mode wants the reasoning of every one of them back in every later
 * request, the answer that ended the turn included (a 400 otherwise); of a turn without tool calls
 * it wants none.
 */
function turnsWithToolCalls(messages: readonly Message[]): Set<number> {
  const marked = new Set<number>();
  let turn: number[] = [];
  let called = false;
  const close = () => {
    if (called) for (const index of turn) marked.add(index);
    turn = [];
    called = false;
  };
  for (const [index, message] of messages.entries()) {
    if (message.role === "user") close();
    else if (message.role === "assistant") {
      turn.push(index);
      if (message.content.some((block) => block.type === "tool_call")) called = true;
    }
  }
  close();
  return marked;
}

/** Text and tool calls; an assistant message with neither is left out (some servers reject it). */
function assistantMessage(blocks: readonly ContentBlock[], reasoningField: "always" | "streamed" | "none"): ChatCompletionAssistantMessageParam | undefined {
  const text = blocks.flatMap((b) => (b.type === "text" && b.text.trim() ? [b.text] : [])).join("\n");
  const toolCalls = blocks.flatMap((b) =>
    b.type === "tool_call"
      ? [{ id: b.id, type: "function" as const, function: { name: b.name, arguments: JSON.stringify(b.args ?? {}) } }]
      : [],
  );
  if (!text && toolCalls.length === 0) return undefined;
  // Reasoning a Chat server streamed as reasoning_content: sent back under that field in a turn that
  // called tools, as DeepSeek's and Kimi's thinking models require. A server that streamed it as
  // `reasoning` (Groq, Cerebras, OpenRouter, ollama) refuses reasoning_content, and gets none.
  const reasoning =
    reasoningField === "none" ? "" : blocks.flatMap((b) => (b.type === "thinking" && b.chat_field === "reasoning_content" && b.text ? [b.text] : [])).join("\n");
  return {
    role: "assistant",
    content: text || null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(reasoning || reasoningField === "always" ? { reasoning_content: reasoning } : {}),
  };
}

/**
 * One `tool` message per result. A `tool` message holds text only, so images go in a user message
 * right after the last of them (a user message between two tool messages would break the pairing
 * with the assistant's tool_calls).
 */
function toolMessages(blocks: readonly ContentBlock[], calls: ReturnType<typeof callsById>): ChatCompletionMessageParam[] {
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
      if (withImages.length > 1) parts.push({ type: "text", text: toolImagesLabel(result.call_id, calls.get(result.call_id)) });
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

function imagePart(image: ImageBlock): ChatCompletionContentPart {
  return { type: "image_url", image_url: { url: imageDataUrl(image) } };
}

/**
 * A chunk's usage with what other servers add to OpenAI's: DeepSeek's cache hits
 * (`prompt_cache_hit_tokens`, beside `prompt_cache_miss_tokens`), OpenRouter's cache writes
 * (`prompt_tokens_details.cache_write_tokens`, inside prompt_tokens as cached_tokens are).
 */
type ServersChatUsage = Omit<NonNullable<ChatCompletionChunk["usage"]>, "prompt_tokens_details"> & {
  prompt_tokens_details?: { cached_tokens?: unknown; cache_write_tokens?: unknown } | null;
  prompt_cache_hit_tokens?: unknown;
};

/** Builds provider events and the final message from chat.completion.chunk objects. */
class ChatAssembler implements WireAssembler {
  private readonly text = new GrowingText();
  private readonly thinking = new GrowingText();
  /** the field the server streamed its reasoning in (reasoning_content or reasoning) */
  private reasoningField: "reasoning_content" | "reasoning" | undefined;
  private readonly calls = new ToolCallAssembly();
  private finishReason: ChatCompletionChunk.Choice["finish_reason"] = null;
  private usage: TokenUsage | undefined;
  /** Chat Completions ends with `data: [DONE]`, which the stream driver watches for. */
  readonly ended = false;

  get finished(): boolean {
    return this.finishReason !== null;
  }

  get stoppedBy(): StoppedAnswer | undefined {
    if (this.finishReason === "content_filter") return { code: "refused", detail: "the provider's content filter stopped the answer (finish_reason: content_filter)" };
    // Not in the SDK's types: OpenRouter ends an answer its upstream failed with "error".
    if ((this.finishReason as string) === "error") return { code: "server_error", detail: "the server ended the answer with an error (finish_reason: error); try again" };
    return undefined;
  }

  push(data: JsonObject, out: ProviderEvent[]): void {
    const chunk = data as unknown as ChatCompletionChunk;
    if (chunk.usage) {
      const usage = chunk.usage as ServersChatUsage;
      this.usage = openaiUsage({
        input: usage.prompt_tokens,
        output: usage.completion_tokens,
        // DeepSeek says its cache hits apart (prompt_tokens is hits + misses), with no details.
        cached: usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens,
        written: usage.prompt_tokens_details?.cache_write_tokens,
        reasoning: usage.completion_tokens_details?.reasoning_tokens,
      });
    }
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta ?? {};
    // Not in the SDK's types: DeepSeek, vLLM and llama.cpp send reasoning_content, ollama and
    // OpenRouter send reasoning.
    const extra = delta as { reasoning_content?: unknown; reasoning?: unknown };
    const reasoning = typeof extra.reasoning_content === "string" ? extra.reasoning_content : extra.reasoning;
    if (typeof reasoning === "string" && reasoning) {
      if (this.thinking.isEmpty) this.reasoningField = typeof extra.reasoning_content === "string" ? "reasoning_content" : "reasoning";
      this.thinking.append(reasoning);
      out.push({ type: "thinking_delta", delta: reasoning });
    }
    if (delta.content) {
      this.text.append(delta.content);
      out.push({ type: "text_delta", delta: delta.content });
    }
    // A refusal is the model's answer, in a field of its own: shown and kept as its text.
    const refusal = (delta as { refusal?: unknown }).refusal;
    if (typeof refusal === "string" && refusal) {
      this.text.append(refusal);
      out.push({ type: "text_delta", delta: refusal });
    }
    const calls = delta.tool_calls;
    if (calls) {
      for (let position = 0; position < calls.length; position++) {
        const call = calls[position]!;
        // Servers that leave out `index` send whole calls, one per array entry.
        // Some compatible servers send the arguments as an object, not as JSON text.
        const args: unknown = call.function?.arguments;
        this.calls.add(call.index ?? position, { id: call.id, name: call.function?.name, args: typeof args === "string" || args == null ? args : JSON.stringify(args) }, out);
      }
    }
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      this.calls.endAll(out);
    }
  }

  /** A chunk's text, reasoning or one tool call's arguments: what a long answer repeats. */
  textSlot(data: JsonObject): TextSlot | undefined {
    const choice: unknown = Array.isArray(data.choices) && data.choices.length === 1 ? data.choices[0] : undefined;
    if (!isJsonObject(choice) || !isJsonObject(choice.delta)) return undefined;
    const delta = choice.delta;
    // The text that is there: some servers send an empty content beside the reasoning they stream.
    for (const key of ["content", "reasoning_content", "reasoning"]) if (typeof delta[key] === "string" && delta[key] !== "") return { holder: delta, key };
    const calls = delta.tool_calls;
    const call: unknown = Array.isArray(calls) && calls.length === 1 ? calls[0] : undefined;
    const fn = isJsonObject(call) ? call.function : undefined;
    return isJsonObject(fn) && typeof fn.arguments === "string" ? { holder: fn, key: "arguments" } : undefined;
  }

  /** The usage and the done event; called once the stream has ended with a finish_reason. */
  finish(out: ProviderEvent[]): void {
    this.calls.endAll(out);
    this.finishUsage(out);
    const content: ContentBlock[] = [];
    if (!this.thinking.isEmpty) content.push({ type: "thinking", text: this.thinking.text, ...(this.reasoningField ? { chat_field: this.reasoningField } : {}) });
    if (!this.text.isEmpty) content.push({ type: "text", text: this.text.text });
    content.push(...this.calls.blocks());
    out.push({ type: "done", content, stop: this.stopReason() });
  }

  /** The usage, which the server sends after the finish_reason, a content filter's included. */
  finishUsage(out: ProviderEvent[]): void {
    if (this.usage) out.push({ type: "usage", usage: this.usage });
  }

  private stopReason(): ProviderStopReason {
    if (this.finishReason === "length") return "length";
    // Some compatible servers (older ollama, vLLM) say "stop" even when they called tools.
    if (this.finishReason === "tool_calls" || this.finishReason === "function_call") return "tool_use";
    return this.calls.any ? "tool_use" : "end_turn";
  }
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(ChatAssembler.prototype.push);
