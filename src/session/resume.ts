// Resuming a session: `--continue` (the newest of this directory that opens) and `--session <ref>`
// (one found by id, start or path). Rule: a session is read back only here, so a run that starts a
// new one never loads the reader or its records' schemas; what cannot be opened as it was is
// repaired and said (a damaged tail dropped, tool results added), never silently lost.
import { existsSync } from "node:fs";
import type { SessionEntry } from "../protocol/session-records.ts";
import { sessionFiles } from "./list.ts";
import { realOrSame } from "../config/quiet-fs.ts";
import { errorText } from "../protocol/error-text.ts";
import { acquireLock, type SessionLock, SessionLockUnwritableError, staleLockNote } from "./lock.ts";
import { newSession, type OpenedSession } from "./open.ts";
import { idOfPath, PLACEHOLDER_PREFIX, sessionDir } from "./paths.ts";
import { readSessionFile, SessionFileError, SessionUnopenableError } from "./reader.ts";
import { SessionRecorder, type SessionOutput } from "./recorder.ts";
import { repairTranscript } from "./repair.ts";
import { replay } from "./replay.ts";
import { SessionWriter } from "./writer.ts";

/**
 * The newest session of `cwd`; a new one (with a note) when there is none. A file that is no
 * session is passed over; a session this zot cannot open (a newer zot's, one it may not read)
 * stops it: going on with an older conversation instead would answer the prompt in the wrong one.
 */
export function continueSession(home: string, cwd: string): OpenedSession {
  const notes: string[] = [];
  for (const { file } of sessionFiles(sessionDir(home, cwd))) {
    try {
      const opened = resumeSession(file, cwd);
      opened.notes.unshift(...notes);
      return opened;
    } catch (error) {
      // A file that is not a session is passed over; a locked one is an answer the user needs.
      if (!(error instanceof SessionFileError)) throw error;
      if (error instanceof SessionUnopenableError) {
        throw new SessionUnopenableError(
          `the newest session of ${cwd} cannot be opened: ${error.message}. --continue stops rather than go on with an older conversation; pick one with zot -r, or start a new one without -c`,
        );
      }
      notes.push(`${error.message}; skipped`);
    }
  }
  return newSession(home, cwd, [...notes, `no earlier session in ${cwd}; starting a new one`]);
}

export function resumeSession(named: string, cwd: string): OpenedSession {
  // Locked where the file really is: a link to it, or a home reached through one, is the same session.
  const file = realOrSame(named);
  // The id for the lock message comes from the file name until the header is read. A lock that
  // cannot be made (a folder zot may not write to) does not keep the user from the conversation:
  // it goes on unsaved, and says so. A live owner's lock still refuses.
  let lock: SessionLock | undefined;
  let unwritable: string | undefined;
  try {
    lock = acquireLock(file, idOfPath(file));
  } catch (error) {
    if (!(error instanceof SessionLockUnwritableError)) throw error;
    unwritable = error.message;
  }
  try {
    const content = readSessionFile(file);
    const { header } = content;
    if (header.cwd === "" || header.cwd.startsWith(PLACEHOLDER_PREFIX)) {
      throw new SessionFileError(`${file} is an exported session; import it first: zot sessions import ${file}`);
    }
    const notes = content.problems.map((p) => `session ${header.id}: ${p}`);
    if (lock?.tookOverFrom) notes.push(staleLockNote(header.id, lock.tookOverFrom));
    if (header.cwd !== cwd) {
      // The tools would act on another directory than the one the transcript talks about.
      if (existsSync(header.cwd)) {
        throw new SessionFileError(
          `session ${header.id} belongs to ${header.cwd}; run zot there, or pass --cwd ${header.cwd}`,
        );
      }
      // It stays the old folder's session (its list, its -c): importing a copy makes it this one's.
      notes.push(
        `session ${header.id} was recorded in ${header.cwd}, which is gone; tools now run in ${cwd}. To make it this folder's (its paths moved here, found by zot -c and zot sessions list here), once this run is over: zot sessions import ${file}`,
      );
    }
    const problems: { entry: number; message: string }[] = [];
    const state = replay(header, content.entries, problems);
    notes.push(...problems.map((p) => `session ${header.id}: ${p.message}`));
    const repaired = repairTranscript(state.messages);
    if (repaired.interrupted > 0) {
      notes.push(`session ${header.id}: ${repaired.interrupted} tool call(s) have no recorded result (zot stopped, or could not save it; the call may have finished); the model is told so`);
    }
    if (repaired.renamed > 0) {
      notes.push(`session ${header.id}: ${repaired.renamed} tool call(s) repeated an earlier call's id (providers refuse that); renamed, with their results`);
    }
    if (repaired.orphaned > 0) {
      notes.push(
        `session ${header.id}: ${repaired.orphaned} tool result(s) answered a call whose record was lost; kept them as text for the model`,
      );
    }
    if (repaired.lostStart) notes.push(`session ${header.id}: the conversation's first message was lost; a note stands in its place`);
    let writer: SessionWriter | undefined;
    if (unwritable === undefined) {
      try {
        writer = SessionWriter.reopen(file, content.validBytes, content.missingNewline);
      } catch (error) {
        unwritable = `cannot write to ${file} (${errorText(error)})`;
      }
    }
    if (unwritable !== undefined) {
      notes.push(
        `session ${header.id}: ${unwritable}; this run goes on from it without saving anything (make the file and its folder writable to save it)`,
      );
    }
    let recorder: SessionRecorder | undefined;
    const output: SessionOutput = {
      write: (entry: SessionEntry) => void writer?.write(entry),
      close() {
        writer?.close();
        lock?.release();
      },
    };
    return {
      id: header.id,
      file,
      notes,
      resumed: { messages: repaired.messages, model: state.model, provider: state.provider, cumulative: state.cumulative },
      record(agent, log) {
        recorder = new SessionRecorder(output, { messages: state.messages, model: state.model, provider: state.provider, cumulative: state.cumulative }, log);
        if (repaired.messages !== state.messages) recorder.explainNextRewind("damaged records repaired on resume");
        recorder.attach(agent);
        return recorder;
      },
      close() {
        if (recorder) recorder.close();
        else output.close();
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}
