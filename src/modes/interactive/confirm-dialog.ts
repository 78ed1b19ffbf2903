// The --no-yolo confirmation as the TUI asks it: a dialog naming the tool and what the call is
// about, with four answers (1 yes · 2 yes for this tool this session · 3 yes for everything this
// session · 4 no); Esc answers no, "user cancelled". Rule: one question on screen at a time, the
// others waiting in order with their number shown ("(2 more queued)"); a question whose call no
// longer waits (the turn was cancelled, /yolo approved it) leaves the screen or the queue at once,
// and "yes for this tool" also answers the queued questions about that tool.
import type { Component } from "../../tui/component.ts";
import { Dialog } from "../../tui/dialog.ts";
import type { SelectItem } from "../../tui/select-list.ts";
import { truncateToWidth, wrapText } from "../../tui/width.ts";
import type { ConfirmAnswer, Confirmer, ConfirmRequest } from "../../core/confirm-gate.ts";
import type { AppContext } from "./app-context.ts";

type Choice = ConfirmAnswer["answer"];

interface Question {
  request: ConfirmRequest;
  signal: AbortSignal;
  answer(answer: ConfirmAnswer): void;
}

export const USER_CANCELLED = "user cancelled";

function choices(tool: string): SelectItem<Choice>[] {
  return [
    { label: "1. Yes", value: "yes" },
    { label: `2. Yes, and don't ask again for ${tool} this session`, value: "yes_tool" },
    { label: "3. Yes to everything this session (as /yolo)", value: "yes_all" },
    { label: "4. No, tell the model to do something else", value: "no" },
  ];
}

/** The Confirmer the confirmation gate asks, showing its questions through `app`'s overlay. */
export function createDialogConfirmer(app: Pick<AppContext, "openOverlay" | "theme">): Confirmer {
  const queue: Question[] = [];
  let shown: { question: Question; close(): void } | undefined;

  const settle = (question: Question, answer: ConfirmAnswer) => {
    const at = queue.indexOf(question);
    if (at === -1) return;
    queue.splice(at, 1);
    if (shown?.question === question) {
      shown.close();
      shown = undefined;
    }
    question.answer(answer);
    showNext();
  };

  const answerWith = (question: Question, choice: Choice) => {
    if (choice === "no") return settle(question, { answer: "no" });
    if (choice === "yes_tool") {
      // The queued calls of the same tool were asked before the answer existed; they get it too.
      for (const other of queue.filter((q) => q !== question && q.request.tool === question.request.tool)) settle(other, { answer: "yes" });
    }
    settle(question, { answer: choice });
  };

  const showNext = () => {
    const question = queue[0];
    if (shown || !question) return;
    const dialog = new Dialog<Choice>(app.theme, {
      title: `Allow ${question.request.tool}?`,
      body: requestBody(app, question.request, () => queue.length - 1),
      choices: choices(question.request.tool),
      hint: "1–4 or ↑/↓ and enter · esc: no",
    });
    dialog.onChoose = (choice) => answerWith(question, choice);
    dialog.onCancel = () => settle(question, { answer: "no", reason: USER_CANCELLED });
    const overlay = app.openOverlay(dialog);
    shown = { question, close: () => overlay.close() };
  };

  return (request, signal) =>
    new Promise<ConfirmAnswer>((resolve) => {
      const question: Question = { request, signal, answer: resolve };
      if (signal.aborted) return resolve({ answer: "no", reason: USER_CANCELLED });
      // The gate has stopped waiting (turn cancelled, /yolo): the answer no longer matters.
      signal.addEventListener("abort", () => settle(question, { answer: "no", reason: USER_CANCELLED }), { once: true });
      queue.push(question);
      showNext();
    });
}

/** The tool and its one-line preview, and how many questions wait behind this one. */
function requestBody(app: Pick<AppContext, "theme">, request: ConfirmRequest, queued: () => number): Component {
  const { theme } = app;
  return {
    render(width) {
      const preview = request.preview ? wrapText(request.preview, Math.max(1, width - 2)).map((row) => `  ${row}`) : [];
      const waiting = queued();
      const rows = [truncateToWidth(`${theme.bold(request.tool)}${preview.length > 0 ? "" : theme.muted(" (no arguments)")}`, width), ...preview];
      if (waiting > 0) rows.push(theme.muted(`(${waiting} more queued)`));
      return rows;
    },
  };
}
