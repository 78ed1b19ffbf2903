// A question in a frame: a title, a body (text or any component), the answers as a list, and a
// line of key hints. Answers are picked with ↑/↓ and Enter, or by their number (1–9); Esc cancels.
// Rule: the dialog takes every key while it has focus (a dialog that let keys fall through to the
// editor behind it would type into a prompt the user cannot see), except Ctrl+C, which the
// application's own key handlers see first anyway. Text typed into it, or just before it opened,
// means the user was typing a prompt: Enter and numbers then pick nothing until ↑/↓ are pressed,
// and a number answers only once no other key follows it (stray-typing.ts).
import { Box } from "./box.ts";
import { type Component, Stack } from "./component.ts";
import type { Key } from "./keys.ts";
import { type SelectItem, SelectList } from "./select-list.ts";
import { STRAY_HINT, StrayTyping } from "./stray-typing.ts";
import { Spacer, Text } from "./text.ts";
import type { Theme } from "./theme.ts";

export interface DialogOptions<T> {
  title: string;
  /** What is asked: text (wrapped) or a component (a diff preview). */
  body?: string | Component;
  choices: SelectItem<T>[];
  /** The bottom line (default "↑/↓ choose · enter confirm · esc cancel"). */
  hint?: string;
}

export class Dialog<T = string> implements Component {
  onChoose?: (value: T) => void;
  onCancel?: () => void;
  readonly list: SelectList<T>;
  private readonly frame: Box;
  private readonly stray: StrayTyping;

  constructor(theme: Theme, options: DialogOptions<T>) {
    this.list = new SelectList(options.choices, theme, { typeToFilter: false, maxVisible: 9 });
    this.list.onSelect = (item) => this.onChoose?.(item.value);
    this.list.onCancel = () => this.onCancel?.();
    const content = new Stack();
    if (options.body !== undefined) content.add(typeof options.body === "string" ? new Text(options.body) : options.body).add(new Spacer());
    const hintText = options.hint ?? "↑/↓ choose · enter confirm · esc cancel";
    const hint = new Text(hintText, { style: theme.muted });
    this.stray = new StrayTyping((strayed) => hint.setText(strayed ? `${STRAY_HINT} · ${hintText}` : hintText));
    content.add(this.list).add(hint);
    this.frame = new Box(content, { title: theme.bold(options.title), border: theme.accent });
  }

  render(width: number): string[] {
    return this.frame.render(width);
  }

  handleKey(key: Key): boolean {
    if (this.stray.swallows(key)) return true;
    const number = key.text !== undefined && /^[1-9]$/.test(key.text) ? Number(key.text) : 0;
    const choice = number > 0 ? this.list.matches[number - 1] : undefined;
    if (choice) {
      this.stray.answer(() => this.onChoose?.(choice.value));
      return true;
    }
    this.list.handleKey(key);
    return true;
  }

  /** Text reached the app just before this opened (Tui.setFocus): the user was typing a prompt. */
  typedAhead(): void {
    this.stray.typedAhead();
  }
}
