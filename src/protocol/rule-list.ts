// A list of Claude Code's permission rules as it is written in one piece: a flag's value
// (`--allowedTools "Bash(git log *),Read"`) or a command's `allowed-tools:` line.

/**
 * The rules of a list: separated by commas or white space outside brackets (`"Bash(git log
 * *),Read"`, `"Bash(git:*) Read"`); a comma or a space inside brackets is the rule's own.
 */
export function splitRuleList(value: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of value) {
    if (char === "(") depth++;
    else if (char === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === "," || /\s/.test(char))) {
      if (current) rules.push(current);
      current = "";
    } else current += char;
  }
  if (current) rules.push(current);
  return rules;
}
