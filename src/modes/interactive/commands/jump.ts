// /jump [n]: back to an earlier turn of the conversation; without a number, a picker of your
// prompts, newest first. Rule: turns are numbered as /session fork numbers them (your prompts in
// the transcript, a compaction's summary not counted), so "/jump 3" and "/session fork 3" mean the
// same turn.
import { textOf } from "../../../protocol/messages.ts";
import { oneLine } from "../../../protocol/text-of.ts";
import type { SlashCommand } from "../app-context.ts";
import { pick } from "./pick.ts";

export const JUMP_COMMAND: SlashCommand = {
  name: "jump",
  description: "Scroll back to an earlier turn (a picker of your prompts, or /jump <n>)",
  argsHint: "[n]",
  async run(app, args) {
    const messages = app.conversation.messages;
    const turns = app.conversation.userTurns();
    if (turns.length === 0) {
      app.showNote("no turns to jump to yet");
      return;
    }
    const wanted = args.trim();
    if (wanted) {
      const n = Number(wanted);
      if (!Number.isInteger(n) || n < 1 || n > turns.length) {
        app.showNote(`/jump takes a turn from 1 to ${turns.length} (got "${wanted}"); /jump alone lists them`, "error");
        return;
      }
      app.jumpToTurn(n);
      return;
    }
    const items = turns
      .map((at, i) => ({ label: `${i + 1}. ${oneLine(textOf(messages[at]!.content)) || "(image)"}`, value: i + 1 }))
      .reverse();
    const picked = await pick(app, items, { title: "Jump to a turn", emptyText: "no prompt matches" });
    if (picked) app.jumpToTurn(picked.value);
  },
};
