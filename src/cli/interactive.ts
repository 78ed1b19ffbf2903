// `zot` and `zot "prompt"` in a terminal (neither -p nor --json): the session picked (-r asks
// first, on the terminal), then the TUI. Rule: the TUI and the conversation load behind import(),
// and the TUI paints before the conversation is opened; a session is recorded unless --no-session; a signal
// (SIGTERM, SIGHUP when the terminal goes, SIGINT) ends the app in order, a second one at once.
import { isatty } from "node:tty";
import { UsageError } from "../config/usage-error.ts";
import { LATE_JOIN_AFTER_MS } from "../extensions/late-join.ts";
import type { RuntimeOptions } from "../runtime/runtime.ts";
import type { SessionChoice } from "../session/open.ts";
import type { Terminal } from "../tui/terminal.ts";
import { spareWhatStaysRunning } from "../process/owned-processes.ts";
import { handleTerminationSignals, ownChildProcesses, signalExitCode } from "./signals.ts";
import { startupOver } from "./startup-over.ts";

export async function runInteractiveCommand(
  runtimeOptions: Omit<RuntimeOptions, "log">,
  sessionChoice: SessionChoice | { kind: "pick" } | undefined,
  prompt: string,
): Promise<number> {
  if (!isatty(1)) {
    throw new UsageError('the interactive TUI needs a terminal on stdout; use -p "prompt" to print the answer (zot -p "…" > file)');
  }
  // Until the app runs, a signal ends zot at once; then it ends the app in order: the turn aborted
  // (its tool's tree killed), the terminal given back, the extensions stopped.
  let endApp: ((code: number) => void) | undefined;
  let terminal: Terminal | undefined;
  const releaseSignals = handleTerminationSignals({
    onFirst: (signal) => (endApp ? endApp(signalExitCode(signal)) : process.exit(signalExitCode(signal))),
    exitCode: signalExitCode,
    // While the user's editor has the terminal (Ctrl+G), a Ctrl+C there (a cooked terminal sends
    // it to zot too, say while `code --wait` waits) is the editor's to take, not an end of zot.
    ignore: (signal) => signal === "SIGINT" && terminal?.lent === true,
  });
  try {
    const session =
      sessionChoice?.kind === "pick" ? await (await import("./session-picker.ts")).pickSession(runtimeOptions.cwd) : sessionChoice;
    const leftovers = ownChildProcesses();
    const [{ runInteractive }, terminalModule] = await Promise.all([import("../modes/interactive/index.ts"), import("../tui/terminal.ts")]);
    terminal = new terminalModule.Terminal({ exitOnSignals: false });
    return await runInteractive(
      async (log, confirmer, askTrust) => {
        for (const note of leftovers) log(note);
        const { openConversation } = await import("../conversation/conversation.ts");
        // Prompts typed while one runs wait their turn. With no prompt given, the model's
        // connection opens while the first is typed (a given one opens its own at once); later
        // prompts find it opened again as they are typed, after a pause that closed it.
        const conversation = await openConversation(
          { ...runtimeOptions, session, log, confirmer, askTrust, extensionWait: LATE_JOIN_AFTER_MS, warmConnection: prompt ? "later" : true },
          { busy: "queue" },
        );
        startupOver();
        return conversation;
      },
      {
        initialPrompt: prompt || undefined,
        terminal,
        exitControl: (exit) => (endApp = exit),
        runUserProgram: spareWhatStaysRunning,
      },
    );
  } finally {
    releaseSignals();
  }
}
