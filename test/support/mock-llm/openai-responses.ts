// The OpenAI Responses wire format of the mock LLM: plays one ScriptTurn as the real `/v1/responses`
// event stream (response.created … response.completed), or fails it the way the real API fails.
// Rule: the full real event sequence, strict enough for the SDK's `responses.stream()` accumulator:
// one response id throughout, every item announced by output_item.added before anything refers to
// its output_index, every item done before response.completed, and a rising sequence_number.
import type { FormatResponder, SseEvent } from "../mock-llm.ts";
import { contentText, fillTemplate, sseResponse } from "../mock-llm.ts";
import { isJsonObject } from "../../../src/protocol/json-object.ts";
import { chunkText, errorMessage, type ScriptTurn, turnUsage } from "../../../src/protocol/script.ts";
import { openaiErrorObject, openaiRequestBody } from "./openai-chat.ts";

export const openaiResponsesResponse: FormatResponder = (turn, request) => {
  const body = openaiRequestBody(turn, request);
  if (body instanceof Response) return body;
  const error = turn.error;
  const input = Array.isArray(body.input) ? body.input : [];
  const events: SseEvent[] = [];
  let sequence = 0;
  const send = (type: string, data: Record<string, unknown>) =>
    events.push({ event: type, data: JSON.stringify({ type, ...data, sequence_number: sequence++ }) });

  // Without text to stream first, a scripted error is the stream's only event.
  if (error && !turn.text) {
    const { message, code, param } = openaiErrorObject(undefined, errorMessage(error));
    send("error", { code, message, param });
    return sseResponse(events, turn);
  }

  const turnNo = input.length;
  const response = {
    id: `resp_mock_${turnNo}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "in_progress",
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: typeof body.model === "string" ? body.model : "mock",
    output: [] as unknown[],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: body.reasoning ?? { effort: null, summary: null },
    store: body.store ?? true,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: body.tools ?? [],
    top_p: 1,
    truncation: "disabled",
    usage: null as unknown,
    metadata: {},
  };
  send("response.created", { response });
  send("response.in_progress", { response });

  const output: unknown[] = [];
  const chunkSize = turn.chunk_size ?? 12;
  const wantsEncrypted = Array.isArray(body.include) && body.include.includes("reasoning.encrypted_content");

  if (turn.thinking) {
    const output_index = output.length;
    const item_id = `rs_mock_${turnNo}`;
    const thinking = turn.thinking;
    send("response.output_item.added", {
      output_index,
      item: { id: item_id, type: "reasoning", summary: [], ...(wantsEncrypted ? { encrypted_content: null } : {}) },
    });
    send("response.reasoning_summary_part.added", {
      item_id,
      output_index,
      summary_index: 0,
      part: { type: "summary_text", text: "" },
    });
    for (const delta of chunkText(thinking, chunkSize)) {
      send("response.reasoning_summary_text.delta", { item_id, output_index, summary_index: 0, delta });
    }
    send("response.reasoning_summary_text.done", { item_id, output_index, summary_index: 0, text: thinking });
    send("response.reasoning_summary_part.done", {
      item_id,
      output_index,
      summary_index: 0,
      part: { type: "summary_text", text: thinking },
    });
    const item = {
      id: item_id,
      type: "reasoning",
      summary: [{ type: "summary_text", text: thinking }],
      // Opaque to the client; the real server decrypts it when it comes back in `input`.
      ...(wantsEncrypted ? { encrypted_content: `enc_mock:${Buffer.from(thinking).toString("base64")}` } : {}),
    };
    send("response.output_item.done", { output_index, item });
    output.push(item);
  }

  if (turn.text) {
    const output_index = output.length;
    const item_id = `msg_mock_${turnNo}`;
    const text = fillTemplate(turn.text, lastToolResult(input));
    const item = { id: item_id, type: "message", role: "assistant", status: "in_progress", content: [] as unknown[] };
    send("response.output_item.added", { output_index, item });
    const emptyPart = { type: "output_text", text: "", annotations: [], logprobs: [] };
    send("response.content_part.added", { item_id, output_index, content_index: 0, part: emptyPart });
    for (const delta of chunkText(text, chunkSize)) {
      send("response.output_text.delta", { item_id, output_index, content_index: 0, delta, logprobs: [] });
    }
    if (error) {
      // A failure after the 200: the real API ends the stream with response.failed.
      send("response.failed", {
        response: { ...response, status: "failed", error: { code: "server_error", message: errorMessage(error) } },
      });
      return sseResponse(events, turn);
    }
    const part = { ...emptyPart, text };
    send("response.output_text.done", { item_id, output_index, content_index: 0, text, logprobs: [] });
    send("response.content_part.done", { item_id, output_index, content_index: 0, part });
    const done = { ...item, status: "completed", content: [part] };
    send("response.output_item.done", { output_index, item: done });
    output.push(done);
  }

  for (const [i, call] of (turn.tool_calls ?? []).entries()) {
    const output_index = output.length;
    const item_id = `fc_mock_${turnNo}_${i}`;
    const base = { id: item_id, type: "function_call", call_id: call.id ?? `call_mock_${turnNo}_${i}`, name: call.name };
    send("response.output_item.added", { output_index, item: { ...base, status: "in_progress", arguments: "" } });
    const json = JSON.stringify(call.args ?? {});
    for (const delta of chunkText(json, Math.max(1, Math.ceil(json.length / 3)))) {
      send("response.function_call_arguments.delta", { item_id, output_index, delta });
    }
    send("response.function_call_arguments.done", { item_id, output_index, arguments: json });
    const done = { ...base, status: "completed", arguments: json };
    send("response.output_item.done", { output_index, item: done });
    output.push(done);
  }

  const usage = turnUsage(turn, JSON.stringify(request.body ?? "").length);
  const incomplete = turn.filtered ? "content_filter" : turn.stop === "length" ? "max_output_tokens" : undefined;
  send(incomplete ? "response.incomplete" : "response.completed", {
    response: {
      ...response,
      status: incomplete ? "incomplete" : "completed",
      incomplete_details: incomplete ? { reason: incomplete } : null,
      output,
      usage: turn.wire_usage ?? {
        // The real API counts cached tokens inside input_tokens.
        input_tokens: usage.input + usage.cache_read,
        input_tokens_details: { cached_tokens: usage.cache_read },
        output_tokens: usage.output,
        // The real API always reports it (0 without reasoning); a turn's usage.reasoning sets it.
        output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
        total_tokens: usage.input + usage.cache_read + usage.output,
      },
    },
  });
  return sseResponse(events, turn);
};

/** The text of the newest function_call_output in a Responses request's input. */
function lastToolResult(input: unknown[]): string {
  const item = input.findLast((i) => isJsonObject(i) && i.type === "function_call_output");
  return isJsonObject(item) ? contentText(item.output, "input_text") : "";
}
