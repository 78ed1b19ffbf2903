// One run in Claude Code's headless shapes (protocol/claude-output.ts), read from zot's events:
// the `system` init line, an `assistant` message per model call (its text and tool_use blocks,
// with its usage), a `user` message per tool result, a `system` compact_boundary per compaction
// that completed, a `system` api_retry per retry of a failed call, the synthetic `assistant`
// message (its `error` the failure's kind) of a turn a model call's failure ended, as Claude Code
// writes them, and the closing `result` (subtype, is_error,
// the answer or the errors, turns, durations, cost, usage by model, the calls refused), each line
// with its own `uuid`. A call is named by the model that answered it (a command's `model:` lends
// its prompt another), in its assistant line and in modelUsage.
// Rule: the tool calls are shown as Claude Code names them (`Bash` with `command`, `Read` with
// `file_path`, …: the caller passes the mapping the settings hooks use), every other field as zot
// has it; the result's text is what `zot -p` prints.
import type { UnitOutcome } from "../conversation/conversation.ts";
import { claudeApiError } from "./claude-api-error.ts";
import type {
  ClaudeApiRetryLine,
  ClaudeAssistantLine,
  ClaudeCompactBoundaryLine,
  ClaudeInitLine,
  ClaudeResultLine,
  ClaudeUsage,
  ClaudeUserLine,
} from "../protocol/claude-output.ts";
import type { AgentEvent } from "../protocol/events.ts";
import type { WireToolResultContent } from "../protocol/messages.ts";
import { PrintedAnswer } from "../protocol/printed-answer.ts";
import { dollars } from "../protocol/usage.ts";

/** A tool call as Claude Code names it. */
export type ClaudeCallOf = (name: string, args: Record<string, unknown>) => { tool_name: string; tool_input: Record<string, unknown> };

export interface ClaudeRunOptions {
  /** the session the run records into (what `-r <id>` resumes), or null */
  sessionId: string | null;
  /** the run's model (the init line's) */
  model: string;
  /** the model answering now, asked at each call: a command's `model:` lends its prompt another (default: `model`) */
  answeringModel?: () => string;
  claudeCall: ClaudeCallOf;
  /** the run's cost so far (a resumed session's included): the result counts only this run's */
  costBefore: number;
  /** now, in ms (for durations; tests pass their own) */
  now?: () => number;
}

const NO_USAGE: ClaudeUsage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
/** The model Claude Code names on a message no model wrote (a failed call's). */
const SYNTHETIC_MODEL = "<synthetic>";

export class ClaudeRun {
  private readonly printed = new PrintedAnswer();
  /** `/compact` ran: its summary is the result, as -p prints it (an automatic compaction's is no answer) */
  private summary: string | undefined;
  private readonly now: () => number;
  private readonly started: number;
  private readonly tokens: ClaudeUsage = { ...NO_USAGE };
  /** the run's tokens and cost by the model that answered each call */
  private readonly byModel = new Map<string, { tokens: ClaudeUsage; cost: number }>();
  private cost: number;
  private turns = 0;
  private apiMs = 0;
  private callStarted: number | undefined;
  /** the usage of the model call under way */
  private callUsage: ClaudeUsage | undefined;
  private stopReason: string | null = null;
  /** the calls of the run as Claude Code names them, by id, for the result's permission_denials */
  private readonly calls = new Map<string, { tool_name: string; tool_input: Record<string, unknown> }>();
  private readonly denials: ClaudeResultLine["permission_denials"] = [];
  /** the tool calls shown whose result has not been */
  private readonly shownCalls = new Set<string>();

  constructor(private readonly options: ClaudeRunOptions) {
    this.now = options.now ?? (() => performance.now());
    this.started = this.now();
    this.cost = options.costBefore;
  }

  /** Claude Code's first line: the session, the working directory, the model and the tools. */
  init(context: Pick<ClaudeInitLine, "cwd" | "tools" | "mcp_servers" | "permissionMode" | "slash_commands" | "skills">): ClaudeInitLine {
    return { type: "system", subtype: "init", uuid: crypto.randomUUID(), session_id: this.options.sessionId, model: this.options.model, ...context, output_style: "default", plugins: [] };
  }

  /** Takes one event, in order; returns the lines it completes: a model call's assistant message, a tool result, a compaction's boundary, a retry. */
  add(event: AgentEvent): (ClaudeAssistantLine | ClaudeUserLine | ClaudeCompactBoundaryLine | ClaudeApiRetryLine)[] {
    const line = this.line(event);
    return line ? [line] : [];
  }

  /**
   * After the unit's last event, before the result: a tool result for each call shown that never
   * got one (the prompt was interrupted before it ran), so every tool_use has its tool_result.
   */
  unanswered(): ClaudeUserLine[] {
    const lines = [...this.shownCalls].map((id) => this.toolResult(id, "not run: the prompt was interrupted first", true));
    this.shownCalls.clear();
    return lines;
  }

  private line(event: AgentEvent): ClaudeAssistantLine | ClaudeUserLine | ClaudeCompactBoundaryLine | ClaudeApiRetryLine | undefined {
    this.printed.add(event);
    if (event.type === "compact_done" && event.reason === "manual") this.summary = event.summary;
    switch (event.type) {
      // API time as Claude Code counts it: from the request (the step's start) to the whole
      // answer, the wait for the first byte included; a call that failed counts until turn_end.
      case "turn_start":
        this.callStarted = this.now();
        return undefined;
      case "assistant_start":
        this.callStarted ??= this.now();
        this.callUsage = undefined;
        return undefined;
      case "usage": {
        // A model call's usage comes just before its message (a compaction's has none after it).
        const usage: ClaudeUsage = {
          input_tokens: event.input,
          output_tokens: event.output,
          cache_creation_input_tokens: event.cache_write,
          cache_read_input_tokens: event.cache_read,
        };
        const model = this.answeringModel();
        let used = this.byModel.get(model);
        if (!used) this.byModel.set(model, (used = { tokens: { ...NO_USAGE }, cost: 0 }));
        for (const key of Object.keys(usage) as (keyof ClaudeUsage)[]) {
          this.tokens[key] += usage[key];
          used.tokens[key] += usage[key];
        }
        used.cost = dollars(used.cost + event.cost_usd);
        this.cost = event.cumulative.cost_usd;
        this.callUsage = usage;
        return undefined;
      }
      case "assistant_message":
        this.turns++;
        if (this.callStarted !== undefined) this.apiMs += this.now() - this.callStarted;
        this.callStarted = undefined;
        return this.assistant(event);
      case "turn_end": {
        this.stopReason = event.stop;
        if (this.callStarted !== undefined) this.apiMs += this.now() - this.callStarted;
        this.callStarted = undefined;
        // A model call's failure ended the turn: Claude Code's synthetic message says so, with its kind.
        const error = event.stop === "error" ? claudeApiError(event.code, undefined, event.error) : undefined;
        return error && event.error !== undefined ? this.failedCall(event.error, error) : undefined;
      }
      case "retry":
        return {
          type: "system",
          subtype: "api_retry",
          attempt: event.attempt,
          max_retries: event.max_attempts,
          retry_delay_ms: event.wait_ms,
          error_status: event.status ?? null,
          error: claudeApiError(event.code, event.status, event.message) ?? "unknown",
          uuid: crypto.randomUUID(),
          session_id: this.options.sessionId,
        };
      case "tool_result": {
        // Only the model's calls are Claude Code's messages: an extension's (call_tool, a command's
        // tool_prompt) has no tool_use its result could answer.
        const call = this.calls.get(event.id);
        if (!call) return undefined;
        // A call the chain refused (a rule, a hook, the confirmation gate) is a permission denial.
        if (event.status === "blocked") this.denials.push({ tool_name: call.tool_name, tool_use_id: event.id, tool_input: call.tool_input });
        this.shownCalls.delete(event.id);
        return this.toolResult(event.id, resultContent(event.content), event.is_error);
      }
      // Claude Code knows two triggers: the user's /compact, and its own (at the threshold or
      // after a call refused as too long, zot's auto and overflow).
      case "compact_done":
        return {
          type: "system",
          subtype: "compact_boundary",
          uuid: crypto.randomUUID(),
          session_id: this.options.sessionId,
          compact_metadata: { trigger: event.reason === "manual" ? "manual" : "auto", pre_tokens: event.tokens_before },
        };
      default:
        return undefined;
    }
  }

  /**
   * The closing line, after the unit's last event: on success the answer in `result`; on a failure
   * no `result` (as Claude Code: `jq -r .result` never prints an error as if it were the answer)
   * and the failure in `errors`.
   */
  result(outcome: UnitOutcome, interruptedBecause?: string): ClaudeResultLine {
    // The run's cost is the difference of two running totals: rounded, so a resumed session's run costs 0.0213, not 0.021299999999999986.
    const cost = Math.round(Math.max(0, this.cost - this.options.costBefore) * 1e10) / 1e10;
    const subtype = outcome.status === "ok" ? "success" : outcome.status === "error" && outcome.code === "max_steps" ? "error_max_turns" : "error_during_execution";
    return {
      type: "result",
      subtype,
      uuid: crypto.randomUUID(),
      is_error: outcome.status !== "ok",
      duration_ms: Math.round(this.now() - this.started),
      duration_api_ms: Math.round(this.apiMs),
      num_turns: this.turns,
      ...(outcome.status === "ok" ? { result: this.printed.text() || (this.summary ?? "") } : { errors: [outcome.status === "aborted" && interruptedBecause ? interruptedBecause : failure(outcome)] }),
      stop_reason: this.stopReason,
      session_id: this.options.sessionId,
      total_cost_usd: cost,
      usage: { ...this.tokens },
      modelUsage: this.modelUsage(),
      permission_denials: [...this.denials],
    };
  }

  private answeringModel(): string {
    return this.options.answeringModel?.() ?? this.options.model;
  }

  /** Each model's share of the run; a run without a call counted names its own model, with nothing. */
  private modelUsage(): ClaudeResultLine["modelUsage"] {
    const used = this.byModel.size > 0 ? [...this.byModel] : [[this.options.model, { tokens: NO_USAGE, cost: 0 }] as const];
    return Object.fromEntries(
      used.map(([model, { tokens, cost }]) => [
        model,
        {
          inputTokens: tokens.input_tokens,
          outputTokens: tokens.output_tokens,
          cacheReadInputTokens: tokens.cache_read_input_tokens,
          cacheCreationInputTokens: tokens.cache_creation_input_tokens,
          costUSD: cost,
        },
      ]),
    );
  }

  private toolResult(id: string, content: ClaudeUserLine["message"]["content"][number]["content"], isError: boolean): ClaudeUserLine {
    return {
      type: "user",
      uuid: crypto.randomUUID(),
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] },
      parent_tool_use_id: null,
      session_id: this.options.sessionId,
    };
  }

  /** The synthetic message of a call that failed, as Claude Code writes it: no model answered, its text the failure. */
  private failedCall(message: string, error: NonNullable<ClaudeAssistantLine["error"]>): ClaudeAssistantLine {
    return {
      type: "assistant",
      uuid: crypto.randomUUID(),
      error,
      message: {
        id: `msg_error_${crypto.randomUUID()}`,
        type: "message",
        role: "assistant",
        model: SYNTHETIC_MODEL,
        content: [{ type: "text", text: `API Error: ${message}` }],
        usage: { ...NO_USAGE },
      },
      parent_tool_use_id: null,
      session_id: this.options.sessionId,
    };
  }

  private assistant(event: Extract<AgentEvent, { type: "assistant_message" }>): ClaudeAssistantLine {
    const content = event.content.flatMap((block): ClaudeAssistantLine["message"]["content"] => {
      if (block.type === "text") return [{ type: "text", text: block.text }];
      if (block.type === "tool_call") {
        const call = this.options.claudeCall(block.name, block.args);
        this.calls.set(block.id, call);
        this.shownCalls.add(block.id);
        return [{ type: "tool_use", id: block.id, name: call.tool_name, input: call.tool_input }];
      }
      return [];
    });
    return {
      type: "assistant",
      uuid: crypto.randomUUID(),
      message: {
        id: `msg_${this.turns}`,
        type: "message",
        role: "assistant",
        model: this.answeringModel(),
        content,
        ...(this.callUsage ? { usage: this.callUsage } : {}),
      },
      parent_tool_use_id: null,
      session_id: this.options.sessionId,
    };
  }
}

/**
 * A tool result's content as Claude Code sends it: its text, or its blocks when there is an image;
 * an image is named in a text block (zot's events carry its size, not its bytes).
 */
function resultContent(content: readonly WireToolResultContent[]): ClaudeUserLine["message"]["content"][number]["content"] {
  if (content.every((block) => block.type === "text")) return content.map((block) => (block.type === "text" ? block.text : "")).join("");
  return content.map((block) => ({ type: "text" as const, text: block.type === "text" ? block.text : `[an image: ${block.mime_type}, ${block.bytes} bytes]` }));
}

/** The result line of a run that failed before it started (a session that is not there, a missing key, a bad flag): stdout still has one. */
export function failedBeforeRun(message: string): ClaudeResultLine {
  return {
    type: "result",
    subtype: "error_during_execution",
    uuid: crypto.randomUUID(),
    is_error: true,
    duration_ms: 0,
    duration_api_ms: 0,
    num_turns: 0,
    errors: [message],
    stop_reason: null,
    session_id: null,
    total_cost_usd: 0,
    usage: { ...NO_USAGE },
    modelUsage: {},
    permission_denials: [],
  };
}

function failure(outcome: Exclude<UnitOutcome, { status: "ok" }>): string {
  switch (outcome.status) {
    case "error":
    case "command_error":
      return outcome.message;
    case "blocked":
      return outcome.reason;
    case "aborted":
    case "dropped":
      return "interrupted";
  }
}
