// `zot` and `zot "prompt"` in a terminal (neither -p nor --json): the session picked (-r asks
// first, on the terminal), then the TUI. Rule: the TUI and the runtime load behind import(), and
// the TUI paints before the runtime is built; a session is recorded unless --no-session.
import { isatty } from "node:tty";
import { UsageError } from "../config/usage-error.ts";
import { LATE_JOIN_AFTER_MS } from "../extensions/late-join.ts";
import type { RuntimeOptions } from "../runtime.ts";
import type { SessionChoice } from "../session/open.ts";

export async function runInteractiveCommand(
  runtimeOptions: Omit<RuntimeOptions, "log">,
  sessionChoice: SessionChoice | { kind: "pick" } | undefined,
  prompt: string,
): Promise<number> {
  if (!isatty(1)) {
    throw new UsageError('the interactive TUI needs a terminal on stdout; use -p "prompt" to print the answer (zot -p "…" > file)');
  }
  const session =
    sessionChoice?.kind === "pick" ? await (await import("./session-picker.ts")).pickSession(runtimeOptions.cwd) : sessionChoice;
  const { runInteractive } = await import("../modes/interactive/index.ts");
  return runInteractive(
    async (log, confirmer, askTrust) =>
      (await import("../runtime.ts")).createRuntime({ ...runtimeOptions, session, log, confirmer, askTrust, extensionWait: LATE_JOIN_AFTER_MS }),
    { initialPrompt: prompt || undefined },
  );
}
