// A Markdown command's prompt, ready for the model: its template filled in (template-substitution.ts:
// `$ARGUMENTS`, `$ARGUMENTS[0]`, `$1`…, its `arguments:` names, `${CLAUDE_SESSION_ID}`, and
// `` !`cmd` `` and ```` ```! ```` blocks replaced by the commands' output), and `@file` contents
// attached after the prompt, as Claude Code expands its custom commands. Rule: a `!` command runs
// only where the caller allows it (a trusted folder), and only as far as the caller's runner lets
// it (the rules, the confirmation); elsewhere, or when refused, the prompt says it was not run and
// why, so nothing runs unasked and nothing is silently dropped. What the user typed is put in once,
// as text: it is never read for `$1` or `!` again, and its @files are the user's to attach (the
// template's are limited).
import { readFileSync, realpathSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fillTemplate, type ShellRunner } from "./template-substitution.ts";

export interface ExpandOptions {
  cwd: string;
  /** runs one `!` command in cwd: its output, or why it was not run; undefined = `!` commands are not allowed here */
  runShell?: ShellRunner;
  /** `@file` attaches only files inside cwd (a folder's command in a folder not trusted: it must not send the user's files elsewhere to the model) */
  insideOnly?: boolean;
  /** why a file may not be attached (the run's read tool may not read it: the jail, a Read rule), or undefined when it may */
  gate?: (path: string) => Promise<string | undefined>;
  /** front matter `arguments:`: `$name` is the argument in its place */
  argumentNames?: readonly string[];
  /** `${CLAUDE_SESSION_ID}` */
  sessionId?: string;
}

/** An attached file larger than this is named, not included. */
const MAX_ATTACH_BYTES = 256 * 1024;

export async function expandCommand(body: string, args: string, options: ExpandOptions): Promise<string> {
  // `$1` is the first argument in a command file, as `.claude/commands` have always had it.
  const { text, usedArguments } = await fillTemplate(
    body,
    {
      args,
      positionalBase: 1,
      ...(options.argumentNames ? { argumentNames: options.argumentNames } : {}),
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
    },
    options.runShell,
  );
  // Arguments the template has no place for still reach the model.
  const prompt = !usedArguments && args.trim() ? `${text.trimEnd()}\n\n${args.trim()}` : text;
  // The template's @files (only those inside the folder when it is not trusted), then the ones the user typed.
  const seen = new Set<string>();
  const attached = [
    ...(await attachments(body, options.cwd, options.insideOnly === true, seen, options.gate)),
    ...(await attachments(args, options.cwd, false, seen, options.gate)),
  ];
  return attached.length > 0 ? `${prompt.trimEnd()}\n\n${attached.join("\n\n")}` : prompt;
}

/**
 * `prompt` (a skill's, filled in) with the files the user's own words `args` name attached after
 * it, as a command's are: a skill's body and what its `!` commands printed attach nothing (they are
 * not the user's words).
 */
export async function withTypedAttachments(prompt: string, args: string, options: Pick<ExpandOptions, "cwd" | "gate">): Promise<string> {
  const attached = await attachments(args, options.cwd, false, new Set(), options.gate);
  return attached.length > 0 ? `${prompt.trimEnd()}\n\n${attached.join("\n\n")}` : prompt;
}

/** `@path`, `@~/path`, `@'path with spaces'` or `@"…"`, outside code, at the start or after whitespace. */
const MENTION = /(?<=^|\s)@(?:'([^']+)'|"([^"]+)"|((?:~\/|\.{1,2}\/|\/)?[\w.\-/]+[\w\-/]))/g;

/**
 * The files named with `@path` (outside code), each as a block with its content, judged by where
 * they really lead; `insideOnly`: those inside cwd; `gate`: what the run's read tool may read.
 */
async function attachments(text: string, cwd: string, insideOnly: boolean, seen: Set<string>, gate?: (path: string) => Promise<string | undefined>): Promise<string[]> {
  const blocks: string[] = [];
  const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`]*`/g, "");
  for (const match of prose.matchAll(MENTION)) {
    const written = match[1] ?? match[2] ?? match[3]!;
    const named = written === "~" || written.startsWith("~/") ? path.join(os.homedir(), written.slice(2)) : path.resolve(cwd, written);
    // Where it really leads (`a/link/../x` is read through the link): what is judged and read.
    let file: string;
    let size: number;
    try {
      file = realpathSync(named);
      const stats = statSync(file);
      if (!stats.isFile()) continue;
      size = stats.size;
    } catch {
      continue;
    }
    if (seen.has(file)) continue;
    seen.add(file);
    if (insideOnly && !isInside(file, realpathSync(cwd))) {
      blocks.push(`(${written} is outside this folder, so it is not attached until the folder is trusted: zot trust)`);
      continue;
    }
    // Judged as the read tool judges: the path as written (a rule on a link's own name) and where it leads.
    const refused = gate ? ((await gate(named)) ?? (file !== named ? await gate(file) : undefined)) : undefined;
    if (refused) {
      blocks.push(`(${written} is not attached: ${refused})`);
      continue;
    }
    if (size > MAX_ATTACH_BYTES) {
      blocks.push(`(${written} is ${size.toLocaleString("en-US")} bytes, too large to attach; read it with the read tool)`);
      continue;
    }
    const content = readFileSync(file, "utf8");
    blocks.push(`Contents of ${written}:\n\`\`\`\n${content.replace(/\n$/, "")}\n\`\`\``);
  }
  return blocks;
}

function isInside(file: string, dir: string): boolean {
  return file.startsWith(`${dir}${path.sep}`);
}
