// Claude Code's `arguments:` front-matter key of a skill or a Markdown command: the names its
// positional arguments go by in the body, in order (`arguments: [issue, branch]` makes `$issue` the
// first word typed after the command, `$branch` the second). Rule: a YAML list or one line of names
// separated by spaces or commas; a name is what can follow `$` unambiguously (letters, digits and
// `_`, not starting with a digit, not `ARGUMENTS`); any other is named back, never guessed at.
import type { FrontmatterValue } from "./frontmatter.ts";

const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface ArgumentNames {
  /** the names, in the order the arguments are typed */
  names: string[];
  /** what was written but cannot be a name (`issue-id`, `2nd`), for a warning */
  refused: string[];
}

/** The names `arguments:` declares; none when the key is absent. */
export function argumentNamesOf(value: FrontmatterValue | undefined): ArgumentNames {
  if (value === undefined) return { names: [], refused: [] };
  const written = (Array.isArray(value) ? value : [value]).flatMap((item) => item.split(/[\s,]+/)).filter(Boolean);
  const names: string[] = [];
  const refused: string[] = [];
  for (const name of written) {
    if (ARGUMENT_NAME.test(name) && name !== "ARGUMENTS") names.push(name);
    else refused.push(name);
  }
  return { names, refused };
}

/** The warning for names `arguments:` refused, naming the file. */
export function refusedNamesWarning(file: string, refused: readonly string[]): string {
  const list = refused.map((name) => JSON.stringify(name)).join(", ");
  return `${file}: "arguments:" has ${list}, which cannot be written after $ (use letters, digits and _, not starting with a digit); ${refused.length === 1 ? "it is" : "they are"} left out`;
}
