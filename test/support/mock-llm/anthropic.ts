// The Anthropic Messages wire format of the mock LLM: plays one ScriptTurn as the real API would
// stream it (message_start … message_stop), or fails it the way the real API fails.
// Rule: every event carries the fields the real SDK relies on (message_start.message.content and
// usage, message_delta.usage.output_tokens), so a test failure is zot's and not the mock's.
import type { FormatResponder, SseEvent } from "../mock-llm.ts";
import { contentText, fillTemplate, sseResponse } from "../mock-llm.ts";
import { isJsonObject } from "../../../src/protocol/json-object.ts";
import { chunkText, errorMessage, type ScriptTurn, turnStop, turnUsage } from "../../../src/protocol/script.ts";

/** Anthropic's error type for an HTTP status, as its API names them. */
const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

export const anthropicResponse: FormatResponder = (turn, request) => {
  // The SDK sends its key as Authorization: Bearer; curl users and other clients send x-api-key.
  if (!request.headers["x-api-key"] && !request.headers.authorization) {
    return errorResponse(401, "x-api-key header is required");
  }
  const error = turn.error;
  if (error && typeof error === "object" && error.status !== undefined) {
    const headers: Record<string, string> = {};
    if (error.retry_after !== undefined) headers["retry-after"] = String(error.retry_after);
    return errorResponse(error.status, error.message, headers);
  }

  const body = isJsonObject(request.body) ? request.body : {};
  const messages = Array.isArray(body.messages) ? body.messages : [];
  // Without text to stream first, a scripted error is the stream's only event.
  if (error && !turn.text) return sseResponse([streamError(errorMessage(error))], turn);

  const usage = turnUsage(turn, JSON.stringify(request.body ?? "").length);
  const events: SseEvent[] = [];
  const send = (type: string, data: Record<string, unknown>) =>
    events.push({ event: type, data: JSON.stringify({ type, ...data }) });

  send("message_start", {
    message: {
      id: `msg_mock_${messages.length}`,
      type: "message",
      role: "assistant",
      model: typeof body.model === "string" ? body.model : "mock",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input,
        // The real API reports a token or so here and the true count in message_delta.
        output_tokens: 1,
        cache_read_input_tokens: usage.cache_read,
        cache_creation_input_tokens: usage.cache_write,
      },
    },
  });
  events.push({ event: "ping", data: JSON.stringify({ type: "ping" }) });

  let index = 0;
  const chunkSize = turn.chunk_size ?? 12;
  if (turn.thinking) {
    send("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
    for (const piece of chunkText(turn.thinking, chunkSize)) {
      send("content_block_delta", { index, delta: { type: "thinking_delta", thinking: piece } });
    }
    send("content_block_delta", { index, delta: { type: "signature_delta", signature: `mocksig_${messages.length}` } });
    send("content_block_stop", { index });
    index++;
  }
  if (turn.text) {
    const text = fillTemplate(turn.text, lastToolResult(messages));
    send("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const piece of chunkText(text, chunkSize)) {
      send("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
    }
    send("content_block_stop", { index });
    index++;
  }
  if (error) {
    // Overloaded mid-answer: the real API's way of failing after the 200.
    events.push(streamError(errorMessage(error)));
    return sseResponse(events, turn);
  }
  for (const [i, call] of (turn.tool_calls ?? []).entries()) {
    const id = call.id ?? `toolu_mock_${messages.length}_${i}`;
    send("content_block_start", { index, content_block: { type: "tool_use", id, name: call.name, input: {} } });
    // The real API opens with an empty fragment, then cuts the JSON anywhere.
    const json = JSON.stringify(call.args ?? {});
    for (const piece of ["", ...chunkText(json, Math.max(1, Math.ceil(json.length / 3)))]) {
      send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
    }
    send("content_block_stop", { index });
    index++;
  }

  send("message_delta", {
    delta: { stop_reason: stopReason(turn), stop_sequence: null },
    usage: {
      input_tokens: usage.input,
      output_tokens: usage.output,
      cache_read_input_tokens: usage.cache_read,
      cache_creation_input_tokens: usage.cache_write,
    },
  });
  send("message_stop", {});
  return sseResponse(events, turn);
};

function stopReason(turn: ScriptTurn): string {
  const stop = turnStop(turn);
  return stop === "length" ? "max_tokens" : stop;
}

function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return Response.json({ type: "error", error: { type, message } }, { status, headers });
}

function streamError(message: string): SseEvent {
  return { event: "error", data: JSON.stringify({ type: "error", error: { type: "overloaded_error", message } }) };
}

/** The text of the newest tool_result in an Anthropic request's messages. */
function lastToolResult(messages: unknown[]): string {
  const blocks = messages.flatMap((message) => (isJsonObject(message) && Array.isArray(message.content) ? message.content : []));
  const result = blocks.findLast((block) => isJsonObject(block) && block.type === "tool_result");
  return isJsonObject(result) ? contentText(result.content) : "";
}
