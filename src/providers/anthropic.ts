// The Anthropic Messages provider: maps a ModelRequest onto one streaming /v1/messages call through
// @anthropic-ai/sdk, and the SSE events back onto ProviderEvents (through the shared stream driver).
// Rule: only opening the stream is ever retried; once the first byte has arrived, any failure ends
// the call with a ProviderError, because replaying would repeat output the user has already seen.
import { noFTL } from "bun:jsc";
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  RawMessageStreamEvent,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import type { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { GrowingText } from "../protocol/growing-text.ts";
import { isJsonObject, type JsonObject } from "../protocol/json-object.ts";
import { type ContentBlock, type ImageBlock, type Message, textOf, type ToolResultBlock } from "../protocol/messages.ts";
import type { ReasoningLevel } from "../protocol/models.ts";
import type { ModelRequest, OpenedAnswer, Provider, ProviderBatch, ProviderEvent, ProviderStopReason } from "../protocol/provider.ts";
import type { TokenUsage } from "../protocol/usage.ts";
import type { KeyOrigin } from "./provider-error-text.ts";
import type { StoppedAnswer } from "./provider-failure.ts";
import type { RetryOptions } from "./retry.ts";
import { BLOCK_BINDING_BETA, claudeOwnId, claudeThinking } from "./claude-thinking.ts";
import { silenceLimitMs } from "./silence-limit.ts";
import type { TextSlot } from "./repeated-shape.ts";
import { driveStream, type SdkCall, type WireAssembler } from "./stream-driver.ts";
import type { CustomHeaders } from "./custom-headers.ts";
import { tokenCount } from "./token-count.ts";
import { ToolCallAssembly } from "./tool-call-assembly.ts";
import type { KeySource } from "../protocol/key-source.ts";
import { modelFetch } from "./model-connections.ts";
import { warmConnection } from "./warm-connection.ts";
import { ANTHROPIC_IMAGE_LIMITS, requestImages } from "../protocol/request-images.ts";

export interface AnthropicProviderOptions {
  /** an API key; or, for gateways that want `Authorization: Bearer`, an `authToken` (ANTHROPIC_AUTH_TOKEN) */
  apiKey?: string;
  authToken?: string;
  /** a key that changes (Claude Code's apiKeyHelper), sent as both X-Api-Key and Bearer, asked before each call and again on a 401 */
  keySource?: KeySource;
  /** without /v1; https://api.anthropic.com when absent (the SDK never reads the environment itself) */
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

/** Thinking budgets per reasoning level, as the original zot sent them (models that take a budget: claude-thinking.ts). */
export const THINKING_BUDGETS: Record<ReasoningLevel, number> = { low: 2048, medium: 8192, high: 16384, xhigh: 32768, max: 49152 };
/** The smallest thinking budget the API takes. */
const MIN_THINKING_BUDGET = 1024;
/** Room left for the answer when max_tokens would not exceed the thinking budget. */
const ANSWER_HEADROOM = 4096;
const CACHE = { type: "ephemeral" } as const;

const DEFAULT_BASE_URL = "https://api.anthropic.com";

/** The SDK joins its path to the base URL as a string: a query there is given apart, as the SDK's defaultQuery. */
function baseAndQuery(baseUrl: string): { baseURL: string; defaultQuery?: Record<string, string> } {
  const at = baseUrl.indexOf("?");
  if (at === -1) return { baseURL: baseUrl };
  const query = Object.fromEntries(new URLSearchParams(baseUrl.slice(at + 1)));
  return { baseURL: baseUrl.slice(0, at).replace(/\/+$/, ""), defaultQuery: query };
}

export function createAnthropicProvider(options: AnthropicProviderOptions): Provider {
  const baseUrl = options.baseUrl?.replace(/\/+$/, "") || DEFAULT_BASE_URL;
  // The SDK is heavy: load it at the warm-up or the first call, so building a runtime (and `zot --version`) stays fast.
  // BaseAnthropic is the client without its resource objects (messages, models, beta, …): zot sends
  // one request through client.post, and building the ~20 resources cost 1 ms of every start.
  let client: Promise<{ sdk: typeof BaseAnthropic; client: BaseAnthropic }> | undefined;
  const connect = () =>
    (client ??= import("@anthropic-ai/sdk/client").then(({ BaseAnthropic: sdk }) => ({
      sdk,
      client: new sdk({
        // One credential, explicitly: null keeps the SDK from reading ANTHROPIC_* variables on its own.
        // A key source's key goes with each request instead (keyed()).
        apiKey: options.authToken || options.keySource ? null : (options.apiKey ?? null),
        authToken: options.keySource ? null : (options.authToken ?? null),
        // A query in the base URL (`https://gateway?tenant=acme`) goes with every request, not into its path.
        ...baseAndQuery(baseUrl),
        // The stream driver owns retrying, so a 429 is never retried twice over.
        maxRetries: 0,
        // The wait for a response: the same silence limit the stream's gaps have.
        timeout: options.silenceMs ?? silenceLimitMs(),
        // Nothing below the modes writes to the terminal; failures reach the user as ProviderErrors.
        logLevel: "off",
        // The pool every model call shares, whose idle connections close after a minute.
        fetch: modelFetch,
        ...(options.headers ? { defaultHeaders: options.headers } : {}),
      }),
    })));

  return {
    name: "anthropic",
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    warm: (signal) => {
      warmConnection(baseUrl, signal);
      connect().catch(() => {}); // the SDK and client too, while no call waits; a failure is the call's to report
    },
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderBatch> {
      const body = toAnthropicRequest(request);
      const headers = anthropicHeaders(request);
      return driveStream(
        {
          provider: "anthropic",
          baseUrl,
          ...(options.key ? { key: options.key } : {}),
          ...((options.authToken ?? options.apiKey) ? { secret: options.authToken ?? options.apiKey } : {}),
          ...(options.keySource ? { secrets: () => options.keySource!.given } : {}),
          ...(options.silenceMs !== undefined ? { silenceMs: options.silenceMs } : {}),
          onRetry: options.onRetry,
          maxRetries: options.maxRetries,
          retriesBefore: request.retriesBefore,
          onOpen: options.onOpen,
          assembler: new AnthropicAssembler(request.model.id),
          connect: async (): Promise<SdkCall> => {
            const { sdk, client } = await connect();
            return {
              errors: sdk,
              // client.post rather than messages.create: create() console.warn()s about deprecated
              // models (claude-sonnet-4-5 among them) on every call, straight onto the TUI.
              open: options.keySource
                ? (signal) => keyed(options.keySource!, sdk, signal, (key) => client.post("/v1/messages", { body, stream: true, signal, headers: { ...headers, ...keyHeaders(key) } }).asResponse())
                : (signal) => client.post("/v1/messages", { body, stream: true, signal, headers }).asResponse(),
            };
          },
        },
        signal,
      );
    },
  };
}

/** The headers Claude Code sends an apiKeyHelper's key in. */
function keyHeaders(key: string): Record<string, string> {
  return { "x-api-key": key, authorization: `Bearer ${key}` };
}

/**
 * A call with the key source's current key; refused (401) with a key it had before this call, it is
 * made once more with the key asked again, as Claude Code asks its apiKeyHelper on a 401.
 */
async function keyed(source: KeySource, sdk: typeof BaseAnthropic, signal: AbortSignal, open: (key: string) => Promise<Response>): Promise<Response> {
  const key = await source.current(signal);
  try {
    return await open(key);
  } catch (error) {
    if (!(error instanceof sdk.AuthenticationError)) throw error;
    const fresh = await source.refresh(signal);
    if (fresh === key) throw error;
    return await open(fresh);
  }
}

// ---------------------------------------------------------------------------------------------
// Request mapping

export function toAnthropicRequest(request: ModelRequest): MessageCreateParamsStreaming {
  const { model } = request;
  const thinking = claudeThinking(model.id);
  let maxTokens = request.maxTokens ?? model.max_output;
  const level = request.reasoning && model.reasoning ? request.reasoning : undefined;
  let budget = level && thinking.style === "budget" ? budgetFor(level, model.max_output) : undefined;
  // The API rejects a budget that does not leave room for the answer.
  if (budget !== undefined && maxTokens <= budget) maxTokens = budget + ANSWER_HEADROOM;
  // Nor more than the window leaves: the budget shrinks to half of that (the answer keeps the
  // other half), and a room too small for the least budget the API takes thinks not at all.
  const room = request.outputRoom;
  if (room !== undefined && maxTokens > room) {
    maxTokens = room;
    if (budget !== undefined) budget = Math.min(budget, Math.floor(room / 2));
    if (budget !== undefined && budget < MIN_THINKING_BUDGET) budget = undefined;
  }

  const body: MessageCreateParamsStreaming = {
    model: model.id,
    max_tokens: maxTokens,
    messages: toMessages(requestImages(request.messages, request.model, ANTHROPIC_IMAGE_LIMITS), model.id),
    stream: true,
  };
  // An empty system text block is rejected by the API, so no prompt means no system field.
  if (request.system) body.system = [{ type: "text", text: request.system, cache_control: CACHE }];
  if (request.tools.length > 0) {
    const last = request.tools.length - 1;
    body.tools = request.tools.map(
      (tool, i): Tool => ({
        name: tool.name,
        description: tool.description,
        input_schema: { type: "object", ...tool.parameters } as Tool.InputSchema,
        // The tool list rarely changes within a session: cache it with the system prompt.
        ...(i === last ? { cache_control: CACHE } : {}),
      }),
    );
  }
  if (budget !== undefined) body.thinking = { type: "enabled", budget_tokens: budget };
  if (thinking.style === "adaptive" && (level || thinking.unasked)) {
    // Fields the SDK's types (1.12) do not know yet; the request is sent as it is written here.
    const fields = body as unknown as Record<string, unknown>;
    fields.thinking = { type: "adaptive", display: "summarized", ...(thinking.bindsBlocks ? { block_binding: { prefix_mismatch_behavior: "drop_block" } } : {}) };
    if (level) fields.output_config = { effort: level };
  }
  markLastUserBlock(body.messages);
  return body;
}

/** The thinking budget of a level; xhigh and max as large as the output limit leaves room for, and never below high's. */
function budgetFor(level: ReasoningLevel, maxOutput: number): number {
  const wanted = THINKING_BUDGETS[level];
  if (level !== "xhigh" && level !== "max") return wanted;
  return Math.max(THINKING_BUDGETS.high, Math.min(wanted, maxOutput - ANSWER_HEADROOM));
}

/** The request's beta headers: the block-binding control for the models that bind thinking blocks. */
export function anthropicHeaders(request: ModelRequest): Record<string, string> {
  return claudeThinking(request.model.id).bindsBlocks ? { "anthropic-beta": BLOCK_BINDING_BETA } : {};
}

/**
 * Transcript messages → Anthropic messages. Tool-role messages become user messages of tool_result
 * blocks, kept apart from the user's own messages; results whose call is not in the assistant
 * message right before them are dropped, since the API rejects the whole request for one orphan.
 * Reasoning is replayed only to the model that wrote it (`model`: the one asked now).
 */
function toMessages(messages: readonly Message[], model: string): MessageParam[] {
  const out: MessageParam[] = [];
  let openCalls = new Set<string>();
  // The content of the tool-results message just sent, while the next transcript message may add to it.
  let resultsMessage: ContentBlockParam[] | undefined;
  // With thinking on, the API wants the last assistant message's thinking when it called tools (a
  // tool loop goes on): that one keeps its reasoning whoever wrote it.
  const last = messages.findLastIndex((message) => message.role === "assistant");
  const keepsAll = last >= 0 && messages[last]!.content.some((block) => block.type === "tool_call");
  for (const [index, message] of messages.entries()) {
    if (message.role === "assistant") {
      const content = assistantContent(message.content, index === last && keepsAll ? undefined : model);
      openCalls = new Set(content.flatMap((b) => (b.type === "tool_use" ? [b.id] : [])));
      resultsMessage = undefined;
      if (content.length > 0) out.push({ role: "assistant", content });
      continue;
    }
    const results: ContentBlockParam[] = message.content
      .filter((b): b is ToolResultBlock => b.type === "tool_result" && openCalls.has(anthropicToolId(b.call_id)))
      .map(toolResultContent);
    if (message.role === "tool") {
      if (results.length === 0) continue;
      // The API wants every result of one assistant message in the single user message after it.
      if (resultsMessage) resultsMessage.push(...results);
      else out.push({ role: "user", content: (resultsMessage = results) });
      continue;
    }
    const content = [...results, ...userContent(message.content)];
    openCalls = new Set();
    resultsMessage = undefined;
    if (content.length > 0) out.push({ role: "user", content });
  }
  return out;
}

/** `model`: the one asked now, whose reasoning alone goes back (undefined: anyone's). */
function assistantContent(blocks: readonly ContentBlock[], model: string | undefined): ContentBlockParam[] {
  const out: ContentBlockParam[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        if (block.text) out.push({ type: "text", text: block.text });
        break;
      case "thinking":
        // Only Anthropic's own reasoning can be replayed: it needs its signature (or the redacted
        // data); another provider's reasoning (reasoning_id) would be rejected, and so would a block
        // another Claude model signed (after a model switch: every later request would fail).
        if (block.reasoning_id) break;
        if (model !== undefined && block.model !== undefined && !sameClaudeModel(block.model, model)) break;
        if (block.signature) out.push({ type: "thinking", thinking: block.text, signature: block.signature });
        else if (block.opaque) out.push({ type: "redacted_thinking", data: block.opaque });
        break;
      case "tool_call":
        out.push({ type: "tool_use", id: anthropicToolId(block.id), name: block.name, input: block.args ?? {} });
        break;
    }
  }
  return out;
}

/** One Claude model under two spellings: an alias and its dated id, a gateway's, Bedrock's or Vertex's. */
function sameClaudeModel(a: string, b: string): boolean {
  if (a === b) return true;
  const own = claudeOwnId(a);
  return own !== undefined && own === claudeOwnId(b);
}

/** What the Messages API takes as a tool call's id (it refuses the request for any other). */
const ANTHROPIC_TOOL_ID = /^[a-zA-Z0-9_-]+$/;

/**
 * A tool call's id as Anthropic takes it. Another server's ids (Kimi's `functions.bash:0`) are
 * refused, and would stay in the transcript to fail every later request after a switch or a
 * resume: such an id is sent with its other characters as `_` and a hash of the whole, so a call
 * and its result still match and two ids never become one. The transcript keeps the id as it was.
 */
export function anthropicToolId(id: string): string {
  if (ANTHROPIC_TOOL_ID.test(id)) return id;
  return `${id.replace(/[^a-zA-Z0-9_-]/g, "_")}_${Bun.hash(id).toString(36)}`;
}

function userContent(blocks: readonly ContentBlock[]): ContentBlockParam[] {
  const out: ContentBlockParam[] = [];
  for (const block of blocks) {
    if (block.type === "text" && block.text) out.push({ type: "text", text: block.text });
    else if (block.type === "image") out.push(imageBlock(block));
  }
  return out;
}

function toolResultContent(block: ToolResultBlock): ToolResultBlockParam {
  const result: ToolResultBlockParam = { type: "tool_result", tool_use_id: anthropicToolId(block.call_id) };
  if (block.is_error) result.is_error = true;
  if (block.content.every((c) => c.type === "text")) {
    const text = textOf(block.content);
    if (text) result.content = text;
  } else {
    result.content = block.content.flatMap((c): Array<TextBlockParam | ImageBlockParam> => {
      if (c.type === "image") return [imageBlock(c)];
      return c.text ? [{ type: "text", text: c.text }] : [];
    });
  }
  return result;
}

type ImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

function imageBlock(image: ImageBlock): ImageBlockParam {
  const mime = image.mime_type.toLowerCase();
  // Only the four types reach here (protocol/sendable-images.ts stands a text in for any other).
  const mediaType = (mime === "image/jpg" ? "image/jpeg" : mime) as ImageMediaType;
  return { type: "image", source: { type: "base64", media_type: mediaType, data: image.data } };
}

/** Prompt caching: everything up to the newest user-side block is the prefix the next call reuses. */
function markLastUserBlock(messages: MessageParam[]): void {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "user" || typeof message.content === "string") continue;
    const last = message.content[message.content.length - 1];
    // Every user-side block type we send (text, image, tool_result) accepts a cache mark.
    if (last) Object.assign(last, { cache_control: CACHE });
    return;
  }
}

// ---------------------------------------------------------------------------------------------
// Stream mapping

type Building =
  | { type: "text"; text: GrowingText }
  | { type: "thinking"; text: GrowingText; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "tool_use" };

/** Folds SSE events into ProviderEvents and the final content, blocks kept in index order. */
class AnthropicAssembler implements WireAssembler {
  private readonly blocks = new Map<number, Building>();

  /** `model`: the id the request asked for, stamped on the reasoning it returns (assistantContent). */
  constructor(private readonly model: string) {}

  private readonly calls = new ToolCallAssembly();
  // Anthropic counts thinking inside output_tokens and reports no split: reasoning is unknown (null).
  private readonly usage: TokenUsage = { input: 0, output: 0, cache_read: 0, cache_write: 0, reasoning: null };
  /** of cache_write, the tokens written to the 1-hour cache (priced higher: core/cost.ts) */
  private hourWrites = 0;
  private stopReason: string | null = null;
  ended = false;

  get finished(): boolean {
    return this.ended;
  }

  get stoppedBy(): StoppedAnswer | undefined {
    if (this.stopReason === "refusal") {
      return { code: "refused", detail: "the model declined to answer (stop_reason: refusal); rephrase the request, or start a new session if an earlier message is the cause" };
    }
    if (this.stopReason === "model_context_window_exceeded") {
      return { code: "context_overflow", detail: "the conversation filled the model's context window while it answered (stop_reason: model_context_window_exceeded); compact it (/compact) or start a new session" };
    }
    return undefined;
  }

  push(data: JsonObject, out: ProviderEvent[]): void {
    const event = data as unknown as RawMessageStreamEvent;
    // The event of nearly every line, apart from the rest: the code that runs per delta stays small,
    // so the JIT has it optimized within the first few thousand deltas of a long answer.
    if (event.type !== "content_block_delta") {
      this.pushOther(event, out);
      return;
    }
    const block = this.blocks.get(event.index);
    const delta = event.delta;
    if (!block) return;
    if (delta.type === "text_delta" && block.type === "text") {
      block.text.append(delta.text);
      out.push({ type: "text_delta", delta: delta.text });
    } else if (delta.type === "thinking_delta" && block.type === "thinking") {
      block.text.append(delta.thinking);
      out.push({ type: "thinking_delta", delta: delta.thinking });
    } else if (delta.type === "signature_delta" && block.type === "thinking") {
      block.signature += delta.signature;
    } else if (delta.type === "input_json_delta" && block.type === "tool_use") {
      this.calls.add(event.index, { args: delta.partial_json }, out);
    }
  }

  /** A delta's text, thinking or tool-call arguments: what a long answer repeats. */
  textSlot(data: JsonObject): TextSlot | undefined {
    const delta = data.delta;
    if (data.type !== "content_block_delta" || !isJsonObject(delta)) return undefined;
    const key = delta.type === "text_delta" ? "text" : delta.type === "thinking_delta" ? "thinking" : delta.type === "input_json_delta" ? "partial_json" : undefined;
    return key && typeof delta[key] === "string" ? { holder: delta, key } : undefined;
  }

  /** Every event but a content_block_delta. */
  private pushOther(event: RawMessageStreamEvent, out: ProviderEvent[]): void {
    switch (event.type) {
      case "message_start": {
        // A compatible server may send no usage, or counts as strings: unknown counts are 0.
        const u: { [key: string]: unknown } = { ...event.message?.usage };
        this.usage.input = tokenCount(u.input_tokens, 0);
        this.usage.output = tokenCount(u.output_tokens, 0);
        this.usage.cache_read = tokenCount(u.cache_read_input_tokens, 0);
        this.usage.cache_write = tokenCount(u.cache_creation_input_tokens, 0);
        this.hourWrites = hourCacheWrites(u);
        out.push({ type: "usage", usage: this.usageNow() });
        break;
      }
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "text") {
          this.blocks.set(event.index, { type: "text", text: new GrowingText(block.text ?? "") });
          if (block.text) out.push({ type: "text_delta", delta: block.text });
        } else if (block.type === "thinking") {
          this.blocks.set(event.index, { type: "thinking", text: new GrowingText(block.thinking ?? ""), signature: block.signature ?? "" });
          if (block.thinking) out.push({ type: "thinking_delta", delta: block.thinking });
        } else if (block.type === "redacted_thinking") {
          this.blocks.set(event.index, { type: "redacted_thinking", data: block.data });
        } else if (block.type === "tool_use") {
          this.blocks.set(event.index, { type: "tool_use" });
          this.calls.add(event.index, { id: block.id, name: block.name }, out);
        }
        // Server tool blocks (web search and the like) are never requested, so never arrive.
        break;
      }
      case "content_block_stop":
        if (this.blocks.get(event.index)?.type === "tool_use") this.calls.end(event.index, out);
        break;
      case "message_delta": {
        // Assigned, not added: message_delta carries running totals. Input and cache counts only
        // replace the message_start ones when present, since some gateways send zeros here.
        const u: { [key: string]: unknown } = { ...event.usage };
        this.usage.output = tokenCount(u.output_tokens, this.usage.output);
        this.usage.input = tokenCount(u.input_tokens, 0) || this.usage.input;
        this.usage.cache_read = tokenCount(u.cache_read_input_tokens, 0) || this.usage.cache_read;
        this.usage.cache_write = tokenCount(u.cache_creation_input_tokens, 0) || this.usage.cache_write;
        this.hourWrites = hourCacheWrites(u) || this.hourWrites;
        this.stopReason = event.delta?.stop_reason ?? this.stopReason;
        out.push({ type: "usage", usage: this.usageNow() });
        break;
      }
      case "message_stop":
        this.ended = true;
        break;
    }
  }

  /** The usage so far; the 1-hour cache writes only when there are some. */
  private usageNow(): TokenUsage {
    return this.hourWrites > 0 ? { ...this.usage, cache_write_1h: this.hourWrites } : { ...this.usage };
  }

  finish(out: ProviderEvent[]): void {
    const content: ContentBlock[] = [];
    for (const index of [...this.blocks.keys()].sort((a, b) => a - b)) {
      const block = this.blocks.get(index)!;
      if (block.type === "text") {
        const text = block.text.text;
        if (text) content.push({ type: "text", text });
      } else if (block.type === "thinking") {
        content.push({ type: "thinking", text: block.text.text, ...(block.signature ? { signature: block.signature, model: this.model } : {}) });
      } else if (block.type === "redacted_thinking") {
        content.push({ type: "thinking", text: "", opaque: block.data, model: this.model });
      } else {
        const call = this.calls.block(index);
        if (call) content.push(call);
      }
    }
    out.push({ type: "done", content, stop: mapStop(this.stopReason, this.calls.any) });
  }
}

/**
 * The tokens of a usage written to the 1-hour cache (`cache_creation.ephemeral_1h_input_tokens`,
 * within cache_creation_input_tokens): what a gateway that asks for `ttl: "1h"` gets.
 */
function hourCacheWrites(usage: { [key: string]: unknown }): number {
  const creation = usage.cache_creation;
  return isJsonObject(creation) ? tokenCount(creation.ephemeral_1h_input_tokens, 0) : 0;
}

function mapStop(reason: string | null, hasCalls: boolean): ProviderStopReason {
  switch (reason) {
    case "tool_use":
      return "tool_use";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "end_turn":
    case "stop_sequence":
    case "pause_turn":
    case "refusal":
      return "end_turn";
    default:
      return hasCalls ? "tool_use" : "end_turn";
  }
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(AnthropicAssembler.prototype.push);
