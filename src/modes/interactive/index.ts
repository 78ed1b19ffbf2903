// `zot` in a terminal: the interactive app. Rule: this module and everything under it load only
// when a TUI is wanted (root.ts imports it lazily), so -p, --json and --version never pay for it.
import type { Confirmer, Conversation, TrustAsker } from "../../conversation/conversation.ts";
import { createTheme } from "../../tui/theme.ts";
import type { Terminal } from "../../tui/terminal.ts";
import { Tui } from "../../tui/tui.ts";
import type { SlashCommand } from "./app-context.ts";
import { type AppOptions, type ConversationFactory, InteractiveApp } from "./app.ts";
import { BUILTIN_SLASH_COMMANDS } from "./commands/index.ts";
import { createDialogConfirmer } from "./confirm-dialog.ts";
import { createTrustAsker } from "./trust-dialog.ts";

export interface InteractiveOptions {
  /** `zot "prompt"`: sent as soon as the conversation is ready */
  initialPrompt?: string;
  /** the terminal to draw on (default: stdin/stdout) */
  terminal?: Terminal;
  /** the built-in slash commands (default: all of them) */
  commands?: readonly SlashCommand[];
  /** hands the caller what ends the app in order with an exit code (the command line's signals) */
  exitControl?: (exit: (code: number) => void) => void;
  /** runs the user's editor (Ctrl+G) so that what it leaves running outlives zot (the command line's process rules) */
  runUserProgram?: AppOptions["runUserProgram"];
}

/**
 * A ConversationFactory that is also handed the app's confirmation dialog (RuntimeOptions.confirmer)
 * and its workspace trust question (RuntimeOptions.askTrust).
 */
export type ConfirmingConversationFactory = (
  log: Parameters<ConversationFactory>[0],
  confirmer: Confirmer,
  askTrust: TrustAsker,
) => Promise<Conversation>;

/**
 * Runs the app until the user exits; resolves with the exit code. Given a factory, the first frame
 * is painted before the conversation is opened, and its diagnostics become chat notes; the factory
 * gets the Confirmer that asks --no-yolo's questions (and /yolo's) in the app's dialog, and the
 * TrustAsker that asks whether to trust the folder before its extensions and hooks start.
 */
export async function runInteractive(
  conversation: Conversation | ConfirmingConversationFactory,
  options: InteractiveOptions = {},
): Promise<number> {
  const tui = new Tui(options.terminal);
  const app = new InteractiveApp(tui, createTheme(), {
    initialPrompt: options.initialPrompt,
    commands: options.commands ?? BUILTIN_SLASH_COMMANDS,
    ...(options.runUserProgram ? { runUserProgram: options.runUserProgram } : {}),
  });
  const confirmer = createDialogConfirmer(app);
  const askTrust = createTrustAsker(app);
  options.exitControl?.((code) => app.exit(code));
  return app.run(typeof conversation === "function" ? (log) => conversation(log, confirmer, askTrust) : conversation);
}
