// The command of a Bash(…) permission rule, as Claude Code reads it: `Bash(npm run build)` is that
// command exactly; `*` is any run of characters, spaces too (`Bash(git * main)`); a trailing ` *`
// also matches the command alone (`Bash(ls *)` matches `ls` and `ls -la`, not `lsof`); the older
// `Bash(npm run test:*)` is `Bash(npm run test *)`. Rule: a pattern matches one command whole;
// which commands a command line runs is command-line.ts's.

/** True when the rule's command pattern matches one command (a command of a command line). */
export type CommandTest = (command: string) => boolean;

/**
 * `fold`: also with runs of blanks as one, and a blank before `:*` as none (`Bash(rm  -rf *)`,
 * `Bash(rm :*)`), as the commands are read with their spaces folded; for deny and ask rules, where a
 * stray space must not turn a rule off. Folded or as written: a rule never matches less than its
 * text (`Bash(rm "a  b")` still matches `rm "a  b"`). An allow rule is read as written only.
 */
export function compileCommandPattern(pattern: string, fold = false): CommandTest {
  const asWritten = patternTest(pattern.trim());
  if (!fold) return asWritten;
  const folded = patternTest(pattern.trim().replace(/\s*:\*$/, ":*").replace(/\s+/g, " "));
  return (command) => asWritten(command) || folded(command);
}

function patternTest(trimmed: string): CommandTest {
  const written = trimmed.replace(/:\*$/, " *");
  if (!written.includes("*")) return (command) => command === written;
  const optionalTail = written.endsWith(" *") && written.indexOf("*") === written.length - 1;
  const body = optionalTail ? written.slice(0, -2) : written;
  const matcher = new RegExp(`^${wildcardSource(body)}${optionalTail ? "(?:\\s[\\s\\S]*)?" : ""}$`);
  return (command) => matcher.test(command);
}

/** Text whose `*` is any run of characters (spaces too), the rest itself, as a regular expression's source. */
export function wildcardSource(text: string): string {
  return text
    .split("*")
    .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*");
}
