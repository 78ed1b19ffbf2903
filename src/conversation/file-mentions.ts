// `@path` in a prompt: the file's content goes to the model with the prompt, as Claude Code does,
// so the model need not spend a read on a file the user already pointed at; `@server:uri` does
// the same with an MCP server's resource (Claude Code's `@github:issue://123`). This file is the
// one format of that prompt (the text as typed, then each file in a <file> block and each resource
// in a <resource> block after a mark line), written when the prompt is sent and read back to draw
// it as typed plus one line per attachment.
// Rule: only regular text files up to ATTACH_MAX_BYTES, and resources whose content is text of that
// size, are attached; anything else (a folder, a binary, a huge file, a path that does not exist,
// an e-mail address) stays plain text, and what was meant as a file or a resource but not attached
// is said in a note, never silently dropped.
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { homedir } from "node:os";
import { ATTACHED_MARK } from "../protocol/attached-prompt.ts";
import { realOrSame, statSafe } from "../config/quiet-fs.ts";
import { sha256Hex } from "../protocol/random-hex.ts";
import type { FileView } from "../protocol/tool.ts";
import { errnoWords } from "../protocol/errno-words.ts";
import { escapeAttribute, unescapeAttribute } from "../protocol/attribute-text.ts";

/** The largest file attached; a bigger one is left to the model's read tool. */
export const ATTACH_MAX_BYTES = 256 * 1024;
const MARK = ATTACHED_MARK;

export interface Attachment {
  /** as the user wrote it (a resource: `server:uri`) */
  path: string;
  lines: number;
}

/**
 * Reads `uri` from the MCP server `server` when it is one that has resources: its text, or why it
 * has none to attach; undefined when `server` is no such server (the mention is then a file's).
 */
export type ResourceReader = (server: string, uri: string) => Promise<{ text: string } | { why: string }> | undefined;

export interface AttachedPrompt {
  /** what the model is sent */
  text: string;
  attached: Attachment[];
  /** mentions of files that were not attached, each with why */
  skipped: string[];
  /** what the model is shown of each attached file, by real path: it has seen them (file-views) */
  seen: Map<string, FileView>;
}

/** `@path`, `@'path with spaces'` or `@"…"`, at the start or after whitespace. */
const MENTION = /(?<=^|\s)@(?:'([^']+)'|"([^"]+)"|(\S+))/g;
/** Punctuation that ends a sentence rather than a path ("look at @a.ts, then …"). */
const TRAILING = /[,.;:!?)\]}]+$/;

/** `server:uri` as a resource mention writes it (a server's name, a colon, a URI with its scheme). */
const RESOURCE = /^([A-Za-z0-9_.-]+):([A-Za-z][A-Za-z0-9+.-]*:\S*)$/;

/** Why a file may not be attached (the jail, a Read rule), or undefined when it may. */
export type AttachGate = (abs: string) => Promise<string | undefined>;

/**
 * The prompt with the content of every file and resource it mentions attached (each once, by its
 * real path, in order); `gate` holds the files to what the run's read tool may read.
 */
export async function attachMentions(prompt: string, cwd: string, readResource?: ResourceReader, gate?: AttachGate): Promise<AttachedPrompt> {
  const attached: Attachment[] = [];
  const blocks: string[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  const views = new Map<string, FileView>();
  for (const match of prompt.matchAll(MENTION)) {
    const written = match[1] ?? match[2] ?? match[3]!;
    const named = readResource && resourceMention(written);
    const key = named && `${named.server}:${named.uri}`;
    if (key && seen.has(key)) continue;
    const reading = named && readResource(named.server, named.uri);
    if (key && reading) {
      seen.add(key);
      const read = await reading;
      if ("why" in read) {
        skipped.push(`@${key} was not attached: ${read.why}`);
        continue;
      }
      attached.push({ path: key, lines: countLines(read.text) });
      blocks.push(`<resource server="${named.server}" uri="${escapeAttribute(named.uri)}">\n${withNewline(read.text)}</resource>`);
      continue;
    }
    const found = locate(written, cwd);
    if (!found) continue;
    // Where it really leads (`a/link/../x` goes through the link): what is judged and read; a link
    // and the file it leads to are one file.
    const real = realOrSame(found.abs);
    if (seen.has(real)) continue;
    seen.add(real);
    // Judged as the read tool judges: the path as written (a rule on a link's own name) and where it leads.
    const refused = gate ? ((await gate(found.abs)) ?? (real !== found.abs ? await gate(real) : undefined)) : undefined;
    if (refused) {
      skipped.push(`@${found.path} was not attached: ${refused}`);
      continue;
    }
    const file = readAttachable(real, found.size);
    if ("why" in file) {
      skipped.push(`@${found.path} was not attached: ${file.why}; the model can still read it`);
      continue;
    }
    attached.push({ path: found.path, lines: countLines(file.text) });
    blocks.push(`<file path="${found.path}">\n${withNewline(file.text)}</file>`);
    views.set(real, file.view);
  }
  const text = blocks.length === 0 ? prompt : `${prompt}\n\n${MARK}\n${blocks.join("\n")}`;
  return { text, attached, skipped, seen: views };
}

/** A sent prompt split back into what was typed and the files attached to it. */
export function splitAttachments(text: string): { prompt: string; attached: Attachment[] } {
  const at = [`\n\n${MARK}\n<file path="`, `\n\n${MARK}\n<resource server="`].map((start) => text.indexOf(start)).filter((index) => index !== -1);
  if (at.length === 0) return { prompt: text, attached: [] };
  const from = Math.min(...at);
  const attached: Attachment[] = [];
  const block = /<file path="([^"]*)">\n([\s\S]*?)<\/file>(?:\n|$)|<resource server="([^"]*)" uri="([^"]*)">\n([\s\S]*?)<\/resource>(?:\n|$)/g;
  for (const match of text.slice(from).matchAll(block)) {
    if (match[1] !== undefined) attached.push({ path: match[1], lines: countLines(match[2]!) });
    else attached.push({ path: `${match[3]}:${unescapeAttribute(match[4]!)}`, lines: countLines(match[5]!) });
  }
  return { prompt: text.slice(0, from), attached };
}

/** The server and URI a mention names when it is written as a resource's, sentence punctuation after it forgiven. */
function resourceMention(written: string): { server: string; uri: string } | undefined {
  const match = RESOURCE.exec(written.replace(TRAILING, ""));
  return match ? { server: match[1]!, uri: match[2]! } : undefined;
}

function withNewline(text: string): string {
  return text.endsWith("\n") || text === "" ? text : `${text}\n`;
}

/** The file a mention names, with sentence punctuation after it forgiven; undefined for no file. */
function locate(written: string, cwd: string): { path: string; abs: string; size: number } | undefined {
  for (const path of [written, written.replace(TRAILING, "")]) {
    if (path === "") continue;
    // `..` taken off the text first, as the read tool takes it (`a/link/../x` is `a/x`): what is judged is what is read.
    const abs = path === "~" || path.startsWith("~/") ? resolve(homedir(), path.slice(2)) : isAbsolute(path) ? resolve(path) : resolve(cwd, path);
    const info = statSafe(abs);
    if (info?.isFile()) return { path, abs, size: info.size };
  }
  return undefined;
}

function readAttachable(abs: string, size: number): { text: string; view: FileView } | { why: string } {
  if (size > ATTACH_MAX_BYTES) return { why: `it is ${Math.round(size / 1024)} KB, over the ${ATTACH_MAX_BYTES / 1024} KB attached at most` };
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (error) {
    return { why: `it cannot be read (${errnoWords(error)})` };
  }
  if (bytes.subarray(0, 8192).includes(0)) return { why: "it is not text" };
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return { text, view: { size: bytes.length, mtimeMs: statSafe(abs)?.mtimeMs ?? 0, sha256: sha256Hex(bytes) } };
  } catch {
    return { why: "it is not UTF-8 text" };
  }
}

function countLines(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}
