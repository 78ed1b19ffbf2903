// The rpc client as the one who confirms tool calls (additive to the original protocol): once it
// said in hello that it answers (`"confirm": true`), a call the confirmation gate would put to the
// TUI's user is sent to it as a `confirm_request` event, and its `confirm` command answers it, so
// --no-yolo, a permission rule's ask and a settings hook's ask work over rpc as in the TUI.
// Rule: a request is answered once; one whose turn ended, or that is left when the client closes
// stdin or zot stops (nobody can answer any more), is refused ("no"); one that confirmations going
// off approved runs; each is said with `confirm_cancelled` and its reason, and a late answer to it
// is an error naming it.
import type { ConfirmAnswer, Confirmer, ConfirmRequest } from "../conversation/conversation.ts";
import type { AgentEvent } from "../protocol/events.ts";
import type { RpcCommandOf } from "../protocol/rpc-frames.ts";
import type { Answer } from "./rpc-session.ts";

export class RpcConfirmations {
  private readonly waiting = new Map<string, (answer: ConfirmAnswer) => void>();
  private next = 1;
  /** why the client can no longer answer (its stdin closed, zot is stopping); undefined while it can */
  private closed: string | undefined;

  constructor(private readonly emit: (event: AgentEvent) => void) {}

  /** The gate's confirmer: asks the client, and waits for its answer, the turn's end, or the client's. */
  readonly confirmer: Confirmer = (request: ConfirmRequest, signal: AbortSignal) => {
    if (this.closed !== undefined) return Promise.resolve({ answer: "no", reason: `${this.closed}, so nobody can answer` });
    const requestId = `confirm-${this.next++}`;
    return new Promise<ConfirmAnswer>((resolve) => {
      const settle = (answer: ConfirmAnswer) => {
        this.waiting.delete(requestId);
        signal.removeEventListener("abort", onAbort);
        resolve(answer);
      };
      // The gate closed the question: its turn ended (refused), or confirmations went off (it runs).
      const onAbort = () => {
        const reason = signal.reason instanceof Error ? signal.reason.message : "its turn ended";
        this.emit({ type: "confirm_cancelled", request_id: requestId, reason });
        settle({ answer: "no", reason: "the turn ended before the client answered" });
      };
      this.waiting.set(requestId, settle);
      signal.addEventListener("abort", onAbort, { once: true });
      this.emit({
        type: "confirm_request",
        request_id: requestId,
        call_id: request.id,
        tool: request.tool,
        args: request.args,
        preview: request.preview,
        ...(request.diff ? { diff: request.diff } : {}),
        ...(request.why ? { why: request.why } : {}),
      });
      if (signal.aborted) onAbort();
    });
  };

  /** The `confirm` command. */
  answer(command: RpcCommandOf<"confirm">): Answer<"confirm"> {
    const settle = this.waiting.get(command.request_id);
    if (!settle) return { error: `confirm: no confirm_request "${command.request_id}" is waiting (it was answered, or its turn ended)` };
    settle(command.answer === "no" ? { answer: "no", ...(command.reason ? { reason: command.reason } : {}) } : { answer: command.answer });
    return { data: undefined };
  }

  /** The client can answer no more (`why`: it closed stdin, zot is stopping): what waits is refused, and so is every later ask. */
  close(why: string): void {
    this.closed = why;
    for (const [requestId, settle] of [...this.waiting]) {
      this.emit({ type: "confirm_cancelled", request_id: requestId, reason: why });
      settle({ answer: "no", reason: `${why}, so nobody can answer` });
    }
  }
}
