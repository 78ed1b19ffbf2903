// The OpenAI Chat Completions wire format of the mock LLM (also what ollama and compatible servers
// speak): plays one ScriptTurn as `chat.completion.chunk` SSE ending in `data: [DONE]`, or fails it
// the way the real API fails.
// Rule: chunks look like the real API's (role first, tool calls by index with arguments cut into
// fragments, finish_reason, then a usage chunk with `choices: []` only when include_usage asked
// for it), so a test failure is zot's and not the mock's.
import type { FormatResponder, MockTurn, RecordedRequest, SseEvent } from "../mock-llm.ts";
import { contentText, fillTemplate, sseResponse } from "../mock-llm.ts";
import { isJsonObject } from "../../../src/protocol/json-object.ts";
import { chunkText, errorMessage, type ScriptTurn, turnStop, turnUsage } from "../../../src/protocol/script.ts";

/**
 * What both OpenAI formats check first: a missing key is a 401 and a scripted error with a status
 * is an HTTP error, as the real API answers; otherwise the request body, parsed.
 */
export function openaiRequestBody(turn: ScriptTurn, request: RecordedRequest): Response | Record<string, unknown> {
  if (!request.headers.authorization) {
    return openaiErrorResponse(401, "You didn't provide an API key.");
  }
  const error = turn.error;
  if (error && typeof error === "object" && error.status !== undefined) {
    return openaiErrorResponse(error.status, error.message, error.retry_after);
  }
  return isJsonObject(request.body) ? request.body : {};
}

export const openaiChatResponse: FormatResponder = (turn, request) => {
  const body = openaiRequestBody(turn, request);
  if (body instanceof Response) return body;
  const error = turn.error;
  const messages = Array.isArray(body.messages) ? body.messages : [];
  // Without text to stream first, a scripted error is the stream's only event.
  if (error && !turn.text) return sseResponse([streamError(errorMessage(error))], turn);

  const includeUsage = isJsonObject(body.stream_options) && body.stream_options.include_usage === true;
  const id = `chatcmpl-mock-${messages.length}`;
  const created = Math.floor(Date.now() / 1000);
  const model = typeof body.model === "string" ? body.model : "mock";
  const events: SseEvent[] = [];
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    events.push({
      data: JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created,
        model,
        system_fingerprint: "fp_mock",
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        // With include_usage the real API puts usage: null on every chunk but the last.
        ...(includeUsage ? { usage: null } : {}),
      }),
    });

  chunk({ role: "assistant", content: "", refusal: null });
  const chunkSize = turn.chunk_size ?? 12;
  if (turn.thinking) {
    // Not the OpenAI API's own field: what DeepSeek, vLLM and llama.cpp send for reasoning.
    for (const piece of chunkText(turn.thinking, chunkSize)) chunk({ reasoning_content: piece });
  }
  if (turn.text) {
    const text = fillTemplate(turn.text, lastToolResult(messages));
    for (const piece of chunkText(text, chunkSize)) chunk({ content: piece });
  }
  if (error) {
    // A failure after the 200: the real API sends an error object as a data line.
    events.push(streamError(errorMessage(error)));
    return sseResponse(events, turn);
  }
  for (const [index, call] of (turn.tool_calls ?? []).entries()) {
    const callId = call.id ?? `call_mock_${messages.length}_${index}`;
    chunk({ tool_calls: [{ index, id: callId, type: "function", function: { name: call.name, arguments: "" } }] });
    const json = JSON.stringify(call.args ?? {});
    for (const piece of chunkText(json, Math.max(1, Math.ceil(json.length / 3)))) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  }
  chunk({}, finishReason(turn));
  if (includeUsage) {
    const usage = turnUsage(turn, JSON.stringify(request.body ?? "").length);
    events.push({
      data: JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created,
        model,
        system_fingerprint: "fp_mock",
        choices: [],
        usage: turn.wire_usage ?? {
          // The real API counts cached tokens inside prompt_tokens.
          prompt_tokens: usage.input + usage.cache_read,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.cache_read + usage.output,
          prompt_tokens_details: { cached_tokens: usage.cache_read, audio_tokens: 0 },
          // The real API always reports it (0 without reasoning); a turn's usage.reasoning sets it.
          completion_tokens_details: { reasoning_tokens: usage.reasoning ?? 0, audio_tokens: 0 },
        },
      }),
    });
  }
  events.push({ data: "[DONE]" });
  return sseResponse(events, turn);
};

function finishReason(turn: MockTurn): string {
  if (turn.filtered) return "content_filter";
  const stop = turnStop(turn);
  return stop === "tool_use" ? "tool_calls" : stop === "length" ? "length" : "stop";
}

/** The error types and codes the OpenAI API uses, by status; shared with the Responses format. */
export function openaiErrorResponse(status: number, message: string, retryAfter?: number): Response {
  const headers: Record<string, string> = {};
  if (retryAfter !== undefined) headers["retry-after"] = String(retryAfter);
  return Response.json({ error: openaiErrorObject(status, message) }, { status, headers });
}

export function openaiErrorObject(status: number | undefined, message: string) {
  if (/context length|context window/i.test(message)) {
    return { message, type: "invalid_request_error", param: "messages", code: "context_length_exceeded" };
  }
  const [type, code] =
    status === 401
      ? ["invalid_request_error", "invalid_api_key"]
      : status === 429
        ? ["requests", "rate_limit_exceeded"]
        : status === undefined || status >= 500
          ? ["server_error", "server_error"]
          : ["invalid_request_error", null];
  return { message, type, param: null, code };
}

function streamError(message: string): SseEvent {
  return { data: JSON.stringify({ error: openaiErrorObject(undefined, message) }) };
}

/** The text of the newest `tool` message in a Chat Completions request. */
function lastToolResult(messages: unknown[]): string {
  const message = messages.findLast((m) => isJsonObject(m) && m.role === "tool");
  return isJsonObject(message) ? contentText(message.content) : "";
}
