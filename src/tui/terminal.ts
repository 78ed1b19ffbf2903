// The terminal the toolkit draws on: raw mode, bracketed paste, the keyboard protocol the
// terminal supports (Kitty when it answers the query, xterm modifyOtherKeys otherwise), size and
// resize, and input split into keys and pastes. Rule: whatever way the process ends (stop(),
// process.exit, an uncaught exception, SIGTERM, SIGHUP, SIGINT, the last three handled here or by
// the program) the terminal is given back as it was found: raw mode off, cursor shown, bracketed
// paste and keyboard modes off. stop(), and a signal the terminal handles, give it back only once
// the terminal has answered the startup query (or the query's wait is over): an answer that came after raw mode was off would be
// left in the shell's input line (`^[[?1;2c`, then `1;2c: command not found`). No timer runs except
// while an escape sequence or the startup query waits for its end. suspend() (Ctrl+Z) gives the
// terminal back the same way, stops the process group as a cooked terminal's Ctrl+Z would, and
// takes the terminal again once the shell continues it (`fg`); a process stopped from outside
// (`kill -STOP`, `kill -TSTP`) gets its modes set again when it is continued (SIGCONT).
import { writeSync } from "node:fs";
import {
  AUTOWRAP_ON,
  BRACKETED_PASTE_OFF,
  BRACKETED_PASTE_ON,
  DEVICE_ATTRIBUTES_QUERY,
  KITTY_POP,
  KITTY_QUERY,
  MODIFY_OTHER_KEYS_OFF,
  MODIFY_OTHER_KEYS_ON,
  RESET_STYLE,
  SHOW_CURSOR,
  SYNC_END,
  kittyPush,
} from "./escapes.ts";
import { type InputEvent, InputParser, type TerminalReply } from "./input-parser.ts";

export type KeyboardProtocol = "kitty" | "modifyOtherKeys" | "legacy";

/** What the terminal needs of stdin; process.stdin fits. */
export interface TerminalInput {
  readonly isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  off(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

/** What the terminal needs of stdout; process.stdout fits. */
export interface TerminalOutput {
  readonly columns?: number;
  readonly rows?: number;
  readonly fd?: number;
  write(data: string): unknown;
  /** "error": a stream reports a failed write (EIO once the terminal is gone) as an event */
  on(event: "resize" | "error", listener: (error?: unknown) => void): unknown;
  off(event: "resize" | "error", listener: (error?: unknown) => void): unknown;
}

export interface TerminalOptions {
  input?: TerminalInput;
  output?: TerminalOutput;
  /** Restore the terminal on exit, crash and SIGTERM/SIGHUP/SIGINT (default true). */
  handleSignals?: boolean;
  /**
   * With handleSignals: on SIGTERM/SIGHUP/SIGINT also exit (128 + the signal's number) right after
   * restoring (default true). False when the program ends itself in order on a signal (zot's
   * command line does): the terminal is then restored by stop() or the exit hook.
   */
  exitOnSignals?: boolean;
  /** "auto" asks the terminal (Kitty query, then modifyOtherKeys); "legacy" asks nothing. */
  keyboard?: "auto" | "legacy";
  /** How long a lone ESC waits for the rest of a sequence before it is the Escape key. */
  escapeTimeoutMs?: number;
  /**
   * What suspend() does to stop the process (default: SIGTSTP to its process group, which the
   * kernel discards where there is no job control); it returns once the process is continued.
   */
  stopProcess?: () => void;
}

export interface TerminalHandlers {
  input(event: Exclude<InputEvent, { type: "reply" }>): void;
  resize(): void;
  /** The process was continued after something outside stopped it: the screen may be anything now. */
  continued?(): void;
}

/** Kitty flag 1 (disambiguate): Esc, Alt+key and Shift+Enter get sequences of their own; text stays text. */
const KITTY_FLAGS = 1;
const QUERY_TIMEOUT_MS = 500;
const PASTE_TIMEOUT_MS = 1000;
const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
/**
 * How long suspend() waits, once the stop call returned, for the SIGCONT that continued the process
 * (the event loop hands it over only then); none by then: the kernel discarded the stop.
 */
const CONTINUE_WAIT_MS = 1000;

export class Terminal {
  /** The keyboard encoding in force (settles shortly after start, when the terminal answers). */
  keyboard: KeyboardProtocol = "legacy";
  private readonly input: TerminalInput;
  private readonly output: TerminalOutput;
  private readonly options: TerminalOptions;
  private readonly parser = new InputParser();
  private readonly decoder = new TextDecoder();
  private readonly restoreHooks: (() => string)[] = [];
  private handlers: TerminalHandlers | undefined;
  private active = false;
  /** the terminal went away under us (writes fail); nothing more is written */
  private gone = false;
  private negotiating = false;
  /** stop() waits for the query's answer: it changes no mode any more */
  private stopping = false;
  /** what stop() waits on: the end of the negotiation */
  private readonly negotiated: (() => void)[] = [];
  private inputTimer: ReturnType<typeof setTimeout> | undefined;
  private queryTimer: ReturnType<typeof setTimeout> | undefined;
  /** suspend() is between giving the terminal back and taking it again */
  private suspending = false;
  /** suspend() waits for its SIGCONT: the next one is its own, not a stop from outside ending */
  private awaitingContinue = false;

  constructor(options: TerminalOptions = {}) {
    this.options = options;
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
  }

  get columns(): number {
    return this.output.columns || 80;
  }

  get rows(): number {
    return this.output.rows || 24;
  }

  /** Enters raw mode and starts reading. Call stop() to leave; exit paths restore by themselves. */
  start(handlers: TerminalHandlers): void {
    if (this.active) throw new Error("the terminal is already started");
    this.handlers = handlers;
    this.active = true;
    this.input.setRawMode?.(true);
    this.input.on("data", this.onData);
    this.input.resume();
    this.output.on("resize", this.onResize);
    this.output.on("error", this.onOutputError);
    if (this.options.handleSignals ?? true) {
      this.installExitHandlers();
      if (process.platform !== "win32") process.on("SIGCONT", this.onContinue);
    }
    let setup = BRACKETED_PASTE_ON;
    if ((this.options.keyboard ?? "auto") === "auto") {
      this.negotiating = true;
      setup += KITTY_QUERY + DEVICE_ATTRIBUTES_QUERY;
      this.queryTimer = setTimeout(() => this.settleKeyboard(undefined), QUERY_TIMEOUT_MS);
    }
    this.write(setup);
  }

  /**
   * Writes to the terminal. Once the terminal is gone (closed window, dropped SSH: EIO, EPIPE),
   * output is dropped instead of thrown: the program is being told by SIGHUP and ends in order.
   */
  write(data: string): void {
    if (this.gone) return;
    try {
      this.output.write(data);
    } catch {
      this.gone = true;
    }
  }

  /**
   * Adds what must be written just before the modes are reset, on every exit path (the renderer
   * moves the cursor below its frame so the shell prompt starts on a clean row).
   */
  beforeRestore(hook: () => string): void {
    this.restoreHooks.push(hook);
  }

  /**
   * Gives the terminal back and stops reading input, once the startup query is answered (at most
   * QUERY_TIMEOUT_MS after start; keys typed meanwhile are dropped). Safe to call twice.
   */
  async stop(): Promise<void> {
    if (this.active && this.negotiating) {
      this.stopping = true;
      this.handlers = undefined;
      await new Promise<void>((resolve) => this.negotiated.push(resolve));
    }
    this.restore();
    this.removeExitHandlers();
    process.off("SIGCONT", this.onContinue);
    this.input.off("data", this.onData);
    this.output.off("resize", this.onResize);
    this.output.off("error", this.onOutputError);
    this.input.pause();
    clearTimeout(this.inputTimer);
    clearTimeout(this.queryTimer);
    this.handlers = undefined;
  }

  /** Synchronous, idempotent: runs from the exit, crash and signal handlers too. */
  private restore(): void {
    if (!this.active) return;
    this.active = false;
    this.giveBack();
  }

  /** Writes what the restore hooks ask, resets every mode start() set and leaves raw mode. */
  private giveBack(): void {
    let out = "";
    for (const hook of this.restoreHooks) {
      try {
        out += hook();
      } catch {
        // A broken hook must not keep the terminal in raw mode.
      }
    }
    // A frame cut short (the renderer's write interrupted) left synchronized output on and autowrap off.
    out += SYNC_END + AUTOWRAP_ON + (this.keyboard === "kitty" ? KITTY_POP : "") + (this.keyboard === "modifyOtherKeys" ? MODIFY_OTHER_KEYS_OFF : "");
    out += BRACKETED_PASTE_OFF + RESET_STYLE + SHOW_CURSOR;
    try {
      if (typeof this.output.fd === "number") writeSync(this.output.fd, out);
      else this.output.write(out);
    } catch {
      // The terminal may be gone (SIGHUP); there is nothing left to restore then.
    }
    try {
      this.input.setRawMode?.(false);
    } catch {
      // as above
    }
  }

  /**
   * Raw mode and the modes start() set (the keyboard protocol as negotiated), once more. Raw mode
   * is left first: a shell may have put the terminal in its own modes meanwhile, and asking for the
   * raw mode the stream thinks it still has would change nothing.
   */
  private retake(): void {
    try {
      this.input.setRawMode?.(false);
      this.input.setRawMode?.(true);
    } catch {
      // The terminal is gone; SIGHUP follows.
    }
    const keyboard = this.keyboard === "kitty" ? kittyPush(KITTY_FLAGS) : this.keyboard === "modifyOtherKeys" ? MODIFY_OTHER_KEYS_ON : "";
    this.write(BRACKETED_PASTE_ON + keyboard);
  }

  /** Whether suspend() can stop the process now: started, not on Windows, the startup query answered. */
  get canSuspend(): boolean {
    return this.active && !this.gone && !this.negotiating && !this.awaitingContinue && process.platform !== "win32";
  }

  /**
   * Ctrl+Z: gives the terminal back as on exit (the restore hooks run: the renderer parks below its
   * frame), stops the process group (SIGTSTP, what the terminal itself sends for Ctrl+Z outside raw
   * mode, so a wrapper script stops with zot and the shell gets the terminal), and once the shell
   * continues it (`fg`) takes the terminal again, before it returns; the caller repaints then.
   * Resolves, soon after, with whether the process was stopped: false where the kernel discarded
   * the signal (no shell with job control: a container's first process, a program started by
   * `setsid`), which went on at once. Nothing is done unless canSuspend (not on Windows, nor before
   * the startup query is answered: its answer would reach the shell).
   */
  suspend(): Promise<boolean> {
    if (!this.canSuspend) return Promise.resolve(false);
    this.suspending = true;
    this.awaitingContinue = true;
    let continued = false;
    const own = () => {
      continued = true;
    };
    process.on("SIGCONT", own);
    this.giveBack();
    try {
      (this.options.stopProcess ?? stopProcessGroup)();
    } catch {
      // Nothing stopped; the terminal is taken again below.
    }
    this.retake();
    this.suspending = false;
    // A stop that happened ended with a SIGCONT, which reaches its listeners only from the event loop.
    return new Promise((resolve) => {
      const began = performance.now();
      const check = () => {
        if (!continued && performance.now() - began < CONTINUE_WAIT_MS) return void setTimeout(check, 10);
        process.off("SIGCONT", own);
        this.awaitingContinue = false;
        resolve(continued);
      };
      setTimeout(check, 0);
    });
  }

  private readonly onData = (chunk: Uint8Array | string) => {
    const text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    this.dispatch(this.parser.push(text));
  };

  private readonly onResize = () => this.handlers?.resize();
  private readonly onOutputError = () => {
    this.gone = true;
  };

  private dispatch(events: InputEvent[]): void {
    clearTimeout(this.inputTimer);
    this.inputTimer = undefined;
    for (const event of events) {
      if (event.type === "reply") this.settleKeyboard(event.reply);
      else this.handlers?.input(event);
    }
    const pending = this.parser.pending;
    if (pending) {
      const wait = pending === "paste" ? PASTE_TIMEOUT_MS : (this.options.escapeTimeoutMs ?? 30);
      this.inputTimer = setTimeout(() => this.dispatch(this.parser.flush()), wait);
    }
  }

  /** Picks the keyboard protocol from the first answer to the startup query (none: modifyOtherKeys). */
  private settleKeyboard(reply: TerminalReply | undefined): void {
    if (!this.negotiating || !this.active) return;
    if (reply?.kind === "kitty-flags") {
      if (this.stopping) return;
      this.keyboard = "kitty";
      this.write(kittyPush(KITTY_FLAGS));
      return; // the device-attributes reply that follows ends the negotiation
    }
    this.negotiating = false;
    clearTimeout(this.queryTimer);
    if (this.keyboard !== "kitty" && !this.stopping) {
      this.keyboard = "modifyOtherKeys";
      this.write(MODIFY_OTHER_KEYS_ON);
    }
    for (const resolve of this.negotiated.splice(0)) resolve();
  }

  /**
   * SIGCONT: after suspend() it is that call's own (it has already taken the terminal again); after
   * a stop from outside, the shell may have put the terminal back in its own modes: take it again
   * and tell the program, whose frame the shell's "Stopped" line may have written over.
   */
  private readonly onContinue = () => {
    if (!this.active || this.suspending || this.awaitingContinue || this.gone) return;
    this.retake();
    this.handlers?.continued?.();
  };

  private readonly onExit = () => this.restore();
  private readonly onCrash = () => this.restore();
  private readonly onSignal = (signal: NodeJS.Signals) => {
    const exit = () => {
      this.restore();
      process.exit(128 + (SIGNAL_NUMBERS[signal as keyof typeof SIGNAL_NUMBERS] ?? 0));
    };
    // A signal just after the start: as stop() does, the startup query's answer is waited for (at
    // most what is left of its wait), or it would reach the shell once raw mode is off. A second
    // signal ends it at once.
    if (this.negotiating && this.active && !this.stopping) {
      this.stopping = true;
      this.handlers = undefined;
      this.negotiated.push(exit);
      return;
    }
    exit();
  };

  private installExitHandlers(): void {
    process.on("exit", this.onExit);
    // The monitor runs before the runtime prints the error, so the report lands on a sane terminal.
    process.on("uncaughtExceptionMonitor", this.onCrash);
    if (this.options.exitOnSignals === false) return;
    for (const signal of Object.keys(SIGNAL_NUMBERS)) process.on(signal, this.onSignal);
  }

  private removeExitHandlers(): void {
    process.off("exit", this.onExit);
    process.off("uncaughtExceptionMonitor", this.onCrash);
    for (const signal of Object.keys(SIGNAL_NUMBERS)) process.off(signal, this.onSignal);
  }
}

/** The stop a terminal's Ctrl+Z makes: SIGTSTP to the whole process group (pid 0). */
function stopProcessGroup(): void {
  process.kill(0, "SIGTSTP");
}
