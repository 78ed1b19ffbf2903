// One callback hook run: the program running zot (the Claude Agent SDK's `hooks` option) is asked
// with the event's input, and its answer is read as a command hook's stdout is.
// Rule: as a command hook's: past its timeout, or stopped, it counts for nothing; an answer that
// could not come is a non-blocking error naming why.
import type { HookRun } from "./hook-output.ts";
import { timerDelay } from "../protocol/timer-delay.ts";

export async function runCallback(
  call: (input: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>,
  input: Record<string, unknown>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<HookRun> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  if (signal.aborted) return { status: "aborted", stdout: "", stderr: "", durationMs: 0 };
  const timeout = AbortSignal.timeout(Math.max(1, timerDelay(timeoutMs)));
  const both = AbortSignal.any([signal, timeout]);
  try {
    const answer = await call(input, both);
    return { status: "exited", code: 0, stdout: JSON.stringify(answer), stderr: "", durationMs: took() };
  } catch (error) {
    if (signal.aborted) return { status: "aborted", stdout: "", stderr: "", durationMs: took() };
    if (timeout.aborted) return { status: "timed_out", stdout: "", stderr: "", durationMs: took() };
    return { status: "failed", message: (error as Error).message, durationMs: took() };
  }
}
