// The command of a Bash(…) permission rule, as Claude Code reads it: `Bash(npm run build)` is that
// command exactly; `*` is any run of characters, spaces too (`Bash(git * main)`); a trailing ` *`
// also matches the command alone (`Bash(ls *)` matches `ls` and `ls -la`, not `lsof`); the older
// `Bash(npm run test:*)` is `Bash(npm run test *)`. A command line is judged by its parts: the
// commands joined by `;`, `&&`, `||`, `|`, `&` or a new line, and those inside `$(…)` or backticks,
// each without the wrappers that only run it (`timeout 30`, `nice -n 5`, `nohup`, `time`, `stdbuf`).
// Rule: a deny or ask rule holds when any part matches, read with or without its leading
// `NAME=value` assignments; an allow rule holds only when every part is allowed, as written.
// This reads the command's text, not what a shell will run: `bash -c "rm …"` or a script file is
// one command to it, as to Claude Code.

/** True when the rule's command pattern matches one command (a part of a command line). */
export type CommandTest = (command: string) => boolean;

export function compileCommandPattern(pattern: string): CommandTest {
  const written = pattern.trim().replace(/:\*$/, " *");
  if (!written.includes("*")) return (command) => command === written;
  const optionalTail = written.endsWith(" *") && written.indexOf("*") === written.length - 1;
  const body = optionalTail ? written.slice(0, -2) : written;
  const source = body
    .split("*")
    .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*");
  const matcher = new RegExp(`^${source}${optionalTail ? "(?:\\s[\\s\\S]*)?" : ""}$`);
  return (command) => matcher.test(command);
}

/** The commands a command line runs, each as written and without its wrappers, in order. */
export function commandParts(line: string): string[] {
  const parts: string[] = [];
  for (const raw of splitLine(line)) {
    const part = unwrap(stripGrouping(raw));
    if (part !== "") parts.push(part);
  }
  return parts;
}

/** The same command without its leading `NAME=value` assignments (for deny and ask rules). */
export function withoutAssignments(command: string): string {
  let rest = command;
  for (let match = ASSIGNMENT.exec(rest); match; match = ASSIGNMENT.exec(rest)) rest = rest.slice(match[0].length);
  return rest;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"])*\s+/;

const SEPARATORS = ["&&", "||", "|&", ";;", ";", "|", "&", "\n"];

/**
 * The pieces of a command line between its operators, outside quotes; the text of each `$(…)` and
 * `` `…` `` is a command line of its own, split too.
 */
function splitLine(line: string): string[] {
  const pieces: string[] = [];
  let current = "";
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      current += c;
      if (c === "'") quote = undefined;
      continue;
    }
    if (c === "\\" && i + 1 < line.length) {
      current += c + line[i + 1];
      i++;
      continue;
    }
    if (c === "$" && line[i + 1] === "(" && line[i + 2] !== "(") {
      const end = closingParen(line, i + 2);
      const inner = line.slice(i + 2, end);
      pieces.push(...splitLine(inner));
      current += line.slice(i, Math.min(end + 1, line.length));
      i = end;
      continue;
    }
    if (c === "`") {
      const end = line.indexOf("`", i + 1);
      const inner = line.slice(i + 1, end === -1 ? line.length : end);
      pieces.push(...splitLine(inner));
      current += line.slice(i, end === -1 ? line.length : end + 1);
      i = end === -1 ? line.length : end;
      continue;
    }
    if (quote === '"') {
      current += c;
      if (c === '"') quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      current += c;
      continue;
    }
    const separator = SEPARATORS.find((s) => line.startsWith(s, i));
    // `2>&1`, `&>` and `>&` are redirections, not a command sent to the background.
    const redirection = separator === "&" && (line[i - 1] === ">" || line[i + 1] === ">");
    if (separator && !redirection) {
      pieces.push(current);
      current = "";
      i += separator.length - 1;
      continue;
    }
    current += c;
  }
  pieces.push(current);
  return pieces;
}

/** Where the `)` that closes a `$(` opened before `from` is (or the line's end). */
function closingParen(line: string, from: number): number {
  let depth = 1;
  let quote: "'" | '"' | undefined;
  for (let i = from; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === "\\") i++;
    else if (c === "'" || c === '"') quote = c;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return line.length;
}

/** `( cd x; make )` and `{ make; }` run their commands: the brackets are not part of them. */
function stripGrouping(piece: string): string {
  let part = piece.trim();
  for (;;) {
    const next = part
      .replace(/^[({]\s*/, "")
      .replace(/\s*[)}]$/, "")
      .replace(/^!\s+/, "")
      .trim();
    if (next === part) return part;
    part = next;
  }
}

/** The command a wrapper runs: `timeout 30 make` is `make`, `nice -n 5 nohup make` is `make`. */
function unwrap(command: string): string {
  let words = command;
  for (;;) {
    const next = unwrapOnce(words);
    if (next === words) return words;
    words = next;
  }
}

function unwrapOnce(command: string): string {
  const match = /^(timeout|nice|nohup|time|stdbuf)(?:\s+|$)/.exec(command);
  if (!match) return command;
  let rest = command.slice(match[0].length);
  const option = /^(-\S+)(?:\s+|$)/;
  const takesValue: Record<string, RegExp> = {
    timeout: /^(-s|--signal|-k|--kill-after)$/,
    nice: /^(-n|--adjustment)$/,
    stdbuf: /^(-i|-o|-e|--input|--output|--error)$/,
  };
  for (let opt = option.exec(rest); opt; opt = option.exec(rest)) {
    rest = rest.slice(opt[0].length);
    if (takesValue[match[1]!]?.test(opt[1]!)) rest = rest.replace(/^\S+\s*/, "");
  }
  // timeout's duration comes before the command it runs.
  if (match[1] === "timeout") rest = rest.replace(/^\d+(?:\.\d+)?[smhd]?\s+/, "");
  return rest.trim();
}
