// The command of a Bash(…) permission rule, as Claude Code reads it: `Bash(npm run build)` is that
// command exactly; `*` is any run of characters, spaces too (`Bash(git * main)`); a trailing ` *`
// also matches the command alone (`Bash(ls *)` matches `ls` and `ls -la`, not `lsof`); the older
// `Bash(npm run test:*)` is `Bash(npm run test *)`. A command line is judged by its commands: the
// ones joined by `;`, `&&`, `||`, `|`, `&` or a new line, the ones inside `$(…)`, `` `…` ``, `<(…)`
// and `>(…)`, the ones after `if`, `then`, `do` and the like and inside a function's body, each
// without the wrappers that only run it (`timeout 30`, `nice -n 5`, `nohup`, `time`, `stdbuf`).
// Rule: a deny or ask rule holds when any command matches in any reading of it (as written;
// without its `NAME=value` assignments; with its quotes and backslashes taken out and its spaces
// folded, as the shell would run it); an allow rule holds only when every command is allowed as
// written. A line this cannot read (a quote or a bracket left open) is never allowed by a rule.
// This reads the command's text, not what a shell will run: `bash -c "rm …"`, `env rm` or a script
// file is one command to it, as to Claude Code.

/** True when the rule's command pattern matches one command (a command of a command line). */
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

/** A command line's commands, and whether all of it could be read. */
export interface CommandLine {
  /** each command as written, without grouping, keywords and wrappers, in order */
  commands: string[];
  /** false when a quote or a bracket was left open: nothing of it can be allowed */
  readable: boolean;
}

export function commandLine(line: string): CommandLine {
  const split = splitLine(line.replace(/\\\r?\n/g, ""));
  const commands: string[] = [];
  for (const raw of split.pieces) {
    const command = unwrap(stripSyntax(raw));
    if (command !== "") commands.push(command);
  }
  return { commands, readable: split.readable };
}

/** The readings of one command a deny or ask rule is tried on: as written, and as the shell runs it. */
export function readingsOf(command: string): string[] {
  const readings = new Set([command]);
  let bare = command;
  for (;;) {
    const next = unwrap(withoutAssignments(bare));
    if (next === bare) break;
    bare = next;
  }
  readings.add(bare);
  readings.add(unquoted(bare));
  return [...readings];
}

/** The command without its leading `NAME=value` assignments. */
function withoutAssignments(command: string): string {
  let rest = command;
  for (let match = ASSIGNMENT.exec(rest); match; match = ASSIGNMENT.exec(rest)) rest = rest.slice(match[0].length);
  return rest;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"(?:[^"\\]|\\.)*"|\\.|[^\s'"\\])*\s+/;

/** The command with quotes and backslashes taken out and runs of spaces folded, as the shell reads its words. */
function unquoted(command: string): string {
  let out = "";
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else out += c;
    } else if (c === "\\" && i + 1 < command.length) {
      out += command[++i];
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else out += c;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else {
      out += /\s/.test(c) ? " " : c;
    }
  }
  return out.replace(/ {2,}/g, " ").trim();
}

const SEPARATORS = ["&&", "||", "|&", ";;", ";&", ";", "|", "&", "\n"];
/** Where a command of its own starts inside a line: $( (and $((, which may be one), <( and >(. */
const SUBSTITUTIONS = ["$(", "<(", ">("];

/**
 * The pieces of a command line between its operators, outside quotes; the text of each
 * substitution is a command line of its own, split too.
 */
function splitLine(line: string): { pieces: string[]; readable: boolean } {
  const pieces: string[] = [];
  let readable = true;
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
    const substitution = SUBSTITUTIONS.find((s) => line.startsWith(s, i));
    if (substitution) {
      const end = closingParen(line, i + 2);
      if (end === line.length) readable = false;
      const inner = splitLine(line.slice(i + 2, end));
      pieces.push(...inner.pieces);
      if (!inner.readable) readable = false;
      current += line.slice(i, Math.min(end + 1, line.length));
      i = end;
      continue;
    }
    if (c === "`") {
      const end = line.indexOf("`", i + 1);
      if (end === -1) readable = false;
      const inner = splitLine(line.slice(i + 1, end === -1 ? line.length : end));
      pieces.push(...inner.pieces);
      if (!inner.readable) readable = false;
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
  if (quote) readable = false;
  pieces.push(current);
  return { pieces, readable };
}

/** Where the `)` that closes a bracket opened before `from` is (the line's length when none does). */
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

/** Words of the shell's grammar that come before a command: the command is what follows them. */
const LEADING = /^(?:!|if|then|else|elif|do|while|until|time)(?:\s+|$)|^[({]|^case\s.*?\sin\s+|^[^\s()|;&]+\)\s*/;
/** `name() {` and `function name {`: a function's body runs commands too. */
const FUNCTION_HEAD = /^(?:function\s+[^\s(){}]+(?:\s*\(\))?|[A-Za-z_][\w.:-]*\s*\(\))\s*/;

/** The command a piece runs, without the shell syntax around it (brackets, keywords, a function's head). */
function stripSyntax(piece: string): string {
  let part = piece.trim();
  for (;;) {
    const next = part
      .replace(FUNCTION_HEAD, "")
      .replace(LEADING, "")
      .replace(/\s*[)}]+$/, "")
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

const TAKES_VALUE: Record<string, RegExp> = {
  timeout: /^(-s|--signal|-k|--kill-after)$/,
  nice: /^(-n|--adjustment)$/,
  stdbuf: /^(-i|-o|-e|--input|--output|--error)$/,
};

function unwrapOnce(command: string): string {
  const match = /^(timeout|nice|nohup|time|stdbuf)(?:\s+|$)/.exec(command);
  if (!match) return command;
  const wrapper = match[1]!;
  let rest = command.slice(match[0].length);
  const option = /^(-\S+)(?:\s+|$)/;
  for (let opt = option.exec(rest); opt; opt = option.exec(rest)) {
    rest = rest.slice(opt[0].length);
    if (TAKES_VALUE[wrapper]?.test(opt[1]!)) rest = rest.replace(/^\S+\s*/, "");
  }
  // timeout's duration (30, 1.5s, .5, 1e1…) comes before the command it runs.
  if (wrapper === "timeout") rest = rest.replace(/^\S+\s*/, "");
  return rest.trim();
}
