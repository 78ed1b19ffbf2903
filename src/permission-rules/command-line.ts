// The commands a command line runs, for Bash(…) permission rules: the ones joined by `;`, `&&`,
// `||`, `|`, `&` or a new line, the ones inside `$(…)`, `` `…` ``, `<(…)` and `>(…)`, the ones after
// `if`, `then`, `do` and the like and inside a function's body, the ones of a here-document a shell
// reads, each without the wrappers that only run it (`timeout 30`, `nice -n 5`, `nohup`, `time`,
// `stdbuf`). Comments and other here-documents are not commands.
// Rule: a deny or ask rule holds when any command matches in any reading of it (as written;
// without its assignments; with its quotes and backslashes taken out, `$'\x72'` decoded and its
// spaces folded, as the shell would run it; without a path before its name, `/bin/rm` as `rm`;
// without the builtins that run the rest, `command`, `exec`, `builtin`, `coproc`, `eval`, `env`),
// or any statement (a rule written with `|`); the text a shell is handed to run (`eval …`,
// `bash -c '…'`, `sh <<<'…'`) is read as a command line of its own, for deny and ask rules. An
// allow rule holds only when every command is allowed as written. A line this cannot read (a quote
// or a bracket left open) is never allowed by a rule, and neither is one whose command's name is
// known only when it runs (`$x`, `r$@m`, `"${a:-rm}"`): deny and ask rules ask about it. This reads
// the command's text, not what a program will do: `xargs rm`, `find -exec rm`, `sudo rm` or a
// script file is one command to it, as to Claude Code.

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
  /** the commands whose name is known only when they run (`$x -rf d`): no Bash rule can tell what they are */
  dynamic: string[];
  /** the statements that pipe into a shell (`curl … | sh`): what runs is what the pipe carries */
  piped: string[];
}

/** How deep the text handed to a shell (`eval`, `bash -c`) is read for the commands in it. */
const MAX_INNER_DEPTH = 4;

export function commandLine(line: string, depth = 0): CommandLine {
  const split = splitLine(line);
  const commands: string[] = [];
  for (const raw of split.pieces) {
    const command = unwrap(stripSyntax(raw));
    if (command !== "") commands.push(command);
  }
  const statements = split.statements.map((statement) => unwrap(stripSyntax(statement))).filter(Boolean);
  const out: CommandLine = { commands, statements, heredocs: [...split.heredocs], readable: split.readable, dynamic: [], piped: [] };
  for (const command of [...commands, ...split.heredocs]) {
    const words = runWords(command);
    if (words.unknown) out.dynamic.push(command);
    // The command as the shell runs it, past the wrappers (`env -iu X rm x`): deny and ask rules read it too.
    if (words.run !== undefined && words.run !== command) out.heredocs.push(words.run);
    // What the command hands a shell to run is a command line too (deny and ask rules read it).
    if (words.text === undefined) continue;
    // Deeper than this, nothing can be told of it: deny and ask rules ask, as for a line left open.
    if (depth >= MAX_INNER_DEPTH) {
      out.readable = false;
      continue;
    }
    const read = commandLine(words.text, depth + 1);
    out.heredocs.push(...read.commands, ...read.heredocs);
    out.dynamic.push(...read.dynamic);
    out.piped.push(...read.piped);
    if (!read.readable) out.readable = false;
  }
  // A pipe into a shell runs what the commands before it print: no rule can tell what that is.
  for (const statement of split.statements) if (PIPED_INTO_SHELL.test(statement.trim())) out.piped.push(statement.trim());
  return out;
}

/** `… | sh`, `… | bash -s --`: a statement that pipes into a shell that reads its commands from the pipe. */
const PIPED_INTO_SHELL = /\|&?\s*(?:sudo\s+)?(?:\S*\/)?(?:a|ba|da|k|mk|z|fi)?sh(?:\s+-[a-zA-Z]+)*(?:\s+--(?:\s.*)?)?$/;

/** Shells whose `-c` string and here-string are command lines. */
const SHELL_NAME = /^(?:a|ba|da|k|mk|z|fi|c|tc|ya|rba|lk|po)?sh$/;
/** Wrappers that run the rest of their words, each with its options that take a value (one table for the word reading and the string readings). */
const WORD_WRAPPERS: Readonly<Record<string, RegExp | undefined>> = {
  command: undefined,
  builtin: undefined,
  exec: /^-[a-z]*a$/,
  coproc: undefined,
  nohup: undefined,
  nice: /^(?:-n|--adjustment)$/,
  timeout: /^(?:-s|--signal|-k|--kill-after)$/,
  stdbuf: /^(?:-i|-o|-e|--input|--output|--error)$/,
  time: undefined,
  env: /^(?:-[a-zA-Z0-9]*[uC]|--unset|--chdir)$/,
  setsid: undefined,
  ionice: /^(?:-c|-n|-p|-P|-u|--class|--classdata|--pid|--pgid|--uid)$/,
  chrt: /^(?:-T|-P|-D|--sched-runtime|--sched-period|--sched-deadline)$/,
  taskset: undefined,
  flock: /^(?:-w|-E|--timeout|--wait|--conflict-exit-code)$/,
};
/** A word that is a redirection (`2>`, `>|`, `<>`, `<<<`, `&>` …), its target glued on or not; and one whose target stands apart. */
const REDIRECTION_WORD = /^(?:\d*|&)(?:>\||<>|<<<|>>?|<|>&|<&|&>)/;
const REDIRECTION_ALONE = /^(?:\d*|&)(?:>\||<>|<<<|>>?|<|>&|<&|&>)$/;
/** Wrappers with one word of their own between their options and the command: chrt's priority, taskset's mask, flock's file. */
const WRAPPER_ARGUMENT: ReadonlySet<string> = new Set(["timeout", "chrt", "taskset", "flock"]);

/**
 * The command a command runs, as the shell reads its words: past assignments, redirections and
 * the wrappers that run the rest (`env -i X=1`, `exec -a n`, `command`, `timeout 5`); whether its
 * name is known only when it runs (`$x`, `r$@m`, `${x/r/r}m`, `{rm,x}`, `r?`), and the text it
 * hands a shell to run as a command line (`eval …`, `bash -c '…'`, `sh <<<'…'`, `env -S '…'`,
 * `trap '…'`), for deny and ask rules.
 */
function runWords(command: string): { unknown: boolean; text?: string; run?: string } {
  // `bash<<<'rm x'`: a here-string glued to the word before it is a word of its own.
  const words = shellWords(command.replace(/(?<!(?:^|[\s;&|(])\d*)<<</g, " <<<"));
  let at = 0;
  // What a here-string before the command gives its standard input (`<<< 'rm x' bash`).
  let hereString: string | undefined;
  for (;;) {
    const word = words[at];
    if (!word) return { unknown: false };
    // An assignment's or a redirection's raw text starts unquoted (`FOO="a b"`, `2>"$log"`).
    if (/^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/.test(word.raw)) {
      at++;
      continue;
    }
    if (REDIRECTION_WORD.test(word.raw)) {
      // A redirection, and its target when it stands apart (`2> log`).
      const alone = REDIRECTION_ALONE.test(word.raw);
      const target = alone ? words[at + 1] : undefined;
      if (/^0?<<</.test(word.raw)) hereString = alone ? target?.text : word.text.replace(/^0?<<</, "");
      // `< <(curl …) bash`: the substitution's words are taken apart here, so which command follows cannot be told.
      if (/^0?<$/.test(word.raw) && target?.raw.startsWith("<(")) return { unknown: true };
      at += alone ? 2 : 1;
      continue;
    }
    const name = word.text.replace(/^.*\//, "");
    if (name === "env") {
      const split = words.slice(at + 1).find((w) => /^(?:-S|--split-string)/.test(w.text));
      if (split) {
        const inline = split.text.replace(/^(?:-S|--split-string=?)/, "");
        return { unknown: false, text: inline || words[words.indexOf(split) + 1]?.text };
      }
    }
    if (Object.hasOwn(WORD_WRAPPERS, name) && !word.quoted) {
      if (name === "command" && words.slice(at + 1).some((w) => /^-[a-zA-Z]*[vV]/.test(w.text))) return { unknown: false };
      // `flock FILE -c 'rm x'` hands its string to a shell.
      if (name === "flock") {
        const option = words.slice(at + 1).findIndex((w) => w.text === "-c" || w.text === "--command");
        if (option !== -1) {
          const text = words[at + 2 + option]?.text;
          return { unknown: false, ...(text ? { text } : {}) };
        }
      }
      const takesValue = WORD_WRAPPERS[name];
      at++;
      while (words[at] && /^-/.test(words[at]!.text)) {
        const option = words[at]!.text;
        at += takesValue?.test(option) ? 2 : 1;
        if (option === "--") break;
      }
      // timeout's duration (chrt's priority, taskset's mask, flock's file), and coproc's name before a compound command.
      if (WRAPPER_ARGUMENT.has(name) && words[at]) at++;
      if (name === "coproc" && words[at + 1] && /^[({]/.test(words[at + 1]!.text)) at++;
      continue;
    }
    if (name === "eval" || name === "trap") {
      const rest = words.slice(at + 1).filter((w, i) => !(i === 0 && w.text === "--"));
      // trap's handler is its first word; the signals follow.
      const text = name === "trap" ? rest[0]?.text : rest.map((w) => w.text).join(" ");
      return { unknown: false, ...(text ? { text } : {}) };
    }
    const unknown = runtimeName(word);
    const run = words
      .slice(at)
      .map((w) => w.text)
      .join(" ");
    // A shell's -c string or here-string, and what `source /dev/stdin <<<…` reads.
    if ((SHELL_NAME.test(name) || name === "source" || name === ".") && !unknown) {
      // The shell's options come before its script (`bash build.sh -clean` passes -clean to the script).
      let options = SHELL_NAME.test(name);
      // The script's place: the first word after the options (source's first word, past a `--`).
      let script: string | undefined;
      let scriptSeen = false;
      for (let i = at + 1; i < words.length; i++) {
        const arg = words[i]!.text;
        if (arg.startsWith("<<<")) return { unknown, run, text: arg.length > 3 ? arg.slice(3) : words[i + 1]?.text };
        // `source <(curl …)`, `bash <(…)`: what runs is what the substitution prints, known only then.
        if (!scriptSeen && words[i]!.raw.startsWith("<(")) return { unknown: true, run };
        if (!options) {
          if (!scriptSeen && arg === "--" && !SHELL_NAME.test(name)) continue;
          if (!scriptSeen) script = arg;
          scriptSeen = true;
          continue;
        }
        if (REDIRECTION_WORD.test(words[i]!.raw)) {
          // A redirection among the options, and its target when it stands apart.
          // `bash < <(curl …)`: the shell reads what the substitution prints, known only then.
          if (/^0?<$/.test(words[i]!.raw) && words[i + 1]?.raw.startsWith("<(")) return { unknown: true, run };
          if (REDIRECTION_ALONE.test(words[i]!.raw)) i++;
          continue;
        }
        if (/^-[A-Za-z]*c[A-Za-z]*$/.test(arg)) {
          const next = words[i + 1]?.text === "--" ? words[i + 2] : words[i + 1];
          return { unknown, run, ...(next ? { text: next.text } : {}) };
        }
        if (/^(?:-o|\+o|-O|\+O|--rcfile|--init-file)$/.test(arg)) i++;
        else if (arg === "--" || !/^[-+]/.test(arg)) {
          options = false;
          // `--` ends the options; the word after it is the script.
          scriptSeen = arg !== "--";
          if (scriptSeen) script = arg;
        }
      }
      // No script (or standard input named as one): the shell runs what its standard input carries.
      if ((script === undefined || script === "/dev/stdin" || script === "-") && hereString !== undefined) return { unknown, run, text: hereString };
    }
    return { unknown, run };
  }
}

/**
 * Whether a command's name is known only when it runs: an expansion, a substitution, a brace
 * expansion or a glob in it (`$x`, `r$@m`, `rm$(true)`, `{rm,-rf,x}`, `/bin/r?`); `[` and `[[` are
 * the test commands.
 */
function runtimeName(word: ShellWord): boolean {
  const raw = word.raw;
  if (raw === "[" || raw === "[[" || raw === "((") return false;
  if (/\$(?!['"])|`/.test(raw)) return true;
  const unquotedPart = word.unquotedRaw;
  return /\{[^}]*,|[*?]|\[.+\]/.test(unquotedPart);
}

/** A word of a command: as the shell passes it on, as written, and what of it stood outside quotes. */
interface ShellWord {
  /** quotes and backslashes taken out, `$'…'` decoded; expansions left as written */
  text: string;
  /** as written */
  raw: string;
  /** some of it was quoted (or escaped): a glob, a brace or an `=` in it is text */
  quoted: boolean;
  /** the characters that stood outside quotes and escapes */
  unquotedRaw: string;
}

/** The words of a command as the shell splits them; `$(…)`, `${…}` and backticks stay in their word, spaces and all. */
function shellWords(command: string): ShellWord[] {
  const words: ShellWord[] = [];
  let word: ShellWord | undefined;
  const add = (text: string, raw: string, quoted: boolean) => {
    word ??= { text: "", raw: "", quoted: false, unquotedRaw: "" };
    word.text += text;
    word.raw += raw;
    if (quoted) word.quoted = true;
    else word.unquotedRaw += raw;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "\\" && i + 1 < command.length) {
      add(command[i + 1]!, command.slice(i, i + 2), true);
      i++;
    } else if (c === "$" && command[i + 1] === "'") {
      const decoded = ansiC(command, i + 2);
      add(decoded.text, command.slice(i, decoded.end + 1), true);
      i = decoded.end;
    } else if (c === "$" && (command[i + 1] === "(" || command[i + 1] === "{")) {
      // An expansion is one word with whatever it holds.
      const close = command[i + 1] === "(" ? closingParen(command, i + 2) : closingBrace(command, i + 2);
      const raw = command.slice(i, Math.min(close + 1, command.length));
      add(raw, raw, false);
      i = close;
    } else if (c === "`") {
      const close = command.indexOf("`", i + 1);
      const raw = command.slice(i, close === -1 ? command.length : close + 1);
      add(raw, raw, false);
      i = close === -1 ? command.length : close;
    } else if (c === "'" || c === '"') {
      const end = c === "'" ? command.indexOf("'", i + 1) : closingQuote(command, i + 1);
      const inner = command.slice(i + 1, end === -1 ? command.length : end);
      add(c === "'" ? inner : inner.replace(/\\([\\"$`])/g, "$1"), command.slice(i, end === -1 ? command.length : end + 1), true);
      i = end === -1 ? command.length : end;
    } else if (c === "$" && command[i + 1] === '"') {
      // $"…" is a quote too.
    } else {
      add(c, c, false);
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Where the `"` that closes a double quote opened before `from` is (-1 when none does). */
function closingQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** ANSI-C quoting's escapes, as bash reads `$'…'`. */
const ANSI_C: Readonly<Record<string, string>> = { a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };

/** The text of a `$'…'` whose body starts at `from`, its escapes decoded, and the index of its closing `'`. */
function ansiC(text: string, from: number): { text: string; end: number } {
  let out = "";
  let i = from;
  for (; i < text.length && text[i] !== "'"; i++) {
    if (text[i] !== "\\" || i + 1 >= text.length) {
      out += text[i];
      continue;
    }
    const c = text[++i]!;
    const hex = c === "x" ? /^[0-9a-fA-F]{1,2}/ : c === "u" ? /^[0-9a-fA-F]{1,4}/ : c === "U" ? /^[0-9a-fA-F]{1,8}/ : undefined;
    const digits = hex ? hex.exec(text.slice(i + 1))?.[0] : /^[0-7]/.test(c) ? /^[0-7]{1,3}/.exec(text.slice(i))?.[0] : undefined;
    if (hex && digits) {
      out += String.fromCodePoint(Math.min(Number.parseInt(digits, 16), 0x10ffff));
      i += digits.length;
    } else if (digits) {
      out += String.fromCharCode(Number.parseInt(digits, 8) & 0xff);
      i += digits.length - 1;
    } else if (c === "c" && i + 1 < text.length) {
      out += String.fromCharCode(text.charCodeAt(++i) & 0x1f);
    } else {
      out += ANSI_C[c] ?? (c === "\\" || c === "'" || c === '"' || c === "?" ? c : `\\${c}`);
    }
  }
  return { text: out, end: i };
}

/** The readings of one command a deny or ask rule is tried on: as written, and as the shell runs it. */
export function readingsOf(command: string): string[] {
  const readings = new Set([command]);
  for (const start of [command, unquoted(command)]) {
    let bare = start;
    for (;;) {
      const next = unwrapBuiltins(unwrap(withoutAssignments(bare.replace(REDIRECTIONS, ""))));
      if (next === bare) break;
      bare = next;
    }
    readings.add(bare);
    readings.add(unquoted(bare));
  }
  // `/bin/rm -rf x` runs rm: the name without its path is a reading too.
  // Only a plain path: a `/` inside an expansion (`${x/r/r}m`) is no directory.
  for (const reading of [...readings]) if (/^[^\s/$`{]*\//.test(reading)) readings.add(reading.replace(/^[^\s$`{]*\//, ""));
  // The last reading is the barest (bareReading): no assignments, wrappers, quotes or path.
  return [...readings];
}

/** The command without its leading assignments (`NAME=v`, `NAME+=v`, `NAME[i]=v`). */
function withoutAssignments(command: string): string {
  let rest = command;
  for (let match = ASSIGNMENT.exec(rest); match; match = ASSIGNMENT.exec(rest)) rest = rest.slice(match[0].length);
  return rest;
}

/** Redirections written before the command (`2>/dev/null rm x`, `>log make`). */
const REDIRECTIONS = /^(?:(?:\d*|&)(?:>\||<>|<<<|>>?|<|>&|<&|&>)\s*(?:'[^']*'|"[^"]*"|[^\s'"]+)\s+)+/;

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
    } else if (c === "$" && command[i + 1] === "'") {
      // $'…' is a quote whose escapes the shell decodes: $'\x72\x6d' is rm.
      const decoded = ansiC(command, i + 2);
      out += decoded.text;
      i = decoded.end;
    } else if (c === "$" && command[i + 1] === '"') {
      // $"…" is a quote too.
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
/** Quoting in arithmetic: bash reads `$'\''` and backticks otherwise than closingParen, so where `))` is cannot be told. */
const QUOTING = /['"`\\]/;
/** A piece that starts a case statement, after any keywords and brackets before it. */
const CASE_START = /^(?:[\s({!]|(?:then|else|elif|do|if|while|until|coproc|time)(?=[\s({])|function\s+[^\s(){}]+(?:\s*\(\))?|[A-Za-z_][\w.:-]*\s*\(\))*\s*case\s/;
/** What may follow a word: a blank, an operator, the line's end. */
const WORD_END = /^(?:[\s;&|<>()]|)$/;

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
  /** the last character read was an unescaped, unquoted blank (a space or a tab): a word starts after it */
  let atBlank = false;
  const pending: { end: string; tabs: boolean; quoted: boolean }[] = [];
  const add = (text: string) => {
    current += text;
    statement += text;
  };
  const take = (inner: Split) => merge(out, inner);
  let i = from;
  for (; i < line.length; i++) {
    const c = line[i]!;
    const wordStarts = current === "" || atBlank;
    atBlank = false;
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
      // A case's patterns end in `)`, which this reading takes for the substitution's end: a case
      // where a command starts (not the word in a message or a here-document) makes it unreadable.
      if (inner.pieces.some((piece) => CASE_START.test(piece))) out.readable = false;
      // $((…)) is arithmetic, not a command; $((…) …) is a subshell in a substitution.
      const arithmetic = c === "$" && line[i + 2] === "(" && closingParen(line, i + 3) === inner.end - 1;
      // Where (( … )) ends depends on quotes this reading does not take as bash does ($'\'', a backtick): unreadable.
      if (arithmetic && QUOTING.test(line.slice(i + 3, inner.end - 1))) out.readable = false;
      // Arithmetic runs no command, but a substitution inside it does: $(( $(rm x) )).
      if (!arithmetic) take(inner);
      else take(substitutionsIn(line.slice(i + 3, inner.end - 1)));
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
    // A comment runs to the line's end: `#` where a word starts (after a space, a tab or an
    // operator; not after an escaped blank, a \v or a no-break space, which bash reads as a word's).
    if (c === "#" && wordStarts) {
      const end = line.indexOf("\n", i);
      i = (end === -1 ? line.length : end) - 1;
      continue;
    }
    // (( … )) is arithmetic wherever it stands (a command's start, after if, while, !, {, for): a
    // << in it is a shift, not a here-document. `((rm x) )` is two subshells: its )) are apart.
    if (!quote && c === "(" && line[i + 1] === "(") {
      const outer = closingParen(line, i + 1);
      if (outer < line.length && closingParen(line, i + 2) === outer - 1) {
        if (QUOTING.test(line.slice(i + 2, outer - 1))) out.readable = false;
        take(substitutionsIn(line.slice(i + 2, outer - 1)));
        add(line.slice(i, outer + 1));
        i = outer;
        continue;
      }
    }
    // $[ … ] is the old arithmetic: the same.
    if (c === "$" && line[i + 1] === "[") {
      const end = line.indexOf("]", i + 2);
      if (end === -1) out.readable = false;
      take(substitutionsIn(line.slice(i + 2, end === -1 ? line.length : end)));
      add(line.slice(i, end === -1 ? line.length : end + 1));
      i = end === -1 ? line.length : end;
      continue;
    }
    const heredoc = c === "<" && line[i - 1] !== "<" ? HEREDOC.exec(line.slice(i)) : null;
    if (heredoc) {
      // The delimiter is a whole word (`<<E"O"F` is EOF to bash): one read in part cannot be told where it ends.
      if (!WORD_END.test(line[i + heredoc[0].length] ?? "")) out.readable = false;
      pending.push({ end: heredoc[4]!, tabs: heredoc[1] === "-", quoted: heredoc[2] === "\\" || heredoc[3] !== "" });
      add(heredoc[0]);
      i += heredoc[0].length - 1;
      continue;
    }
    const separator = SEPARATORS.find((sep) => line.startsWith(sep, i));
    // `2>&1`, `&>`, `>&`, `<&` and `>|` are redirections, not a command sent to the background or a pipe.
    const redirection = (separator === "&" && (line[i - 1] === ">" || line[i - 1] === "<" || line[i + 1] === ">")) || (separator === "|" && line[i - 1] === ">");
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
          let ended = false;
          while (at <= line.length) {
            const next = line.indexOf("\n", at);
            const row = line.slice(at, next === -1 ? line.length : next);
            at = next === -1 ? line.length + 1 : next + 1;
            if ((doc.tabs ? row.replace(/^\t+/, "") : row) === doc.end) {
              ended = true;
              break;
            }
            rows.push(row);
          }
          // No end line: what zot took for the document may be commands to bash (its delimiter read otherwise).
          if (!ended) out.readable = false;
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
    atBlank = !quote && (c === " " || c === "\t");
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
const LEADING = /^(?:!|if|then|else|elif|do|while|until)(?:\s+|$|(?=\())|^\(|^\{(?=\s)|^case\s+(?:[^\s"']+|"(?:[^"\\]|\\.)*"|'[^']*')+\s+in\s+|^\(?[^\s()|;&]+\)\s+(?=\S)/;
/** `name() {` and `function name {`: a function's body runs commands too. */
const FUNCTION_HEAD = /^(?:function\s+[^\s(){}]+(?:\s*\(\))?|[A-Za-z_][\w.:-]*\s*\(\))\s*/;

/** The command a piece runs, without the shell syntax around it (brackets, keywords, a function's head). */
function stripSyntax(piece: string): string {
  let part = piece.trim();
  for (;;) {
    // `(( … ))` is arithmetic: no command (a `$(…)` in it was read as a substitution). `((rm x) )` is two subshells.
    if (part.startsWith("((") && part.endsWith("))") && closingParen(part, 2) === part.length - 2) return "";
    // The keywords and brackets before it first, so an arithmetic `while (( … ))` is still whole when it is looked at.
    const lead = part.replace(FUNCTION_HEAD, "").replace(LEADING, "").trim();
    const next = lead !== part ? lead : part.replace(/\s*[)}]+$/, "").trim();
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


/**
 * For deny and ask rules only: the command the shell's builtins that run the rest run
 * (`command rm`, `exec -a x rm`, `builtin cd`, `coproc rm`, `coproc NAME { rm; }`, `eval rm`,
 * `env -i -u X rm`); an allow rule is never read through them, since `eval` and `env -S` join
 * words into commands of their own.
 */
function unwrapBuiltins(command: string): string {
  const match = /^(command|exec|builtin|coproc|eval|env)(?:\s+|$)/.exec(command);
  if (!match) return command;
  let rest = command.slice(match[0].length);
  const wrapper = match[1]!;
  if (wrapper === "coproc") return rest.replace(/^[A-Za-z_]\w*\s+(?=[({])/, "").replace(/^[({]\s*/, "").trim();
  if (wrapper === "eval" || wrapper === "builtin") return rest.trim();
  const takesValue = WORD_WRAPPERS[wrapper];
  const option = /^(-[^\s]*)(?:\s+|$)/;
  for (let opt = option.exec(rest); opt; opt = option.exec(rest)) {
    rest = rest.slice(opt[0].length);
    if (opt[1] === "--") break;
    // env -S splits its string into the command: the string is the command.
    if (wrapper === "env" && /^(?:-S|--split-string)$/.test(opt[1]!)) return unquoted(rest);
    if (takesValue?.test(opt[1]!)) rest = rest.replace(/^\S+\s*/, "");
  }
  return rest.trim();
}

function unwrapOnce(command: string): string {
  const match = /^(timeout|nice|nohup|time|stdbuf)(?:\s+|$)/.exec(command);
  if (!match) return command;
  const wrapper = match[1]!;
  let rest = command.slice(match[0].length);
  const option = /^(-\S+)(?:\s+|$)/;
  for (let opt = option.exec(rest); opt; opt = option.exec(rest)) {
    rest = rest.slice(opt[0].length);
    if (WORD_WRAPPERS[wrapper]?.test(opt[1]!)) rest = rest.replace(/^\S+\s*/, "");
  }
  // timeout's duration (30, 1.5s, .5, 1e1…) comes before the command it runs.
  if (wrapper === "timeout") rest = rest.replace(/^\S+\s*/, "");
  return rest.trim();
}
