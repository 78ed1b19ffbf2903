// The compiled zot in a pseudo-terminal, talking to the mock LLM: the interactive app as a user
// runs it. Rule: a fresh ZOT_HOME and working directory per run; the screen is read back through
// PtySession (xterm headless), never from zot's internals.
import { readFileSync } from "node:fs";
import type { MockLlm } from "./mock-llm.ts";
import { PtySession } from "./pty.ts";
import { cleanEnv, tempDir, ZOT } from "./zot.ts";

export interface ZotPtyOptions {
  cols?: number;
  rows?: number;
  /** more arguments after the provider flags (a prompt, --ext, --no-session…) */
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  home?: string;
  /** a shell command run in the same terminal after zot ends (zot runs as the shell's child) */
  after?: string;
  /**
   * zot run by bash with job control (`set -m`, as an interactive shell runs it: its own process
   * group, in the foreground), then this script, which runs once zot ends or is stopped (Ctrl+Z)
   */
  jobControl?: string;
  /**
   * zot typed at an interactive bash's prompt (`$ `), as a user runs it: the shell takes the
   * terminal back whenever zot stops, and `fg`, `bg`, `kill %1` are typed after it
   */
  interactiveShell?: boolean;
  /** zot's stderr goes to this file instead of the terminal */
  stderrTo?: string;
}

export interface ZotPty {
  session: PtySession;
  home: string;
  cwd: string;
  /** zot's process id (the shell's child when `after` is set) */
  pid(): number;
}

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

export function anthropicFlags(mock: MockLlm): string[] {
  return ["--provider", "anthropic", "--api-key", "k", "--base-url", mock.url];
}

export function startZot(mock: MockLlm, options: ZotPtyOptions = {}): ZotPty {
  const home = options.home ?? tempDir("zot-home-");
  const cwd = options.cwd ?? tempDir("zot-cwd-");
  const argv = [ZOT, ...anthropicFlags(mock), ...(options.args ?? [])];
  const line = `${argv.map(quote).join(" ")}${options.stderrTo ? ` 2>${quote(options.stderrTo)}` : ""}`;
  const cmd = options.interactiveShell
    ? ["bash", "--norc", "--noprofile", "-i"]
    : options.jobControl
    ? ["bash", "--norc", "--noprofile", "-c", `set -m; ${line}; ${options.jobControl}`]
    : options.after
      ? ["sh", "-c", `${line}; echo "zot exited $?"; ${options.after}`]
      : options.stderrTo
        ? ["sh", "-c", `exec ${line}`]
        : argv;
  const env = cleanEnv(home, { TERM: "xterm-256color", ...(options.interactiveShell ? { PS1: "$ " } : {}), ...options.env });
  const session = new PtySession(cmd, { cols: options.cols ?? 100, rows: options.rows ?? 30, env, cwd });
  if (options.interactiveShell) session.type(`${line}\r`);
  const pid = () => {
    if (!options.after && !options.jobControl && !options.interactiveShell) return session.proc.pid;
    const shell = session.proc.pid;
    const children = readFileSync(`/proc/${shell}/task/${shell}/children`, "utf8").trim().split(/\s+/);
    return Number(children[0]);
  };
  return { session, home, cwd, pid };
}

/** Waits until the app is drawn and its runtime is up (the status bar names the provider). */
export async function ready(session: PtySession): Promise<void> {
  await session.waitFor((screen) => screen.text().includes("ask anything") && /\(\w+\) \S/.test(screen.text()), "the app ready");
}

/** The last user message's text of a recorded Anthropic request. */
export function lastUserText(body: any): string {
  const messages: any[] = body?.messages ?? [];
  const user = messages.filter((m) => m.role === "user").at(-1);
  if (!user) return "";
  if (typeof user.content === "string") return user.content;
  return user.content.filter((b: any) => b.type === "text").map((b: any) => b.text).join("\n");
}
