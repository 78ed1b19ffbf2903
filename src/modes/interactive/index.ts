// `zot` in a terminal: the interactive app. Rule: this module and everything under it load only
// when a TUI is wanted (root.ts imports it lazily), so -p, --json and --version never pay for it.
import type { Confirmer } from "../../core/confirm-gate.ts";
import type { Runtime } from "../../runtime.ts";
import { createTheme } from "../../tui/theme.ts";
import type { Terminal } from "../../tui/terminal.ts";
import { Tui } from "../../tui/tui.ts";
import type { SlashCommand } from "./app-context.ts";
import { InteractiveApp, type RuntimeFactory } from "./app.ts";
import { BUILTIN_SLASH_COMMANDS } from "./commands/index.ts";
import { createDialogConfirmer } from "./confirm-dialog.ts";
import { createTrustAsker } from "./trust-dialog.ts";
import type { TrustAsker } from "../../config/workspace-trust.ts";

export interface InteractiveOptions {
  /** `zot "prompt"`: sent as soon as the runtime is ready */
  initialPrompt?: string;
  /** the terminal to draw on (default: stdin/stdout) */
  terminal?: Terminal;
  /** the built-in slash commands (default: all of them) */
  commands?: readonly SlashCommand[];
  /** hands the caller what ends the app in order with an exit code (the command line's signals) */
  exitControl?: (exit: (code: number) => void) => void;
}

/**
 * A RuntimeFactory that is also handed the app's confirmation dialog (RuntimeOptions.confirmer)
 * and its workspace trust question (RuntimeOptions.askTrust).
 */
export type ConfirmingRuntimeFactory = (log: Parameters<RuntimeFactory>[0], confirmer: Confirmer, askTrust: TrustAsker) => Promise<Runtime>;

/**
 * Runs the app until the user exits; resolves with the exit code. Given a factory, the first frame
 * is painted before the runtime is built, and the runtime's diagnostics become chat notes; the
 * factory gets the Confirmer that asks --no-yolo's questions (and /yolo's) in the app's dialog,
 * and the TrustAsker that asks whether to trust the folder before its extensions and hooks start.
 */
export async function runInteractive(runtime: Runtime | ConfirmingRuntimeFactory, options: InteractiveOptions = {}): Promise<number> {
  const tui = new Tui(options.terminal);
  const app = new InteractiveApp(tui, createTheme(), {
    initialPrompt: options.initialPrompt,
    commands: options.commands ?? BUILTIN_SLASH_COMMANDS,
  });
  const confirmer = createDialogConfirmer(app);
  const askTrust = createTrustAsker(app);
  options.exitControl?.((code) => app.exit(code));
  return app.run(typeof runtime === "function" ? (log) => runtime(log, confirmer, askTrust) : runtime);
}
