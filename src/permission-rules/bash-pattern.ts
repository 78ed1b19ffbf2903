// The command of a Bash(…) permission rule, as Claude Code reads it: `Bash(npm run build)` is that
// command exactly; `*` is any run of characters, spaces too (`Bash(git * main)`); a trailing ` *`
// also matches the command alone (`Bash(ls *)` matches `ls` and `ls -la`, not `lsof`); the older
// `Bash(npm run test:*)` is `Bash(npm run test *)`. A command line is judged by its commands: the
// ones joined by `;`, `&&`, `||`, `|`, `&` or a new line, the ones inside `$(…)`, `` `…` ``, `<(…)`
// and `>(…)`, the ones after `if`, `then`, `do` and the like and inside a function's body, the
// ones of a here-document a shell reads, each without the wrappers that only run it (`timeout 30`,
// `nice -n 5`, `nohup`, `time`, `stdbuf`). Comments and other here-documents are not commands.
// Rule: a deny or ask rule holds when any command matches in any reading of it (as written;
// without its assignments; with its quotes and backslashes taken out and its spaces folded, as the
// shell would run it), or any statement (a rule written with `|`); an allow rule holds only when
// every command is allowed as written. A line this cannot read (a quote or a bracket left open) is
// never allowed by a rule. This reads the command's text, not what a shell will run:
// `bash -c "rm …"`, `env rm` or a script file is one command to it, as to Claude Code.

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
  /** each statement (a command or a pipeline), for rules written with `|` */
  statements: string[];
  /** the commands of the here-documents a shell reads (`bash <<EOF`), for deny and ask rules */
  heredocs: string[];
  /** false when a quote or a bracket was left open: nothing of it can be allowed */
  readable: boolean;
}

export function commandLine(line: string): CommandLine {
  const { text, shellBodies } = withoutHeredocs(line);
  const split = splitLine(text);
  const commands: string[] = [];
  for (const raw of split.pieces) {
    const command = unwrap(stripSyntax(raw));
    if (command !== "") commands.push(command);
  }
  const statements = split.statements.map((statement) => statement.trim()).filter(Boolean);
  const heredocs = shellBodies.flatMap((body) => commandLine(body).commands);
  return { commands, statements, heredocs, readable: split.readable };
}

/** The readings of one command a deny or ask rule is tried on: as written, and as the shell runs it. */
export function readingsOf(command: string): string[] {
  const readings = new Set([command]);
  for (const start of [command, unquoted(command)]) {
    let bare = start;
    for (;;) {
      const next = unwrap(withoutAssignments(bare));
      if (next === bare) break;
      bare = next;
    }
    readings.add(bare);
    readings.add(unquoted(bare));
  }
  return [...readings];
}

/** The command without its leading assignments (`NAME=v`, `NAME+=v`, `NAME[i]=v`). */
function withoutAssignments(command: string): string {
  let rest = command;
  for (let match = ASSIGNMENT.exec(rest); match; match = ASSIGNMENT.exec(rest)) rest = rest.slice(match[0].length);
  return rest;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=(?:'[^']*'|"(?:[^"\\]|\\.)*"|\$\((?:[^()]|\([^()]*\))*\)|`[^`]*`|\\.|[^\s'"\\`])*\s+/;

/** The command with quotes (`'…'`, `"…"`, `$'…'`) and backslashes taken out and runs of spaces folded. */
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
    } else if (c === "$" && (command[i + 1] === "'" || command[i + 1] === '"')) {
      // $'…' and $"…" are quotes too.
    } else {
      out += /\s/.test(c) ? " " : c;
    }
  }
  return out.replace(/ {2,}/g, " ").trim();
}

/**
 * The line without the bodies of its here-documents (`<<EOF`, `<<-'EOF'`, `<<"EOF"`), and the
 * bodies a shell reads (`bash <<EOF`, `ssh host sh <<EOF`): what a here-document holds is not the
 * line's shell syntax, so a quote in it opens nothing, and a commit message or a file's text is
 * not a command; what a shell reads is. A `<<` whose end line never comes is left as it is.
 */
function withoutHeredocs(line: string): { text: string; shellBodies: string[] } {
  const rows = line.split("\n");
  const kept: string[] = [];
  const shellBodies: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    kept.push(row);
    const openers = [...row.matchAll(/<<(-?)\s*(['"]?)([A-Za-z_][\w.-]*)\2/g)].filter((m) => row[m.index! - 1] !== "<");
    for (const opener of openers) {
      const tabs = opener[1] === "-";
      const end = rows.findIndex((candidate, j) => j > i && (tabs ? candidate.replace(/^\t+/, "") : candidate) === opener[3]);
      if (end === -1) continue;
      const command = row.slice(0, opener.index).split(/[;&|(`]|\$\(/).pop() ?? "";
      if (SHELL.test(command)) shellBodies.push(rows.slice(i + 1, end).join("\n"));
      i = end;
    }
  }
  return { text: kept.join("\n"), shellBodies };
}

/** A command that runs a shell, which reads its here-document as commands. */
const SHELL = /(?:^|[\s/])(?:a|ba|da|k|mk|z|fi)?sh(?:\s|$)|(?:^|\s)(?:eval|source|\.)(?:\s|$)/;

const SEPARATORS = ["&&", "||", "|&", ";;", ";&", ";", "|", "&", "\n"];
/** Separators inside a statement: a pipeline is one statement. */
const PIPES = new Set(["|", "|&"]);
/** Where a command of its own starts inside a line: $( (and $((, which may be one), <( and >(. */
const SUBSTITUTIONS = ["$(", "<(", ">("];

/**
 * The pieces of a command line between its operators, outside quotes and comments; the text of
 * each substitution is a command line of its own, split too.
 */
function splitLine(line: string): { pieces: string[]; statements: string[]; readable: boolean } {
  const pieces: string[] = [];
  const statements: string[] = [];
  let readable = true;
  let current = "";
  let statement = "";
  let quote: "'" | '"' | undefined;
  const add = (text: string) => {
    current += text;
    statement += text;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      add(c);
      if (c === "'") quote = undefined;
      continue;
    }
    if (c === "\\" && i + 1 < line.length) {
      // A backslash before a new line joins the lines; before anything else it keeps it as it is.
      if (line[i + 1] !== "\n") add(c + line[i + 1]);
      i++;
      continue;
    }
    if (!quote && c === "$" && line[i + 1] === "'") {
      // $'…': backslash escapes inside, \' among them.
      let end = i + 2;
      while (end < line.length && line[end] !== "'") end += line[end] === "\\" ? 2 : 1;
      if (end >= line.length) readable = false;
      add(line.slice(i, end + 1));
      i = end;
      continue;
    }
    const substitution = SUBSTITUTIONS.find((sub) => line.startsWith(sub, i));
    if (substitution) {
      const end = closingParen(line, i + 2);
      if (end === line.length) readable = false;
      const inner = splitLine(line.slice(i + 2, end));
      pieces.push(...inner.pieces);
      statements.push(...inner.statements);
      if (!inner.readable) readable = false;
      add(line.slice(i, Math.min(end + 1, line.length)));
      i = end;
      continue;
    }
    if (c === "`") {
      const end = line.indexOf("`", i + 1);
      if (end === -1) readable = false;
      const inner = splitLine(line.slice(i + 1, end === -1 ? line.length : end));
      pieces.push(...inner.pieces);
      statements.push(...inner.statements);
      if (!inner.readable) readable = false;
      add(line.slice(i, end === -1 ? line.length : end + 1));
      i = end === -1 ? line.length : end;
      continue;
    }
    if (quote === '"') {
      add(c);
      if (c === '"') quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      add(c);
      continue;
    }
    // A comment runs to the line's end: `#` where a word starts.
    if (c === "#" && (current === "" || /\s$/.test(current))) {
      const end = line.indexOf("\n", i);
      i = (end === -1 ? line.length : end) - 1;
      continue;
    }
    const separator = SEPARATORS.find((sep) => line.startsWith(sep, i));
    // `2>&1`, `&>` and `>&` are redirections, not a command sent to the background.
    const redirection = separator === "&" && (line[i - 1] === ">" || line[i + 1] === ">");
    if (separator && !redirection) {
      pieces.push(current);
      current = "";
      if (PIPES.has(separator)) statement += separator;
      else {
        statements.push(statement);
        statement = "";
      }
      i += separator.length - 1;
      continue;
    }
    add(c);
  }
  if (quote) readable = false;
  pieces.push(current);
  statements.push(statement);
  return { pieces, statements, readable };
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
const LEADING = /^(?:!|if|then|else|elif|do|while|until)(?:\s+|$)|^[({]|^case\s.*?\sin\s+|^\(?[^\s()|;&]+\)\s+(?=\S)/;
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
