// The list under the editor while the user types `@path`: the entries of a folder of the working
// directory (folders first), narrowed by a fuzzy filter of the part after the last `/`. Picking a
// folder opens it (the editor's fragment becomes `@folder/`), picking a file puts `@path` in the
// editor in place of the fragment (Enter: the file's content goes with the prompt) or its path
// alone (Tab). Rule: like the slash popup, it is fed by the editor's text and
// takes no typed characters itself; folders are read when opened, never walked recursively.
// The MCP servers' resources are listed after the working directory's entries, and alone once the
// fragment starts with a server's name and a colon (`@everything:`); picking one puts
// `@server:uri` in the editor, whose content goes with the prompt (file-mentions.ts).
import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { printableVerbatim } from "../../protocol/printable.ts";
import type { Component } from "../../tui/component.ts";
import { type SelectItem, SelectList } from "../../tui/select-list.ts";
import type { Theme } from "../../tui/theme.ts";
import { truncateToWidth } from "../../tui/width.ts";

/** An `@fragment` that ends at the cursor: where its `@` is and what follows it. */
export interface AtFragment {
  start: number;
  query: string;
}

export interface FileEntry {
  /** relative to the working directory; a folder ends with "/"; a resource: `server:uri` */
  path: string;
  folder: boolean;
  /** an MCP server's resource, not a file */
  resource?: boolean;
}

/** An MCP resource as a prompt mentions it (`server:uri`) and its name. */
export interface ResourceMention {
  mention: string;
  name: string;
}

/** The picker's list while it shows resources alone. */
const RESOURCES_ONLY = "\0resources";

const HINT = "↑/↓ choose · enter: attach the file's content · tab: its path only · → open folder · esc close";
/** Never listed: nobody picks from these, and they can be huge. */
const SKIPPED = new Set([".git", "node_modules"]);

/** The `@…` being typed just before the cursor (an `@` at the start or after a space, no space in it). */
export function atFragment(text: string, cursor: number): AtFragment | undefined {
  const match = /(?:^|\s)@([^\s@]*)$/.exec(text.slice(0, cursor));
  if (!match) return undefined;
  return { start: cursor - match[1].length - 1, query: match[1] };
}

export class FilePicker implements Component {
  readonly list: SelectList<FileEntry>;
  private folder: string | undefined;

  constructor(
    private readonly theme: Theme,
    private readonly cwd: string,
    /** the MCP resources a prompt can mention now */
    private readonly resources: () => ResourceMention[] = () => [],
  ) {
    this.list = new SelectList<FileEntry>([], theme, { maxVisible: 8, typeToFilter: false, emptyText: "no file matches" });
  }

  /** Shows the folder named by the query (up to its last "/"), filtered by the rest; or the resources, filtered by the whole query. */
  update(query: string): void {
    const resources = this.resources();
    const colon = query.indexOf(":");
    const server = colon > 0 ? query.slice(0, colon + 1) : undefined;
    if (server && resources.some((resource) => resource.mention.startsWith(server))) {
      if (this.folder !== RESOURCES_ONLY) {
        this.folder = RESOURCES_ONLY;
        this.list.setItems(resourceItems(resources));
      }
      this.list.setFilter(query);
      return;
    }
    const cut = query.lastIndexOf("/") + 1;
    const folder = query.slice(0, cut);
    // The top folder lists the resources too, so it is listed again when their number changes (a server joined).
    const key = folder === "" ? `\0${resources.length}` : folder;
    if (key !== this.folder) {
      this.folder = key;
      this.list.setItems([...listFolder(this.cwd, folder), ...(folder === "" ? resourceItems(resources) : [])]);
      this.list.setFilter("");
    }
    this.list.setFilter(query.slice(cut));
  }

  get selected(): FileEntry | undefined {
    return this.list.selected?.value;
  }

  render(width: number): string[] {
    return [...this.list.render(width), this.theme.muted(truncateToWidth(`  ${HINT}`, width))];
  }
}

/** A folder's entries, folders first, each group sorted by name; an unreadable folder lists nothing. */
function listFolder(cwd: string, folder: string): SelectItem<FileEntry>[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(cwd, folder), { withFileTypes: true });
  } catch {
    return [];
  }
  const items = entries
    .filter((entry) => !SKIPPED.has(entry.name))
    .map((entry) => {
      const isFolder = entry.isDirectory() || (entry.isSymbolicLink() && isFolderLink(join(cwd, folder, entry.name)));
      const path = `${folder}${entry.name}${isFolder ? "/" : ""}`;
      // A file's name is the folder's (a cloned repository's): shown with its controls as marks, never obeyed as escapes.
      return { label: printableVerbatim(`${entry.name}${isFolder ? "/" : ""}`), value: { path, folder: isFolder } };
    });
  return items.sort((a, b) => Number(b.value.folder) - Number(a.value.folder) || a.label.localeCompare(b.label));
}

function resourceItems(resources: ResourceMention[]): SelectItem<FileEntry>[] {
  return resources.map((resource) => ({
    label: printableVerbatim(resource.mention),
    value: { path: resource.mention, folder: false, resource: true },
    description: printableVerbatim(resource.name),
    group: "MCP resources",
  }));
}

function isFolderLink(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
