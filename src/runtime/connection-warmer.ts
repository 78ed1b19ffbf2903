// When a run that waits for someone to ask (the TUI, zot rpc) opens the model's connection
// (providers/warm-connection.ts) and loads its provider's SDK (Provider.warm): once it has waited
// WARM_AFTER_MS with no work, at the start, after a switch to a model on another server, and when
// someone is writing a prompt after the pool may have closed the connection
// (Runtime.promptComing: the TUI's editor, at each change).
// Rule: work that comes first (a prompt, a compaction, an extension command's turn, a side
// question: Runtime.workArrived, which the conversation's work policy calls for every unit of work
// and the conversation for a side question, and every model call goes through the conversation)
// drops the warm-up (a switch's too, when the work came while the switch made its client), and its
// call opens its own connection and no other. A program that sends its first prompt at once (a
// test against a mock server, which may serve one connection at a time) thus sees that prompt's
// connection alone, as before there was any warming; a person, or a program that waits, finds the
// connection open.
import type { Provider } from "../protocol/provider.ts";
import { connectionIdleSeconds, modelCallsIdleMs } from "../providers/model-connections.ts";

/** How long a run waits for a prompt before it opens the connection: far less than a person takes to type one. */
const WARM_AFTER_MS = 100;

export class ConnectionWarmer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** aborted by stop(): ends a warm-up still waiting on its request */
  private readonly ended = new AbortController();
  /** when the last warm-up began (performance.now()) */
  private lastBegun = Number.NEGATIVE_INFINITY;
  /** how many units of work have arrived (workArrived) */
  private work = 0;

  /** A mark of the work so far, to pass to soon() from a caller that awaits before asking. */
  get workSeen(): number {
    return this.work;
  }

  /**
   * Opens `provider`'s connection (and loads its SDK: Provider.warm) once the run has waited
   * WARM_AFTER_MS with no work; replaces a warm-up not yet begun. With `since` (a workSeen taken
   * before an await), nothing when work arrived after it: that work's call opens its own.
   */
  soon(provider: Provider, since = this.work): void {
    this.cancel();
    if (this.ended.signal.aborted || !provider.warm || since !== this.work) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastBegun = performance.now();
      provider.warm?.(this.ended.signal);
    }, WARM_AFTER_MS);
    // Never what keeps zot running.
    this.timer.unref?.();
  }

  /**
   * Someone is writing a prompt: opens `provider`'s connection again when the pool may have closed
   * it, that is when no model call and no warm-up has used it for as long as the pool keeps an idle
   * connection (model-connections.ts). A warm-up already waiting to begin is left to begin (each
   * keystroke calls this).
   */
  promptComing(provider: Provider): void {
    if (this.timer !== undefined) return;
    const poolKeeps = connectionIdleSeconds() * 1000;
    if (modelCallsIdleMs() < poolKeeps || performance.now() - this.lastBegun < poolKeeps) return;
    this.soon(provider);
  }

  /** Work arrived: drops the warm-up not yet begun (one begun goes on: the call may still take its connection). */
  workArrived(): void {
    this.work++;
    this.cancel();
  }

  private cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The run is ending: no warm-up begins, and one still waiting ends, so none holds the exit. */
  stop(): void {
    this.cancel();
    this.ended.abort();
  }
}
