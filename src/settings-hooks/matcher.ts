// A settings hook group's `matcher`, as Claude Code reads it: empty or "*" matches everything; a
// matcher of only letters, digits, "_", "-", spaces, "," and "|" is a list of exact names
// ("Edit|Write", "Edit, Write", "mcp__brave-search__search"; Claude Code 2.1.191 and 2.1.195 on);
// anything else is a JavaScript regular expression, unanchored ("mcp__github__.*", "^Notebook").
// Rule: a matcher is compiled once, when its file is read; one that does not compile is an error
// for the file's warning, never a matcher that matches nothing in silence.

export interface Matcher {
  /** the matcher as written ("" when it was left out) */
  readonly text: string;
  /** the exact names of a list matcher (none for everything or a regular expression) */
  readonly names?: readonly string[];
  /** true when any of `values` matches (a tool's Claude Code name and its zot name, a source …) */
  matches(values: readonly string[]): boolean;
}

const EXACT = /^[A-Za-z0-9_\-, |]+$/;

export function compileMatcher(text: string | undefined): Matcher | { error: string } {
  const written = text ?? "";
  const trimmed = written.trim();
  if (trimmed === "" || trimmed === "*") return { text: written, matches: () => true };
  if (EXACT.test(trimmed)) {
    const names = new Set(trimmed.split(/[|,]/).map((name) => name.trim()).filter(Boolean));
    return { text: written, names: [...names], matches: (values) => values.some((value) => names.has(value)) };
  }
  let pattern: RegExp;
  try {
    pattern = new RegExp(trimmed);
  } catch (error) {
    return { error: `is not a valid regular expression (${(error as Error).message})` };
  }
  return { text: written, matches: (values) => values.some((value) => pattern.test(value)) };
}
