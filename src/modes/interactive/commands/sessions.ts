// /sessions: a picker of this directory's sessions (newest first: first prompt, time, model,
// messages, cost) that resumes the one picked. Rule: resuming swaps the whole conversation
// (transcript, model, usage, the file being recorded) through the runtime, after the running turn
// is cancelled, and the chat view is rebuilt from it; a session another zot holds is refused with
// the owner's pid, and the current conversation goes on untouched.
import { formatCost, localTime } from "../../../cli/session-rows.ts";
import { errorText } from "../../../protocol/error-text.ts";
import { userTurns } from "../../../session/fork.ts";
import { listSessions, type SessionSummary } from "../../../session/list.ts";
import type { SelectItem } from "../../../tui/select-list.ts";
import { truncateToWidth } from "../../../tui/width.ts";
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
    notes = await app.runtime.switchSession({ kind: "open", ref: file });
  } catch (error) {
    app.showNote(`could not open ${what}: ${errorText(error)}`, "error");
    return false;
  }
  app.reloadTranscript();
  const { agent } = app;
  const turns = userTurns(agent.messages).length;
  app.showNote(`${what}: ${turns} turn${turns === 1 ? "" : "s"}, ${agent.messages.length} messages, model ${agent.model.id}`, "success");
  for (const note of notes) app.showNote(note, "warn");
  return true;
}

export const SESSIONS_COMMAND: SlashCommand = {
  name: "sessions",
  description: "Resume an earlier session of this directory (a picker)",
  async run(app) {
    const { sessions, problems } = listSessions(app.runtime.home, app.agent.cwd);
    for (const problem of problems) app.showNote(`${problem}; skipped`, "warn");
    const currentId = app.runtime.session?.id;
    const others = sessions.filter((s) => s.id !== currentId);
    if (others.length === 0) {
      app.showNote(`no earlier session in ${app.agent.cwd} to resume`);
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
