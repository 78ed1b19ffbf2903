// /clear and /compact: start over with an empty transcript, or fold the older turns into a summary.
// Rule: /clear loses nothing: while a session is recorded, the conversation so far stays in it
// (resumable with /sessions) and what follows is recorded into a new session.
import { existsSync } from "node:fs";
import type { SlashCommand } from "../app-context.ts";
import { COMPACTION_UNIT } from "../../../conversation/conversation.ts";

export const CLEAR_COMMAND: SlashCommand = {
  name: "clear",
  description: "Start a new conversation (the current one stays in its session)",
  cancelsTurn: true,
  async run(app) {
    const { conversation } = app;
    const before = conversation.session;
    if (before) await conversation.sessions.startNew();
    else await conversation.clear();
    app.reloadTranscript();
    const kept = before && existsSync(before.file) ? `; the earlier conversation stays in session ${before.id} (/sessions resumes it)` : "";
    app.showNote(`transcript cleared${kept}`, "success");
  },
};

export const COMPACT_COMMAND: SlashCommand = {
  name: "compact",
  description: "Summarise the older turns to free context (optional instructions for the summary)",
  argsHint: "[instructions]",
  cancelsTurn: true,
  startsUnit: COMPACTION_UNIT,
  async run(app, args) {
    await app.compact(args.trim() || undefined);
  },
};
