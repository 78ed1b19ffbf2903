// What a bracketed paste becomes in the editor: line endings made \n and control bytes dropped;
// a large paste (over 10 lines or 1000 characters) kept aside behind a chip such as
// `[pasted text #2 +40 lines]` that is expanded on submit; a drop of file paths (what a terminal
// pastes when files are dragged onto it) shell-quoted. Rule: nothing pasted is lost or altered
// apart from line endings and control bytes; a paste that is not only existing paths is left alone.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { plainText } from "./plain-text.ts";

export const PASTE_MAX_LINES = 10;
export const PASTE_MAX_CHARS = 1000;

/** A chip in the editor text: `[pasted text #N +L lines]` or `[pasted text #N C chars]`. */
export const PASTE_CHIP = /\[pasted text #(\d+) (?:\+\d+ lines|\d+ chars)\]/g;

/** CRLF and CR become LF; escape sequences and control bytes other than tab and newline go. */
export function normalizePaste(text: string): string {
  return plainText(text.replace(/\r\n?/g, "\n"));
}

/** The bodies of collapsed pastes, numbered from 1 for the life of the editor. */
export class PasteStore {
  private next = 1;
  private readonly bodies = new Map<number, string>();

  /** The chip standing for a large paste (its body kept), or undefined for a paste small enough to insert. */
  collapse(text: string): string | undefined {
    const lines = text.replace(/\n$/, "").split("\n").length;
    if (lines <= PASTE_MAX_LINES && text.length <= PASTE_MAX_CHARS) return undefined;
    const id = this.next++;
    this.bodies.set(id, text);
    return lines > PASTE_MAX_LINES ? `[pasted text #${id} +${lines} lines]` : `[pasted text #${id} ${text.length} chars]`;
  }

  /** The text with each chip this store knows replaced by its paste (unknown chips stay as typed). */
  expand(text: string): string {
    return text.replace(PASTE_CHIP, (chip, id: string) => this.bodies.get(Number(id)) ?? chip);
  }

  has(id: number): boolean {
    return this.bodies.has(id);
  }

  /** Forgets the bodies whose chips `text` does not hold (the editor was cleared or submitted); numbering goes on. */
  keepOnly(text: string): void {
    const kept = new Set(Array.from(text.matchAll(PASTE_CHIP), (match) => Number(match[1])));
    for (const id of this.bodies.keys()) if (!kept.has(id)) this.bodies.delete(id);
  }
}

/** Single-quotes for a POSIX shell: `it's` becomes `'it'\''s'`. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** One dropped token as a path: file:// URLs, quotes and backslash escapes undone, ~ expanded. */
function droppedPath(token: string, home: string): string | undefined {
  let path = token;
  if (path.startsWith("file://")) {
    try {
      path = decodeURIComponent(new URL(path).pathname);
    } catch {
      return undefined;
    }
  } else if (/^'[^']*'$|^"[^"]*"$/.test(path)) path = path.slice(1, -1);
  else path = path.replace(/\\(.)/g, "$1");
  if (path === "~" || path.startsWith("~/")) path = home + path.slice(1);
  return path.startsWith("/") ? path : undefined;
}

/**
 * Shell-quotes the paths of a file drop. Applies only when the paste is one line whose every
 * token is an existing absolute (or ~) path, in any of the forms terminals drop them
 * (`/a\ b.txt`, `'/a b.txt'`, `file:///a%20b.txt`); anything else comes back unchanged.
 */
export function quoteDroppedPaths(text: string, exists: (path: string) => boolean = existsSync, home = homedir()): string {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed.includes("\n")) return text;
  const token = /'[^']*'|"[^"]*"|(?:\\.|[^\s\\])+/g;
  if (trimmed.replace(token, "").trim() !== "") return text; // something no token covers (a stray quote)
  const tokens = trimmed.match(token) ?? [];
  const paths = tokens.map((token) => droppedPath(token, home));
  if (paths.some((path) => path === undefined || !exists(path))) return text;
  return paths.map((path) => shellQuote(path as string)).join(" ");
}
