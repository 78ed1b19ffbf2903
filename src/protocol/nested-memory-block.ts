// How a subfolder's memory file (packages/api/CLAUDE.md) is given to the model after the start: a
// text block of its own, beside a read's result or a prompt's @files, that names the file and the
// folder it holds instructions for. The transcript is the record of which ones the model has: a
// file is given while a block of it is in the transcript.
// Rule: a block is its own text block and opens with `<memory-file path="…"`, so one is known by its
// first characters, never found inside a file's text the model read.
import type { Message } from "./messages.ts";
import { escapeAttribute, unescapeAttribute } from "./attribute-text.ts";

const OPEN = '<memory-file path="';

export interface MemoryBlockFile {
  /** the file's absolute path (by it, the block is recognised in a transcript) */
  path: string;
  content: string;
  /** the folder its instructions are for */
  folder: string;
  /** the memory file whose `@path` brought this one in */
  importedBy?: string;
}

/** The text block that gives the model `file`; paths are shown relative to `cwd`. */
export function memoryBlock(file: MemoryBlockFile, cwd: string): string {
  const shown = (abs: string) => (abs.startsWith(`${cwd}/`) ? abs.slice(cwd.length + 1) : abs);
  const folder = `${shown(file.folder)}/`;
  const what = file.importedBy
    ? `${shown(file.path)}, which ${shown(file.importedBy)} imports, holds instructions for the files under ${folder}`
    : `${shown(file.path)} holds instructions for the files under ${folder}`;
  return `${OPEN}${escapeAttribute(file.path)}">\n${what}: follow them while you work there; where they disagree with the project context, they win for those files.\n\n${file.content.trim()}\n</memory-file>`;
}

/** The absolute paths of the memory files whose blocks are in `messages` (the prompts' and the tool results'). */
export function givenMemoryFiles(messages: readonly Message[]): Set<string> {
  const given = new Set<string>();
  const look = (text: string) => {
    if (!text.startsWith(OPEN)) return;
    const end = text.indexOf('"', OPEN.length);
    if (end !== -1) given.add(unescapeAttribute(text.slice(OPEN.length, end)));
  };
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === "text") look(block.text);
      else if (block.type === "tool_result") for (const part of block.content) if (part.type === "text") look(part.text);
    }
  }
  return given;
}
