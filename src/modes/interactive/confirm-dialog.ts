// The --no-yolo confirmation as the TUI asks it: each question a ConfirmQuestion (the tool, what
// the call is about, its diff, four answers; "no" takes a reason for the model). Rule: one question
// on screen at a time, the others waiting in order with their number shown ("(2 more queued)"); a
// question whose call no longer waits (the turn was cancelled, /yolo approved it) leaves the screen
// or the queue at once; "yes for this tool" also answers the queued questions about that tool; and
// Esc (or Ctrl+C) cancels the turn, as Esc does whenever a turn runs, so every question of it goes.
// While a call's question is on screen or queued, its tool box says it waits for the answer (it has
// not started running).
import type { ConfirmAnswer, Confirmer, ConfirmRequest } from "../../conversation/conversation.ts";
import type { AppContext } from "./app-context.ts";
import { ConfirmQuestion } from "./confirm-question.ts";

interface Question {
  request: ConfirmRequest;
  signal: AbortSignal;
  answer(answer: ConfirmAnswer): void;
}

export const USER_CANCELLED = "user cancelled";

/**
 * What the dialog needs of the app: an overlay to show questions in, the turn to cancel, and (the
 * app has a chat; a test's fake need not) the tool box to mark as waiting for the answer.
 */
export type ConfirmHost = Pick<AppContext, "openOverlay" | "theme" | "cancelTurnByUser"> & Partial<Pick<AppContext, "screenRows">> & {
  /** the call with this id waits for the person's answer (true) or no longer does (false) */
  markAwaitingAnswer?(callId: string, waiting: boolean): void;
};

/** The Confirmer the confirmation gate asks, showing its questions through `app`'s overlay. */
export function createDialogConfirmer(app: ConfirmHost): Confirmer {
  const queue: Question[] = [];
  let shown: { question: Question; close(): void } | undefined;

  const settle = (question: Question, answer: ConfirmAnswer) => {
    const at = queue.indexOf(question);
    if (at === -1) return;
    queue.splice(at, 1);
    app.markAwaitingAnswer?.(question.request.id, false);
    if (shown?.question === question) {
      shown.close();
      shown = undefined;
    }
    question.answer(answer);
    showNext();
  };

  const answerWith = (question: Question, answer: ConfirmAnswer) => {
    if (answer.answer === "yes_tool") {
      // The queued calls of the same tool were asked before the answer existed; they get it too.
      for (const other of queue.filter((q) => q !== question && q.request.tool === question.request.tool)) settle(other, { answer: "yes" });
    }
    if (answer.answer === "no" && !answer.reason?.trim()) return settle(question, { answer: "no" });
    settle(question, answer);
  };

  const stop = (question: Question) => {
    // The cancel aborts every waiting call's signal, which takes its question away; what was not
    // part of a turn is answered here.
    app.cancelTurnByUser();
    for (const waiting of [...queue]) settle(waiting, { answer: "no", reason: USER_CANCELLED });
    settle(question, { answer: "no", reason: USER_CANCELLED });
  };

  const showNext = () => {
    const question = queue[0];
    if (shown || !question) return;
    const view = new ConfirmQuestion(app.theme, question.request, () => queue.length - 1, app.screenRows ? () => app.screenRows!() : undefined);
    view.onAnswer = (answer) => answerWith(question, answer);
    view.onStop = () => stop(question);
    const overlay = app.openOverlay(view);
    shown = { question, close: () => overlay.close() };
  };

  return (request, signal) =>
    new Promise<ConfirmAnswer>((resolve) => {
      const question: Question = { request, signal, answer: resolve };
      if (signal.aborted) return resolve({ answer: "no", reason: USER_CANCELLED });
      // The gate has stopped waiting (turn cancelled, /yolo): the answer no longer matters.
      signal.addEventListener("abort", () => settle(question, { answer: "no", reason: USER_CANCELLED }), { once: true });
      queue.push(question);
      app.markAwaitingAnswer?.(request.id, true);
      showNext();
    });
}
