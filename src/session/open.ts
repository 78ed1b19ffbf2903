// Opens the session a run records into: a new one, the newest of the working directory
// (--continue), or a named one (--session, a --resume pick). Rule: a resumed session is locked
// before it is read and stays locked until the run closes it; a new one is created (and locked)
// with its first record, so a run that says nothing leaves no file behind.
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { Agent } from "../core/agent.ts";
import { errorText } from "../protocol/error-text.ts";
import type { Message } from "../protocol/messages.ts";
import { SESSION_FORMAT, type SessionEntry, type SessionHeader } from "../protocol/session-records.ts";
import type { Usage } from "../protocol/usage.ts";
import { VERSION } from "../version.ts";
import { findSession } from "./find.ts";
import { sessionFiles } from "./list.ts";
import { acquireLock, type SessionLock, staleLockNote } from "./lock.ts";
import { idOfPath, newSessionId, PLACEHOLDER_PREFIX, sessionDir, sessionPath } from "./paths.ts";
import { readSessionFile, SessionFileError } from "./reader.ts";
import { SessionRecorder, type SessionOutput } from "./recorder.ts";
import { repairTranscript } from "./repair.ts";
import { replay } from "./replay.ts";
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
  /** closes the recording (or, before one started, releases the lock) */
  close(): void;
}

export function openSession(choice: SessionChoice, context: { home: string; cwd: string }): OpenedSession {
  const { home, cwd } = context;
  if (choice.kind === "new") return newSession(home, cwd, []);
  if (choice.kind === "continue") {
    const notes: string[] = [];
    for (const { file } of sessionFiles(sessionDir(home, cwd))) {
      try {
        const opened = resumeSession(file, cwd);
        opened.notes.unshift(...notes);
        return opened;
      } catch (error) {
        // A file that is not a session is passed over; a locked one is an answer the user needs.
        if (!(error instanceof SessionFileError)) throw error;
        notes.push(`${error.message}; skipped`);
      }
    }
    return newSession(home, cwd, [...notes, `no earlier session in ${cwd}; starting a new one`]);
  }
  const found = findSession(home, cwd, choice.ref);
  return resumeSession(found.file, cwd);
}

function newSession(home: string, cwd: string, notes: string[]): OpenedSession {
  const id = newSessionId();
  const file = sessionPath(home, cwd, id);
  let lock: SessionLock | undefined;
  let recorder: SessionRecorder | undefined;
  return {
    id,
    file,
    notes,
    record(agent, log) {
      let writer: SessionWriter | undefined;
      const output: SessionOutput = {
        write(entry) {
          if (!writer) {
            try {
              mkdirSync(dirname(file), { recursive: true });
            } catch (error) {
              throw new Error(`could not create the session directory ${dirname(file)} (${errorText(error)})`);
            }
            lock = acquireLock(file, id);
            writer = SessionWriter.create(file, headerOf(id, cwd, agent));
          }
          writer.write(entry);
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
    close() {
      if (recorder) recorder.close();
      else lock?.release();
    },
  };
}

function resumeSession(file: string, cwd: string): OpenedSession {
  // The id for the lock message comes from the file name until the header is read.
  const lock = acquireLock(file, idOfPath(file));
  try {
    const content = readSessionFile(file);
    const { header } = content;
    if (header.cwd === "" || header.cwd.startsWith(PLACEHOLDER_PREFIX)) {
      throw new SessionFileError(`${file} is an exported session; import it first: zot sessions import ${file}`);
    }
    const notes = content.problems.map((p) => `session ${header.id}: ${p}`);
    if (lock.tookOverFrom) notes.push(staleLockNote(header.id, lock.tookOverFrom));
    if (header.cwd !== cwd) {
      // The tools would act on another directory than the one the transcript talks about.
      if (existsSync(header.cwd)) {
        throw new SessionFileError(
          `session ${header.id} belongs to ${header.cwd}; run zot there, or pass --cwd ${header.cwd}`,
        );
      }
      notes.push(`session ${header.id} was recorded in ${header.cwd}, which is gone; tools now run in ${cwd}`);
    }
    const problems: { entry: number; message: string }[] = [];
    const state = replay(header, content.entries, problems);
    notes.push(...problems.map((p) => `session ${header.id}: ${p.message}`));
    const repaired = repairTranscript(state.messages);
    if (repaired.interrupted > 0) {
      notes.push(`session ${header.id}: ${repaired.interrupted} tool call(s) had no result (zot stopped while they ran); recorded them as interrupted`);
    }
    if (repaired.orphaned > 0) {
      notes.push(
        `session ${header.id}: ${repaired.orphaned} tool result(s) answered a call whose record was lost; kept them as text for the model`,
      );
    }
    if (repaired.lostStart) notes.push(`session ${header.id}: the conversation's first message was lost; a note stands in its place`);
    const writer = SessionWriter.reopen(file, content.validBytes, content.missingNewline);
    let recorder: SessionRecorder | undefined;
    const output: SessionOutput = {
      write: (entry: SessionEntry) => void writer.write(entry),
      close() {
        writer.close();
        lock.release();
      },
    };
    return {
      id: header.id,
      file,
      notes,
      resumed: { messages: repaired.messages, model: state.model, provider: state.provider, cumulative: state.cumulative },
      record(agent, log) {
        recorder = new SessionRecorder(output, { messages: state.messages, model: state.model, provider: state.provider }, log);
        recorder.attach(agent);
        return recorder;
      },
      close() {
        if (recorder) recorder.close();
        else output.close();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
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
