// How the zot command line ends on SIGINT, SIGTERM and SIGHUP (the terminal closed, an SSH link
// dropped), in every mode. Rule: the first signal asks for an orderly end (the mode aborts the
// turn, which ends the running tool's whole tree, stops the extensions, gives the terminal back and
// exits); a second signal, or an orderly end still not over after SHUTDOWN_DEADLINE_MS, exits at
// once, and zot's exit hook SIGKILLs every process zot started before the process is gone.
import { zotHome } from "../config/home.ts";
import { claimAllDescendants } from "../process/owned-processes.ts";
import { leftoversOfDeadRuns, runRecord } from "../process/run-record.ts";

export type TerminationSignal = "SIGINT" | "SIGTERM" | "SIGHUP";
const SIGNALS: readonly TerminationSignal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** How long an orderly end may take (a tool's SIGTERM grace, the extensions' 3 s stop) before zot just exits. */
export const SHUTDOWN_DEADLINE_MS = 10_000;

export interface TerminationOptions {
  /** the first signal: start the orderly end (the mode exits by itself when it is over) */
  onFirst(signal: TerminationSignal): void;
  /** the exit code when zot has to exit at once */
  exitCode(signal: TerminationSignal): number;
  /** a signal that is not zot's to act on now (a SIGINT the terminal sent while lent to the user's editor) */
  ignore?(signal: TerminationSignal): boolean;
}

/** Takes SIGINT, SIGTERM and SIGHUP for as long as the mode runs; returns what gives them back. */
export function handleTerminationSignals(options: TerminationOptions): () => void {
  let first: TerminationSignal | undefined;
  const handlers = SIGNALS.map((signal) => {
    const handler = () => {
      if (options.ignore?.(signal)) return;
      if (first !== undefined) process.exit(options.exitCode(first));
      first = signal;
      // Unref'd: once nothing else keeps zot alive it exits by itself; this only ends a stuck end.
      const deadline = setTimeout(() => process.exit(options.exitCode(signal)), SHUTDOWN_DEADLINE_MS);
      deadline.unref?.();
      options.onFirst(signal);
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}

/**
 * A long-lived mode's signals (rpc, the streaming input): before it serves, the first signal exits
 * at once with `exitCode` (nothing is worth waiting for; the exit hook kills every process zot
 * started); once `serving()` is called, it aborts `signal` for an orderly end. A second signal
 * always exits at once.
 */
export function signalsUntilServing(exitCode: number): { signal: AbortSignal; serving(): void; stop(): void; release(): void } {
  const interrupt = new AbortController();
  let serving = false;
  const release = handleTerminationSignals({
    onFirst: () => {
      if (!serving) process.exit(exitCode);
      interrupt.abort();
    },
    exitCode: () => exitCode,
  });
  return {
    signal: interrupt.signal,
    serving: () => {
      serving = true;
    },
    /** the same orderly end, for another reason (the reader closed stdout) */
    stop: () => interrupt.abort(),
    release,
  };
}

/** The conventional exit code of a process ended by `signal`: 128 + its number. */
export function signalExitCode(signal: TerminationSignal): number {
  return 128 + { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 }[signal];
}

/**
 * For the zot command line: every descendant of zot is zot's to kill at exit (a child subreaper
 * on Linux, from the first spawn), and `$ZOT_HOME/run/<pid>.json` records what it started.
 * Returns one note for each earlier zot that was killed (kill -9) and left processes running.
 */
export function ownChildProcesses(env: Record<string, string | undefined> = process.env): string[] {
  const dir = `${zotHome(env)}/run`;
  const notes = leftoversOfDeadRuns(dir);
  claimAllDescendants(runRecord(dir));
  return notes;
}
