// The `scripted` provider: plays a script of assistant turns (`--script FILE`, the built-in demo)
// with the same event stream a real model produces, offline and free. Extension authors and the
// test suite use it to drive the agent without a model or a key.
// Rule: one turn per model call, in order; it streams like a model (chunked text, tool arguments
// in fragments, one batch per chunk, as one read of a response would bring) and honours its abort
// signal between every chunk.
import * as v from "valibot";
import { isJsonObject } from "../protocol/json-object.ts";
import { type ContentBlock, type Message, textOf } from "../protocol/messages.ts";
import { type ModelRequest, type OpenedAnswer, type Provider, type ProviderBatch, type ProviderEvent, ProviderError } from "../protocol/provider.ts";
import { firstIssue } from "../protocol/schema-issue.ts";
import { chunkText, errorMessage, ScriptToolCall, ScriptTurn, turnStop, turnUsage } from "../protocol/script.ts";
import { codeOf } from "./provider-failure.ts";
import { sleepUnlessAborted } from "../protocol/abortable-sleep.ts";
import { readRegularFile } from "../config/regular-file.ts";

const DEFAULT_CHUNK_SIZE = 12;
/** Tool arguments arrive in about this many pieces, as they do from a real model. */
const ARG_FRAGMENTS = 3;
const LAST_TOOL_RESULT = "{{last_tool_result}}";
/** The same without the bash tool's status line (`[exit 0] 0.0s`): what a person would be shown. */
const LAST_TOOL_OUTPUT = "{{last_tool_output}}";
const BASH_STATUS_LINE = /\n?\[(?:exit -?\d+|timed out after \d+s|aborted|killed by \w+)\] [\d.hms]+$/;

export interface ScriptedProvider extends Provider {
  /** turns played so far */
  readonly played: number;
}

/** `onOpen` is told as each turn begins to answer, as a real provider tells it when a response opens. */
export function createScriptedProvider(turns: readonly ScriptTurn[], onOpen?: OpenedAnswer, maxRetries?: number): ScriptedProvider {
  let played = 0;
  // Ids are unique across the whole run, not per turn: the transcript pairs results with calls by id.
  let nextCallId = 1;

  async function* stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ProviderBatch> {
    throwIfAborted(signal);
    const turn = turns[played];
    // As the mock LLM server answers an exhausted script: a request the "provider" refuses.
    if (!turn) throw new ProviderError(`scripted: the script has no turn left (played ${played})`, "bad_request");
    played++;

    if (turn.delay_ms) await sleep(turn.delay_ms, signal);
    if (turn.error !== undefined && !turn.text) throw scriptError(turn.error);
    onOpen?.();

    const chunkSize = Math.max(1, Math.floor(turn.chunk_size ?? DEFAULT_CHUNK_SIZE));
    const gap = turn.chunk_delay_ms ?? 0;
    let first = true;
    // Every chunk after the first waits the gap; every chunk checks the signal.
    const pace = async () => {
      if (!first && gap > 0) await sleep(gap, signal);
      first = false;
      throwIfAborted(signal);
    };

    const content: ContentBlock[] = [];
    if (turn.thinking) {
      for (const delta of chunkText(turn.thinking, chunkSize)) {
        await pace();
        yield [{ type: "thinking_delta", delta }];
      }
      content.push({ type: "thinking", text: turn.thinking });
    }

    if (turn.text) {
      const text = turn.text.includes("{{last_tool_")
        ? turn.text
            .replaceAll(LAST_TOOL_RESULT, () => lastToolResultText(request.messages))
            .replaceAll(LAST_TOOL_OUTPUT, () => lastToolResultText(request.messages).replace(BASH_STATUS_LINE, ""))
        : turn.text;
      for (const delta of chunkText(text, chunkSize)) {
        await pace();
        yield [{ type: "text_delta", delta }];
      }
      content.push({ type: "text", text });
    }
    // An error after text: the model said something, then the connection broke.
    if (turn.error !== undefined) throw scriptError(turn.error);

    for (const call of turn.tool_calls ?? []) {
      const id = call.id ?? `call_${nextCallId++}`;
      await pace();
      yield [{ type: "tool_use_start", id, name: call.name }];
      const json = JSON.stringify(call.args);
      const fragments = chunkText(json, Math.max(1, Math.ceil(json.length / ARG_FRAGMENTS)));
      // The call's end comes with its last fragment, as a server sends them back to back.
      for (const [i, delta] of fragments.entries()) {
        await pace();
        const args: ProviderEvent = { type: "tool_use_args", id, delta };
        yield i === fragments.length - 1 ? [args, { type: "tool_use_end", id }] : [args];
      }
      if (fragments.length === 0) yield [{ type: "tool_use_end", id }];
      content.push({ type: "tool_call", id, name: call.name, args: call.args });
    }

    const requestChars =
      request.system.length + JSON.stringify(request.messages).length + JSON.stringify(request.tools).length;
    throwIfAborted(signal);
    yield [
      { type: "usage", usage: turnUsage(turn, requestChars) },
      { type: "done", content, stop: turnStop(turn) },
    ];
  }

  return {
    name: "scripted",
    ...(maxRetries !== undefined ? { maxRetries } : {}),
    get played() {
      return played;
    },
    stream,
  };
}

/** The text of the newest tool result in the request, for `{{last_tool_result}}`. */
function lastToolResultText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const blocks = messages[i].content;
    for (let j = blocks.length - 1; j >= 0; j--) {
      const block = blocks[j];
      if (block.type === "tool_result") return textOf(block.content);
    }
  }
  return "(no tool result)";
}

function scriptError(error: NonNullable<ScriptTurn["error"]>): ProviderError {
  const status = typeof error === "string" ? undefined : error.status;
  const message = status !== undefined ? `scripted: http ${status}: ${errorMessage(error)}` : `scripted: ${errorMessage(error)}`;
  // Coded as a real provider's failure with that status and words would be (a 429 is rate_limit,
  // "prompt is too long" a context overflow); without a status, as an error inside the stream.
  return new ProviderError(message, codeOf(status, undefined, undefined, errorMessage(error)), status !== undefined ? { status } : {});
}

function abortError(): DOMException {
  return new DOMException("scripted: the request was aborted", "AbortError");
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError();
}

async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (!(await sleepUnlessAborted(ms, signal))) throw abortError();
}

/** A script file that cannot be played: the message names the file, the line or turn, and the field. */
export class ScriptFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ScriptFileError";
  }
}

const TURN_FIELDS = new Set(Object.keys(ScriptTurn.entries));
const TOOL_CALL_FIELDS = new Set(Object.keys(ScriptToolCall.entries));

/**
 * Reads a script: JSON (an array of turns, or {"turns": [...]}) or JSONL (one turn a line).
 * A `.jsonl` file is always read as JSONL; otherwise JSON is tried first.
 */
export function loadScript(file: string): ScriptTurn[] {
  let text: string;
  try {
    // A pipe is read: the user named it (`--script <(…)`).
    text = readRegularFile(file, "utf8", { pipes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ScriptFileError(
      code === "ENOENT" ? `script ${file} does not exist; check the --script path.` : `cannot read script ${file}: ${(error as Error).message}`,
    );
  }
  const turns = file.endsWith(".jsonl") ? parseJsonl(file, text) : parseJsonOrJsonl(file, text);
  if (turns.length === 0) throw new ScriptFileError(`script ${file} has no turns; add at least one.`);
  return turns;
}

function parseJsonOrJsonl(file: string, text: string): ScriptTurn[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    // Several lines that are each JSON: JSONL. One broken document: report the JSON error.
    if (text.trim().split("\n").length > 1) return parseJsonl(file, text);
    throw new ScriptFileError(`script ${file} is not valid JSON or JSONL: ${(error as Error).message}`);
  }
  let raw: unknown[];
  let prefix: string;
  if (Array.isArray(data)) {
    raw = data;
    prefix = "";
  } else if (isJsonObject(data) && "turns" in data) {
    if (!Array.isArray(data.turns)) throw new ScriptFileError(`script ${file}: field "turns" must be an array of turns.`);
    raw = data.turns;
    prefix = "turns.";
  } else if (isJsonObject(data)) {
    // A single-line JSONL file is also a valid JSON object: one turn.
    return [validateTurn(data, `script ${file}, line 1`, "")];
  } else {
    throw new ScriptFileError(`script ${file} must be an array of turns, {"turns": [...]}, or one turn per line (JSONL).`);
  }
  return raw.map((turn, index) => validateTurn(turn, `script ${file}, turn ${index + 1}`, `${prefix}${index}.`));
}

function parseJsonl(file: string, text: string): ScriptTurn[] {
  const turns: ScriptTurn[] = [];
  text.split("\n").forEach((line, index) => {
    if (!line.trim()) return;
    const where = `script ${file}, line ${index + 1}`;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch (error) {
      throw new ScriptFileError(`${where}: not valid JSON: ${(error as Error).message}`);
    }
    turns.push(validateTurn(data, where, ""));
  });
  return turns;
}

function validateTurn(data: unknown, where: string, fieldPrefix: string): ScriptTurn {
  if (!isJsonObject(data)) throw new ScriptFileError(`${where}: a turn must be a JSON object.`);
  // Valibot drops unknown keys silently; a misspelt field ("txt") would make a turn that quietly
  // does nothing, so it is an error here.
  for (const key of Object.keys(data)) {
    if (!TURN_FIELDS.has(key)) throw unknownField(where, `${fieldPrefix}${key}`, TURN_FIELDS);
  }
  if (Array.isArray(data.tool_calls)) {
    data.tool_calls.forEach((call, i) => {
      if (!isJsonObject(call)) return;
      for (const key of Object.keys(call)) {
        if (!TOOL_CALL_FIELDS.has(key)) throw unknownField(where, `${fieldPrefix}tool_calls.${i}.${key}`, TOOL_CALL_FIELDS);
      }
    });
  }
  const parsed = v.safeParse(ScriptTurn, data);
  if (!parsed.success) {
    const { path, message } = firstIssue(parsed.issues, fieldPrefix);
    throw new ScriptFileError(`${where}: field "${path}": ${message}`);
  }
  return parsed.output;
}

function unknownField(where: string, field: string, known: ReadonlySet<string>): ScriptFileError {
  return new ScriptFileError(`${where}: unknown field "${field}"; known fields: ${[...known].join(", ")}`);
}

/**
 * The demo for a new user without a key: list the working directory with the real `bash` tool,
 * then summarise the listing and explain how to use a real model.
 */
export const DEMO_SCRIPT: readonly ScriptTurn[] = [
  {
    text: "Hi, I'm zot. You're running the built-in demo, so no model is involved yet. To show you how I work, I'll list this directory with the `bash` tool.",
    tool_calls: [{ name: "bash", args: { command: "ls -la" } }],
    chunk_delay_ms: 10,
  },
  {
    text: [
      "Here is what `ls -la` found in your working directory:",
      "",
      "```",
      LAST_TOOL_OUTPUT,
      "```",
      "",
      "That is the loop in a nutshell: I call tools (`read`, `write`, `edit`, `bash`), look at their results, and answer.",
      "",
      "**To talk to a real model:**",
      "",
      "- Anthropic: `export ANTHROPIC_API_KEY=sk-ant-...` then `zot -p \"your question\"`",
      "- OpenAI: `export OPENAI_API_KEY=sk-...` then `zot -p \"your question\" --provider openai`",
      "- A local model: `zot -p \"your question\" --provider ollama --model llama3.2`",
      "",
      "You can also pass `--api-key KEY`, and `zot --list-models` shows every model I know.",
    ].join("\n"),
    chunk_delay_ms: 10,
  },
];
