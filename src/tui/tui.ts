// A running text UI: one Terminal, one Renderer painting `root`, and the routing of input to the
// focused component. Rule: input goes first to the key handlers the application registered (in
// order, first to return true wins), then to the focused component; every input event and every
// resize asks for one coalesced paint. Ctrl+L, when nobody used it, is the explicit clear.
import { noFTL } from "bun:jsc";
import { type Component, Stack } from "./component.ts";
import { type Key, keyId } from "./keys.ts";
import { Renderer, type RendererOptions } from "./renderer.ts";
import { Terminal } from "./terminal.ts";

export type KeyHandler = (key: Key) => boolean;

/** Text typed (and not sent with Enter) this shortly before a question opened was meant for the prompt, not the question. */
const TYPED_AHEAD_MS = 1000;

export class Tui {
  /** What is on screen, top to bottom; add components here. */
  readonly root = new Stack();
  readonly terminal: Terminal;
  readonly renderer: Renderer;
  private focused: Component | undefined;
  private readonly keyHandlers: KeyHandler[] = [];
  private running = false;
  /** when text (a printable key, a paste) last came in */
  private typedAt = Number.NEGATIVE_INFINITY;
  /**
   * Called once zot has the terminal again after a stop, just before the next frame is painted:
   * after its own (suspend), that frame is painted as a first one, under the shell's lines (the
   * application says where its frame starts then); after one from outside (SIGSTOP), the visible
   * rows are painted again from the top of the screen.
   */
  onContinue: ((after: "suspend" | "stop") => void) | undefined;
  /** A SIGTSTP from outside (`kill -TSTP`): the application suspends as for its Ctrl+Z (default: suspend()). */
  onStopRequested: (() => void) | undefined;

  constructor(terminal: Terminal = new Terminal(), options: RendererOptions = {}) {
    this.terminal = terminal;
    this.renderer = new Renderer(terminal, this.root, options);
    terminal.beforeRestore(() => this.renderer.park());
  }

  /** Raw mode on, first frame painted at once. */
  start(): void {
    this.running = true;
    this.terminal.start({
      input: (event) => {
        // Text typed and not yet sent: a plain Enter sends it (a question opening next is no surprise then).
        // Text a focused question took (its answer's number, or stray typing it already refused) was
        // never meant for the prompt: counting it would make the next question refuse its numbers.
        const typed = event.type === "paste" || (event.key.text !== undefined && !event.key.ctrl && !event.key.alt);
        if (typed && !this.focused?.typedAhead) this.typedAt = performance.now();
        else if (event.type === "key" && keyId(event.key) === "enter") this.typedAt = Number.NEGATIVE_INFINITY;
        if (event.type === "key") this.dispatchKey(event.key);
        else this.focused?.handlePaste?.(event.text);
        this.requestRender();
      },
      resize: () => this.requestRender(),
      continued: (after) => (after === "suspend" ? this.paintBelow() : this.repaintScreen()),
      stopRequested: () => (this.onStopRequested ? this.onStopRequested() : void this.suspend()),
    });
    this.renderer.renderNow();
  }

  /** Paints what is pending, parks the cursor below the frame and gives the terminal back (Terminal.stop). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.renderer.renderNow();
    await this.terminal.stop();
  }

  /** Whether suspend() can stop zot now (not on Windows, nor before the terminal answered the startup query). */
  get canSuspend(): boolean {
    return this.running && this.terminal.canSuspend;
  }

  /**
   * Ctrl+Z: paints what is pending, parks the cursor below the frame, gives the terminal back and
   * stops (Terminal.suspend); once continued in the foreground, paints the next frame under what
   * the shell wrote (before it returns, when it goes on in the foreground at once). Resolves with
   * whether zot was stopped (false: nothing here could continue it, and it went on at once).
   */
  suspend(): Promise<boolean> {
    if (!this.canSuspend) return Promise.resolve(false);
    this.renderer.renderNow();
    return this.terminal.suspend();
  }

  /** Whether lend() can give the terminal to a program now (Terminal.canLend). */
  get canLend(): boolean {
    return this.running && this.terminal.canLend;
  }

  /**
   * Paints what is pending, then gives the terminal to `run` (a program in it: the user's editor)
   * until it settles; the next frame is painted below what that program left (Terminal.lend).
   */
  lend<T>(run: () => Promise<T>): Promise<T> {
    this.renderer.renderNow();
    return this.terminal.lend(run);
  }

  private paintBelow(): void {
    this.renderer.restart();
    this.onContinue?.("suspend");
    this.renderer.renderNow();
  }

  /** Stopped from outside: the shell's "Stopped" line went where the cursor was, inside the frame. */
  private repaintScreen(): void {
    this.renderer.repaintScreen();
    this.onContinue?.("stop");
    this.renderer.renderNow();
  }

  get focus(): Component | undefined {
    return this.focused;
  }

  /**
   * The component that receives keys and pastes (undefined: only the key handlers see them).
   * A component with a `focused` property has it set (true for the new one, false for the old).
   */
  setFocus(component: Component | undefined): void {
    if (this.focused && "focused" in this.focused) this.focused.focused = false;
    this.focused = component;
    if (component && "focused" in component) component.focused = true;
    // A question that opens while the user is typing is told so (stray-typing.ts).
    if (component?.typedAhead && performance.now() - this.typedAt < TYPED_AHEAD_MS) component.typedAhead();
    this.requestRender();
  }

  /** Adds a handler that sees each key before the focused component; returns its removal. */
  onKey(handler: KeyHandler): () => void {
    this.keyHandlers.push(handler);
    return () => {
      const at = this.keyHandlers.indexOf(handler);
      if (at !== -1) this.keyHandlers.splice(at, 1);
    };
  }

  requestRender(): void {
    this.renderer.requestRender();
  }

  /** Empties screen and scrollback and paints everything again (what Ctrl+L does). */
  clearScreen(): void {
    this.renderer.clearScreen();
  }

  private dispatchKey(key: Key): void {
    for (const handler of [...this.keyHandlers]) if (handler(key)) return;
    if (this.focused?.handleKey?.(key)) return;
    if (keyId(key) === "ctrl+l") this.clearScreen();
  }
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(Tui.prototype.requestRender);
