// A picker for the built-in commands (/model, /sessions, /jump): a framed SelectList that the user
// narrows by typing, opened as the app's overlay. Rule: the promise always settles (a pick, or
// undefined on Esc) and the overlay is closed before it does, so a command can go on to change the
// app without the picker still holding the keyboard.
import { Box } from "../../../tui/box.ts";
import { type Component, Stack } from "../../../tui/component.ts";
import type { Key } from "../../../tui/keys.ts";
import { type SelectItem, SelectList } from "../../../tui/select-list.ts";
import type { Theme } from "../../../tui/theme.ts";
import { truncateToWidth } from "../../../tui/width.ts";
import type { AppContext } from "../app-context.ts";

export interface PickOptions {
  title: string;
  /** shown when nothing matches the filter */
  emptyText?: string;
  maxVisible?: number;
  /** the filter to start from (what the user typed after the command) */
  filter?: string;
}

const HINT = "type to filter · ↑/↓ choose · enter pick · esc cancel";
/** The rows a picker takes besides its list: its frame, the filter, the hint; the status bar and the editor under it, the row the frame keeps free, a spare. */
const PICKER_CHROME = 9;

/** The frame: title, the filter typed so far, the list, the key hints. */
export class Picker<T> implements Component {
  readonly list: SelectList<T>;
  private readonly frame: Box;

  /** `screenRows`: the terminal's rows, read at each frame, so a short terminal keeps the title, the filter and the highlighted row in view */
  constructor(items: SelectItem<T>[], theme: Theme, options: PickOptions, screenRows?: () => number) {
    const most = options.maxVisible ?? 10;
    const maxVisible = screenRows ? () => Math.min(most, screenRows() - PICKER_CHROME) : most;
    this.list = new SelectList(items, theme, { maxVisible, emptyText: options.emptyText });
    if (options.filter) this.list.setFilter(options.filter);
    const filterLine: Component = {
      render: (width) => [truncateToWidth(`${theme.accent("›")} ${this.list.filter}${theme.muted("▏")}`, width)],
    };
    const hint: Component = { render: (width) => [theme.muted(truncateToWidth(HINT, width))] };
    this.frame = new Box(new Stack(filterLine, this.list, hint), { title: theme.bold(options.title), border: theme.accent });
  }

  render(width: number): string[] {
    return this.frame.render(width);
  }

  /** Every key goes to the list: a picker that let keys through would type into a hidden editor. */
  handleKey(key: Key): boolean {
    this.list.handleKey(key);
    return true;
  }
}

/** Opens a picker over `items`; resolves with the item picked, or undefined when the user pressed Esc. */
export function pick<T>(app: AppContext, items: SelectItem<T>[], options: PickOptions): Promise<SelectItem<T> | undefined> {
  const picker = new Picker(items, app.theme, options, () => app.screenRows());
  return new Promise((resolve) => {
    const overlay = app.openOverlay(picker);
    picker.list.onSelect = (item) => {
      overlay.close();
      resolve(item);
    };
    picker.list.onCancel = () => {
      overlay.close();
      resolve(undefined);
    };
  });
}
