// /sessions: a picker of this directory's sessions (newest first: first prompt, time, model,
// messages, cost) that resumes the one picked. Rule: resuming swaps the whole conversation
// (transcript, model, usage, the file being recorded) through the conversation, after the running turn
// is cancelled, and the chat view is rebuilt from it; a session another zot holds is refused with
// the owner's pid, and the current conversation goes on untouched.
import type { SessionSummary } from "../../../conversation/conversation.ts";
import { errorText } from "../../../protocol/error-text.ts";
import type { SelectItem } from "../../../tui/select-list.ts";
import { truncateToWidth } from "../../../tui/width.ts";
import { formatCost, localTime } from "../../session-rows.ts";
import type { AppContext, SlashCommand } from "../app-context.ts";
import { pick } from "./pick.ts";

const PROMPT_WIDTH = 60;

function sessionItem(s: SessionSummary, currentId: string | undefined): SelectItem<SessionSummary> {
  const details = [localTime(s.updated), s.model, `${s.messages} msg${s.messages === 1 ? "" : "s"}`, formatCost(s.cost_usd)];
  if (s.fork_point !== undefined) details.push(`fork at turn ${s.fork_point}`);
  if (s.id === currentId) details.push("this session");
  else if (s.locked_by !== undefined) details.push(`in use by pid ${s.locked_by}`);
  return { label: truncateToWidth(s.first_prompt || "(no prompt yet)", PROMPT_WIDTH), value: s, description: details.join(" · ") };
}

/**
 * Makes the session in `file` the app's conversation: cancels a running turn, switches, rebuilds
 * the chat. Resolves false (with an error note) when the session cannot be opened.
 */
export async function enterSession(app: AppContext, file: string, what: string): Promise<boolean> {
  if (app.busy) await app.cancelTurn();
  let notes: string[];
  try {
    notes = await app.conversation.sessions.resume(file);
  } catch (error) {
    app.showNote(`could not open ${what}: ${errorText(error)}`, "error");
    return false;
  }
  enteredSession(app, what, notes);
  return true;
}

/** The chat rebuilt from the conversation's new session, and what it holds. */
export function enteredSession(app: AppContext, what: string, notes: readonly string[]): void {
  app.reloadTranscript();
  const { conversation } = app;
  const turns = conversation.userTurns().length;
  app.showNote(`${what}: ${turns} turn${turns === 1 ? "" : "s"}, ${conversation.messages.length} messages, model ${conversation.model.id}`, "success");
  for (const note of notes) app.showNote(note, "warn");
}

export const SESSIONS_COMMAND: SlashCommand = {
  name: "sessions",
  description: "Resume an earlier session of this directory (a picker)",
  async run(app) {
    const { conversation } = app;
    const { sessions, problems } = await conversation.sessions.list();
    for (const problem of problems) app.showNote(`${problem}; skipped`, "warn");
    const currentId = conversation.session?.id;
    const others = sessions.filter((s) => s.id !== currentId);
    if (others.length === 0) {
      app.showNote(`no earlier session in ${conversation.cwd} to resume`);
      return;
    }
    const picked = await pick(app, sessions.map((s) => sessionItem(s, currentId)), { title: "Resume a session", emptyText: "no session matches" });
    if (!picked) return;
    if (picked.value.id === currentId) {
      app.showNote(`session ${currentId} is this conversation already`);
      return;
    }
    await enterSession(app, picked.value.file, `resumed session ${picked.value.id}`);
  },
};
