// `--permission-prompt-tool stdio`: the program driving zot (the Claude Agent SDK's `canUseTool`)
// is who confirms tool calls. A call the confirmation gate would put to a person goes to it as a
// `can_use_tool` request, under Claude Code's names (`Bash` with `command`, `Read` with
// `file_path`), and its `allow` or `deny` is the answer.
// Rule: only a yes runs the call. An allow that changes the input (`updatedInput`) is refused with
// a sentence saying so, since zot shows and asks about a call as it will run; a deny with
// `interrupt: true` also ends the turn; a program that cannot answer (stdin closed, a malformed
// answer) is a no with the reason.
import type * as v from "valibot";
import type { ConfirmAnswer, Confirmer } from "../conversation/conversation.ts";
import { PermissionResult } from "../protocol/claude-control.ts";
import { errorText } from "../protocol/error-text.ts";
import type { ClaudeCallOf } from "./claude-messages.ts";
import type { ClaudeControlChannel } from "./claude-control-channel.ts";

export function canUseToolConfirmer(
  channel: ClaudeControlChannel,
  claudeCall: ClaudeCallOf,
  hooks: {
    /** ends the turn once the refused call's result is recorded */
    interruptAfter(callId: string, reason: string): void;
    /** the program is asked (true) or has answered (false) */
    waiting(asked: boolean): void;
    log(message: string): void;
  },
): Confirmer {
  return async (request, signal): Promise<ConfirmAnswer> => {
    const call = claudeCall(request.tool, request.args);
    let answer: v.InferOutput<typeof PermissionResult>;
    // Nobody to wait for once the program has gone: the request is refused at once.
    const asks = channel.gone === undefined;
    if (asks) hooks.waiting(true);
    try {
      answer = await channel.request(
        {
          subtype: "can_use_tool",
          tool_name: call.tool_name,
          input: call.tool_input,
          tool_use_id: request.id,
          permission_suggestions: [],
          ...(request.why ? { decision_reason: request.why } : {}),
        },
        PermissionResult,
        signal,
      );
    } catch (error) {
      const reason = errorText(error);
      if (!signal.aborted) hooks.log(`stream-json: can_use_tool for ${call.tool_name}: ${reason}; the call is refused`);
      return { answer: "no", reason };
    } finally {
      if (asks) hooks.waiting(false);
    }
    if (answer.behavior === "deny") {
      if (answer.interrupt) hooks.interruptAfter(request.id, answer.message || "the program's canUseTool interrupted the turn");
      return { answer: "no", ...(answer.message ? { reason: answer.message } : {}) };
    }
    if (answer.updatedInput !== undefined && !Bun.deepEquals(answer.updatedInput, call.tool_input)) {
      const reason = "the program allowed this call with changed input (updatedInput), and zot runs a call only as it was asked about; change calls with a PreToolUse hook instead";
      hooks.log(`stream-json: can_use_tool for ${call.tool_name}: ${reason}; the call is refused`);
      return { answer: "no", reason };
    }
    return { answer: "yes" };
  };
}
