// What the two OpenAI wire APIs (Chat Completions and Responses) share in mapping zot's transcript
// onto a request and a response back onto zot's: the client, tool results as text, images as data
// URLs, the message that carries tool-result images, and the token usage.
// Rule: the two APIs say these things the same way, so they are written once, here; what differs
// between them (message shapes, reasoning, tools) stays in each provider's file.
import type OpenAI from "openai";
import type { ContentBlock, ImageBlock, ToolResultBlock } from "../protocol/messages.ts";
import { textOf } from "../protocol/messages.ts";
import type { TokenUsage } from "../protocol/usage.ts";
import { modelFetch } from "./model-connections.ts";
import { openaiSdk } from "./openai-sdk.ts";
import { silenceLimitMs } from "./silence-limit.ts";
import type { SdkCall } from "./stream-driver.ts";
import type { CustomHeaders } from "./custom-headers.ts";
import { tokenCount } from "./token-count.ts";

/**
 * An SDK client, made at the first call that needs it (the SDK loads then: openai-sdk.ts), so
 * what the SDK refuses in its options is that call's error, as with the Anthropic client.
 */
export type OpenAIClient = () => Promise<OpenAI>;

/**
 * An SDK client for one base URL and key. Always explicit: the runtime has already read
 * OPENAI_BASE_URL / OLLAMA_HOST and the key; the SDK must not read them again.
 */
export function openaiClient(apiKey: string, baseUrl: string, silenceMs = silenceLimitMs(), headers?: CustomHeaders): OpenAIClient {
  let client: Promise<OpenAI> | undefined;
  return () =>
    (client ??= openaiSdk().then(
      ({ default: OpenAI }) =>
        new OpenAI({
          apiKey,
          baseURL: baseUrl,
          maxRetries: 0, // the stream driver owns the retry policy
          timeout: silenceMs, // the wait for a response: the same silence limit the stream's gaps have
          logLevel: "off", // failures reach the user as ProviderErrors; the SDK must not print to the terminal
          fetch: modelFetch, // the pool every model call shares, whose idle connections close after a minute
          ...(headers ? { defaultHeaders: headers } : {}), // custom-headers.ts
        }),
    ));
}

/**
 * The base URL both APIs are asked at: one with no path (`http://localhost:11434`, a proxy's
 * `https://llm.example.com`) gets `/v1`, where OpenAI and every OpenAI-compatible server serve
 * both `/chat/completions` and `/responses`; one with a path (`…/api/v1`, `…/v1beta/openai`) is
 * taken as given. One rule for both, so OPENAI_BASE_URL reaches the same server whichever API
 * the model speaks.
 */
export function openaiBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  try {
    const url = new URL(trimmed);
    if (url.pathname !== "/") return trimmed;
    // On the path, not the string: a query (`http://gateway?tenant=acme`) stays a query.
    url.pathname = "/v1";
    return url.toString();
  } catch {
    return trimmed; // the SDK reports an unusable URL in its own words
  }
}

/** One call through the client: the SDK sends it, the stream driver reads the raw response. */
export async function openaiCall(client: OpenAIClient, open: (client: OpenAI, signal: AbortSignal) => Promise<Response>): Promise<SdkCall> {
  const [{ APIError, APIConnectionError, APIUserAbortError }, made] = await Promise.all([openaiSdk(), client()]);
  return { errors: { APIError, APIConnectionError, APIUserAbortError }, open: (signal) => open(made, signal) };
}

/**
 * Introduces the user message that carries tool-result images (a tool message or output item holds
 * text only); both APIs send the same words.
 */
export const TOOL_IMAGES_INTRO = "Tool output included the following image content:";

/**
 * Names the call whose images come after it, when results of several calls carry images
 * (before.png and after.png read at once): by its tool and what it was about, since many chat
 * templates show the model no call ids; `call`: the assistant's tool call of that id, when known.
 */
export function toolImagesLabel(callId: string, call?: { name: string; args?: Record<string, unknown> }): string {
  if (!call) return `From tool call ${callId}:`;
  const about = ["path", "file_path", "url", "command", "uri"].map((key) => call.args?.[key]).find((value): value is string => typeof value === "string");
  const shown = about === undefined ? "" : ` ${about.length > 80 ? `${about.slice(0, 79)}…` : about}`;
  return `From ${call.name}${shown} (call ${callId}):`;
}

/** The tool calls of an assistant message, by id: what toolImagesLabel names a result's images by. */
export function callsById(blocks: readonly ContentBlock[]): Map<string, { name: string; args?: Record<string, unknown> }> {
  return new Map(blocks.flatMap((b) => (b.type === "tool_call" ? [[b.id, { name: b.name, args: b.args }] as const] : [])));
}

/** The result's text; an error is marked so the model knows the call failed. */
export function toolResultText(result: ToolResultBlock): string {
  let text = textOf(result.content);
  if (!text) text = result.content.some((c) => c.type === "image") ? "(image output follows)" : "(no output)";
  return result.is_error ? `${text} [error]` : text;
}

/** An image inline as a `data:` URL, the way both APIs take one. */
export function imageDataUrl(image: ImageBlock): string {
  return `data:${image.mime_type};base64,${image.data}`;
}

/**
 * The counts both APIs report, whatever they call them (prompt/input, completion/output), as the
 * server sent them: read through tokenCount, never trusted.
 */
export interface OpenAIUsageCounts {
  input: unknown;
  output: unknown;
  /** tokens read from the prompt cache, counted inside `input` */
  cached?: unknown;
  /** tokens written to the prompt cache, counted inside `input` (OpenRouter says them; OpenAI writes for free) */
  written?: unknown;
  reasoning?: unknown;
}

/**
 * zot's usage from OpenAI's: cached and written tokens are counted inside the input, so they are
 * taken out; reasoning tokens are part of the output (compatible servers often leave the details
 * out: null). A count that is missing or no count at all is 0, as in the Anthropic reader.
 */
export function openaiUsage(counts: OpenAIUsageCounts): TokenUsage {
  const cached = tokenCount(counts.cached, 0);
  const written = tokenCount(counts.written, 0);
  return {
    input: Math.max(0, tokenCount(counts.input, 0) - cached - written),
    output: tokenCount(counts.output, 0),
    cache_read: cached,
    cache_write: written,
    reasoning: tokenCount(counts.reasoning, null),
  };
}
