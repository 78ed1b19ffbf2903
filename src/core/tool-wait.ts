// How the agent waits for a tool: the tool's own promise raced against the turn's abort. A tool
// that cannot be interrupted (a read blocked in the kernel on a hung mount or /proc/kmsg, an SDK
// tool that ignores its signal) must not hold the turn. Rule: once the turn is aborted, the tool
// gets ABORT_GRACE_MS to return its own result (bash's partial output, its tree killed); after that
// the turn goes on without it and whatever the tool settles with later is dropped, never thrown.
import { errorText } from "../protocol/error-text.ts";
import { type ToolResult, textResult } from "../protocol/tool.ts";

/** How long an aborted tool may take to return its own result before the turn leaves it behind. */
export const ABORT_GRACE_MS = 500;

/**
 * The tool's result, or, when `signal` aborts and the tool has not returned within the grace, an
 * error result saying it was left behind. A tool that throws gives an error result too.
 */
export async function waitForTool(name: string, running: Promise<ToolResult>, signal: AbortSignal): Promise<ToolResult> {
  const settled = running.then(
    (result) => result,
    (error: unknown) => textResult(signal.aborted ? `aborted: ${errorText(error)}` : `${name} failed: ${errorText(error)}`, true),
  );
  let onAbort: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const abandoned = new Promise<ToolResult>((resolve) => {
    onAbort = () => {
      timer = setTimeout(
        () => resolve(textResult(`aborted: ${name} did not stop within ${ABORT_GRACE_MS / 1000} s of the abort and was left behind`, true)),
        ABORT_GRACE_MS,
      );
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([settled, abandoned]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}
