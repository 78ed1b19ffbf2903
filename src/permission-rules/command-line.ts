// The commands a command line runs, for Bash(…) permission rules: the ones joined by `;`, `&&`,
// `||`, `|`, `&` or a new line, the ones inside `$(…)`, `` `…` ``, `<(…)` and `>(…)`, the ones after
// `if`, `then`, `do` and the like and inside a function's body, the ones of a here-document a shell
// reads, each without the wrappers that only run it (`timeout 30`, `nice -n 5`, `nohup`, `time`,
// `stdbuf`). Comments and other here-documents are not commands.
// Rule: a deny or ask rule holds when any command matches in any reading of it (as written;
// without its assignments; with its quotes and backslashes taken out and its spaces folded, as the
// shell would run it), or any statement (a rule written with `|`); an allow rule holds only when
// every command is allowed as written. A line this cannot read (a quote or a bracket left open) is
// never allowed by a rule. This reads the command's text, not what a shell will run:
// `bash -c "rm …"`, `env rm` or a script file is one command to it, as to Claude Code.

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
  const split = splitLine(line);
  const commands: string[] = [];
  for (const raw of split.pieces) {
    const command = unwrap(stripSyntax(raw));
    if (command !== "") commands.push(command);
  }
  const statements = split.statements.map((statement) => unwrap(stripSyntax(statement))).filter(Boolean);
  return { commands, statements, heredocs: split.heredocs, readable: split.readable };
}

/** The readings of one command a deny or ask rule is tried on: as written, and as the shell runs it. */
export function readingsOf(command: string): string[] {
  const readings = new Set([command]);
  for (const start of [command, unquoted(command)]) {
    let bare = start;
    for (;;) {
      const next = unwrap(withoutAssignments(bare.replace(REDIRECTIONS, "")));
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

/** Redirections written before the command (`2>/dev/null rm x`, `>log make`). */
const REDIRECTIONS = /^(?:(?:\d*|&)(?:>>?|<|>&|<&)\s*(?:'[^']*'|"[^"]*"|[^\s'"]+)\s+)+/;

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

/** A shell on a line: a here-document on that line may be what it reads as commands (`bash <<EOF`, `cat <<EOF | sh`). */
const SHELL = /(?:^|[\s/])(?:a|ba|da|k|mk|z|fi)?sh(?:\s|$)|(?:^|\s)(?:eval|source|\.)(?:\s|$)/;

const SEPARATORS = ["&&", "||", "|&", ";;", ";&", ";", "|", "&", "\n"];
/** Separators inside a statement: a pipeline is one statement. */
const PIPES = new Set(["|", "|&"]);
/** A here-document's start: `<<EOF`, `<<-EOF`, `<<'EOF'`, `<<"EOF"`, `<<\\EOF` (quoted: its text is taken as it is). */
const HEREDOC = /^<<(-?)\s*(\\?)(['"]?)([A-Za-z_][\w.-]*)\3/;

interface Split {
  pieces: string[];
  statements: string[];
  /** commands of here-documents a shell may read (deny and ask rules only) */
  heredocs: string[];
  readable: boolean;
}

/**
 * The pieces of a command line between its operators, outside quotes, comments and
 * here-documents; the text of each command substitution is a command line of its own, split too.
 */
function splitLine(line: string): Split {
  return scan(line, 0, false);
}

/**
 * Reads `line` from `from`: to its end, or (`nested`) to the `)` that closes a substitution opened
 * just before `from`, whose index is `end` (the line's length when none closes it).
 */
function scan(line: string, from: number, nested: boolean): Split & { end: number } {
  const out: Split = { pieces: [], statements: [], heredocs: [], readable: true };
  let depth = 0;
  let current = "";
  let statement = "";
  let quote: "'" | '"' | undefined;
  let lineStart = 0;
  const pending: { end: string; tabs: boolean; quoted: boolean }[] = [];
  const add = (text: string) => {
    current += text;
    statement += text;
  };
  const take = (inner: Split) => merge(out, inner);
  let i = from;
  for (; i < line.length; i++) {
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
      if (end >= line.length) out.readable = false;
      add(line.slice(i, end + 1));
      i = end;
      continue;
    }
    if (c === "$" && line[i + 1] === "{") {
      // ${…} is one word: a # or a space in it is not the line's; a $(…) in it still runs.
      const end = closingBrace(line, i + 2);
      if (end === line.length) out.readable = false;
      take(substitutionsIn(line.slice(i + 2, end)));
      add(line.slice(i, Math.min(end + 1, line.length)));
      i = end;
      continue;
    }
    // $(…) runs in double quotes too; <(…) and >(…) only outside them.
    if ((c === "$" || (!quote && (c === "<" || c === ">"))) && line[i + 1] === "(") {
      const inner = scan(line, i + 2, true);
      if (inner.end === line.length) out.readable = false;
      // $((…)) is arithmetic, not a command; $((…) …) is a subshell in a substitution.
      const arithmetic = c === "$" && line[i + 2] === "(" && closingParen(line, i + 3) === inner.end - 1;
      if (!arithmetic) take(inner);
      add(line.slice(i, Math.min(inner.end + 1, line.length)));
      i = inner.end;
      continue;
    }
    if (c === "`") {
      const end = line.indexOf("`", i + 1);
      if (end === -1) out.readable = false;
      take(splitLine(line.slice(i + 1, end === -1 ? line.length : end)));
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
    if (nested && c === "(") depth++;
    if (nested && c === ")" && depth-- === 0) break;
    // A comment runs to the line's end: `#` where a word starts.
    if (c === "#" && (current === "" || /\s$/.test(current))) {
      const end = line.indexOf("\n", i);
      i = (end === -1 ? line.length : end) - 1;
      continue;
    }
    const heredoc = c === "<" && line[i - 1] !== "<" ? HEREDOC.exec(line.slice(i)) : null;
    if (heredoc) {
      pending.push({ end: heredoc[4]!, tabs: heredoc[1] === "-", quoted: heredoc[2] === "\\" || heredoc[3] !== "" });
      add(heredoc[0]);
      i += heredoc[0].length - 1;
      continue;
    }
    const separator = SEPARATORS.find((sep) => line.startsWith(sep, i));
    // `2>&1`, `&>` and `>&` are redirections, not a command sent to the background.
    const redirection = separator === "&" && (line[i - 1] === ">" || line[i + 1] === ">");
    if (separator && !redirection) {
      out.pieces.push(current);
      current = "";
      if (PIPES.has(separator)) statement += separator;
      else {
        out.statements.push(statement);
        statement = "";
      }
      if (separator === "\n" && pending.length > 0) {
        // The here-documents of the line that ends here: their text comes now, each to its end line.
        const shell = SHELL.test(line.slice(lineStart, i));
        let at = i + 1;
        for (const doc of pending.splice(0)) {
          const rows: string[] = [];
          while (at <= line.length) {
            const next = line.indexOf("\n", at);
            const row = line.slice(at, next === -1 ? line.length : next);
            at = next === -1 ? line.length + 1 : next + 1;
            if ((doc.tabs ? row.replace(/^\t+/, "") : row) === doc.end) break;
            rows.push(row);
          }
          const body = rows.join("\n");
          // Unquoted, its $(…) and `…` run whatever reads it; a shell runs all of it.
          if (!doc.quoted) take(substitutionsIn(body));
          if (shell) out.heredocs.push(...commandLine(body).commands);
        }
        i = at - 2;
      }
      if (separator === "\n") lineStart = i + 1;
      i += separator === "\n" ? 0 : separator.length - 1;
      continue;
    }
    add(c);
  }
  if (quote) out.readable = false;
  out.pieces.push(current);
  out.statements.push(statement);
  return { ...out, end: i };
}

/** The commands of the substitutions ($(…), `…`) in text that is otherwise not shell syntax. */
function substitutionsIn(text: string): Split {
  const out: Split = { pieces: [], statements: [], heredocs: [], readable: true };
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") {
      i++;
      continue;
    }
    const backtick = text[i] === "`";
    if (!backtick && !(text[i] === "$" && text[i + 1] === "(")) continue;
    const end = backtick ? text.indexOf("`", i + 1) : closingParen(text, i + 2);
    merge(out, splitLine(text.slice(backtick ? i + 1 : i + 2, end === -1 ? text.length : end)));
    if (end === -1 || end === text.length) out.readable = false;
    i = end === -1 ? text.length : end;
  }
  return out;
}

/** Adds what a substitution's reading found to the line's. */
function merge(into: Split, inner: Split): void {
  into.pieces.push(...inner.pieces);
  into.statements.push(...inner.statements);
  into.heredocs.push(...inner.heredocs);
  if (!inner.readable) into.readable = false;
}

/** Where the `}` that closes a `${` opened before `from` is (the line's length when none does). */
function closingBrace(line: string, from: number): number {
  let depth = 1;
  for (let i = from; i < line.length; i++) {
    const c = line[i]!;
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return line.length;
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
const LEADING = /^(?:!|if|then|else|elif|do|while|until)(?:\s+|$|(?=\())|^[({]|^case\s.*?\sin\s+|^\(?[^\s()|;&]+\)\s+(?=\S)/;
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
