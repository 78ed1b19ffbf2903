// The keys the app itself answers before the editor sees them, and the two popups the editor's
// text opens (`/command`, `@path`). Keys: Esc closes a popup, else cancels the running turn (and
// drops the queue and the extensions' notes), else dismisses the extensions' notes, else clears
// the editor (as the original: a draft survives the Esc that dismisses notes); Ctrl+C cancels the
// running turn as Esc does (the habit Claude Code and Codex taught: it stops the model or the
// command, never zot), and when nothing runs clears the editor and the queue, a second one within
// 2 s exits (the one that cancelled a turn does not count, so pressing it twice to stop the model
// does not quit); Ctrl+D on an empty editor exits; Ctrl+O expands or collapses every tool result;
// Ctrl+L clears the screen; Ctrl+Z suspends zot to the shell (`fg` brings it back), whatever is open;
// Ctrl+R closes the popup and the editor searches the earlier prompts: its own keys (Esc and Ctrl+C
// included) go to it, any other ends it and then does what it does; Ctrl+G opens the prompt in the
// user's own editor. With a popup open, ↑/↓
// PgUp/PgDn move in it, Tab completes, Enter picks (a file: Enter keeps the `@`, so its content goes
// with the prompt; Tab puts its path alone).
// Rule: while an overlay (a picker, a dialog, an extension's panel) is open it has every key;
// Ctrl+C reaches it as Esc.
import { Stack } from "../../tui/component.ts";
import { type Key, keyId } from "../../tui/keys.ts";
import { shellQuote } from "../../tui/paste.ts";
import { graphemes } from "../../tui/width.ts";
import type { InteractiveApp } from "./app.ts";
import { atFragment, type FileEntry, FilePicker } from "./file-picker.ts";
import { SlashPopup, slashQuery } from "./slash-popup.ts";

/** A second Ctrl+C within this long exits. */
const EXIT_WINDOW_MS = 2000;
const ESCAPE: Key = { name: "escape", ctrl: false, alt: false, shift: false };
const LIST_KEYS = new Set(["up", "down", "pageup", "pagedown", "ctrl+p", "ctrl+n"]);
/** The keys a Ctrl+R search answers itself (typed text too); any other ends it first. */
const SEARCH_KEYS = new Set(["enter", "tab", "escape", "backspace", "shift+backspace", "ctrl+r", "ctrl+g"]);

export class AppKeys {
  /** Where the open popup is drawn (under the editor). */
  readonly popupSlot = new Stack();
  private readonly slash: SlashPopup;
  private files: FilePicker | undefined;
  private popup: "slash" | "files" | undefined;
  /** The editor text the user closed a popup on; it stays closed until the text changes. */
  private dismissedFor: string | undefined;
  /** Set while the app edits the editor itself, so the popups do not react to each step. */
  private editing = false;
  private lastCtrlC = 0;

  constructor(private readonly app: InteractiveApp) {
    this.slash = new SlashPopup(app.theme, app.commands, () => (app.ready ? app.conversation.commands.list() : []));
  }

  handle(key: Key): boolean {
    const id = keyId(key);
    if (id !== "ctrl+c") {
      this.lastCtrlC = 0;
      this.app.setStatus("");
    }
    if (id === "ctrl+c") return this.ctrlC();
    if (id === "ctrl+z") {
      this.app.suspend();
      return true;
    }
    if (this.app.hasOverlay) return false;
    const editor = this.app.editor;
    if (editor.searching) {
      if (SEARCH_KEYS.has(id) || (key.text !== undefined && !key.ctrl && !key.alt)) return false;
      // Any other key takes the match, then does what it does (Ctrl+O expands, Ctrl+L clears, ↑ walks on).
      editor.takeSearchMatch();
    }
    if (id === "ctrl+r") {
      if (this.popup) this.dismissedFor = this.app.editor.text;
      this.show(undefined);
      return false;
    }
    if (this.popup && this.popupKey(id, key)) return true;
    switch (id) {
      case "escape":
        this.escape();
        return true;
      case "ctrl+d":
        if (!this.app.editor.isEmpty) return false;
        this.app.exit(0);
        return true;
      case "ctrl+o":
        this.app.chat.toggleExpanded();
        return true;
      case "ctrl+g":
        this.closePopup();
        void this.app.editPromptInEditor();
        return true;
      case "ctrl+l":
        this.app.frame.reset();
        this.app.tui.clearScreen();
        return true;
    }
    return false;
  }

  /**
   * Opens, filters or closes the popup for the editor's text. A history entry ↑/↓ put in opens
   * none (`/clear`, `explain @notes.md`): ↑/↓ walk on past it and Enter sends it again; typing
   * opens it as usual.
   */
  updatePopup(change: { recalled: boolean } = { recalled: false }): void {
    if (this.editing) return;
    const editor = this.app.editor;
    if (change.recalled) this.dismissedFor = editor.text;
    if (editor.text === this.dismissedFor || this.app.hasOverlay) return this.show(undefined);
    this.dismissedFor = undefined;
    const query = slashQuery(editor.text);
    if (query !== undefined) {
      this.slash.update(query);
      return this.show("slash");
    }
    const at = atFragment(editor.text, editor.cursor);
    if (at && this.app.ready) {
      const conversation = this.app.conversation;
      this.files ??= new FilePicker(this.app.theme, conversation.cwd, () => conversation.mcpResourceMentions());
      this.files.update(at.query);
      return this.show("files");
    }
    this.show(undefined);
  }

  closePopup(): void {
    this.show(undefined);
  }

  private show(popup: "slash" | "files" | undefined): void {
    if (popup === this.popup) return;
    this.popup = popup;
    this.popupSlot.clear();
    if (popup === "slash") this.popupSlot.add(this.slash);
    if (popup === "files" && this.files) this.popupSlot.add(this.files);
    this.app.render();
  }

  private popupKey(id: string, key: Key): boolean {
    const list = this.popup === "slash" ? this.slash.list : this.files?.list;
    if (LIST_KEYS.has(id)) {
      list?.handleKey(key);
      return true;
    }
    if (id === "escape") {
      this.dismissedFor = this.app.editor.text;
      this.show(undefined);
      return true;
    }
    if (this.popup === "slash") return this.slashKey(id);
    const entry = this.files?.selected;
    if (!entry) return false;
    if (id === "enter" || id === "tab" || (id === "right" && entry.folder)) {
      this.pickFile(entry, id === "enter");
      return true;
    }
    return false;
  }

  private slashKey(id: string): boolean {
    const name = this.slash.selected;
    if (!name || (id !== "tab" && id !== "enter")) return false;
    const editor = this.app.editor;
    if (id === "tab") {
      editor.setText(`/${name} `);
      return true;
    }
    // While extensions still start, the command typed may be one of theirs, not yet in the popup: Enter
    // sends it as typed (it waits for them), not the built-in it happens to start (/ex is not /exit).
    const typed = /^\/(\S+)$/.exec(editor.text.trim())?.[1];
    // Before the conversation exists, the extensions have not even begun: the same holds.
    if (typed !== undefined && typed.toLowerCase() !== name.toLowerCase() && (!this.app.ready || this.app.conversation.startingExtensions().length > 0)) {
      this.show(undefined);
      editor.submit();
      return true;
    }
    editor.setText(`/${name}`);
    this.show(undefined);
    editor.submit();
    return true;
  }

  /**
   * A folder opens in the picker; a file replaces the `@fragment` with `@path` (`attach`: its
   * content is sent with the prompt, file-mentions.ts) or with its path alone.
   */
  private pickFile(entry: FileEntry, attach: boolean): void {
    const editor = this.app.editor;
    const fragment = atFragment(editor.text, editor.cursor);
    if (!fragment) return;
    const path = /[\s'"\\$`]/.test(entry.path) ? shellQuote(entry.path) : entry.path;
    this.editing = true;
    try {
      for (const _ of graphemes(`@${fragment.query}`)) editor.handleKey({ name: "backspace", ctrl: false, alt: false, shift: false });
      editor.insertText(entry.folder ? `@${entry.path}` : entry.resource ? `@${entry.path} ` : `${attach ? "@" : ""}${path} `);
    } finally {
      this.editing = false;
    }
    this.updatePopup();
  }

  private escape(): void {
    const notes = this.app.chat.notes;
    if (this.app.busy) this.cancelTurn();
    else if (this.app.sideQuestions.size > 0) this.cancelSideQuestions();
    else if (notes.size > 0) {
      notes.clear();
      this.app.render();
    } else if (!this.app.editor.isEmpty) this.clearDraft();
  }

  /**
   * Clears the editor; the draft goes into the history first, so ↑ brings back what Esc or Ctrl+C
   * took: with its pastes written out, as a sent prompt's are (the chips' pastes go with the clear).
   */
  private clearDraft(): void {
    this.app.editor.clearIntoHistory();
  }

  private ctrlC(): boolean {
    const overlay = this.app.topOverlay;
    if (overlay) {
      overlay.handleKey?.(ESCAPE);
      return true;
    }
    if (this.app.editor.searching) {
      this.app.editor.cancelSearch();
      return true;
    }
    if (this.app.busy) {
      this.lastCtrlC = 0;
      this.cancelTurn();
      return true;
    }
    // What runs is stopped before zot is: a side question (/btw) waiting for its answer.
    if (this.app.sideQuestions.size > 0) {
      this.lastCtrlC = 0;
      this.cancelSideQuestions();
      return true;
    }
    const now = Date.now();
    if (now - this.lastCtrlC <= EXIT_WINDOW_MS) {
      this.app.exit(0);
      return true;
    }
    this.lastCtrlC = now;
    const had = !this.app.editor.isEmpty || this.app.queue.size > 0;
    this.clearDraft();
    this.app.dropQueued();
    this.closePopup();
    this.app.setStatus(had ? "input cleared · ctrl+c again to exit" : "ctrl+c again to exit");
    return true;
  }

  private cancelSideQuestions(): void {
    for (const asking of this.app.sideQuestions) asking.abort(new Error("cancelled by the user"));
    this.app.sideQuestions.clear();
  }

  private cancelTurn(): void {
    this.app.cancelTurnByUser();
  }
}
