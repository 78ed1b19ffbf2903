// What the interactive app offers its slash commands, pickers and dialogs. Rule: a command sees the
// app only through this interface (the chat view, the editor, the status bar and the turn loop stay
// the app's own), so commands are small files that can be tested against a fake AppContext.
import type { Conversation, ConversationPrompt } from "../../conversation/conversation.ts";
import type { Component } from "../../tui/component.ts";
import type { Theme } from "../../tui/theme.ts";

export type NoteLevel = "info" | "success" | "warn" | "error";

export interface AppContext {
  /** the conversation the app is a front end of: its state, its operations, its units of work */
  readonly conversation: Conversation;
  readonly theme: Theme;
  /** something runs (a prompt, a compaction, a `!command`) */
  readonly busy: boolean;
  /** the side questions (/btw) waiting for their answers: Esc, when no turn runs, cancels them */
  readonly sideQuestions: Set<AbortController>;

  /** A line of the chat transcript area that is not a message (a command's output, a status). */
  showNote(text: string, level?: NoteLevel): void;
  /** Markdown shown in the chat as a command's output (e.g. /help, /skills, /btw answers). */
  showMarkdown(markdown: string): void;
  /** The one-line status message under the editor (cleared on the next key). */
  setStatus(text: string, level?: NoteLevel): void;

  /**
   * Sends text as a user prompt (queued when busy, as Enter does); `from`: the extension that sent
   * it; `command`: what a command's answer adds: its tool_prompt's call, run into the transcript
   * before the turn, or the model the prompt runs on.
   */
  submitPrompt(text: string, from?: string, command?: Pick<ConversationPrompt, "tool" | "model" | "allow">): void;
  /** Replaces the editor's text (an extension's `insert`, a picked path). */
  insertText(text: string): void;

  /** Cancels the running turn and drops the queue; resolves when the conversation is idle (≤ 2 s). */
  cancelTurn(): Promise<void>;
  /** The user's Esc or Ctrl+C on a running turn: cancels it, and puts what the user queued back into the editor (said in the status). */
  cancelTurnByUser(): void;
  /** Runs a manual compaction with the app's spinner and notes (the /compact command). */
  compact(instructions?: string): Promise<void>;
  /** Rebuilds the chat view from the transcript (after /clear, a resume, a fork); the extensions' notes go. */
  reloadTranscript(): void;

  /**
   * Shows a component above the editor with the keyboard focus (a picker, a dialog); resolves
   * when `close` is called. Esc handling is the component's (SelectList/Dialog call onCancel).
   */
  openOverlay(component: Component): { close(): void };
  /** The terminal's rows now: what an overlay may take of them (a picker's list, a question's diff) is fitted to it. */
  screenRows(): number;
  /** Scrolls the terminal back to (re-prints from) the user turn `n` (the /jump command). */
  jumpToTurn(n: number): void;

  /** Ends the app (the /exit command): restores the terminal and resolves run() with `code`. */
  exit(code?: number): void;
}

/** One slash command of the TUI (built-in); extension commands are adapted to it by the app. */
export interface SlashCommand {
  name: string;
  description: string;
  /** shown in /help after the name, e.g. "<id>" */
  argsHint?: string;
  /** commands that change the transcript or the model cancel a running turn first */
  cancelsTurn?: boolean;
  /** the unit it starts (a compaction): while one of these runs, the command says so instead of cancelling it for another */
  startsUnit?: string;
  run(app: AppContext, args: string): Promise<void> | void;
}
