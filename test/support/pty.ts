// Runs a program in a real pseudo-terminal (Bun.Terminal) and reads the screen back with
// @xterm/headless, the way a user's terminal would show it. Rule: tests assert what is on the
// screen and what bytes were written, never a program's internals; the emulator answers the
// program's queries (device attributes) like a real terminal, through the same PTY.
import { Unicode11Addon } from "@xterm/addon-unicode11";
import { Terminal as XTerm } from "@xterm/headless";
import type { Subprocess } from "bun";

/** An emulated terminal screen fed with raw output. */
export class Screen {
  readonly xterm: XTerm;
  private written: Promise<void> = Promise.resolve();

  constructor(cols: number, rows: number, onReply?: (data: string) => void) {
    this.xterm = new XTerm({ cols, rows, allowProposedApi: true, scrollback: 100_000 });
    // Emoji two cells wide, as today's terminals (and Bun.stringWidth) have them; xterm defaults to Unicode 6.
    this.xterm.loadAddon(new Unicode11Addon());
    this.xterm.unicode.activeVersion = "11";
    if (onReply) this.xterm.onData(onReply);
  }

  write(data: string | Uint8Array): void {
    this.written = this.written.then(() => new Promise<void>((resolve) => this.xterm.write(data, resolve)));
  }

  /** Resolves once everything written so far is parsed. */
  settled(): Promise<void> {
    return this.written;
  }

  resize(cols: number, rows: number): void {
    this.xterm.resize(cols, rows);
  }

  /** The visible rows, trailing spaces trimmed. */
  lines(): string[] {
    const buffer = this.xterm.buffer.active;
    return Array.from({ length: this.xterm.rows }, (_, row) => this.row(buffer.viewportY + row));
  }

  /** Every row the terminal holds, scrollback first, trailing spaces trimmed. */
  allLines(): string[] {
    return Array.from({ length: this.xterm.buffer.active.length }, (_, row) => this.row(row));
  }

  private row(index: number): string {
    return (this.xterm.buffer.active.getLine(index)?.translateToString(true) ?? "").trimEnd();
  }

  /** Rows that have scrolled off the top into the scrollback. */
  get scrollback(): number {
    return this.xterm.buffer.active.baseY;
  }

  text(): string {
    return this.lines().join("\n");
  }

  cursor(): { x: number; y: number } {
    const buffer = this.xterm.buffer.active;
    return { x: buffer.cursorX, y: buffer.cursorY };
  }

  get cursorHidden(): boolean {
    // Not in xterm's public API; the core service holds DECTCEM.
    return (this.xterm as unknown as { _core: { coreService: { isCursorHidden: boolean } } })._core.coreService.isCursorHidden;
  }

  get bracketedPaste(): boolean {
    return this.xterm.modes.bracketedPasteMode;
  }

  /** The terminal cell where `needle` starts on visible row `row` (a wide character takes two cells), or -1. */
  columnOf(row: number, needle: string): number {
    const buffer = this.xterm.buffer.active;
    const line = buffer.getLine(buffer.viewportY + row);
    if (!line) return -1;
    let text = "";
    const cellAt: number[] = [];
    for (let x = 0; x < this.xterm.cols; x++) {
      const chars = line.getCell(x)?.getChars() ?? "";
      for (let i = 0; i < chars.length; i++) cellAt.push(x);
      text += chars;
    }
    const at = text.indexOf(needle);
    return at === -1 ? -1 : cellAt[at];
  }
}

export interface PtyOptions {
  cols?: number;
  rows?: number;
  env?: Record<string, string>;
  cwd?: string;
  /**
   * Replies to queries the emulator does not answer, as the terminal being imitated would: when
   * the program writes a key of this map, the value is sent back at once (before the emulator's
   * own replies, e.g. `{"\x1b[?u": "\x1b[?0u"}` makes it a Kitty-protocol terminal).
   */
  answers?: Record<string, string>;
  /** Holds the emulator's own replies (device attributes, cursor position) this long, as a slow link would. */
  replyDelayMs?: number;
}

/** A program running in a pseudo-terminal, with its screen. */
export class PtySession {
  readonly screen: Screen;
  readonly proc: Subprocess;
  /** Everything the program wrote, decoded. */
  output = "";
  /** Bytes the program wrote. */
  bytes = 0;
  private readonly decoder = new TextDecoder();

  constructor(cmd: string[], options: PtyOptions = {}) {
    const cols = options.cols ?? 80;
    const rows = options.rows ?? 24;
    const delay = options.replyDelayMs;
    this.screen = new Screen(cols, rows, (reply) => {
      if (delay === undefined) this.proc.terminal?.write(reply);
      else setTimeout(() => this.proc.terminal?.write(reply), delay);
    });
    this.proc = Bun.spawn(cmd, {
      cwd: options.cwd,
      env: options.env ?? (process.env as Record<string, string>),
      terminal: {
        cols,
        rows,
        data: (terminal, data) => {
          this.bytes += data.length;
          const text = this.decoder.decode(data, { stream: true });
          this.output += text;
          for (const [query, reply] of Object.entries(options.answers ?? {})) if (text.includes(query)) terminal.write(reply);
          this.screen.write(data.slice());
        },
      },
    });
  }

  /** Sends keystrokes (raw bytes as a terminal would: "\r" is Enter, "\x1b[A" is Up). */
  type(data: string): void {
    this.proc.terminal?.write(data);
  }

  /** Sends text as a bracketed paste. */
  paste(text: string): void {
    this.type(`\x1b[200~${text}\x1b[201~`);
  }

  async resize(cols: number, rows: number): Promise<void> {
    await this.screen.settled();
    this.screen.resize(cols, rows);
    this.proc.terminal?.resize(cols, rows);
  }

  /** Waits until the screen satisfies `check` (polling); fails with the screen in the message. */
  async waitFor(check: (screen: Screen) => boolean, what = "the expected screen", timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.screen.settled();
      if (check(this.screen)) return;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen shows:\n${this.screen.text()}`);
      await Bun.sleep(10);
    }
  }

  waitForText(text: string, timeoutMs?: number): Promise<void> {
    return this.waitFor((screen) => screen.text().includes(text), JSON.stringify(text), timeoutMs);
  }

  /** Waits for the program to end and for its last output to reach the screen. */
  async exited(timeoutMs = 10_000): Promise<number> {
    const code = await Promise.race([this.proc.exited, Bun.sleep(timeoutMs).then(() => undefined)]);
    if (code === undefined) throw new Error(`the program did not exit within ${timeoutMs} ms; the screen shows:\n${this.screen.text()}`);
    await Bun.sleep(20);
    await this.screen.settled();
    return code;
  }

  close(): void {
    if (this.proc.exitCode === null) this.proc.kill();
    this.proc.terminal?.close();
  }
}
