// A new session file written whole from records taken from another session (a fork, an import).
// Rule: a fresh id under `cwd`'s sessions, written under its lock; the header is stamped with the
// time of writing and this zot's version, everything else in it comes from the caller.
import { SESSION_FORMAT } from "../protocol/session-format.ts";
import type { SessionEntry, SessionHeader } from "../protocol/session-records.ts";
import { VERSION } from "../version.ts";
import { acquireLock } from "./lock.ts";
import { newSessionId, sessionPath } from "./paths.ts";
import { SessionWriter } from "./writer.ts";

export type NewSessionFields = Pick<SessionHeader, "cwd" | "model" | "provider" | "parent" | "fork_point">;

/** Writes a session holding `records` under a fresh id in `fields.cwd`'s sessions. */
export function createSession(home: string, fields: NewSessionFields, records: Iterable<SessionEntry>): { id: string; file: string } {
  const { cwd, model, provider, ...lineage } = fields;
  const id = newSessionId();
  const file = sessionPath(home, cwd, id);
  const header: SessionHeader = {
    type: "session",
    format: SESSION_FORMAT,
    id,
    cwd,
    created: new Date().toISOString(),
    model,
    provider,
    ...lineage,
    zot_version: VERSION,
  };
  const lock = acquireLock(file, id);
  try {
    const writer = SessionWriter.create(file, header);
    try {
      for (const record of records) writer.write(record);
    } finally {
      writer.close();
    }
  } finally {
    lock.release();
  }
  return { id, file };
}
