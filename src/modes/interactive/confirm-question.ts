// One --no-yolo question on screen: the tool, what the call is about, the change it would make (an
// edit's or a write's diff, coloured, cut to DIFF_ROWS and to what the screen leaves: the question,
// the tool and its file always stay in view), the four answers, and a key hint. "No"
// asks for a reason in a one-field editor (Enter sends it, empty for none; Esc goes back to the
// answers). Rule: Esc on the answers is the person's "stop": the question reports onStop and the
// caller cancels the whole turn, so a refused call never leads straight to the next question.
import { Box } from "../../tui/box.ts";
import { type Component, Stack } from "../../tui/component.ts";
import { Editor } from "../../tui/editor.ts";
import { highlightCode } from "../../tui/highlight.ts";
import { type Key, keyId } from "../../tui/keys.ts";
import { type SelectItem, SelectList } from "../../tui/select-list.ts";
import { Spacer, Text } from "../../tui/text.ts";
import type { Theme } from "../../tui/theme.ts";
import { truncateToWidth, wrapText } from "../../tui/width.ts";
import { allArgsText, argsText, type ConfirmAnswer, type ConfirmRequest } from "../../conversation/conversation.ts";
import { STRAY_HINT, StrayTyping } from "../../tui/stray-typing.ts";
import { hasControls, printable, printableVerbatim } from "../../protocol/printable.ts";

type Choice = ConfirmAnswer["answer"];

/** Rows of a diff shown at most; the rest is counted. */
export const DIFF_ROWS = 24;
/** Rows of a diff shown at least, however short the screen. */
const DIFF_ROWS_LEAST = 1;
/** Rows of the call's arguments (a command) shown at least, however short the screen; the rest is counted, in a warning. */
const ARGS_ROWS_LEAST = 3;
/** The rows under the question: the status bar, the editor, the row the frame keeps free. */
const UNDER_QUESTION = 4;
const CHOOSE_HINT = "1–4 or ↑/↓ and enter · esc: cancel the turn";
/** Said under a call whose arguments hold control characters (shown as marks above it). */
export const CONTROLS_WARNING = "⚠ holds control characters, shown here as ␛, ␇…; a terminal would hide them";
const REASON_HINT = "enter: tell the model (empty: just no) · esc: back to the answers";

/** `asked`: a hook or a permission rule asked about this call, and asks again whatever is answered here. */
function choices(tool: string, asked: boolean): SelectItem<Choice>[] {
  const still = asked ? " (what a hook or rule asks about is still asked)" : "";
  return [
    { label: "1. Yes", value: "yes" },
    { label: `2. Yes, and don't ask again for ${tool} this session${still}`, value: "yes_tool" },
    { label: `3. Yes to everything this session (as /yolo)${still}`, value: "yes_all" },
    { label: "4. No, and tell the model what to do instead", value: "no" },
  ];
}

export class ConfirmQuestion implements Component {
  /** the person answered */
  onAnswer?: (answer: ConfirmAnswer) => void;
  /** Esc on the answers: the person wants the turn to stop */
  onStop?: () => void;
  private readonly list: SelectList<Choice>;
  private readonly reason: Editor;
  private readonly hint: Text;
  private readonly content = new Stack();
  private readonly frame: Box;
  private asking: "choice" | "reason" = "choice";
  /** the diff's rows at most in this frame (render fits them to the screen) */
  private diffMost = DIFF_ROWS;
  /** the arguments' rows at most in this frame: all of them unless the screen is too short */
  private argsMost = Number.POSITIVE_INFINITY;
  private body: RequestBody | undefined;
  private hasFocus = false;
  private readonly stray = new StrayTyping((strayed) => this.hint.setText(strayed ? `${STRAY_HINT} · ${CHOOSE_HINT}` : CHOOSE_HINT));

  constructor(
    private readonly theme: Theme,
    readonly request: ConfirmRequest,
    /** how many questions wait behind this one (read when drawn) */
    private readonly queued: () => number,
    /** the terminal's rows, read when drawn: the diff takes only what the rest of the question leaves */
    private readonly screenRows?: () => number,
  ) {
    this.list = new SelectList(choices(printable(request.tool), request.why !== undefined), theme, { typeToFilter: false, maxVisible: 9 });
    this.list.onSelect = (item) => this.choose(item.value);
    this.list.onCancel = () => this.onStop?.();
    // The line above asks the question; the field only says it may stay empty.
    this.reason = new Editor(theme, { prompt: "reason: ", placeholder: "(optional)", maxRows: 4 });
    this.reason.focused = false;
    this.reason.onSubmit = (text) => this.onAnswer?.({ answer: "no", reason: text });
    this.hint = new Text("", { style: theme.muted });
    this.frame = new Box(this.content, { title: theme.bold(`Allow ${printable(request.tool)}?`), border: theme.accent });
    this.layout();
  }

  set focused(on: boolean) {
    this.hasFocus = on;
    this.reason.focused = on && this.asking === "reason";
  }

  get focused(): boolean {
    return this.hasFocus;
  }

  render(width: number): string[] {
    // Measured, then fitted: the diff gives up the rows the question is over the screen by (what wraps
    // in a narrow terminal, a reason, included), and one for the line counting the rest when it was whole.
    // The arguments (a long command) give up rows last, down to a few, and say how many are not shown.
    this.diffMost = DIFF_ROWS;
    this.argsMost = Number.POSITIVE_INFINITY;
    let rows = this.frame.render(width);
    const room = this.screenRows ? this.screenRows() - UNDER_QUESTION : undefined;
    if (room === undefined || rows.length <= room) return rows;
    const lines = this.body?.diffLines.length ?? 0;
    if (lines > 0) {
      const over = rows.length - room + (lines > DIFF_ROWS ? 0 : 1);
      this.diffMost = Math.max(DIFF_ROWS_LEAST, Math.min(lines, DIFF_ROWS) - over);
      rows = this.frame.render(width);
      if (rows.length <= room) return rows;
    }
    // Cut, they gain a warning row or two: fitted again until they fit or are down to the least.
    this.argsMost = this.body?.argRowCount(width) ?? 0;
    while (rows.length > room && this.argsMost > ARGS_ROWS_LEAST) {
      this.argsMost = Math.max(ARGS_ROWS_LEAST, this.argsMost - (rows.length - room));
      rows = this.frame.render(width);
    }
    return rows;
  }

  handleKey(key: Key): boolean {
    const id = keyId(key);
    if (this.asking === "reason") {
      if (id === "escape") {
        this.asking = "choice";
        this.layout();
        return true;
      }
      // An empty reason is still an answer: "no", and nothing more to say.
      if (id === "enter" && this.reason.value.trim() === "") {
        this.onAnswer?.({ answer: "no" });
        return true;
      }
      this.reason.handleKey(key);
      return true;
    }
    if (this.stray.swallows(key)) return true;
    const number = key.text !== undefined && /^[1-4]$/.test(key.text) ? Number(key.text) : 0;
    const choice = number > 0 ? this.list.matches[number - 1] : undefined;
    if (choice) this.stray.answer(() => this.choose(choice.value));
    else this.list.handleKey(key);
    return true;
  }

  /** Text reached the app just before this opened (Tui.setFocus): the user was typing a prompt. */
  typedAhead(): void {
    this.stray.typedAhead();
  }

  handlePaste(text: string): void {
    if (this.asking === "reason") this.reason.handlePaste(text);
  }

  private choose(choice: Choice): void {
    if (choice !== "no") return this.onAnswer?.({ answer: choice } as ConfirmAnswer);
    this.asking = "reason";
    this.layout();
  }

  private layout(): void {
    this.content.clear();
    this.body = new RequestBody(this.theme, this.request, this.queued, () => this.diffMost, () => this.argsMost);
    this.content.add(this.body).add(new Spacer());
    if (this.asking === "choice") this.content.add(this.list);
    else this.content.add(new Text("No: what should the model do instead?", { style: this.theme.muted })).add(this.reason);
    this.hint.setText(this.asking === "choice" ? CHOOSE_HINT : REASON_HINT);
    this.content.add(this.hint);
    this.reason.focused = this.hasFocus && this.asking === "reason";
  }
}

/** The tool, what the call is about (a command whole), its diff, and how many questions wait behind this one. */
class RequestBody implements Component {
  /** the diff's lines, without its ---/+++ header (the path is on the line above) */
  readonly diffLines: string[];
  /** what the call is about, as it would run (a command with its lines) */
  private readonly argsWhole: string;
  /** the same, every control character shown as a mark */
  private readonly argsShown: string;

  constructor(
    private readonly theme: Theme,
    private readonly request: ConfirmRequest,
    private readonly queued: () => number,
    /** the diff's rows at most */
    private readonly diffMost: () => number,
    /** the arguments' rows at most */
    private readonly argsMost: () => number,
  ) {
    // The change as it would be written: a control character in it shown, never dropped or written.
    this.diffLines = request.diff ? printableVerbatim(request.diff).split("\n").filter((line) => !line.startsWith("--- ") && !line.startsWith("+++ ")) : [];
    // Whole, not the one-line preview: what is cut from a command asked about would run unseen.
    // With a diff (edit, write) what the call is about; without one every argument, so nothing of
    // the call (an MCP write_file's content) goes by unseen.
    const whole = request.args ? (request.diff !== undefined ? argsText(request.args) : allArgsText(request.args)) : "";
    this.argsWhole = whole.trim() !== "" ? whole : request.preview;
    this.argsShown = printableVerbatim(this.argsWhole.replace(/\n+$/, ""));
  }

  /** The rows the arguments take whole at `width`. */
  argRowCount(width: number): number {
    return this.argRows(width).length;
  }

  private argRows(width: number): string[] {
    return this.argsShown.trim() === "" ? [] : this.argsShown.split("\n").flatMap((line) => wrapText(line, Math.max(1, width - 2)));
  }

  render(width: number): string[] {
    const { theme, request } = this;
    // The model's arguments as they would run: an escape written or dropped could hide a part of
    // the command asked about, so every control character in them is shown as a mark; a command
    // too long for the screen shows its start and says how much more would run.
    const all = this.argRows(width);
    const most = this.argsMost();
    const preview = all.slice(0, most).map((row) => `  ${row}`);
    const rows = [truncateToWidth(`${theme.bold(printable(request.tool))}${preview.length > 0 ? "" : theme.muted(" (no arguments)")}`, width), ...preview];
    if (all.length > most) {
      rows.push(...wrapText(`⚠ ${all.length - most} more rows not shown (a taller window shows them); all of it runs if you allow it`, Math.max(1, width - 2)).map((row) => theme.warning(`  ${row}`)));
    }
    if (hasControls(this.argsWhole) || (request.diff !== undefined && hasControls(request.diff))) {
      rows.push(...wrapText(CONTROLS_WARNING, Math.max(1, width - 2)).map((row) => theme.warning(`  ${row}`)));
    }
    // Asked because a settings hook or a permission rule wants it, not because of --no-yolo.
    if (request.why) rows.push(...wrapText(printable(request.why), Math.max(1, width - 2)).map((row) => theme.muted(`  ${row}`)));
    if (this.diffLines.length > 0) rows.push("", ...diffRows(this.diffLines, width, theme, this.diffMost()));
    const waiting = this.queued();
    if (waiting > 0) rows.push(theme.muted(`(${waiting} more queued)`));
    return rows;
  }
}

/** The diff's lines coloured, cut to `most` rows. */
function diffRows(lines: readonly string[], width: number, theme: Theme, most: number): string[] {
  const shown = highlightCode(lines.slice(0, most).join("\n"), "diff", theme).map((row) => truncateToWidth(row, width));
  if (lines.length > most) shown.push(theme.muted(`… ${lines.length - most} more lines of the diff`));
  return shown;
}
