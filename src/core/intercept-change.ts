// The before/after of an interception decision, for the audit trail (the intercept event, the
// session's intercept records). Rule: both sides are bounded text: excerpts of what a participant
// rewrote (args, text, a tool result) and, for a model request or response, a summary of the parts
// that changed, never the whole request.
import type { ContentBlock, ToolResultContent } from "../protocol/messages.ts";
import { base64ByteLength } from "../protocol/messages.ts";
import type { ModelRequest } from "../protocol/provider.ts";
import type { ToolResult } from "../protocol/tool.ts";
import type { LlmResponse, StagePayloads, ToolArgs } from "./intercept.ts";

/** The most characters either side keeps; longer values are cut with a count of what was left out. */
export const CHANGE_TEXT_MAX = 2000;

export interface Change {
  before: string;
  after: string;
}

/** What a `modify` at `stage` changed between two payloads; undefined when nothing visible did. */
export function describeModify(stage: keyof StagePayloads, before: unknown, after: unknown): Change | undefined {
  switch (stage) {
    case "tool_call":
      return bounded(callText(before as StagePayloads["tool_call"]), callText(after as StagePayloads["tool_call"]));
    // What a participant rewrote a tool's output, the answer or a response to hide (a secret it
    // masked) is not repeated here: the audit says how long it was, and what it became.
    case "after_tool":
      return unrepeated("the tool's output", resultText((before as StagePayloads["after_tool"]).result), resultText((after as StagePayloads["after_tool"]).result));
    case "assistant_message":
      return unrepeated("the model's text", (before as StagePayloads["assistant_message"]).text, (after as StagePayloads["assistant_message"]).text);
    case "after_llm":
      return unrepeated(
        "the model's response",
        responseText((before as StagePayloads["after_llm"]).response),
        responseText((after as StagePayloads["after_llm"]).response),
      );
    case "before_llm":
      return requestChange((before as StagePayloads["before_llm"]).request, (after as StagePayloads["before_llm"]).request);
    default:
      return undefined;
  }
}

/**
 * A long text (a system prompt) that changed: each side's length and an excerpt from where they
 * first differ, so the change shows however deep in the text it is.
 */
export function describeTextChange(before: string, after: string): Change {
  const at = firstDifference(before, after);
  const excerpt = (s: string) => `${s.length} characters; from character ${at + 1}: "${s.slice(at, at + 400)}"`;
  return { before: excerpt(before), after: excerpt(after) };
}

/** A tool call answered without running the tool: the call it stood in for, and the answer given. */
export function describeRespond(call: StagePayloads["tool_call"], result: ToolResult): Change {
  return { before: clip(callText(call)), after: clip(resultText(result)) };
}

export function clip(text: string, max = CHANGE_TEXT_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** A rewrite whose original is not kept: its length, and what it became. */
function unrepeated(what: string, before: string, after: string): Change | undefined {
  return before === after ? undefined : { before: `${what} (${before.length} characters), not repeated`, after: clip(after) };
}

function bounded(before: string, after: string): Change | undefined {
  return before === after ? undefined : { before: clip(before), after: clip(after) };
}

/** `bash {"command":"ls"}`: the tool (a participant may rename it) and its arguments. */
function callText(call: { name: string; args: ToolArgs }): string {
  return `${call.name} ${JSON.stringify(call.args)}`;
}

function resultText(result: ToolResult): string {
  return `${result.is_error ? "(error) " : ""}${result.content.map(partText).join("\n")}`;
}

function partText(part: ToolResultContent): string {
  return part.type === "text" ? part.text : `[image ${part.mime_type}, ${base64ByteLength(part.data)} bytes]`;
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "thinking":
      return `[thinking, ${block.text.length} characters]`;
    case "tool_call":
      return `[tool_call ${block.name} ${JSON.stringify(block.args)}]`;
    case "tool_result":
      return `[tool_result ${block.call_id}${block.is_error ? " error" : ""}] ${block.content.map(partText).join("\n")}`;
    case "image":
      return partText(block);
  }
}

function responseText(response: LlmResponse): string {
  return `${response.content.map(blockText).join("\n")}${response.stop === "end_turn" ? "" : ` [stop: ${response.stop}]`}`;
}

/** The parts of a model request that differ, each side as `part: value` lines. */
function requestChange(a: ModelRequest, b: ModelRequest): Change | undefined {
  const before: string[] = [];
  const after: string[] = [];
  const part = (name: string, x: string, y: string) => {
    if (x === y) return;
    before.push(`${name}: ${clip(x, 400)}`);
    after.push(`${name}: ${clip(y, 400)}`);
  };
  part("model", `${a.model.provider}/${a.model.id}`, `${b.model.provider}/${b.model.id}`);
  if (a.system !== b.system) {
    const at = firstDifference(a.system, b.system);
    const excerpt = (s: string) => `${s.length} characters; from character ${at + 1}: "${s.slice(at, at + 200)}"`;
    part("system", excerpt(a.system), excerpt(b.system));
  }
  part("tools", a.tools.map((t) => t.name).join(",") || "none", b.tools.map((t) => t.name).join(",") || "none");
  part("reasoning", a.reasoning ?? "default", b.reasoning ?? "default");
  part("max tokens", String(a.maxTokens ?? "default"), String(b.maxTokens ?? "default"));
  if (a.messages.length !== b.messages.length) part("messages", `${a.messages.length}`, `${b.messages.length}`);
  const changed = firstChangedMessage(a, b);
  if (changed !== undefined) {
    const show = (r: ModelRequest) => {
      const m = r.messages[changed];
      return m ? `${m.role}: ${m.content.map(blockText).join("\n")}` : "(none)";
    };
    part(`message ${changed + 1}`, show(a), show(b));
  }
  if (before.length === 0) return undefined;
  return { before: clip(before.join("\n")), after: clip(after.join("\n")) };
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** The index of the first message that differs (compared by identity first, then by content). */
function firstChangedMessage(a: ModelRequest, b: ModelRequest): number | undefined {
  const n = Math.max(a.messages.length, b.messages.length);
  for (let i = 0; i < n; i++) {
    const x = a.messages[i];
    const y = b.messages[i];
    if (x === y) continue;
    if (!x || !y || JSON.stringify(x) !== JSON.stringify(y)) return i;
  }
  return undefined;
}
