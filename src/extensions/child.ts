// One long-lived child process that speaks one JSON value per line: requests on its stdin, frames on
// its stdout, stderr appended to a private log file together with the host's own diagnostics, both
// within the log's budget (child-log.ts). Both
// extension hosts (zot NDJSON, JSON-RPC hooks) sit on this; nothing else in zot spawns long-lived
// children. Rule: nothing a child does can crash, stall, bloat or outlive zot: bad lines are logged
// and skipped, what waits to be written to a child that stopped reading is bounded (one-way frames
// over the bound are dropped), a dead child fails its pending calls at once, and every live child is
// killed when zot exits. The child leads its own process group, and stopping it ends its whole
// tree (a wrapper script's program, its `&` children, setsid'd and double-forked daemons).
import { statSafe } from "../config/quiet-fs.ts";
import { accessSync, constants, readFileSync } from "node:fs";
import { childEnv } from "../config/child-env.ts";
import { beforeSpawn, OwnedGroup } from "../process/owned-processes.ts";
import { errorText } from "../protocol/error-text.ts";
import { timerDelay } from "../protocol/timer-delay.ts";
import { type LogLimits, RunLog } from "./child-log.ts";
import { LineSplitter } from "../protocol/line-splitter.ts";
import { findProgram } from "../process/find-program.ts";

/** The original's limit; a frame bigger than this is a bug in the extension, not data. */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
/**
 * How much may wait in memory for a child that is not reading before droppable frames are dropped.
 * Far more than a healthy child ever lets pile up, far less than would hurt zot.
 */
export const DEFAULT_MAX_BACKLOG_BYTES = 8 * 1024 * 1024;
const DEFAULT_GRACE_MS = 2000;
const DEFAULT_TERM_MS = 1000;
/**
 * After the process exits, how long its stdout may take to deliver what is left. A grandchild that
 * inherited the pipe can hold it open forever; we stop reading rather than wait for it.
 */
const DRAIN_GRACE_MS = 250;
/** How much of a bad line or unsent frame goes into the log. */
const PREVIEW_CHARS = 200;

export interface LineChildOptions {
  /** for log lines and error messages */
  name: string;
  /** argv; argv[0] resolved already */
  command: string[];
  cwd: string;
  /** the full environment (default: zot's, without its credentials; config/child-env.ts) */
  env?: Record<string, string | undefined>;
  /** stderr is appended here, and the host's diagnostics too; the directory is created (child-log.ts) */
  logFile: string;
  /** the log's budget for this run (default child-log.ts's limits) */
  logLimits?: Partial<LogLimits>;
  /** default 4 MiB; an over-long line is dropped and logged, the reader survives */
  maxLineBytes?: number;
  /** how errors name the child (default `extension "<name>"`; a hook host passes `hook "<name>"`) */
  label?: string;
  /**
   * default 8 MiB: bytes written but not yet taken by the pipe, over which a droppable send is
   * dropped instead of queued; other sends are always queued
   */
  maxBacklogBytes?: number;
  /** every problem the child causes (also logged): bad lines, dropped frames, a slow exit */
  onDiagnostic?: (diagnostic: ChildDiagnostic) => void;
}

/**
 * Something the child did wrong, as a host can report it (`zot ext check` lists them). kind is one
 * of `not_json`, `line_too_long`, `output_closed`, `frames_dropped`, `no_exit_after_stop`,
 * `no_exit_after_sigterm`; message is the line written to the log.
 */
export interface ChildDiagnostic {
  kind: string;
  message: string;
  /** line_too_long: the dropped line's size and its first bytes, to tell which call it answered */
  dropped?: { bytes: number; limit: number; head: string };
}

export interface ChildExitInfo {
  code: number | null;
  signal: string | null;
  /** `exited with code N` or `killed by SIGNAL` */
  reason: string;
  /** true when stop() asked for it, so a host can tell a crash from a shutdown */
  stopped: boolean;
}

export type ChildCallErrorKind = "timeout" | "aborted" | "dead";

/** A call() that got no answer. The message is a sentence naming the child and what was asked. */
export class ChildCallError extends Error {
  readonly kind: ChildCallErrorKind;
  constructor(kind: ChildCallErrorKind, message: string) {
    super(message);
    this.name = "ChildCallError";
    this.kind = kind;
  }
}

interface PendingCall {
  what: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** clears the timer and the abort listener */
  release(): void;
}

type Piped = Bun.Subprocess<"pipe", "pipe", "pipe">;

export class LineChild {
  readonly name: string;
  readonly pid: number | undefined;
  private readonly label: string;
  private readonly logFile: string;
  private readonly runLog: RunLog;
  private readonly proc: Piped;
  /** the child's process group and every descendant: what stop() ends and zot's exit kills */
  private readonly tree: OwnedGroup;
  private readonly maxLineBytes: number;
  private readonly maxBacklogBytes: number;
  private readonly onDiagnostic: ((diagnostic: ChildDiagnostic) => void) | undefined;
  /** bytes handed to stdin's FileSink so far, and how many of those the pipe has taken */
  private queuedBytes = 0;
  private acceptedBytes = 0;
  /** droppable frames dropped since the backlog last went over the bound, reported when it clears */
  private droppedFrames = 0;
  private writeFailed = false;
  private messageHandlers: ((value: unknown) => void)[] = [];
  /** Messages that arrived before the first onMessage handler; delivered to it in order. */
  private early: unknown[] = [];
  private exitHandlers: ((info: ChildExitInfo) => void)[] = [];
  private exitInfo: ChildExitInfo | undefined;
  private processExited = false;
  private outputClosed = false;
  private stdinOpen = true;
  private stopRequested = false;
  private stopping: Promise<void> | undefined;
  private nextId = 1;
  private readonly pending = new Map<string, PendingCall>();
  private readonly finished: Promise<void>;

  /** Starts the process. Throws an Error worded as a sentence when it cannot be started. */
  static spawn(options: LineChildOptions): LineChild {
    const label = options.label ?? `extension "${options.name}"`;
    const program = options.command[0];
    if (!program) throw new Error(`${label}: there is no command to run`);
    // posix_spawn reports a missing working directory as a missing program; say what is wrong.
    if (!statSafe(options.cwd)?.isDirectory()) {
      throw new Error(`${label}: cannot run ${program}: its working directory ${options.cwd} does not exist`);
    }
    let runLog: RunLog;
    try {
      runLog = new RunLog(options.logFile, { limits: options.logLimits });
      // Two zots running one extension share its log: each run says whose it is.
      runLog.begin(`starting ${options.name} at ${new Date().toISOString()} (zot pid ${process.pid})`);
    } catch (err) {
      throw new Error(`${label}: cannot write its log file ${options.logFile} (${errorText(err)}); check that directory's permissions`);
    }
    let proc: Piped;
    try {
      beforeSpawn();
      proc = Bun.spawn(options.command, {
        cwd: options.cwd,
        env: definedEnv(options.env ?? childEnv(process.env)),
        stdin: "pipe",
        stdout: "pipe",
        // Read by zot and written to the log within its budget: a chatty child cannot fill the disk.
        stderr: "pipe",
        // setsid(): a group of its own, so its whole tree can be told from zot's and ended together
        // (and a Ctrl+C in zot's terminal reaches zot alone, which then decides).
        detached: true,
      });
    } catch (err) {
      const message = spawnFailure(program, options.env ?? process.env, err);
      runLog.always(`cannot run ${program}: ${message}`);
      runLog.close();
      throw new Error(`${label}: cannot run ${program}: ${message}`);
    }
    return new LineChild(options, label, proc, runLog);
  }

  private constructor(options: LineChildOptions, label: string, proc: Piped, runLog: RunLog) {
    this.name = options.name;
    this.label = label;
    this.logFile = options.logFile;
    this.runLog = runLog;
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.maxBacklogBytes = options.maxBacklogBytes ?? DEFAULT_MAX_BACKLOG_BYTES;
    this.onDiagnostic = options.onDiagnostic;
    this.proc = proc;
    this.pid = proc.pid;
    this.tree = new OwnedGroup(proc.pid, label);
    void proc.exited.then(() => {
      this.processExited = true;
    });
    this.finished = this.watch();
  }

  /** The process runs and its output is open, so it can still answer. */
  get alive(): boolean {
    return !this.processExited && !this.outputClosed;
  }

  /** Bytes sent but not yet taken by the pipe: what zot holds in memory for this child. */
  get backlogBytes(): number {
    return this.queuedBytes - this.acceptedBytes;
  }

  /** Every parsed JSON line, in order. Lines that came before the first handler are replayed to it. */
  onMessage(handler: (value: unknown) => void): void {
    this.messageHandlers.push(handler);
    if (this.messageHandlers.length === 1 && this.early.length > 0) {
      const early = this.early;
      this.early = [];
      for (const value of early) this.deliver(value);
    }
  }

  /** Called once when the process is gone; at once (next microtask) if it already is. */
  onExit(handler: (info: ChildExitInfo) => void): void {
    const info = this.exitInfo;
    if (info) queueMicrotask(() => this.runExitHandler(handler, info));
    else this.exitHandlers.push(handler);
  }

  /**
   * Writes one JSON line and returns at once, whether or not the child is reading. False when the
   * child cannot receive it (logged), and when the frame is droppable and the child has let more
   * than maxBacklogBytes pile up (counted, and logged once when the backlog clears). Only frames
   * nobody waits for (one-way events) may be droppable: a call or a reply must always arrive.
   */
  send(value: unknown, options: { droppable?: boolean } = {}): boolean {
    let line: string | undefined;
    try {
      line = JSON.stringify(value);
    } catch (err) {
      this.log(`not sent: the frame cannot be written as JSON (${errorText(err)})`);
      return false;
    }
    if (line === undefined) {
      this.log("not sent: the frame is not a JSON value");
      return false;
    }
    if (!this.stdinOpen || this.processExited) {
      this.log(`not sent (${this.processExited ? "the process has exited" : "its stdin is closed"}): ${preview(line)}`);
      return false;
    }
    const data = `${line}\n`;
    const bytes = Buffer.byteLength(data);
    // An empty backlog takes any frame, however big: a child that keeps up never loses one.
    if (options.droppable && this.backlogBytes > 0 && this.backlogBytes + bytes > this.maxBacklogBytes) {
      // The first drop is said at once; how many is said when it reads again, or when it ends.
      if (this.droppedFrames++ === 0) this.log("the process is not reading its stdin: event frames are dropped until it does (how many, when it reads again or ends)");
      return false;
    }
    // FileSink.write appends the whole line to one ordered buffer, so concurrent senders never interleave.
    try {
      this.queuedBytes += bytes;
      const upTo = this.queuedBytes;
      const written = this.proc.stdin.write(data);
      const flushed = this.proc.stdin.flush();
      // Bun 1.4.5: a number means the pipe took the bytes (and everything queued before them); a
      // promise means they wait in the sink's buffer, and it settles once that buffer has drained.
      const waiting = [written, flushed].filter((result): result is Promise<number> => result instanceof Promise);
      if (waiting.length === 0) this.accepted(upTo);
      for (const promise of waiting) {
        promise.then(
          () => this.accepted(upTo),
          (err: unknown) => this.failedWrite(upTo, err),
        );
      }
      return true;
    } catch (err) {
      this.log(`writing to the process failed: ${errorText(err)}`);
      return false;
    }
  }

  /**
   * Sends makeFrame(id) and resolves with the value a later settle(id, value) passes. Rejects with
   * a ChildCallError on timeout, on abort, and the moment the child dies.
   */
  call(
    makeFrame: (id: number) => unknown,
    options: { timeoutMs: number; signal?: AbortSignal; what: string },
  ): Promise<unknown> {
    const { timeoutMs, signal, what } = options;
    const id = this.nextId++;
    const key = String(id);
    return new Promise<unknown>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new ChildCallError("aborted", `${what} for ${this.label} was cancelled before it was sent`));
        return;
      }
      if (!this.alive || !this.stdinOpen) {
        reject(new ChildCallError("dead", this.unreachable(what)));
        return;
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => this.fail(key, new ChildCallError("aborted", `${what} for ${this.label} was cancelled`));
      this.pending.set(key, {
        what,
        resolve,
        reject,
        release: () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
        },
      });
      // An infinite timeout means none; setTimeout would treat it as 1 ms.
      if (Number.isFinite(timeoutMs)) {
        timer = setTimeout(
          () => this.fail(key, new ChildCallError("timeout", `${this.label} did not answer ${what} within ${seconds(timeoutMs)}`)),
          timerDelay(timeoutMs),
        );
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      let frame: unknown;
      try {
        frame = makeFrame(id);
      } catch (err) {
        this.fail(key, err instanceof Error ? err : new Error(String(err)));
        return;
      }
      if (!this.send(frame)) this.fail(key, new ChildCallError("dead", this.unreachable(what)));
    });
  }

  /** The ids of the calls waiting for an answer. */
  pendingIds(): string[] {
    return [...this.pending.keys()];
  }

  /** Resolves the pending call with this id ("3" and 3 are the same). False if unknown or expired. */
  settle(id: string | number, value: unknown): boolean {
    const key = String(id);
    const call = this.pending.get(key);
    if (!call) return false;
    this.pending.delete(key);
    call.release();
    call.resolve(value);
    return true;
  }

  /**
   * Appends `[zot] <line>` to the log file, within the run's budget (what zot says about the child
   * is as many lines as the child provokes); never throws.
   */
  log(line: string): void {
    this.runLog.line(line);
  }

  /** Logs a problem the child caused and hands it to onDiagnostic. */
  private diagnose(kind: string, message: string, dropped?: ChildDiagnostic["dropped"]): void {
    this.log(message);
    if (!this.onDiagnostic) return;
    try {
      this.onDiagnostic({ kind, message, ...(dropped ? { dropped } : {}) });
    } catch (err) {
      this.log(`handling a diagnostic failed: ${errorText(err)}`);
    }
  }

  /** The pipe has taken every byte up to upTo (promises of one drain may settle out of order). */
  private accepted(upTo: number): void {
    if (upTo > this.acceptedBytes) this.acceptedBytes = Math.min(upTo, this.queuedBytes);
    // Half the bound, so a child hovering at the limit makes one log line, not one per frame.
    if (this.droppedFrames > 0 && this.backlogBytes <= this.maxBacklogBytes / 2) this.reportDropped();
  }

  private failedWrite(upTo: number, err: unknown): void {
    // Those bytes will never arrive; they no longer count as waiting.
    this.accepted(upTo);
    // A broken pipe fails every buffered write at once; one line says it.
    if (this.writeFailed) return;
    this.writeFailed = true;
    this.log(`writing to the process failed: ${errorText(err)}`);
  }

  private reportDropped(): void {
    const n = this.droppedFrames;
    this.droppedFrames = 0;
    this.diagnose("frames_dropped", `dropped ${n} event frame${n === 1 ? "" : "s"}: the extension is not reading its stdin`);
  }

  /**
   * Clean stop: the goodbye frame, stdin closed, graceMs for the child to leave, SIGTERM, termMs,
   * SIGKILL. Resolves once the process is gone and the exit handlers have run. Idempotent.
   */
  stop(options: { goodbye?: unknown; graceMs?: number; termMs?: number } = {}): Promise<void> {
    this.stopping ??= this.runStop(options);
    return this.stopping;
  }

  private async runStop(options: { goodbye?: unknown; graceMs?: number; termMs?: number }): Promise<void> {
    this.stopRequested = true;
    if (!this.processExited) {
      if (options.goodbye !== undefined && this.stdinOpen) this.send(options.goodbye);
      this.closeStdin();
      const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
      if (!(await settlesWithin(this.proc.exited, graceMs))) {
        const termMs = options.termMs ?? DEFAULT_TERM_MS;
        this.diagnose("no_exit_after_stop", `still running ${seconds(graceMs)} after being asked to stop; sending SIGTERM`);
        this.tree.signal("SIGTERM");
        if (!(await settlesWithin(this.proc.exited, termMs))) {
          this.diagnose("no_exit_after_sigterm", `still running ${seconds(termMs)} after SIGTERM; sending SIGKILL`);
          this.tree.signal("SIGKILL");
        }
      }
    }
    await this.finished;
    // What the child left behind (a wrapper's program, `&` children, daemons) stops with it.
    await this.tree.terminate(options.termMs ?? DEFAULT_TERM_MS);
  }

  private closeStdin(): void {
    if (!this.stdinOpen) return;
    this.stdinOpen = false;
    try {
      // end() flushes what is buffered (the goodbye) before closing.
      this.quietly(this.proc.stdin.end(), "closing stdin failed");
    } catch {
      // The pipe is already gone with the process.
    }
  }

  /** Reads stdout and stderr until they close, then waits for the process, then reports the exit. */
  private async watch(): Promise<void> {
    const errReader = this.proc.stderr.getReader();
    const errReading = this.readStderr(errReader);
    await this.watchOutput();
    // What the child wrote to stderr last belongs in the log before its exit line; a grandchild
    // holding stderr open is not waited for.
    if (!(await settlesWithin(errReading, DRAIN_GRACE_MS))) {
      await errReader.cancel().catch(() => {});
      await errReading;
    }
    this.finish();
  }

  private async readStderr(reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> }): Promise<void> {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (value) this.runLog.output(value);
      }
    } catch {
      // cancelled after the drain grace
    }
  }

  /** Reads stdout until it closes, then waits for the process. */
  private async watchOutput(): Promise<void> {
    const reader = this.proc.stdout.getReader();
    const reading = this.readOutput(reader);
    const first = await Promise.race([reading.then(() => "output" as const), this.proc.exited.then(() => "exit" as const)]);
    if (first === "output") {
      this.outputClosed = true;
      // Usually the process is exiting too; if it lives on, it can never answer, so say so now.
      if (!(await settlesWithin(this.proc.exited, DRAIN_GRACE_MS))) {
        this.diagnose("output_closed", "closed its output but is still running; it cannot answer any more");
        this.failPending((what) => `${this.label} closed its output before answering ${what}`);
        await this.proc.exited;
      }
    } else if (!(await settlesWithin(reading, DRAIN_GRACE_MS))) {
      await reader.cancel().catch(() => {});
      await reading;
    }
  }

  private async readOutput(reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> }): Promise<void> {
    const limit = this.maxLineBytes;
    const splitter = new LineSplitter(
      limit,
      (line) => this.handleLine(line),
      (bytes, head) => this.diagnose("line_too_long", `dropped a line of ${bytes} bytes (limit ${limit})`, { bytes, limit, head }),
    );
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (value) splitter.push(value);
      }
    } catch (err) {
      this.log(`reading its output failed: ${errorText(err)}`);
    }
    splitter.end();
  }

  private handleLine(line: string): void {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.diagnose("not_json", `not JSON: ${preview(line)}`);
      return;
    }
    if (this.messageHandlers.length === 0) this.early.push(value);
    else this.deliver(value);
  }

  private deliver(value: unknown): void {
    for (const handler of this.messageHandlers) {
      try {
        handler(value);
      } catch (err) {
        // A host bug must not stop the reader; the next line still gets through.
        this.log(`handling a message failed: ${errorText(err)}`);
      }
    }
  }

  private finish(): void {
    this.processExited = true;
    this.outputClosed = true;
    this.stdinOpen = false;
    // Nothing waits for this child any more; a burst of drops still unreported is reported now.
    this.acceptedBytes = this.queuedBytes;
    if (this.droppedFrames > 0) this.reportDropped();
    const code = this.proc.exitCode;
    const signal = this.proc.signalCode == null ? null : String(this.proc.signalCode);
    const reason = signal ? `killed by ${signal}` : `exited with code ${code}`;
    this.runLog.always(`${reason} (zot pid ${process.pid})`);
    this.runLog.close();
    const info: ChildExitInfo = { code: signal ? null : code, signal, reason, stopped: this.stopRequested };
    this.exitInfo = info;
    this.failPending((what) => `${this.label} ${reason} before answering ${what}`);
    const handlers = this.exitHandlers;
    this.exitHandlers = [];
    for (const handler of handlers) this.runExitHandler(handler, info);
  }

  private runExitHandler(handler: (info: ChildExitInfo) => void, info: ChildExitInfo): void {
    try {
      handler(info);
    } catch (err) {
      this.log(`handling the exit failed: ${errorText(err)}`);
    }
  }

  private fail(key: string, error: Error): void {
    const call = this.pending.get(key);
    if (!call) return;
    this.pending.delete(key);
    call.release();
    call.reject(error);
  }

  private failPending(message: (what: string) => string): void {
    for (const [key, call] of [...this.pending]) this.fail(key, new ChildCallError("dead", message(call.what)));
  }

  private unreachable(what: string): string {
    if (this.exitInfo) return `${this.label} ${this.exitInfo.reason}; ${what} was not sent`;
    if (this.processExited) return `${this.label} has exited; ${what} was not sent`;
    if (this.stopRequested) return `${this.label} is stopping; ${what} was not sent`;
    if (this.outputClosed) return `${this.label} closed its output; ${what} was not sent`;
    return `${this.label} is not accepting input; ${what} was not sent`;
  }

  private quietly(result: number | Promise<number>, what: string): void {
    if (result instanceof Promise) result.catch((err: unknown) => this.log(`${what}: ${errorText(err)}`));
  }
}


/** Why Bun.spawn refused, in words a user can act on. */
function spawnFailure(program: string, env: Record<string, string | undefined>, err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  const bare = !program.includes("/") && !program.includes("\\");
  if (code === "ENOENT") {
    if (bare && !findProgram(program, env.PATH)) return "not found on PATH";
    if (statSafe(program)?.isFile()) {
      // The file is there: the kernel could not find the interpreter its #! line names.
      const interpreter = shebang(program);
      return interpreter ? `its interpreter ${interpreter} (the #! line) was not found` : "no such file";
    }
    return "no such file";
  }
  if (code === "EACCES") {
    if (statSafe(program)?.isDirectory()) return "it is a directory";
    return isExecutable(program) ? "permission denied" : `not executable (chmod +x ${program})`;
  }
  if (code === "ENOEXEC") return "not a program this system can run (a script needs a #! line)";
  return errorText(err);
}

function shebang(file: string): string | undefined {
  try {
    const head = readFileSync(file, { encoding: "latin1" }).slice(0, 256);
    const match = /^#!\s*(\S+)/.exec(head);
    return match?.[1];
  } catch {
    return undefined;
  }
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function definedEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

/** True if the promise settles within ms, false if the time runs out first. */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timerDelay(ms));
    const done = () => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(done, done);
  });
}

/** `ms` as seconds for a sentence: "1.5 s". */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** A parsed value a host skipped, as at most 200 characters of JSON, for its log. */
export function valuePreview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}… (${text.length} chars)` : flat;
}
