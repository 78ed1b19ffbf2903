// Opens the session a run records into: a new one, the newest of the working directory
// (--continue), or a named one (--session, a --resume pick). Rule: a resumed session is locked
// before it is read and stays locked until the run closes it; a new one is created (and locked)
// with its first record, so a run that says nothing leaves no file behind.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { Agent } from "../core/agent.ts";
import { errorText } from "../protocol/error-text.ts";
import type { Message } from "../protocol/messages.ts";
import { SESSION_FORMAT } from "../protocol/session-format.ts";
import type { SessionHeader } from "../protocol/session-records.ts";
import type { Usage } from "../protocol/usage.ts";
import { VERSION } from "../version.ts";
import { acquireLock, type SessionLock } from "./lock.ts";
import { newSessionId, sessionPath } from "./paths.ts";
import { SessionRecorder, type SessionOutput } from "./recorder.ts";
import { SessionWriter } from "./writer.ts";

/** Which session a run uses. */
export type SessionChoice = { kind: "new" } | { kind: "continue" } | { kind: "open"; ref: string };

export interface ResumedState {
  messages: Message[];
  model: string;
  provider: string;
  cumulative: Usage;
}

export interface OpenedSession {
  id: string;
  file: string;
  /** what the agent starts from; undefined for a new session */
  resumed?: ResumedState;
  /** one sentence each: a damaged tail dropped, tool results added, no session to continue */
  notes: string[];
  /** starts recording `agent`; `log` hears a failed write */
  record(agent: Agent, log: (message: string) => void): SessionRecorder;
  /**
   * A new session's file made now, with its header alone, instead of with its first record (a
   * clear: the next `-c` finds the empty conversation, not the one before it). After record().
   */
  begin?(): void;
  /** closes the recording (or, before one started, releases the lock) */
  close(): void;
}

export async function openSession(choice: SessionChoice, context: { home: string; cwd: string }): Promise<OpenedSession> {
  const { home, cwd } = context;
  if (choice.kind === "new") return newSession(home, cwd, []);
  // Reading a session back (and the schemas its records are checked with) loads only to resume one.
  const { continueSession, resumeSession } = await import("./resume.ts");
  if (choice.kind === "continue") return continueSession(home, cwd);
  const { findSession } = await import("./find.ts");
  return resumeSession(findSession(home, cwd, choice.ref).file, cwd);
}

export function newSession(home: string, cwd: string, notes: string[]): OpenedSession {
  const id = newSessionId();
  const file = sessionPath(home, cwd, id);
  let lock: SessionLock | undefined;
  let recorder: SessionRecorder | undefined;
  let begin: (() => void) | undefined;
  return {
    id,
    file,
    notes,
    record(agent, log) {
      let writer: SessionWriter | undefined;
      const open = (): SessionWriter => {
        if (!writer) {
          try {
            mkdirSync(dirname(file), { recursive: true });
          } catch (error) {
            throw new Error(`could not create the session directory ${dirname(file)} (${errorText(error)})`);
          }
          lock = acquireLock(file, id);
          writer = SessionWriter.create(file, headerOf(id, cwd, agent));
        }
        return writer;
      };
      begin = () => {
        try {
          open();
        } catch (error) {
          log(`session: ${errorText(error)}; this conversation is not saved`);
        }
      };
      const output: SessionOutput = {
        write(entry) {
          open().write(entry);
        },
        close() {
          writer?.close();
          lock?.release();
        },
      };
      recorder = new SessionRecorder(output, { messages: [], model: agent.model.id, provider: agent.model.provider }, log);
      recorder.attach(agent);
      return recorder;
    },
    begin() {
      begin?.();
    },
    close() {
      if (recorder) recorder.close();
      else lock?.release();
    },
  };
}

function headerOf(id: string, cwd: string, agent: Agent): SessionHeader {
  return {
    type: "session",
    format: SESSION_FORMAT,
    id,
    cwd,
    created: new Date().toISOString(),
    model: agent.model.id,
    provider: agent.model.provider,
    zot_version: VERSION,
  };
}
