// The script format: assistant turns played by the `scripted` provider (`--script FILE`) and by
// the test suite's mock LLM server. Extension authors use it to test without a model or a key.
// Rule: one turn per model call, played in order; a file is JSON (an array, or {"turns": [...]})
// or JSONL (one turn per line).
import * as v from "valibot";
import { Usage } from "./usage.ts";

export const ScriptToolCall = v.object({
  id: v.optional(v.string()),
  name: v.string(),
  args: v.optional(v.record(v.string(), v.unknown()), {}),
});

export const ScriptError = v.object({
  message: v.string(),
  /** HTTP status (mock server); the scripted provider reports it in the message */
  status: v.optional(v.number()),
  /** seconds; sent as retry-after by the mock server */
  retry_after: v.optional(v.number()),
});

export const ScriptTurn = v.object({
  /** streamed before text */
  thinking: v.optional(v.string()),
  /** `{{last_tool_result}}` is replaced by the text of the newest tool result in the request */
  text: v.optional(v.string()),
  tool_calls: v.optional(v.array(ScriptToolCall)),
  /** default: tool_use when there are tool calls, else end_turn */
  stop: v.optional(v.picklist(["end_turn", "tool_use", "length"])),
  /** tokens to report, any of input, output, cache_read, cache_write, reasoning (within output) */
  usage: v.optional(v.partial(v.omit(Usage, ["cost_usd"]))),
  /** fail this call: before streaming, or after the text when `text` is set too */
  error: v.optional(v.union([v.string(), ScriptError])),
  /** mock server only: break the wire format on purpose */
  fault: v.optional(v.picklist(["malformed", "disconnect"])),
  /** wait before the first byte */
  delay_ms: v.optional(v.number()),
  /** wait between chunks */
  chunk_delay_ms: v.optional(v.number()),
  /** characters per text delta (default 12) */
  chunk_size: v.optional(v.number()),
});

export const Script = v.union([v.array(ScriptTurn), v.object({ turns: v.array(ScriptTurn) })]);

export type ScriptToolCall = v.InferOutput<typeof ScriptToolCall>;
export type ScriptTurn = v.InferOutput<typeof ScriptTurn>;

/** Splits text into chunks of `size` characters without cutting a surrogate pair. */
export function chunkText(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

/** The usage a turn reports: its own numbers, or an estimate of about four characters a token. */
export function turnUsage(turn: ScriptTurn, requestChars: number) {
  const outChars = (turn.text?.length ?? 0) + (turn.thinking?.length ?? 0) + JSON.stringify(turn.tool_calls ?? []).length;
  return {
    input: turn.usage?.input ?? Math.max(1, Math.ceil(requestChars / 4)),
    output: turn.usage?.output ?? Math.max(1, Math.ceil(outChars / 4)),
    cache_read: turn.usage?.cache_read ?? 0,
    cache_write: turn.usage?.cache_write ?? 0,
    // Only when the turn says so: a provider that reports none reports null.
    reasoning: turn.usage?.reasoning ?? null,
  };
}

/** How a turn stops: its own `stop`, else tool_use when it calls tools, else end_turn. */
export function turnStop(turn: ScriptTurn): NonNullable<ScriptTurn["stop"]> {
  return turn.stop ?? (turn.tool_calls?.length ? "tool_use" : "end_turn");
}

export function errorMessage(error: NonNullable<ScriptTurn["error"]>): string {
  return typeof error === "string" ? error : error.message;
}
