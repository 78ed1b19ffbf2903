// A command's or a skill's template filled in as Claude Code fills it: `$ARGUMENTS`,
// `$ARGUMENTS[N]`, `$N`, the names of front matter `arguments:` (`$issue`), `${CLAUDE_SESSION_ID}`,
// `${CLAUDE_SKILL_DIR}`, and the dynamic context, `` !`cmd` `` and a fenced ```` ```! ```` block,
// replaced by what the command printed. Rule: one pass over the template, so what is put in (what
// the user typed, what a command printed) is never read again for a placeholder or a `!`; a `!`
// runs only through the caller's runner, and one that did not run is named in the text with why.
import { commandWords } from "../protocol/slash-command.ts";

/** Runs one `!` command: its output, or why it was not run. */
export type ShellRunner = (command: string) => Promise<{ output: string } | { notRun: string }>;

export interface TemplateValues {
  /** the words after the command, as typed: `$ARGUMENTS` */
  args: string;
  /**
   * What `$N` counts from: 1 in a Markdown command (`.claude/commands`' convention, `$1` is the
   * first argument, `$0` is left as written), 0 in a skill (Claude Code's skills: `$0` is the first)
   */
  positionalBase: 0 | 1;
  /** front matter `arguments:`, in order: `$name` is the argument in its place */
  argumentNames?: readonly string[];
  /** `${CLAUDE_SESSION_ID}`; left as written when undefined */
  sessionId?: string;
  /** `${CLAUDE_SKILL_DIR}`, the folder holding the SKILL.md; left as written when undefined */
  skillDir?: string;
}

export interface FilledTemplate {
  text: string;
  /** whether the template has a place for the arguments outside its `!` commands (else the caller appends them) */
  usedArguments: boolean;
}

/**
 * The template filled in; `runShell` undefined: `!` commands are not allowed here (a folder not
 * trusted), and each is named as not run.
 */
export async function fillTemplate(body: string, values: TemplateValues, runShell: ShellRunner | undefined): Promise<FilledTemplate> {
  const placeholders = placeholderPattern(values);
  const pattern = new RegExp(`${FENCED_BANG}|${INLINE_BANG}|${placeholders}`, "gm");
  const fillCommand = (command: string) => command.replace(new RegExp(placeholders, "g"), (...match) => placeholderValue(groupsOf(match), values) ?? match[0]);
  let usedArguments = false;
  const text = await replaceAsync(body, pattern, async (match) => {
    const groups = match.groups ?? {};
    const command = groups.block ?? groups.inline;
    if (command === undefined) {
      const value = placeholderValue(groups, values);
      if (value === undefined) return match[0];
      if (groups.session === undefined && groups.skillDir === undefined) usedArguments = true;
      return value;
    }
    // A `!` command may use the arguments (`` !`git log -n $1` ``), as Claude Code's do.
    return runDynamic(fillCommand(command), runShell);
  });
  return { text, usedArguments };
}

/** ```` ```! ```` on a line of its own, the command's lines, then a closing ```` ``` ```` line. */
const FENCED_BANG = "^[ \\t]*```![ \\t]*\\r?\\n(?<block>[\\s\\S]*?)\\r?\\n[ \\t]*```[ \\t]*$";
const INLINE_BANG = "!`(?<inline>[^`\\n]+)`";

function placeholderPattern(values: TemplateValues): string {
  const positional = values.positionalBase === 1 ? "\\$(?<n>[1-9])\\b" : "\\$(?<n>\\d+)\\b";
  const names = [...(values.argumentNames ?? [])].sort((a, b) => b.length - a.length);
  return [
    "\\$ARGUMENTS\\[(?<index>\\d+)\\]",
    "\\$(?<all>ARGUMENTS)\\b",
    "\\$\\{(?<session>CLAUDE_SESSION_ID)\\}",
    "\\$\\{(?<skillDir>CLAUDE_SKILL_DIR)\\}",
    positional,
    ...(names.length > 0 ? [`\\$(?<name>${names.join("|")})(?![A-Za-z0-9_])`] : []),
  ].join("|");
}

/** What a placeholder match stands for, or undefined to leave it as written. */
function placeholderValue(groups: Record<string, string | undefined>, values: TemplateValues): string | undefined {
  const word = (index: number) => commandWords(values.args)[index] ?? "";
  if (groups.all !== undefined) return values.args;
  if (groups.index !== undefined) return word(Number(groups.index));
  if (groups.n !== undefined) return word(Number(groups.n) - values.positionalBase);
  if (groups.name !== undefined) return word(values.argumentNames?.indexOf(groups.name) ?? -1);
  if (groups.session !== undefined) return values.sessionId;
  if (groups.skillDir !== undefined) return values.skillDir;
  return undefined;
}

/** A `!` command's output, or a sentence saying it was not run and why. */
async function runDynamic(command: string, runShell: ShellRunner | undefined): Promise<string> {
  if (!runShell) return notRun(command, "was not run: this folder is not trusted; zot trust runs such commands");
  try {
    const run = await runShell(command);
    return "output" in run ? run.output.trimEnd() : notRun(command, `was not run: ${run.notRun}`);
  } catch (error) {
    return notRun(command, `failed: ${(error as Error).message}`);
  }
}

/** One line in a sentence; a ```` ```! ```` block's several lines after it, fenced, so the model sees what was meant. */
function notRun(command: string, what: string): string {
  if (!command.includes("\n")) return `(the command \`${command}\` ${what})`;
  return `(the commands below ${what.replace(/^was /, "were ")})\n\`\`\`\n${command}\n\`\`\``;
}

/** The named groups of a String.replace callback's arguments (the last one is the groups object). */
function groupsOf(match: unknown[]): Record<string, string | undefined> {
  const last = match.at(-1);
  return typeof last === "object" && last !== null ? (last as Record<string, string | undefined>) : {};
}

/** Like String.replace with an async replacer, one match at a time (commands run in order). */
async function replaceAsync(text: string, pattern: RegExp, replace: (match: RegExpMatchArray) => Promise<string>): Promise<string> {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    out += text.slice(last, match.index);
    out += await replace(match);
    last = (match.index ?? 0) + match[0].length;
  }
  return out + text.slice(last);
}
