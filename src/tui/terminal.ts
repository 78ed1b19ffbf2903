// The terminal the toolkit draws on: raw mode, bracketed paste, the keyboard protocol the
// terminal supports (Kitty when it answers the query, xterm modifyOtherKeys otherwise), size and
// resize, and input split into keys and pastes. Rule: whatever way the process ends (stop(),
// process.exit, an uncaught exception, SIGTERM, SIGHUP, SIGINT, the last three handled here or by
// the program) the terminal is given back as it was found: raw mode off, cursor shown, bracketed
// paste and keyboard modes off. stop(), and a signal the terminal handles, give it back only once
// the terminal has answered the startup query (or the query's wait is over): an answer that came after raw mode was off would be
// left in the shell's input line (`^[[?1;2c`, then `1;2c: command not found`). No timer runs except
// while an escape sequence or the startup query waits for its end. suspend() (Ctrl+Z, or a
// SIGTSTP from outside: `kill -TSTP`) gives the terminal back the same way, stops the process group
// as a cooked terminal's Ctrl+Z would, and takes the terminal again once zot is continued in the
// foreground (`fg`), never from the background (`bg`, the SIGCONT after a shell's `kill %1`): a
// background process that touches the terminal's modes is stopped again at once (SIGTTOU), before
// a SIGTERM could end it. A process stopped from outside with SIGSTOP gets its modes set again when
// it is continued in the foreground.
import { writeSync } from "node:fs";
import { allowExitFromBackground, inForeground } from "./background-exit.ts";
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
  /**
   * zot has the terminal again after a stop: its own (suspend: the renderer parked below its frame,
   * and the shell wrote under it), or one from outside (SIGSTOP: the shell may have written over the frame).
   */
  continued?(after: "suspend" | "stop"): void;
  /** A SIGTSTP from outside (`kill -TSTP`): the program suspends as for Ctrl+Z (suspend()). */
  stopRequested?(): void;
}

/** Kitty flag 1 (disambiguate): Esc, Alt+key and Shift+Enter get sequences of their own; text stays text. */
const KITTY_FLAGS = 1;
const QUERY_TIMEOUT_MS = 500;
/** How soon after the start the first read is what was typed before it (held by the cooked terminal). */
const TYPED_AHEAD_MS = 200;
const PASTE_TIMEOUT_MS = 1000;
const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
/**
 * How long suspend() waits, once the stop call returned, for the SIGCONT that continued the process
 * (the event loop hands it over only then); none by then: the kernel discarded the stop.
 */
const CONTINUE_WAIT_MS = 1000;
/** How often zot, continued in the background, looks whether it has the terminal again. */
const BACKGROUND_LOOK_MS = 200;

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
  /** until when the first read is text typed before the start (Key.typedAhead) */
  private typedAheadUntil: number | undefined;
  /** suspend() is between giving the terminal back and taking it again */
  private suspending = false;
  /** suspend() waits for its SIGCONT: the next one is its own, not a stop from outside ending */
  private awaitingContinue = false;
  /** given back by suspend() and not taken again: the shell's, whose modes zot leaves alone */
  private handedBack = false;
  /** lent to a program zot runs in it (lend()): given back until that program ends, whatever signal comes */
  private lentOut = false;
  /** the Kitty keyboard flags zot pushed are in force (a push is undone by one pop) */
  private kittyPushed = false;
  /** suspend() ran while a batch of input was dispatched: the rest of it was typed for the shell */
  private dropBatch = false;
  /** continued in the background: looks now and then whether zot is in the foreground again */
  private backgroundWatch: ReturnType<typeof setInterval> | undefined;

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
    this.typedAheadUntil = performance.now() + TYPED_AHEAD_MS;
    this.input.on("data", this.onData);
    this.input.resume();
    this.output.on("resize", this.onResize);
    this.output.on("error", this.onOutputError);
    if (this.options.handleSignals ?? true) {
      this.installExitHandlers();
      if (process.platform !== "win32") {
        process.on("SIGCONT", this.onContinue);
        process.on("SIGTSTP", this.onStopSignal);
      }
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
    // Given back (zot stopped, or continued in the background): the terminal is the shell's.
    if (this.gone || this.handedBack) return;
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
    clearInterval(this.backgroundWatch);
    process.off("SIGCONT", this.onContinue);
    process.off("SIGTSTP", this.onStopSignal);
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
    // Ended while given back (a shell's `kill %1` of a stopped zot): the shell has it as it wants it.
    if (this.handedBack) allowExitFromBackground();
    else this.giveBack();
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
    out += SYNC_END + AUTOWRAP_ON + (this.kittyPushed ? KITTY_POP : "") + (this.keyboard === "modifyOtherKeys" ? MODIFY_OTHER_KEYS_OFF : "");
    this.kittyPushed = false;
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
   * Raw mode and the modes start() set (the keyboard protocol as negotiated), once more, and the
   * size read again (the window may have been resized while the shell had it: the signal went to
   * the shell). Raw mode is left first: a shell may have put the terminal in its own modes
   * meanwhile, and asking for the raw mode the stream thinks it still has would change nothing.
   */
  private retake(): void {
    try {
      this.input.setRawMode?.(false);
      this.input.setRawMode?.(true);
    } catch {
      // The terminal is gone; SIGHUP follows.
    }
    (this.output as { _refreshSize?: () => void })._refreshSize?.();
    let modes = BRACKETED_PASTE_ON;
    if (this.keyboard === "kitty" && !this.kittyPushed) {
      modes += kittyPush(KITTY_FLAGS);
      this.kittyPushed = true;
    }
    if (this.keyboard === "modifyOtherKeys") modes += MODIFY_OTHER_KEYS_ON;
    this.write(modes);
  }

  /** Started, and the terminal has not yet answered the startup query (nothing may stop zot till it has). */
  get starting(): boolean {
    return this.active && this.negotiating;
  }

  /** Whether suspend() can stop the process now: started, not on Windows, the startup query answered. */
  get canSuspend(): boolean {
    return this.active && !this.gone && !this.negotiating && !this.awaitingContinue && !this.handedBack && process.platform !== "win32";
  }

  /**
   * Ctrl+Z: gives the terminal back as on exit (the restore hooks run: the renderer parks below its
   * frame), stops the process group (SIGTSTP, what the terminal itself sends for Ctrl+Z outside raw
   * mode, so a wrapper script stops with zot and the shell gets the terminal), and once zot is
   * continued in the foreground (`fg`) takes the terminal again and calls `continued("suspend")`:
   * before it returns when that is how it goes on, else at that later SIGCONT. What was typed
   * after Ctrl+Z in the same read was typed for the shell and is dropped. Resolves, soon after,
   * with whether the process was stopped: false where the kernel discarded the signal (no shell
   * with job control: a container's first process, a program started by `setsid`), which went on
   * at once. Nothing is done unless canSuspend (not on Windows, nor before the startup query is
   * answered: its answer would reach the shell).
   */
  suspend(): Promise<boolean> {
    if (!this.canSuspend) return Promise.resolve(false);
    this.suspending = true;
    this.awaitingContinue = true;
    this.dropBatch = true;
    let continued = false;
    const own = () => {
      continued = true;
    };
    process.on("SIGCONT", own);
    this.giveBack();
    this.handedBack = true;
    // Nothing read while the shell has the terminal: a read from the background stops zot (SIGTTIN).
    this.input.pause();
    // zot's own SIGTSTP listener would catch the stop below; without it the signal stops, as by default.
    const listening = process.listeners("SIGTSTP").includes(this.onStopSignal);
    if (listening) process.off("SIGTSTP", this.onStopSignal);
    try {
      (this.options.stopProcess ?? stopProcessGroup)();
    } catch {
      // Nothing stopped; the terminal is taken again below.
    }
    if (listening) process.on("SIGTSTP", this.onStopSignal);
    this.suspending = false;
    if (inForeground()) this.takeBack();
    // In the background (`bg`): taken back at the SIGCONT of `fg`, or, should the runtime hand that
    // over before the shell has given zot the terminal, at the next look after it has.
    else this.backgroundWatch = setInterval(() => inForeground() && this.takeBack(), BACKGROUND_LOOK_MS);
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

  /** Whether lend() can give the terminal to a program now: started, not given back already, the startup query answered. */
  get canLend(): boolean {
    return this.active && !this.gone && !this.negotiating && !this.handedBack;
  }

  /** The terminal is lent (lend() runs): a SIGINT then is the lent program's (a terminal in cooked mode sends it to the whole group). */
  get lent(): boolean {
    return this.lentOut;
  }

  /**
   * Gives the terminal to a program zot runs in it (the user's editor, Ctrl+G) as on exit (the
   * restore hooks run: the renderer parks below its frame), stops reading until `run` settles,
   * then takes it again and calls `continued("suspend")`, so the program paints anew below what
   * the lent program left. A SIGTSTP meanwhile stops zot as by default, and the SIGCONT that
   * continues it leaves the terminal lent; keys read in the same batch as the one that lent it are
   * dropped. Throws unless canLend.
   */
  async lend<T>(run: () => Promise<T>): Promise<T> {
    if (!this.canLend) throw new Error("the terminal cannot be lent now");
    this.giveBack();
    this.handedBack = true;
    this.lentOut = true;
    // What was read with the key that lent it was typed for the lent program: not zot's to take.
    this.dropBatch = true;
    this.input.pause();
    // A stop meanwhile (the editor's own Ctrl+Z, which stops its whole process group, or the
    // terminal's for a window editor waiting) stops zot with it, as by default: the shell gets the
    // terminal, and `fg` continues both.
    const listening = process.listeners("SIGTSTP").includes(this.onStopSignal);
    if (listening) process.off("SIGTSTP", this.onStopSignal);
    try {
      return await run();
    } finally {
      if (listening) process.on("SIGTSTP", this.onStopSignal);
      this.lentOut = false;
      this.takeBack();
    }
  }

  /** After suspend(), in the foreground again: the terminal is zot's, and the program paints anew. */
  private takeBack(): void {
    clearInterval(this.backgroundWatch);
    this.backgroundWatch = undefined;
    if (!this.active || !this.handedBack) return;
    this.handedBack = false;
    this.input.resume();
    this.retake();
    this.handlers?.continued?.("suspend");
  }

  private readonly onData = (chunk: Uint8Array | string) => {
    const text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    const events = this.parser.push(text);
    // The first read, right after the start, is what was typed before it: its line feeds were Enters (Key.typedAhead).
    if (this.typedAheadUntil !== undefined) {
      const ahead = performance.now() <= this.typedAheadUntil;
      this.typedAheadUntil = undefined;
      if (ahead) {
        for (const [i, event] of events.entries()) {
          if (event.type === "key" && event.sequence === "\n") events[i] = { ...event, key: { ...event.key, typedAhead: true } };
        }
      }
    }
    this.dispatch(events);
  };

  private readonly onResize = () => this.handlers?.resize();
  private readonly onOutputError = () => {
    this.gone = true;
  };

  private dispatch(events: InputEvent[]): void {
    clearTimeout(this.inputTimer);
    this.inputTimer = undefined;
    this.dropBatch = false;
    for (const event of events) {
      if (event.type === "reply") this.settleKeyboard(event.reply);
      else this.handlers?.input(event);
      // Ctrl+Z stopped zot: what was read with it was typed for the shell (a cooked terminal drops it too).
      if (this.dropBatch) return;
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
      this.kittyPushed = true;
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
   * SIGCONT. Nothing while zot is in the background (`bg`, `kill -CONT` while the shell has the
   * terminal): it waits for the SIGCONT of `fg`. After suspend() it takes the terminal back (if
   * suspend() did not already); after a stop from outside (SIGSTOP, which nothing can catch) it
   * sets the terminal's modes again (a shell may have put it in its own) and has the frame
   * painted again where it is (the shell's "Stopped" line may be over it).
   */
  private readonly onContinue = () => {
    if (!this.active || this.gone || this.suspending || this.lentOut) return;
    if (!inForeground()) {
      // continued in the background (`kill -CONT` while the shell has the terminal): the shell's `fg`
      // then sends no SIGCONT of its own, so zot looks for the foreground itself
      if (!this.handedBack && !this.awaitingContinue && this.backgroundWatch === undefined) {
        this.backgroundWatch = setInterval(() => inForeground() && this.stopEnded(), BACKGROUND_LOOK_MS);
      }
      return;
    }
    if (this.handedBack) return this.takeBack();
    if (this.awaitingContinue) return; // suspend()'s own, the terminal already taken back
    this.stopEnded();
  };

  /** A stop from outside is over and zot is in the foreground: the terminal set up again, the screen painted again. */
  private stopEnded(): void {
    clearInterval(this.backgroundWatch);
    this.backgroundWatch = undefined;
    if (!this.active || this.handedBack) return;
    this.retake();
    this.handlers?.continued?.("stop");
  }

  /** SIGTSTP from outside (`kill -TSTP`): as Ctrl+Z; the program decides (stopRequested), by default suspend(). */
  private readonly onStopSignal = () => {
    if (this.handlers?.stopRequested) this.handlers.stopRequested();
    else void this.suspend();
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
