// How a short-lived child zot runs (a bash command, a settings hook) ends: it exits, its time runs
// out, or the caller aborts; whatever of its process group is left is then terminated, and its
// output pipes get a short grace to drain. Rule: a background process that keeps a pipe open never
// holds zot: past the grace the readers are cancelled (it gets SIGPIPE on its next write). An abort
// is answered within about a third of a second, whatever the child does with SIGTERM: the turn
// waits for an aborted tool's own result only half a second (core/tool-wait.ts), so the killing
// goes on in the background (SIGKILL after the grace) while what the child printed is returned.
import type { OwnedGroup } from "./owned-processes.ts";

/** After an abort, how long the child gets to go on SIGTERM, and then how long its pipes get to drain, before the caller has what it printed. */
const ABORTED_WAIT_MS = 200;
const ABORTED_DRAIN_MS = 120;

export type ChildEnding = "exited" | "timed_out" | "aborted";

export interface ChildEndingOptions {
  signal: AbortSignal;
  /** how long it may run, already clamped to what a timer takes; undefined: no limit */
  timeoutMs?: number;
  /** after SIGTERM to the group, how long before SIGKILL */
  killGraceMs: number;
  /** the pumps reading its stdout and stderr, and their readers */
  pumps: Promise<unknown>;
  readers: readonly { cancel(): Promise<void> }[];
  /** after it ended, how long a background child of it may keep the pipes open */
  drainGraceMs: number;
}

/**
 * Waits for the child to end one of the three ways; `drained`: its output was read to the end;
 * `gone`: resolves once nothing of its group is left (after an abort, possibly later than this returns).
 */
export async function childEnding(
  child: { exited: Promise<unknown> },
  group: OwnedGroup,
  options: ChildEndingOptions,
): Promise<{ ending: ChildEnding; drained: boolean; gone: Promise<void> }> {
  const { signal } = options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<"timed_out" | "aborted">((resolve) => {
    if (options.timeoutMs !== undefined) timer = setTimeout(() => resolve("timed_out"), options.timeoutMs);
    onAbort = () => resolve("aborted");
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  const ending = await Promise.race([child.exited.then(() => "exited" as const), stopped]);
  clearTimeout(timer);
  if (onAbort) signal.removeEventListener("abort", onAbort);
  let gone: Promise<void> = Promise.resolve();
  if (ending === "timed_out") await group.terminate(options.killGraceMs);
  else if (ending === "aborted") {
    gone = group.terminate(options.killGraceMs);
    await Promise.race([gone, Bun.sleep(ABORTED_WAIT_MS)]);
  }

  const drainMs = ending === "aborted" ? Math.min(options.drainGraceMs, ABORTED_DRAIN_MS) : options.drainGraceMs;
  const drained = await Promise.race([options.pumps.then(() => true), Bun.sleep(drainMs).then(() => false)]);
  if (!drained) {
    await Promise.all(options.readers.map((reader) => reader.cancel().catch(() => {})));
    await options.pumps;
  }
  return { ending, drained, gone };
}
