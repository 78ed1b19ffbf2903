// A Markdown command's prompt, ready for the model: `$ARGUMENTS` and `$1`… filled in, `` !`cmd` ``
// replaced by the command's output, and `@file` contents attached after the prompt, as Claude
// Code expands its custom commands. Rule: a `!` command runs only where the caller allows it (a
// trusted folder), and only as far as the caller's runner lets it (the rules, the confirmation);
// elsewhere, or when refused, the prompt says it was not run and why, so nothing runs unasked and
// nothing is silently dropped.
import { readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { commandWords } from "../protocol/slash-command.ts";

export interface ExpandOptions {
  cwd: string;
  /** runs one `!` command in cwd: its output, or why it was not run; undefined = `!` commands are not allowed here */
  runShell?: (command: string) => Promise<{ output: string } | { notRun: string }>;
  /** `@file` attaches only files inside cwd (a folder's command in a folder not trusted: it must not send the user's files elsewhere to the model) */
  insideOnly?: boolean;
}

/** An attached file larger than this is named, not included. */
const MAX_ATTACH_BYTES = 256 * 1024;

export async function expandCommand(body: string, args: string, options: ExpandOptions): Promise<string> {
  const positional = commandWords(args);
  let usedArguments = false;
  let text = body.replace(/\$ARGUMENTS\b/g, () => {
    usedArguments = true;
    return args;
  });
  text = text.replace(/\$([1-9])\b/g, (_, n: string) => {
    usedArguments = true;
    return positional[Number(n) - 1] ?? "";
  });
  text = await replaceAsync(text, /!`([^`\n]+)`/g, async (_, command: string) => {
    if (!options.runShell) return `(the command \`${command}\` was not run: this folder is not trusted; zot trust runs such commands)`;
    try {
      const run = await options.runShell(command);
      return "output" in run ? run.output.trimEnd() : `(the command \`${command}\` was not run: ${run.notRun})`;
    } catch (error) {
      return `(the command \`${command}\` failed: ${(error as Error).message})`;
    }
  });
  // Arguments the template has no place for still reach the model.
  if (!usedArguments && args.trim()) text = `${text.trimEnd()}\n\n${args.trim()}`;
  const attached = attachments(text, options.cwd, options.insideOnly === true);
  return attached.length > 0 ? `${text.trimEnd()}\n\n${attached.join("\n\n")}` : text;
}

/** The files named with `@path` (outside code), each as a block with its content; `insideOnly`: those inside cwd. */
function attachments(text: string, cwd: string, insideOnly: boolean): string[] {
  const blocks: string[] = [];
  const seen = new Set<string>();
  const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`]*`/g, "");
  for (const match of prose.matchAll(/(?:^|\s)@((?:\.{1,2}\/|\/)?[\w.\-/]+[\w\-/])/g)) {
    const file = path.resolve(cwd, match[1]);
    if (seen.has(file)) continue;
    seen.add(file);
    let size: number;
    try {
      const stats = statSync(file);
      if (!stats.isFile()) continue;
      size = stats.size;
    } catch {
      continue;
    }
    if (insideOnly && !isInside(realpathSync(file), realpathSync(cwd))) {
      blocks.push(`(${match[1]} is outside this folder, so it is not attached until the folder is trusted: zot trust)`);
      continue;
    }
    if (size > MAX_ATTACH_BYTES) {
      blocks.push(`(${match[1]} is ${size.toLocaleString("en-US")} bytes, too large to attach; read it with the read tool)`);
      continue;
    }
    const content = readFileSync(file, "utf8");
    blocks.push(`Contents of ${match[1]}:\n\`\`\`\n${content.replace(/\n$/, "")}\n\`\`\``);
  }
  return blocks;
}

function isInside(file: string, dir: string): boolean {
  return file.startsWith(`${dir}${path.sep}`);
}

/** Like String.replace with an async replacer, one match at a time (commands run in order). */
async function replaceAsync(text: string, pattern: RegExp, replace: (...match: string[]) => Promise<string>): Promise<string> {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    out += text.slice(last, match.index);
    out += await replace(...(match as unknown as string[]));
    last = (match.index ?? 0) + match[0].length;
  }
  return out + text.slice(last);
}
