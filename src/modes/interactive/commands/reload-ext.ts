// /reload-ext: stops every extension and hook, reads the manifests again and starts them, reads
// the Markdown commands and the skills again, then says what runs. Rule: a reload that leaves an
// extension down says which one and why; the conversation and the running turn are not touched
// (tools of a reloaded extension answer again once it is up; the system prompt's list of skills
// follows at the next new conversation or compaction).
import type { ReloadReport } from "../../../conversation/conversation.ts";
import { errorText } from "../../../protocol/error-text.ts";
import type { SlashCommand } from "../app-context.ts";

export const RELOAD_EXT_COMMAND: SlashCommand = {
  name: "reload-ext",
  description: "Restart the extensions and hooks, and read the commands and skills again (after installing or editing one)",
  async run(app) {
    const { conversation } = app;
    app.setStatus(conversation.hasExtensions ? "reloading extensions…" : "reading the commands and skills again…");
    let report: ReloadReport;
    try {
      report = await conversation.reloadExtensions();
    } catch (error) {
      app.showNote(`could not reload the extensions: ${errorText(error)}`, "error");
      return;
    } finally {
      app.setStatus("");
    }
    if (!conversation.hasExtensions) {
      app.showNote("extensions are off in this run (--no-ext without --ext); the Markdown commands and skills were read again", "warn");
      for (const warning of report.warnings) app.showNote(warning, "warn");
      return;
    }
    const all = conversation.extensions();
    const running = all.filter((e) => e.state === "ready").map((e) => e.name);
    const down = all.filter((e) => e.state !== "ready").map((e) => `${e.name} (${e.state})`);
    const parts = [`extensions reloaded: ${report.stopped} stopped, ${running.length} running${running.length > 0 ? `: ${running.join(", ")}` : ""}; commands and skills read again`];
    if (down.length > 0) parts.push(`not running: ${down.join(", ")}`);
    app.showNote(parts.join("; "), down.length === 0 ? "success" : "warn");
    for (const warning of report.warnings) app.showNote(warning, "warn");
  },
};
