// An AppContext for command tests: a real conversation over the real runtime, and a record of
// everything the command asked of the app (notes, markdown, overlays, cancels, jumps). Rule: the fake
// decides nothing a real app would decide differently; it only records, and lets a test press keys
// on the overlay the command opened, as the user would.
import { Conversation } from "../../src/conversation/conversation.ts";
import type { AppContext, NoteLevel } from "../../src/modes/interactive/app-context.ts";
import type { Runtime } from "../../src/runtime/runtime.ts";
import type { Component } from "../../src/tui/component.ts";
import { decodeKey } from "../../src/tui/keys.ts";
import { createTheme } from "../../src/tui/theme.ts";
import { DIGIT_SETTLE_MS } from "../../src/tui/stray-typing.ts";

export interface FakeApp extends AppContext {
  busy: boolean;
  notes: { text: string; level: NoteLevel }[];
  markdown: string[];
  statuses: string[];
  prompts: string[];
  compactions: (string | undefined)[];
  jumps: number[];
  exits: number[];
  /** how many times cancelTurn / reloadTranscript were called */
  cancels: number;
  reloads: number;
  /** what happened, in order ("cancel", "model:<id>" is pushed by tests that wrap setModel) */
  log: string[];
  /** the overlay showing now (the last opened and not closed) */
  readonly overlay: Component | undefined;
  /** presses keys on the overlay: raw terminal bytes, each character or escape sequence one key */
  press(...sequences: string[]): void;
  /** types text into the overlay, one key per character */
  typeText(text: string): void;
  /** presses an answer's number and waits while it settles (a number answers once no key follows it: tui/stray-typing.ts) */
  answer(digit: string): Promise<void>;
  /** the overlay's rows at `width`, styles stripped */
  screen(width?: number): string[];
  noteText(): string;
}

export function fakeApp(runtime: Runtime, options: { onCancel?: () => Promise<void> } = {}): FakeApp {
  const overlays: Component[] = [];
  const app: FakeApp = {
    conversation: new Conversation(runtime, { busy: "queue" }),
    theme: createTheme({ color: false }),
    busy: false,
    notes: [],
    markdown: [],
    statuses: [],
    prompts: [],
    compactions: [],
    jumps: [],
    exits: [],
    cancels: 0,
    reloads: 0,
    log: [],
    get overlay() {
      return overlays.at(-1);
    },
    showNote(text, level = "info") {
      app.notes.push({ text, level });
    },
    showMarkdown(markdown) {
      app.markdown.push(markdown);
    },
    setStatus(text) {
      app.statuses.push(text);
    },
    submitPrompt(text) {
      app.prompts.push(text);
    },
    insertText(text) {
      app.prompts.push(`insert:${text}`);
    },
    async cancelTurn() {
      app.cancels++;
      app.log.push("cancel");
      await options.onCancel?.();
      app.busy = false;
    },
    cancelTurnByUser() {
      void app.cancelTurn();
      app.statuses.push("turn cancelled");
    },
    async compact(instructions) {
      app.compactions.push(instructions);
    },
    reloadTranscript() {
      app.reloads++;
      app.log.push("reload");
    },
    sideQuestions: new Set<AbortController>(),
    screenRows: () => 40,
    openOverlay(component) {
      overlays.push(component);
      return {
        close() {
          const at = overlays.indexOf(component);
          if (at !== -1) overlays.splice(at, 1);
        },
      };
    },
    jumpToTurn(n) {
      app.jumps.push(n);
    },
    exit(code = 0) {
      app.exits.push(code);
    },
    press(...sequences) {
      for (const sequence of sequences) {
        const key = decodeKey(sequence);
        if (!key) throw new Error(`not a key: ${JSON.stringify(sequence)}`);
        if (!app.overlay) throw new Error(`no overlay to press ${JSON.stringify(sequence)} on`);
        app.overlay.handleKey?.(key);
      }
    },
    typeText(text) {
      app.press(...Array.from(text));
    },
    async answer(digit) {
      app.press(digit);
      await Bun.sleep(DIGIT_SETTLE_MS + 20);
    },
    screen(width = 100) {
      return (app.overlay?.render(width) ?? []).map((row) => Bun.stripANSI(row));
    },
    noteText() {
      return app.notes.map((n) => `[${n.level}] ${n.text}`).join("\n");
    },
  };
  return app;
}

export const ENTER = "\r";
export const ESC = "\x1b";
export const DOWN = "\x1b[B";
export const UP = "\x1b[A";
