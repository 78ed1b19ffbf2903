// The workspace trust question as the TUI asks it, once per folder, before any of the folder's
// executable configuration starts: what would run, and three answers (1 trust it, remembered;
// 2 don't, remembered; Esc not now, asked again next time).
// Rule: the question says what would run and that it runs as the user, outside any jail; Esc and
// Ctrl+C never trust.
import type { TrustAnswer, TrustAsker, TrustQuestion } from "../../conversation/conversation.ts";
import type { Component } from "../../tui/component.ts";
import { Dialog } from "../../tui/dialog.ts";
import { truncateToWidth, wrapText } from "../../tui/width.ts";
import type { AppContext } from "./app-context.ts";
import { printableName } from "../../protocol/printable.ts";

/** The TrustAsker the runtime calls, showing its question through `app`'s overlay. */
export function createTrustAsker(app: Pick<AppContext, "openOverlay" | "theme">): TrustAsker {
  return (question) =>
    new Promise<TrustAnswer>((resolve) => {
      const dialog = new Dialog<TrustAnswer>(app.theme, {
        title: "Trust this folder?",
        body: questionBody(app, question),
        choices: [
          { label: "1. Yes, trust this folder: run them now and every time", value: "trust" },
          { label: "2. No: start without them, and don't ask again here", value: "distrust" },
        ],
        hint: "1–2 or ↑/↓ and enter · esc: not now (start without them, ask next time)",
      });
      const overlay = app.openOverlay(dialog);
      const answer = (value: TrustAnswer) => {
        overlay.close();
        resolve(value);
      };
      dialog.onChoose = answer;
      dialog.onCancel = () => answer("not_now");
    });
}

function questionBody(app: Pick<AppContext, "theme">, question: TrustQuestion): Component {
  const { theme } = app;
  return {
    render(width) {
      const wrap = (text: string) => wrapText(text, Math.max(1, width));
      // The folder's path and its extensions' names are the folder's: shown with every control as a mark, never obeyed.
      const rows = [...wrap(`${printableName(question.dir)} has configuration that starts programs when zot starts here:`)];
      for (const item of question.found) {
        const line = item.items ? `  ${item.label}: ${item.items.join(", ")} (${item.what})` : `  ${item.label} (${item.what})`;
        rows.push(truncateToWidth(theme.bold(printableName(line)), width));
      }
      rows.push(
        "",
        ...wrap("They run as you, outside any jail, with everything you can reach. Trust the folder only if you trust whoever wrote them: a repository you cloned can hold them."),
        ...wrap("zot trust --list shows your answers; zot untrust forgets one; --trust runs them for one run.").map((row) => theme.muted(row)),
      );
      return rows;
    },
  };
}
