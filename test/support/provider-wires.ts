// The three wire APIs as the provider suite sees them: how to build each provider against a
// server, what its mock sends, and the few things that rightly differ between them (the API's
// own error names, the usage each reports). Rule: one descriptor per wire; a behaviour every wire
// must share is tested once over all three (test/providers/wires.test.ts), never per wire.
import type { ErrorCode } from "../../src/protocol/error-code.ts";
import type { ModelInfo } from "../../src/protocol/models.ts";
import type { OpenedAnswer, Provider } from "../../src/protocol/provider.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import type { TokenUsage } from "../../src/protocol/usage.ts";
import { createAnthropicProvider } from "../../src/providers/anthropic.ts";
import { createOpenAIChatProvider } from "../../src/providers/openai-chat.ts";
import { createOpenAIResponsesProvider } from "../../src/providers/openai-responses.ts";
import type { KeyOrigin } from "../../src/providers/provider-error-text.ts";
import type { RetryOptions } from "../../src/providers/retry.ts";
import type { FormatResponder, RecordedRequest } from "./mock-llm.ts";
import { anthropicResponse } from "./mock-llm/anthropic.ts";
import { openaiChatResponse } from "./mock-llm/openai-chat.ts";
import { openaiResponsesResponse } from "./mock-llm/openai-responses.ts";
import { testModel } from "./test-model.ts";

export interface ProviderOptions {
  apiKey?: string;
  key?: KeyOrigin;
  onRetry?: RetryOptions["onRetry"];
  onOpen?: OpenedAnswer;
  /** the run's limit on retries (CLAUDE_CODE_MAX_RETRIES) */
  maxRetries?: number;
}

export interface Wire {
  api: "anthropic-messages" | "openai-chat" | "openai-responses";
  /** the provider's name, which leads its sentences */
  name: string;
  /** the path its requests go to */
  path: string;
  model: ModelInfo;
  /** the base URL the provider is given for a server at `url` (no path) */
  baseUrl(url: string): string;
  provider(url: string, options?: ProviderOptions): Provider;
  /** the API's own name for a rejected key, as its 401 body says it */
  authLabel: string;
  /** the code of the mock's error inside a stream: Anthropic sends overloaded_error, OpenAI server_error */
  streamErrorCode: ErrorCode;
  /** the usage the provider reports for a turn's `usage` (what each API counts differs) */
  usage(turn: Required<Pick<TokenUsage, "input" | "output" | "cache_read" | "cache_write">> & { reasoning: number }): TokenUsage;
  /** the mock's answer for a turn, as bytes on the wire */
  respond: FormatResponder;
  /** SSE events of a stream that stops before the model finished, after the text "half" */
  truncated: string[];
}

const sse = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const chatChunk = (delta: Record<string, unknown>) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;

export const WIRES: Wire[] = [
  {
    api: "anthropic-messages",
    name: "anthropic",
    path: "/v1/messages",
    model: testModel({ id: "claude-test", provider: "anthropic", api: "anthropic-messages", max_output: 8000, reasoning: true }),
    baseUrl: (url) => url,
    provider: (url, o = {}) => createAnthropicProvider({ apiKey: o.apiKey ?? "sk-test", baseUrl: url, key: o.key, onRetry: o.onRetry, onOpen: o.onOpen, maxRetries: o.maxRetries }),
    authLabel: "authentication_error",
    streamErrorCode: "overloaded",
    // Anthropic does not split thinking tokens out of output_tokens.
    usage: (u) => ({ input: u.input, output: u.output, cache_read: u.cache_read, cache_write: u.cache_write, reasoning: null }),
    respond: anthropicResponse,
    truncated: [
      sse("message_start", {
        message: { id: "m", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } },
      }),
      sse("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      sse("content_block_delta", { index: 0, delta: { type: "text_delta", text: "half" } }),
    ],
  },
  {
    api: "openai-chat",
    name: "openai",
    path: "/v1/chat/completions",
    model: testModel({ id: "gpt-test", provider: "openai", api: "openai-chat", max_output: 4096 }),
    baseUrl: (url) => `${url}/v1`,
    provider: (url, o = {}) =>
      createOpenAIChatProvider({ name: "openai", apiKey: o.apiKey ?? "sk-test", baseUrl: `${url}/v1`, key: o.key, onRetry: o.onRetry, onOpen: o.onOpen, maxRetries: o.maxRetries }),
    authLabel: "invalid_api_key",
    streamErrorCode: "server_error",
    // Cache writes are not reported; reasoning tokens are, within the output.
    usage: (u) => ({ input: u.input, output: u.output, cache_read: u.cache_read, cache_write: 0, reasoning: u.reasoning }),
    respond: openaiChatResponse,
    truncated: [chatChunk({ role: "assistant", content: "half" }), "data: [DONE]\n\n"],
  },
  {
    api: "openai-responses",
    name: "openai",
    path: "/v1/responses",
    model: testModel({ id: "gpt-test", provider: "openai", api: "openai-responses", max_output: 4096 }),
    baseUrl: (url) => `${url}/v1`,
    provider: (url, o = {}) =>
      createOpenAIResponsesProvider({ apiKey: o.apiKey ?? "sk-test", baseUrl: `${url}/v1`, key: o.key, onRetry: o.onRetry, onOpen: o.onOpen, maxRetries: o.maxRetries }),
    authLabel: "invalid_api_key",
    streamErrorCode: "server_error",
    usage: (u) => ({ input: u.input, output: u.output, cache_read: u.cache_read, cache_write: 0, reasoning: u.reasoning }),
    respond: openaiResponsesResponse,
    truncated: [
      sse("response.created", { response: { id: "r", object: "response", status: "in_progress", output: [] } }),
      sse("response.output_item.added", { output_index: 0, item: { id: "m1", type: "message", role: "assistant", content: [] } }),
      sse("response.output_text.delta", { item_id: "m1", output_index: 0, content_index: 0, delta: "half" }),
    ],
  },
];

/** The bytes the mock would send for a turn, as text, without a server. */
export async function mockBody(wire: Wire, turn: ScriptTurn): Promise<string> {
  const request: RecordedRequest = {
    method: "POST",
    path: wire.path,
    headers: { authorization: "Bearer sk-test", "x-api-key": "sk-test" },
    body: { model: wire.model.id, messages: [], input: [], stream_options: { include_usage: true } },
  };
  return await wire.respond(turn, request).text();
}

/** Loopback servers that send a fixed body, for what the mock does not send; stopped by `stopAll`. */
export class RawServers {
  private readonly servers: { stop(force?: boolean): unknown }[] = [];

  /** A server answering every request with `body`, `chunk` bytes at a time; its URL. */
  serve(body: string, chunk = Number.POSITIVE_INFINITY): string {
    const bytes = new TextEncoder().encode(body);
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              for (let i = 0; i < bytes.length; i += chunk) controller.enqueue(bytes.slice(i, Math.min(i + chunk, bytes.length)));
              controller.close();
            },
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
    });
    this.servers.push(server);
    return `http://127.0.0.1:${server.port}`;
  }

  /** A server answering every request with `status` and `body` (a proxy's error page); its URL. */
  refuse(status: number, body: string, contentType: string): string {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(body, { status, headers: { "content-type": contentType } }) });
    this.servers.push(server);
    return `http://127.0.0.1:${server.port}`;
  }

  async stopAll(): Promise<void> {
    for (const server of this.servers.splice(0)) await server.stop(true);
  }
}
