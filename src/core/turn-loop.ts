// The loop of one prompt: steps until the model stops asking for tools, each step a model call
// between its gates (turn_start, before_llm, after_llm, assistant_message), then the tools it asked for.
// Rule: a turn ends one way: every end, early or not, is a TurnEnding handed to finish(), which takes
// a hard_abort's messages back out, closes a turn still open with its turn_end and gives the prompt
// its outcome; nothing is thrown to end a turn.
import { errorText } from "../protocol/error-text.ts";
import type { StopReason } from "../protocol/events.ts";
import { type ContentBlock, type Message, nowIso, textOf, type ToolCallBlock, toWireContent } from "../protocol/messages.ts";
import type { ModelRequest } from "../protocol/provider.ts";
import { textResult } from "../protocol/tool.ts";
import { type AgentOutlets, type AgentState, recountContext, setTranscript, toolSpecs, usedCallIds } from "./agent-state.ts";
import { autoCompactDue, compactNow } from "./compaction-run.ts";
import type { ChainOutcome } from "./intercept.ts";
import { callCompactingOnOverflow } from "./model-call.ts";
import type { PromptOutcome, PromptTool, TurnFailure } from "./outcomes.ts";
import { resultBlock, runPromptTool, runTools } from "./tool-run.ts";
import { ABORTED, intercepted, type TurnEnding } from "./turn-ending.ts";
import { handBack } from "./lent-model.ts";
import { IdsOver, withFreshCallIds } from "../protocol/unique-call-ids.ts";

/**
 * Where a prompt starts, kept as its first message and the transcript before it rather than an
 * index: a compaction inside the prompt moves its messages (or summarises its first ones away), and
 * every loop of the prompt (a Stop hook sends the agent back to work) finds its start from these.
 */
export interface PromptAnchor {
  first: Message | undefined;
  /** the transcript before the prompt: what a hard_abort gives back once a compaction summarised part of it */
  earlier: readonly Message[];
}

/** The anchor of the prompt whose first message is at `start` now. */
export function promptAnchor(state: AgentState, start: number): PromptAnchor {
  return { first: state.messages[start], earlier: state.messages.slice(0, start) };
}

/**
 * Runs the prompt `anchor` starts until it ends, a command's tool_prompt call first when there is
 * one; never throws.
 */
export async function runTurns(state: AgentState, out: AgentOutlets, signal: AbortSignal, anchor: PromptAnchor, tool?: PromptTool): Promise<PromptOutcome> {
  const loop = new PromptLoop(state, out, signal, anchor, tool);
  try {
    return await loop.run();
  } catch (error) {
    // A bug, not anyone's decision: the prompt still ends in order, and says why.
    const failure: TurnFailure = { message: errorText(error), code: "internal" };
    return loop.finish({ outcome: { status: "error", ...failure }, stop: "error", failure, hard: false });
  }
}

class PromptLoop {
  /** a turn_start was emitted whose turn_end was not */
  private turnOpen = false;
  /**
   * A compaction mid-prompt moves this prompt's messages (or summarises its first ones away):
   * promptStart is found again from this message after each one, for hard_abort.
   */
  private readonly first: Message | undefined;
  /** the transcript before this prompt: what a hard_abort gives back once a compaction summarised part of the prompt */
  private readonly earlier: readonly Message[];
  private promptStart: number;

  constructor(
    private readonly state: AgentState,
    private readonly out: AgentOutlets,
    private readonly signal: AbortSignal,
    anchor: PromptAnchor,
    private readonly tool: PromptTool | undefined,
  ) {
    this.first = anchor.first;
    this.earlier = anchor.earlier;
    this.promptStart = this.promptStartOf();
  }

  async run(): Promise<PromptOutcome> {
    const { state, out, signal } = this;
    if (this.tool) {
      const ended = await runPromptTool(state, out, this.tool, signal);
      if (ended) return this.finish(ended);
    }
    for (let step = 1; ; step++) {
      if (state.maxSteps > 0 && step > state.maxSteps) {
        const failure: TurnFailure = { code: "max_steps", message: `max steps (${state.maxSteps}) exceeded: the model was still calling tools; send "go on" to let it continue, or allow more steps (--max-steps)` };
        return this.finish({ outcome: { status: "error", ...failure }, stop: "error", hard: false });
      }
      out.emit({ type: "turn_start", step });
      this.turnOpen = true;

      const turnGate = await state.chain.run("turn_start", { step }, signal);
      if (turnGate.action === "hard_abort") return this.finish(intercepted("hard_abort", turnGate.reason));
      if (turnGate.action !== "continue" && turnGate.action !== "respond") {
        const reason = `turn blocked by ${turnGate.participant}: ${turnGate.reason}`;
        return this.finish({ outcome: { status: "blocked", reason }, stop: "error", failure: { message: turnGate.reason, code: "blocked" }, hard: false });
      }

      // Nothing is compacted for a lent model's sake: the agent's own takes the prompt back.
      if (state.lentFrom && autoCompactDue(state)) handBack(state, "the conversation reached the compaction point of its window");
      if (autoCompactDue(state)) {
        // A failure was reported as an error event; the call may still fit, so the turn goes on.
        const compacted = await compactNow(state, out, signal, "auto");
        if (compacted.status === "aborted") return this.finish(ABORTED);
        this.promptStart = this.promptStartOf();
      }

      let request: ModelRequest = {
        model: state.model,
        system: state.system,
        messages: state.messages.slice(),
        tools: toolSpecs(state),
        ...(state.reasoning ? { reasoning: state.reasoning } : {}),
      };
      const before = await state.chain.run("before_llm", { step, request }, signal);
      const stopped = gateEnding(before);
      if (stopped) return this.finish(stopped);
      request = before.payload.request;

      const { call, sent } = await callCompactingOnOverflow(state, out, request, signal);
      request = sent;
      this.promptStart = this.promptStartOf();
      let response = call.response;
      // The calls whose start streamed were drawn by a front end, kept or not: their ids are taken
      // (after this answer's own ids are checked, which are those).
      const takeStarted = () => {
        for (const id of call.started ?? []) usedCallIds(state).add(id);
      };
      if (call.stop !== "error" && call.stop !== "aborted" && response) {
        const after = await state.chain.run("after_llm", { step, request, response }, signal);
        const refused = gateEnding(after);
        if (refused) {
          takeStarted();
          return this.finish(refused);
        }
        response = after.payload.response;
      }
      // A hook's rewrite (its tool_calls), or a server that is not the model's own API, may repeat a
      // call id or leave it out: made unique, or the provider refuses every later request.
      if (response?.content.some((b) => b.type === "tool_call")) {
        const content = withFreshCallIds(response.content, new IdsOver(usedCallIds(state)));
        if (content !== response.content) response = { ...response, content };
      }

      // What the transcript keeps: on abort, text only (an unmatched tool call breaks the next request).
      let kept = response?.content ?? call.partial;
      if (call.stop === "aborted" || call.stop === "error") kept = kept.filter((b) => b.type !== "tool_call");
      const toolCalls = kept.filter((b): b is ToolCallBlock => b.type === "tool_call");
      takeStarted();
      for (const tc of toolCalls) usedCallIds(state).add(tc.id);
      if (kept.length > 0) {
        const message: Message = { role: "assistant", content: kept, time: nowIso() };
        out.append(message);
        const ended = await this.announceAssistant(message);
        if (ended) return this.finish(ended);
      }
      for (const tc of toolCalls) out.emit({ type: "tool_call", id: tc.id, name: tc.name, args: tc.args });

      // after_llm may have rewritten the response's tool calls, and with them its stop.
      const modelStop = call.stop === "error" || call.stop === "aborted" ? call.stop : (response?.stop ?? call.stop);
      const stop: StopReason = modelStop === "tool_use" && toolCalls.length === 0 ? "end_turn" : (modelStop as StopReason);
      // Calls in an answer that ended otherwise (cut at the output limit mid-arguments, or an
      // end_turn beside a tool_use) are not run, and are answered so: a call without a result
      // makes every later request one the provider refuses.
      if (stop !== "tool_use" && stop !== "aborted" && stop !== "error" && toolCalls.length > 0) answerNotRun(out, toolCalls, stop);
      this.endTurn(stop, call.failure);

      if (stop === "aborted") return this.finish(ABORTED);
      if (stop === "error") {
        const failure = call.failure ?? { message: "provider error", code: "internal" };
        return this.finish({ outcome: { status: "error", ...failure }, stop, failure, hard: false });
      }
      if (stop !== "tool_use") return this.finish({ outcome: { status: "ok" }, stop, hard: false });

      const ran = await runTools(state, out, toolCalls, signal);
      if ("ended" in ran) return this.finish(ran.ended);
      out.append({ role: "tool", content: ran.results, time: ran.time });
      if (signal.aborted) return this.finish(ABORTED);
    }
  }

  /** The one way a prompt ends. */
  finish(ending: TurnEnding): PromptOutcome {
    if (ending.hard) {
      // A compaction inside this prompt summarised its first messages: the summary holds what is
      // taken back, so the transcript from before the prompt comes back whole (the next prompt
      // compacts it again, without this one).
      if (this.first && !this.state.messages.includes(this.first)) setTranscript(this.state, [...this.earlier], { sameConversation: true });
      else {
        this.state.messages.splice(this.promptStart);
        // The last call's count was of the messages just taken back.
        recountContext(this.state);
      }
    }
    if (this.turnOpen) this.endTurn(ending.stop, ending.failure);
    return ending.outcome;
  }

  private endTurn(stop: StopReason, failure?: TurnFailure): void {
    this.turnOpen = false;
    this.out.emit({ type: "turn_end", stop, ...(failure ? { error: failure.message, code: failure.code } : {}) });
  }

  /** The assistant_message gate, then the event (with any replace_text the user is to see). */
  private async announceAssistant(message: Message): Promise<TurnEnding | undefined> {
    const { state, out, signal } = this;
    const text = textOf(message.content);
    let visible = message.content;
    if (text.trim() !== "" && state.chain.has("assistant_message")) {
      const gate = await state.chain.run("assistant_message", { text, content: message.content }, signal);
      if (gate.action === "block") return undefined;
      if (gate.action === "abort_turn") {
        answerUnrun(out, message.content, `turn aborted: ${gate.reason}`);
        return intercepted("abort_turn", gate.reason);
      }
      if (gate.action === "hard_abort") return intercepted("hard_abort", gate.reason);
      if (gate.payload.text !== text) {
        // The user sees the rewrite; the transcript keeps what the model said.
        visible = [{ type: "text", text: gate.payload.text }, ...message.content.filter((b) => b.type !== "text")];
      }
    }
    out.emit({ type: "assistant_message", content: toWireContent(visible), time: message.time });
    return undefined;
  }

  /** Where this prompt's messages start: its first message, or right after the summary once that was summarised away. */
  private promptStartOf(): number {
    const index = this.first ? this.state.messages.indexOf(this.first) : -1;
    // Everything kept after a summary is newer than the prompt's first message, so all of it is this prompt's.
    return index >= 0 ? index : 1;
  }
}

/** before_llm and after_llm: anything but going on ends the turn (hard_abort also takes the prompt back out). */
function gateEnding(gate: ChainOutcome<"before_llm" | "after_llm">): TurnEnding | undefined {
  if (gate.action === "continue" || gate.action === "respond") return undefined;
  return intercepted(gate.action === "hard_abort" ? "hard_abort" : "abort_turn", gate.reason);
}

/** Calls of an answer that did not end asking for them: each is answered (and shown) as not run, and why. */
function answerNotRun(out: AgentOutlets, calls: readonly ToolCallBlock[], stop: StopReason): void {
  // Cut at the output limit, only the last call can have been cut in its arguments; the ones
  // before it are whole, and simply did not run.
  const reasonFor = (call: ToolCallBlock): string =>
    stop !== "length"
      ? `not run: the answer ended (stop: ${stop}) without waiting for this call's result; make the call again to run it`
      : call === calls.at(-1)
        ? "not run: the answer was cut at the output limit while this call was being written, so its arguments may be incomplete; make the call again, smaller (a large write as several edits or files)"
        : "not run: the answer was cut at the output limit after this call, and a cut answer runs none of its calls; make the call again";
  for (const call of calls) {
    out.emit({ type: "tool_result", id: call.id, name: call.name, is_error: true, content: [{ type: "text", text: reasonFor(call) }], status: "cancelled" });
  }
  out.append({ role: "tool", content: calls.map((c) => resultBlock(c.id, textResult(reasonFor(c), true))), time: nowIso() });
}

/** The turn ends before the message's tool calls run: each gets an error result, or the next request would be malformed. */
function answerUnrun(out: AgentOutlets, content: ContentBlock[], reason: string): void {
  const calls = content.filter((b): b is ToolCallBlock => b.type === "tool_call");
  if (calls.length === 0) return;
  out.append({ role: "tool", content: calls.map((c) => resultBlock(c.id, textResult(reason, true))), time: nowIso() });
}
