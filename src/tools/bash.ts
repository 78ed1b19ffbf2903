// The `bash` tool: run a shell command in the working directory, stream its output, return the
// head and tail of it (a long output is kept whole in a file, see bash-output-files.ts). Rule: the
// command runs in its own process group and dies as a tree; on timeout or abort every process it
// started (setsid'd ones too) gets SIGTERM, then SIGKILL, and the tool returns. What it leaves
// running in the background is killed when zot exits.
import { statSafe } from "../config/quiet-fs.ts";
import { closeSync, writeSync } from "node:fs";
import { beforeSpawn, OwnedGroup } from "../process/owned-processes.ts";
import { timerDelay } from "../protocol/timer-delay.ts";
import { type Tool, textResult } from "../protocol/tool.ts";
import { childEnv } from "../config/child-env.ts";
import { defineArgs, renameKeys } from "./args.ts";
import { BASH_OUTPUT_FILE_MAX_BYTES, createOutputFile } from "./bash-output-files.ts";
import { bwrapNote } from "./sandbox.ts";
import { prepareRecordsFolder } from "./jail-baselines.ts";
import { ProtectedSnapshot, undoneNote } from "./protected-paths.ts";
import { jailBash } from "./sandbox-command.ts";
import { bashArgs } from "./builtin-args.ts";
import { builtinParameters } from "./builtin-parameters.ts" with { type: "macro" };
import { childEnding } from "../process/child-ending.ts";

/** Output over either limit is cut to its head and tail, and saved whole to a file. */
export const BASH_MAX_LINES = 2000;
export const BASH_MAX_BYTES = 51_200;
const HEAD_LINES = BASH_MAX_LINES / 2;
const HEAD_BYTES = BASH_MAX_BYTES / 2;
/** After SIGTERM, how long the group gets before SIGKILL. */
const KILL_GRACE_MS = 2000;
/**
 * After the shell exits, how long to wait for the output pipe to close. A background process
 * (`server &`) keeps it open forever; we stop reading rather than wait for it.
 */
const DRAIN_GRACE_MS = 250;

const args = defineArgs("bash", bashArgs, builtinParameters("bashArgs"));

/** What git says when it cannot save its configuration (read-only in the jail). */
const GIT_CONFIG_REFUSED = /could not (write|lock) config file/;

export const bashTool: Tool = {
  name: "bash",
  description:
    "Run a shell command with bash -c in the working directory; stdout and stderr come back merged, with " +
    "the exit code. Use it to run tests, builds, git, and to explore (ls, find, rg, grep). Do not use it to " +
    "read or change files when read, edit or write can: they are safer and show you exact content. stdin is " +
    "empty, so interactive commands fail: pass flags such as --yes or -y. Each call is a fresh shell (cd " +
    "does not persist). Long output keeps its first and last lines and names a file with all of it. Set " +
    "timeout (seconds) for commands that might hang; run servers in the background with output " +
    "redirected (`cmd > log 2>&1 &`).",
  parameters: args.jsonSchema,
  async execute(raw, ctx) {
    const parsed = args.parse(renameKeys(raw, { cmd: "command" }));
    if (!parsed.ok) return parsed.error;
    const { command, timeout } = parsed.value;
    if (!command.trim()) return textResult("bash: \"command\" is blank; give the command to run", true);
    if (ctx.signal.aborted) return textResult("[aborted] before the command started", true, { exit_code: null });

    // posix_spawn reports a missing cwd as a missing shell; say what is really wrong.
    if (!statSafe(ctx.cwd)?.isDirectory()) {
      return textResult(`bash: the working directory ${ctx.cwd} does not exist or is not a directory`, true);
    }
    const env = ctx.env ?? process.env;
    if (ctx.jailed) prepareRecordsFolder(ctx.protectedPaths?.find((entry) => entry.zotHome)?.path);
    const jail = ctx.jailed ? await jailBash(ctx.cwd, command, env, ctx.protectedPaths) : undefined;
    if (jail && "refusal" in jail) return textResult(jail.refusal, true, { exit_code: null, jailed: "static" });
    // What a later run would start outside the jail: whatever the command does to it is undone after.
    const snapshot = jail && ctx.protectedPaths?.length ? ProtectedSnapshot.take(ctx.protectedPaths, ctx.cwd) : undefined;
    const started = performance.now();
    const shell = Bun.which("bash") ?? "sh";
    let proc: ReturnType<typeof spawnShell>;
    try {
      beforeSpawn();
      proc = spawnShell(shell, command, ctx.cwd, env, jail?.prefix);
    } catch (err) {
      snapshot?.release();
      return textResult(`bash: could not start ${shell} in ${ctx.cwd}: ${(err as Error).message}`, true);
    }
    // Owned until every process of it is gone: zot's exit kills what the command left running.
    const tree = new OwnedGroup(proc.pid, `bash: ${command.length > 60 ? `${command.slice(0, 59)}…` : command}`);

    const capture = new OutputCapture();
    const readers = [proc.stdout.getReader(), proc.stderr.getReader()];
    const pumps = Promise.all(readers.map((reader) => pump(reader, capture, ctx.onProgress)));

    // Whichever comes first: the shell exits, the timeout fires, or the caller aborts.
    const { ending, drained, gone } = await childEnding(proc, tree, {
      signal: ctx.signal,
      ...(timeout !== undefined ? { timeoutMs: timerDelay(timeout * 1000) } : {}),
      killGraceMs: KILL_GRACE_MS,
      pumps,
      readers,
      drainGraceMs: DRAIN_GRACE_MS,
    });
    let undone: ReturnType<ProtectedSnapshot["restore"]> | undefined;
    try {
      undone = snapshot?.restore();
    } finally {
      // Aborted, a command that ignores SIGTERM runs on until its SIGKILL, and could write after that restore: undone again once it is gone.
      if (snapshot && ending === "aborted") void gone.then(() => snapshot.restore()).finally(() => snapshot.release());
      else snapshot?.release();
    }
    const output = capture.finish();
    const durationMs = Math.round(performance.now() - started);

    let status: string;
    if (ending === "timed_out") status = `[timed out after ${timeout}s]`;
    else if (ending === "aborted") status = "[aborted]";
    else if (proc.signalCode) status = `[killed by ${proc.signalCode}]`;
    else status = `[exit ${proc.exitCode}]`;

    const notes: string[] = [];
    if (output.truncated) {
      // Jailed, the file is outside what a command can see: the read tool (which may read zot's own output files) is the way.
      const how = jail ? "read it with the read tool's offset/limit" : "search it with grep, or read it with offset/limit";
      const where = !output.fullOutputPath
        ? "the full output could not be saved"
        : output.savedBytes !== undefined
          ? `its first ${output.savedBytes} bytes are in ${output.fullOutputPath} (${how})`
          : `the full output is in ${output.fullOutputPath} (${how})`;
      notes.push(`[output was ${output.totalLines} lines (${output.totalBytes} bytes), so its middle was cut; ${where}]`);
    }
    if (!drained && ending === "exited") {
      notes.push(
        "[a background process kept the output open and was detached from it; redirect background output to a file]",
      );
    }
    // Under bubblewrap the command's processes end with it: a server put in the background is gone before the next call.
    if (jail?.confinement === "bwrap" && backgrounds(command)) {
      notes.push("[jailed: what this command put in the background ended with it; start a server and what uses it in one command]");
    }
    const changedProtected = undone !== undefined && undone.removed.length + undone.restored.length + undone.failed.length > 0;
    if (undone && changedProtected) notes.push(undoneNote(undone));
    const body = output.text ? (output.text.endsWith("\n") ? output.text : `${output.text}\n`) : "(no output)\n";
    const text = `${body}${notes.map((n) => `${n}\n`).join("")}${status} ${formatDuration(durationMs)}`;
    const exitCode = ending === "exited" ? proc.exitCode : null;
    const failed = ending !== "exited" || exitCode !== 0 || changedProtected;
    // Under bubblewrap a path outside simply is not there; say why, so the model does not hunt for it.
    // A git command that could not save the read-only .git/config may still exit 0 (git branch -u).
    const gitConfigRefused = GIT_CONFIG_REFUSED.test(output.text);
    const jailNote = (failed || gitConfigRefused) && jail?.confinement === "bwrap" && "root" in jail ? `\n${bwrapNote(jail.root)}` : "";
    return textResult(text + jailNote, failed, {
      ...(jail ? { jailed: jail.confinement } : {}),
      exit_code: exitCode,
      signal: ending === "exited" ? (proc.signalCode ?? null) : null,
      timed_out: ending === "timed_out",
      aborted: ending === "aborted",
      duration_ms: durationMs,
      full_output_path: output.fullOutputPath ?? null,
      truncated: output.truncated,
      ...(changedProtected && { protected_undone: undone }),
    });
  },
};

/** `prefix`: the jail's wrapper (bwrap and its arguments) when the command is confined. */
function spawnShell(shell: string, command: string, cwd: string, env: Readonly<Record<string, string | undefined>>, prefix: string[] = []) {
  // `exec 2>&1` first: the shell and everything it starts write both streams to one pipe, so the
  // order the model sees is the order things happened. It shares the command's first line so line
  // numbers in the shell's errors stay right; a syntax error that stops even the exec still arrives
  // through the stderr pipe, which we read too.
  // $0 is the bare name, so the shell's messages read `bash: line 1: …` rather than a full path.
  return Bun.spawn([...prefix, shell, "-c", `exec 2>&1; ${command}`, shell.endsWith("bash") ? "bash" : "sh"], {
    cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    // setsid(): the shell leads a new process group, which is what lets us kill all of it.
    detached: true,
    // zot's own credentials stay out of reach: one `env` would put them in the transcript.
    env: withoutVisual({ ...childEnv(env), ...NON_INTERACTIVE }),
  });
}

/**
 * What keeps a command from waiting for a person who is not there (stdin is closed): git opens no
 * editor (`git commit` without -m ends with git's own "empty commit message"), pages nothing and
 * asks for no credentials; other programs page nothing either, and one that opens the user's
 * editor (`crontab -e`, `sensible-editor`, `kubectl edit`) gets one that fails at once (`false`)
 * rather than a vi waiting for keys forever. VISUAL, which such programs read before EDITOR, is
 * left out rather than set, so `EDITOR="sed -i …" crontab -e` (an editor given for one command)
 * still works.
 */
const NON_INTERACTIVE: Readonly<Record<string, string>> = {
  GIT_EDITOR: "true",
  GIT_PAGER: "cat",
  PAGER: "cat",
  GIT_TERMINAL_PROMPT: "0",
  EDITOR: "false",
};

function withoutVisual(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const { VISUAL: _, ...rest } = env;
  return rest;
}

/**
 * Whether a command puts something in the background: a lone `&` (not `&&`, `&>`, `>&`, `|&`) in its
 * text once quoted strings, comments and here-documents' bodies are taken out (`echo "a & b"`, a
 * script written with `cat <<EOF` are not).
 */
function backgrounds(command: string): boolean {
  const bare = command
    .replace(/<<-?\s*(['"]?)(\w+)\1[^\n]*\n[\s\S]*?\n\s*\2\s*(?:\n|$)/g, "\n")
    .replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "''")
    .replace(/(^|\s)#[^\n]*/g, "$1");
  return /(?:^|[^&|>])&(?![&>])/m.test(bare);
}

/** How long the output pump reads before it lets the event loop run (timers, keys, signals). */
const YIELD_AFTER_MS = 10;

async function pump(
  reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> },
  capture: OutputCapture,
  onProgress: (text: string) => void | Promise<void>,
) {
  const decoder = new TextDecoder();
  // A failing listener must not stop the reading: an undrained pipe would block the command forever.
  // A slow one (rpc's client not reading) does, on purpose: the command waits on its full pipe
  // instead of zot buffering its output.
  const progress = (text: string): Promise<void> | undefined => {
    try {
      return onProgress(text)?.catch(() => {});
    } catch {
      return undefined; // the listener's problem; the output is still captured
    }
  };
  // A command that writes without pause (`yes`) keeps the pipe full, and each read resolves at
  // once: without a pause now and then the loop would hold the event loop, and the TUI behind it
  // could neither draw nor hear Esc or Ctrl+C.
  let ranSince = performance.now();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || !value) break;
      const text = decoder.decode(value, { stream: true });
      capture.add(value, text);
      const wait = text ? progress(text) : undefined;
      if (wait) await wait;
      if (performance.now() - ranSince > YIELD_AFTER_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        ranSince = performance.now();
      }
    }
  } catch {
    // cancelled after the drain grace: what was read is kept
  }
  const rest = decoder.decode();
  if (rest) {
    capture.add(new Uint8Array(0), rest);
    await progress(rest);
  }
}

/**
 * Holds the output while it is small; past the limits it keeps only a head and a bounded tail in
 * memory and streams everything, from the first byte, into a 0600 temp file.
 */
class OutputCapture {
  private chunks: Uint8Array[] = [];
  private texts: string[] = [];
  private bytes = 0;
  private newlines = 0;
  private lastByte = -1;
  private head = "";
  private tail = "";
  private fd: number | undefined;
  private path: string | undefined;
  /** bytes saved in the file; past BASH_OUTPUT_FILE_MAX_BYTES the rest is not saved */
  private saved = 0;
  private capped = false;

  add(raw: Uint8Array, text: string): void {
    this.bytes += raw.byteLength;
    for (let i = raw.indexOf(10); i !== -1; i = raw.indexOf(10, i + 1)) this.newlines++;
    if (raw.byteLength) this.lastByte = raw[raw.byteLength - 1];
    if (this.fd !== undefined) {
      this.write(raw);
      this.tail += text;
      // Bounded memory: the final tail is at most HEAD_BYTES, far below what is kept here.
      if (this.tail.length > 8 * HEAD_BYTES) this.tail = this.tail.slice(-4 * HEAD_BYTES);
      return;
    }
    this.chunks.push(raw);
    this.texts.push(text);
    if (this.bytes > BASH_MAX_BYTES || this.lines() > BASH_MAX_LINES) this.spill();
  }

  private lines(): number {
    return this.newlines + (this.lastByte !== -1 && this.lastByte !== 10 ? 1 : 0);
  }

  private spill(): void {
    const file = createOutputFile();
    this.fd = file?.fd ?? -1; // no file, but still keep memory bounded
    this.path = file?.path;
    for (const chunk of this.chunks) this.write(chunk);
    const all = this.texts.join("");
    this.head = takeHead(all);
    this.tail = all.slice(this.head.length);
    this.chunks = [];
    this.texts = [];
  }

  private write(raw: Uint8Array): void {
    if (this.fd === undefined || this.fd < 0 || raw.byteLength === 0) return;
    const room = BASH_OUTPUT_FILE_MAX_BYTES - this.saved;
    if (raw.byteLength > room) this.capped = true;
    const part = raw.byteLength > room ? raw.subarray(0, room) : raw;
    try {
      for (let off = 0; off < part.byteLength; ) off += writeSync(this.fd, part, off);
      this.saved += part.byteLength;
    } catch {
      closeSync(this.fd);
      this.fd = -1; // e.g. disk full: stop saving, keep capturing
    }
  }

  finish() {
    const totalLines = this.lines();
    if (this.fd === undefined) {
      return { text: this.texts.join(""), truncated: false, totalLines, totalBytes: this.bytes } as const;
    }
    if (this.fd >= 0) closeSync(this.fd);
    const tail = takeTail(this.tail);
    const count = (s: string) => s.split("\n").length - 1;
    const omittedLines = this.newlines - count(this.head) - count(tail);
    const omittedBytes = this.bytes - Buffer.byteLength(this.head) - Buffer.byteLength(tail);
    // Whole lines left out can be counted as lines; a cut inside a line only as bytes.
    const tailWhole = tail.length === this.tail.length || this.tail[this.tail.length - tail.length - 1] === "\n";
    const marker =
      omittedLines > 0 && this.head.endsWith("\n") && tailWhole
        ? `… [${omittedLines} ${omittedLines === 1 ? "line" : "lines"} omitted] …\n`
        : `… [${omittedBytes} bytes omitted] …\n`;
    const head = this.head.endsWith("\n") ? this.head : `${this.head}\n`;
    return {
      text: head + marker + tail,
      truncated: true,
      totalLines,
      totalBytes: this.bytes,
      fullOutputPath: this.path,
      savedBytes: this.capped ? this.saved : undefined,
    } as const;
  }
}

/** The first lines within HEAD_LINES and HEAD_BYTES; a single overlong line is cut. */
function takeHead(text: string): string {
  let end = 0;
  let bytes = 0;
  for (let line = 0; line < HEAD_LINES && end < text.length; line++) {
    const nl = text.indexOf("\n", end);
    const next = nl === -1 ? text.length : nl + 1;
    const size = Buffer.byteLength(text.slice(end, next));
    if (bytes + size > HEAD_BYTES) {
      if (line === 0) return cutBytes(text, HEAD_BYTES);
      break;
    }
    bytes += size;
    end = next;
  }
  return text.slice(0, end);
}

/** The last lines within HEAD_LINES and HEAD_BYTES; a single overlong line keeps its end. */
function takeTail(text: string): string {
  let start = text.length;
  let bytes = 0;
  // A trailing newline ends the last line rather than starting an empty one.
  let searchFrom = text.endsWith("\n") ? text.length - 2 : text.length - 1;
  for (let line = 0; line < HEAD_LINES && start > 0; line++) {
    const nl = searchFrom < 0 ? -1 : text.lastIndexOf("\n", searchFrom);
    const begin = nl + 1;
    const size = Buffer.byteLength(text.slice(begin, start));
    if (bytes + size > HEAD_BYTES) {
      if (line === 0) return cutBytesFromEnd(text, HEAD_BYTES);
      break;
    }
    bytes += size;
    start = begin;
    searchFrom = nl - 1;
  }
  return text.slice(start);
}

function cutBytes(text: string, max: number): string {
  const bytes = Buffer.from(text);
  let cut = Math.min(max, bytes.length);
  while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  return bytes.subarray(0, cut).toString();
}

function cutBytesFromEnd(text: string, max: number): string {
  const bytes = Buffer.from(text);
  let from = Math.max(0, bytes.length - max);
  while (from < bytes.length && (bytes[from] & 0xc0) === 0x80) from++;
  return bytes.subarray(from).toString();
}

/** `0.4s`, `2m05s`, `1h03m`: short enough for the status line, exact enough to compare runs. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}
