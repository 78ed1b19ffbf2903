// The list under the editor while the user types a `/command`: the built-in commands, then the
// extensions' commands under a divider, then the skills under theirs, narrowed by what follows
// the slash. Rule: the popup is fed by the editor's text (it never takes typed characters itself);
// ↑/↓ move in it, Tab completes the highlighted name into the editor, Enter runs it, Esc closes it.
import { SKILLS_OWNER } from "../../protocol/slash-command.ts";
import type { Component } from "../../tui/component.ts";
import { type SelectItem, SelectList } from "../../tui/select-list.ts";
import type { Theme } from "../../tui/theme.ts";
import { truncateToWidth } from "../../tui/width.ts";
import type { SlashCommand } from "./app-context.ts";

export interface ExtensionCommandInfo {
  name: string;
  description: string;
  extension: string;
}

const HINT = "↑/↓ choose · tab complete · enter run · esc close";

/** The name typed so far while the editor holds only `/name` (no arguments yet); else undefined. */
export function slashQuery(text: string): string | undefined {
  return /^\/([A-Za-z0-9_-]*)$/.exec(text)?.[1];
}

export class SlashPopup implements Component {
  readonly list: SelectList<string>;

  constructor(
    private readonly theme: Theme,
    private readonly builtins: readonly SlashCommand[],
    private readonly extensionCommands: () => ExtensionCommandInfo[],
  ) {
    this.list = new SelectList<string>([], theme, { maxVisible: 8, typeToFilter: false, emptyText: "no command matches" });
  }

  /** Reads the commands again (an extension may have come or gone) and filters by `query`. */
  update(query: string): void {
    this.list.setItems(this.items());
    this.list.setFilter(query === "" ? "" : `/${query}`);
  }

  /** The highlighted command's name, if any matches. */
  get selected(): string | undefined {
    return this.list.selected?.value;
  }

  render(width: number): string[] {
    return [...this.list.render(width), this.theme.muted(truncateToWidth(`  ${HINT}`, width))];
  }

  private items(): SelectItem<string>[] {
    const builtin = this.builtins.map((command) => ({
      label: `/${command.name}`,
      value: command.name,
      description: command.argsHint ? `${command.argsHint}  ${command.description}` : command.description,
    }));
    const taken = new Set(this.builtins.map((command) => command.name));
    const others = this.extensionCommands()
      .filter((command) => !taken.has(command.name))
      .sort((a, b) => a.name.localeCompare(b.name));
    const extension = others
      .filter((command) => command.extension !== SKILLS_OWNER)
      .map((command) => ({
        label: `/${command.name}`,
        value: command.name,
        description: command.description ? `${command.description} (${command.extension})` : `(${command.extension})`,
        group: "extensions",
      }));
    // A skill is no extension, and its description says "(skill)" already: its own group, no owner.
    const skills = others
      .filter((command) => command.extension === SKILLS_OWNER)
      .map((command) => ({ label: `/${command.name}`, value: command.name, description: command.description, group: "skills" }));
    return [...builtin, ...extension, ...skills];
  }
}
