// `zot -r`: the sessions of this directory as a numbered list on stderr, and the number typed on
// the terminal. Rule: the answer is read from the terminal itself (/dev/tty), never from stdin,
// which may carry the prompt; with no terminal the error says what to pass instead.
import { closeSync, openSync, readSync } from "node:fs";
import { resolve } from "node:path";
import { zotHome } from "../config/home.ts";
import { UsageError } from "../config/usage-error.ts";
import { listSessions } from "../session/list.ts";
import type { SessionChoice } from "../session/open.ts";
import { formatRows } from "../modes/session-rows.ts";
import { printable } from "../protocol/printable.ts";

export async function pickSession(cwdFlag: string | undefined): Promise<SessionChoice> {
  const cwd = resolve(cwdFlag ?? process.cwd());
  let tty: number;
  try {
    tty = openSync("/dev/tty", "r");
  } catch {
    throw new UsageError(
      "--resume asks which session to resume on the terminal, and there is none; pass --session <id> (zot sessions list shows them) or --continue for the newest",
    );
  }
  try {
    const { sessions, problems } = listSessions(zotHome(process.env), cwd);
    for (const problem of problems) console.error(`zot: ${problem}; skipped`);
    if (sessions.length === 0) {
      console.error(`zot: no sessions in ${cwd} yet; starting a new one`);
      return { kind: "new" };
    }
    const width = process.stderr.isTTY ? process.stderr.columns : undefined;
    const numbers = sessions.map(
      (s, i) => `${String(i + 1).padStart(String(sessions.length).length)})${s.locked_by ? ` (in use, pid ${s.locked_by})` : ""}`,
    );
    console.error(printable(formatRows(sessions, numbers, width).join("\n")));
    process.stderr.write(`resume which session? [1-${sessions.length}] `);
    const answer = readLine(tty).trim();
    const n = Number(answer);
    if (!Number.isInteger(n) || n < 1 || n > sessions.length) {
      throw new UsageError(
        answer === "" ? "no session picked" : `"${answer}" is not a number from 1 to ${sessions.length}; no session picked`,
      );
    }
    return { kind: "open", ref: sessions[n - 1]!.file };
  } finally {
    closeSync(tty);
  }
}

/** One line typed on the terminal (the terminal's line editing applies). */
function readLine(fd: number): string {
  const buffer = Buffer.alloc(256);
  let line = "";
  for (;;) {
    const n = readSync(fd, buffer, 0, buffer.length, null);
    if (n <= 0) return line;
    line += buffer.toString("utf8", 0, n);
    const end = line.indexOf("\n");
    if (end >= 0) return line.slice(0, end);
  }
}
