// Runs one `type: "command"` settings hook: `bash -c <command>` in the project folder (shell form),
// or, with `args`, the program `command` itself with those arguments and no shell (exec form, as
// Claude Code runs it: `${CLAUDE_PROJECT_DIR}` filled into each as plain text); the event's JSON on
// stdin, CLAUDE_PROJECT_DIR in its environment, stdout and stderr collected.
// Rule: a hook is a child like any other: its own process group owned by zot (killed as a tree on
// its timeout, on an abort and when zot exits), zot's credentials kept out of its environment, and
// its output bounded (past the limit it is drained and dropped, so the hook never blocks on a pipe).
import { resolve } from "node:path";
import { statSafe } from "../config/quiet-fs.ts";
import { childEnv } from "../config/child-env.ts";
import { childEnding } from "../process/child-ending.ts";
import { beforeSpawn, OwnedGroup } from "../process/owned-processes.ts";
import { timerDelay } from "../protocol/timer-delay.ts";

/** What is kept of a hook's stdout (its JSON answer, its context) and of its stderr. */
export const STDOUT_MAX_BYTES = 1024 * 1024;
export const STDERR_MAX_BYTES = 64 * 1024;
/** After SIGTERM, how long the hook's process group gets before SIGKILL. */
const KILL_GRACE_MS = 1000;
/** After the hook exits, how long a background child of it may keep the pipes open. */
const DRAIN_GRACE_MS = 250;

export interface CommandRunOptions {
  command: string;
  /** exec form: the arguments `command` (a program) is run with, no shell between */
  args?: readonly string[];
  /** the event's input, written to stdin as one JSON object; absent: stdin is closed at once (an apiKeyHelper) */
  input?: unknown;
  /** the project folder: the hook's cwd and CLAUDE_PROJECT_DIR */
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** the environment zot runs in (credentials are taken out here) */
  env?: Record<string, string | undefined>;
}

export type CommandRun =
  | { status: "exited"; code: number; stdout: string; stderr: string; durationMs: number }
  | { status: "timed_out"; stdout: string; stderr: string; durationMs: number }
  | { status: "aborted"; stdout: string; stderr: string; durationMs: number }
  | { status: "failed_to_start"; message: string; durationMs: number };

export async function runCommand(options: CommandRunOptions): Promise<CommandRun> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  if (options.signal.aborted) return { status: "aborted", stdout: "", stderr: "", durationMs: 0 };
  if (!statSafe(options.cwd)?.isDirectory()) {
    return { status: "failed_to_start", message: `the project folder ${options.cwd} does not exist`, durationMs: took() };
  }
  const env: Record<string, string | undefined> = { ...childEnv(options.env ?? process.env), CLAUDE_PROJECT_DIR: options.cwd };
  const argv = options.args ? execArgv(options.command, options.args, options.cwd, env.PATH) : shellArgv(options.command);
  if ("error" in argv) return { status: "failed_to_start", message: argv.error, durationMs: took() };
  let proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
  try {
    beforeSpawn();
    proc = Bun.spawn(argv.argv, {
      cwd: options.cwd,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      // its own process group, so a timeout kills everything it started
      detached: true,
      env,
    });
  } catch (error) {
    return { status: "failed_to_start", message: `could not start ${argv.argv[0]}: ${(error as Error).message}`, durationMs: took() };
  }
  const tree = new OwnedGroup(proc.pid, `hook: ${options.command.length > 60 ? `${options.command.slice(0, 59)}…` : options.command}`);
  const stdout = new BoundedText(STDOUT_MAX_BYTES);
  const stderr = new BoundedText(STDERR_MAX_BYTES);
  const readers = [proc.stdout.getReader(), proc.stderr.getReader()];
  const pumps = Promise.all([pump(readers[0], stdout), pump(readers[1], stderr)]);
  void writeInput(proc, options.input);

  const { ending } = await childEnding(proc, tree, {
    signal: options.signal,
    timeoutMs: timerDelay(options.timeoutMs),
    killGraceMs: KILL_GRACE_MS,
    pumps,
    readers,
    drainGraceMs: DRAIN_GRACE_MS,
  });
  if (!tree.running()) tree.release();
  const out = { stdout: stdout.text(), stderr: stderr.text(), durationMs: took() };
  if (ending === "timed_out") return { status: "timed_out", ...out };
  if (ending === "aborted") return { status: "aborted", ...out };
  // Killed by a signal it did not handle: no exit code, which counts as a failure (not a block).
  return { status: "exited", code: proc.exitCode ?? 128, ...out };
}

function shellArgv(command: string): { argv: string[] } {
  return { argv: [Bun.which("bash") ?? "sh", "-c", command] };
}

/** Exec form: the program as a path (from the project folder) or found on PATH, and the arguments, `${CLAUDE_PROJECT_DIR}` filled in. */
function execArgv(command: string, args: readonly string[], cwd: string, path: string | undefined): { argv: string[] } | { error: string } {
  const fill = (text: string) => text.replaceAll("${CLAUDE_PROJECT_DIR}", cwd);
  const program = fill(command);
  const found = program.includes("/") ? resolve(cwd, program) : Bun.which(program, { PATH: path ?? "" });
  if (!found || !statSafe(found)?.isFile()) return { error: `${program} ${program.includes("/") ? "does not exist" : "was not found on PATH"} (with "args", "command" is the program itself, run without a shell)` };
  return { argv: [found, ...args.map(fill)] };
}

/** The input on stdin, then EOF; a hook that exits without reading it is no error. */
async function writeInput(proc: Bun.Subprocess<"pipe", "pipe", "pipe">, input: unknown): Promise<void> {
  try {
    // Awaited: a write to a hook that closed its stdin rejects later, not here.
    if (input !== undefined) await proc.stdin.write(`${JSON.stringify(input)}\n`);
    await proc.stdin.end();
  } catch {
    // EPIPE: the hook did not want it
  }
}

async function pump(reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> }, into: BoundedText): Promise<void> {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value) into.add(value);
    }
  } catch {
    // cancelled after the drain grace: what was read is kept
  }
}

/** Text up to a number of bytes; the rest is counted and dropped. */
class BoundedText {
  private readonly chunks: Uint8Array[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(private readonly max: number) {}

  add(chunk: Uint8Array): void {
    const room = this.max - this.kept;
    if (room > 0) {
      const part = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
      this.chunks.push(part);
      this.kept += part.byteLength;
    }
    this.dropped += Math.max(0, chunk.byteLength - Math.max(0, room));
  }

  text(): string {
    const text = new TextDecoder().decode(Buffer.concat(this.chunks));
    return this.dropped > 0 ? `${text}\n[${this.dropped} more bytes dropped]` : text;
  }
}
