// The conversation's sessions: list and tree of this directory's sessions, export, import, fork,
// and switching the conversation to another session (a resume, a fork checked out, a new one), over
// the functions of src/session/ that `zot sessions` uses too. Rule: what only reads or adds files
// (list, tree, export, import, a fork while no session is recorded) may run while a turn streams;
// what changes the conversation's transcript is refused while a turn runs or waits, and runs as
// queued work so no turn starts meanwhile, in the order it was asked behind a model switch or another
// session switch.
import { existsSync } from "node:fs";
import os from "node:os";
import { resolve } from "node:path";
import { zotPaths } from "../config/home.ts";
import type { Runtime } from "../runtime/runtime.ts";
import type { ForkResult } from "../session/fork.ts";
import type { SessionSummary } from "../session/list.ts";
import type { SessionNode } from "../session/tree.ts";

export type { ForkResult } from "../session/fork.ts";
export type { SessionSummary } from "../session/list.ts";
export type { SessionNode } from "../session/tree.ts";

/** The session a conversation records into. */
export interface SessionInfo {
  id: string;
  file: string;
  /** it was resumed (-c, --session, a switch), not started */
  resumed: boolean;
}

/** Runs `work` as queued work after the operations before it; refused (ZotBusyError) while a turn runs or waits. */
export type Exclusive = <T>(what: string, label: string, work: () => Promise<T>) => Promise<T>;

/** A session file, or a function that finds it when the operation runs. */
export type SessionFile = string | (() => Promise<string>);

function fileOf(source: SessionFile): Promise<string> {
  return typeof source === "string" ? Promise.resolve(source) : source();
}

export class SessionOperations {
  constructor(
    private readonly runtime: Runtime,
    private readonly exclusive: Exclusive,
  ) {}

  /** The session being recorded; undefined with --no-session (and for rpc unless asked). */
  get current(): SessionInfo | undefined {
    return this.runtime.session;
  }

  /** Whether the current session has anything on disk yet (a new one is written with its first record). */
  get recorded(): boolean {
    const current = this.runtime.session;
    return current !== undefined && existsSync(current.file);
  }

  /** Every session of the working directory, newest first, and a sentence for each file that could not be read. */
  async list(): Promise<{ sessions: SessionSummary[]; problems: string[] }> {
    const { listSessions } = await import("../session/list.ts");
    return listSessions(this.runtime.home, this.runtime.agent.cwd);
  }

  /** The same sessions as a forest: each fork under the session it was forked from. */
  async tree(): Promise<{ roots: SessionNode[]; problems: string[] }> {
    const [{ sessions, problems }, { sessionForest }] = await Promise.all([this.list(), import("../session/tree.ts")]);
    return { roots: sessionForest(sessions), problems };
  }

  /** The file of the session `ref` names: an id (or a unique start of one), or a path taken from the working directory. */
  async find(ref: string): Promise<string> {
    const { home, agent } = this.runtime;
    const { findSession, looksLikePath } = await import("../session/find.ts");
    return findSession(home, agent.cwd, looksLikePath(ref) ? resolve(agent.cwd, ref) : ref).file;
  }

  /** Where an export goes when no file is named ($ZOT_HOME/exports): never into the project zot works on. */
  get exportsDir(): string {
    return zotPaths(this.runtime.home).exportsDir;
  }

  /** Writes the session in `source` as a portable file (this machine's paths replaced by placeholders). */
  async export(source: string, dest: string, options: { force?: boolean } = {}): Promise<{ file: string; problems: string[] }> {
    const cwd = this.runtime.agent.cwd;
    const { exportSession } = await import("../session/portable.ts");
    return exportSession(source, { dest: resolve(cwd, dest), here: cwd, userHome: os.homedir(), force: options.force === true });
  }

  /** Copies a session file into this directory's sessions under a fresh id. */
  async import(path: string): Promise<{ id: string; file: string; problems: string[] }> {
    const { home, agent } = this.runtime;
    const { importSession } = await import("../session/portable.ts");
    return importSession(resolve(agent.cwd, path), { home, cwd: agent.cwd, userHome: os.homedir() });
  }

  /**
   * Forks the session in `source` after user turn `at` (default: the last). While a session is
   * recorded the fork becomes the conversation's, as a branch checked out (refused while busy);
   * otherwise it is only written. `source` may be a function that finds it (see resume).
   */
  async fork(source: SessionFile, at?: number): Promise<{ fork: ForkResult; switched: boolean; notes: string[] }> {
    const { home } = this.runtime;
    const forkNow = async (file: string) => (await import("../session/fork.ts")).forkSession(file, { home, atTurn: at });
    if (!this.runtime.session) return { fork: await forkNow(await fileOf(source)), switched: false, notes: [] };
    return this.exclusive("fork this process's session (the fork becomes it)", "a session fork", async () => {
      const fork = await forkNow(await fileOf(source));
      const notes = await this.runtime.switchSession({ kind: "open", ref: fork.file }, true);
      return { fork, switched: true, notes };
    });
  }

  /**
   * Makes the session in `file` the conversation's (transcript, model, usage); resolves with notes
   * for the user. `file` may be a function that finds it: it runs in the queue once what was asked
   * before is done, so a client's command sent right after this one waits for it (and one right
   * before, a model switch, is waited for); when it finds nothing to switch to (undefined), nothing is.
   */
  resume(file: string): Promise<string[]>;
  resume(file: () => Promise<string | undefined>): Promise<string[] | undefined>;
  resume(file: string | (() => Promise<string | undefined>)): Promise<string[] | undefined> {
    return this.exclusive("resume a session", "a session switch", async () => {
      const found = typeof file === "string" ? file : await file();
      return found === undefined ? undefined : this.runtime.switchSession({ kind: "open", ref: found });
    });
  }

  /** Goes on in a new session; the current one stays as it is (the TUI's /clear). */
  startNew(): Promise<string[]> {
    return this.exclusive("start a new session", "a session switch", () => this.runtime.switchSession({ kind: "new" }));
  }
}
