// `!command` in the TUI: the user runs a shell command themselves and its output joins the
// conversation as a user message the model reads with the next prompt, with no model turn of its
// own (as Claude Code's bash mode). This file is the message's one format: written here, and read
// back here to draw it (live, and from a resumed session) as the command and its output.
// Rule: the message says plainly to the model what it is; parsing never guesses at other text.

/** The first line of every such message. */
const MARK = "[I ran this shell command myself; its output is context for what I ask next, not a request]";

export interface ShellContext {
  command: string;
  /** the output as the bash tool reports it: head and tail when long, then its status line */
  output: string;
}

/** The command typed after `!` (trimmed), or undefined when the text is not a shell command. */
export function shellCommandOf(text: string): string | undefined {
  return text.startsWith("!") ? text.slice(1).trim() : undefined;
}

const FENCE_OPEN = "```sh\n";
const FENCE_CLOSE = "\n```\n";

/** The user message that carries a command and its output to the model: the mark, the command fenced, the output. */
export function shellContextText(context: ShellContext): string {
  return `${MARK}\n${FENCE_OPEN}${context.command}${FENCE_CLOSE}${context.output}`;
}

/** The command and output of a message written by shellContextText; undefined for any other text. */
export function parseShellContext(text: string): ShellContext | undefined {
  const head = `${MARK}\n${FENCE_OPEN}`;
  if (!text.startsWith(head)) return undefined;
  const end = text.indexOf(FENCE_CLOSE, head.length);
  if (end === -1) return undefined;
  return { command: text.slice(head.length, end), output: text.slice(end + FENCE_CLOSE.length) };
}
