// A mock LLM server on loopback speaking the real streaming wire formats (Anthropic Messages,
// OpenAI Chat Completions, OpenAI Responses) from a script of turns, recording every request.
// The real SDKs (inside the compiled binary, or in-process) talk to it through --base-url.
// Rule: one scripted turn per request, in order, whatever the endpoint; an exhausted script
// answers 400 so a test fails loudly instead of hanging.
import { isJsonObject } from "../../src/protocol/json-object.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import { anthropicResponse } from "./mock-llm/anthropic.ts";
import { openaiChatResponse } from "./mock-llm/openai-chat.ts";
import { openaiResponsesResponse } from "./mock-llm/openai-responses.ts";

export interface RecordedRequest {
  method: string;
  path: string;
  /** the URL's query, "" when none (a base URL's `?tenant=…`) */
  query?: string;
  headers: Record<string, string>;
  body: any;
  /** set when the client went away before the response was complete (an abort mid-stream) */
  aborted?: boolean;
}

/**
 * A turn of the script, and what only the mock plays: a server's own way of saying a thing the
 * script format has no words for. The two OpenAI formats play these; Anthropic's ignores them.
 */
export type MockTurn = ScriptTurn & {
  /**
   * the usage object sent as it is, instead of the one made from `usage`: a compatible server's
   * missing or string counts, another server's cache fields
   */
  wire_usage?: Record<string, unknown>;
  /**
   * the answer ends as a content filter ends it, its usage still sent: Chat's finish_reason
   * content_filter, Responses' response.incomplete with reason content_filter
   */
  filtered?: boolean;
};

/** Builds the HTTP response for one turn in one wire format. */
export type FormatResponder = (turn: MockTurn, request: RecordedRequest) => Response;

const ROUTES: Record<string, FormatResponder> = {
  "/v1/messages": anthropicResponse,
  "/v1/chat/completions": openaiChatResponse,
  "/v1/responses": openaiResponsesResponse,
};

export interface MockLlm {
  /** base URL without a path, e.g. http://127.0.0.1:40123 */
  url: string;
  requests: RecordedRequest[];
  /** the HEAD requests zot opens a connection with while it waits for a prompt (providers/warm-connection.ts): answered, never in `requests`, never a turn */
  warmups: { path: string; at: number }[];
  /** turns not yet played */
  turns: MockTurn[];
  push(...turns: MockTurn[]): void;
  stop(): Promise<void>;
}

export function startMockLlm(turns: MockTurn[] = []): MockLlm {
  const queue = [...turns];
  const requests: RecordedRequest[] = [];
  const warmups: MockLlm["warmups"] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method === "HEAD") {
        warmups.push({ path: url.pathname, at: requests.length });
        return new Response(null, { status: 404 });
      }
      const path = url.pathname.replace(/^\/v1\/v1\//, "/v1/");
      const text = await req.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {}
      const recorded: RecordedRequest = {
        method: req.method,
        path,
        query: url.search,
        headers: Object.fromEntries(req.headers),
        body,
      };
      requests.push(recorded);
      req.signal.addEventListener("abort", () => (recorded.aborted = true));
      const route = ROUTES[path];
      if (!route) return Response.json({ error: { message: `mock: no route ${path}` } }, { status: 404 });
      const turn = queue.shift();
      if (!turn) {
        return Response.json(
          { type: "error", error: { type: "invalid_request_error", message: "mock: script exhausted" } },
          { status: 400 },
        );
      }
      if (turn.delay_ms) await Bun.sleep(turn.delay_ms);
      return route(turn, recorded);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    warmups,
    turns: queue,
    push: (...more) => queue.push(...more),
    stop: () => server.stop(true),
  };
}

export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * Streams SSE events in small byte chunks (cutting UTF-8 sequences and lines apart) with a gap
 * between chunks, as real servers and proxies do. `fault` breaks the stream on purpose, always
 * after some events went out: "malformed" replaces the middle event's JSON with garbage (keeping
 * its event name, so every SDK parses it), "disconnect" drops the connection there.
 */
export function sseResponse(events: SseEvent[], turn: ScriptTurn): Response {
  const frames = events.map((e) => `${e.event ? `event: ${e.event}\n` : ""}data: ${e.data}\n\n`);
  const middle = Math.floor(frames.length / 2);
  if (turn.fault === "malformed") {
    const name = events[middle]?.event;
    frames[middle] = `${name ? `event: ${name}\n` : ""}data: {"this is": not json\n\n`;
  }
  const bytes = new TextEncoder().encode(frames.join(""));
  const cutAt = turn.fault === "disconnect" ? new TextEncoder().encode(frames.slice(0, middle).join("")).length : bytes.length;
  const chunk = 64;
  const gap = turn.chunk_delay_ms ?? 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (let i = 0; i < cutAt; i += chunk) {
        controller.enqueue(bytes.subarray(i, Math.min(i + chunk, cutAt)));
        if (gap) await Bun.sleep(gap);
      }
      if (turn.fault === "disconnect") {
        // Let the first half reach the client before the connection drops.
        await Bun.sleep(20);
        // No reason given: Bun resets the connection without printing an error, since this fault
        // is expected (a reason would be logged by the server as if the mock had crashed).
        controller.error();
      } else controller.close();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/** A turn's text with `{{last_tool_result}}` replaced by the newest tool result's text. */
export function fillTemplate(text: string, lastToolResult: string): string {
  return text.replaceAll("{{last_tool_result}}", lastToolResult);
}

/**
 * A tool result's content field as text, in any of the three wire formats: a string as it is, an
 * array by its parts of type `textType` joined by newlines, anything else as "".
 */
export function contentText(content: unknown, textType = "text"): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((part): part is { text: string } => isJsonObject(part) && part.type === textType && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n");
}
