// /btw <question>: a side question about the conversation, answered by the same model with the
// whole transcript as context and no tools, while a turn may still be running. Rule: neither the
// question nor the answer joins the transcript (the model never sees them in later turns, a resume
// does not bring them back); the answer is shown in the chat as a command's output, and its cost
// counts like any call's. While it is asked, a line in the chat says so; Esc or Ctrl+C, when no
// turn runs, cancels it.
import type { SlashCommand } from "../app-context.ts";

export const BTW_COMMAND: SlashCommand = {
  name: "btw",
  description: "Ask a side question about the conversation (no tools; not added to the transcript)",
  argsHint: "<question>",
  async run(app, args) {
    const question = args.trim();
    if (!question) {
      app.showNote("/btw needs a question, e.g. /btw which files have we changed so far?", "error");
      return;
    }
    const { conversation } = app;
    // Said in the chat, where it stays while the answer comes (the status line goes at the next key).
    app.showNote(`btw: asking ${conversation.model.id}: ${question} (${app.busy ? "esc cancels the turn; once it is over, esc cancels this" : "esc cancels it"})`, "info");
    const asking = new AbortController();
    app.sideQuestions.add(asking);
    let ended = false;
    try {
      for await (const event of conversation.ask(question, asking.signal)) {
        if (asking.signal.aborted) break;
        if (event.type === "side_done") app.showMarkdown(`**btw** ${question}\n\n${event.answer.trim() || "*(no answer)*"}`);
        else if (event.type === "side_error") app.showNote(`btw: ${event.message}`, "error");
        ended ||= event.type === "side_done" || event.type === "side_error";
      }
    } finally {
      app.sideQuestions.delete(asking);
      if (asking.signal.aborted && !ended) app.showNote(`btw: cancelled: ${question}`, "warn");
    }
  },
};
