// Syntax colours for fenced code in the languages a coding agent prints most: the C family
// (JS/TS, Go, Rust, Java, C/C++, C#, Swift, Kotlin, PHP), Python, Ruby, shell, SQL, JSON, YAML/TOML,
// HTML/XML and diffs. A small line scanner, not a parser. Rule: highlighting only adds colour; the
// text of every line comes out exactly as it went in (an unknown language gets no colour at all),
// and a block comment or multi-line string left open colours the lines after it, so a code
// block streaming in looks the same before and after its closing fence arrives.
import type { Theme } from "./theme.ts";

interface Rules {
  keywords: Set<string>;
  constants: Set<string>;
  lineComments: string[];
  blockComment?: [string, string];
  /** Quote marks; a three-character one (""") may span lines, as may a backtick. */
  quotes: string[];
  multiline: string[];
  caseInsensitive?: boolean;
  /** `$name` variables (shell, PHP). */
  variables?: boolean;
  /** `key:` / `key =` at the start of a line coloured as a type (YAML, TOML). */
  keys?: boolean;
}

const words = (text: string) => new Set(text.split(/\s+/).filter(Boolean));

const C_FAMILY_KEYWORDS =
  "break case catch class const continue default do else enum extends final finally for goto if implements import in instanceof interface new package private protected public return static super switch this throw throws try void volatile while auto char double float int long short signed unsigned struct typedef union sizeof extern register inline namespace using template typename virtual override delete friend operator bool var let func fun val when is as object internal open data sealed lateinit init self protocol extension guard where defer go chan select range map type fallthrough mut fn impl trait pub mod use crate dyn loop match move ref unsafe async await yield function export from of typeof readonly abstract declare keyof infer satisfies get set echo foreach elseif endif array";

const JS_KEYWORDS =
  "break case catch class const continue debugger default delete do else export extends finally for from function if import in instanceof let new of return super switch this throw try typeof var void while with yield async await static get set type interface enum implements namespace declare readonly abstract as satisfies keyof infer private protected public";

const cLike = (keywords: string, constants = "true false null"): Rules => ({
  keywords: words(keywords),
  constants: words(constants),
  lineComments: ["//"],
  blockComment: ["/*", "*/"],
  quotes: ['"', "'", "`"],
  multiline: ["`"],
});

const RULES: Record<string, Rules> = {
  js: cLike(JS_KEYWORDS, "true false null undefined NaN Infinity"),
  go: { ...cLike(C_FAMILY_KEYWORDS, "true false nil iota"), multiline: ["`"] },
  rust: { ...cLike(C_FAMILY_KEYWORDS, "true false None Some Ok Err Self"), quotes: ['"'], multiline: [] },
  c: { ...cLike(C_FAMILY_KEYWORDS, "true false null nullptr NULL nil"), multiline: [] },
  python: {
    keywords: words("and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case"),
    constants: words("True False None self cls"),
    lineComments: ["#"],
    quotes: ['"""', "'''", '"', "'"],
    multiline: ['"""', "'''"],
  },
  ruby: {
    keywords: words("alias and begin break case class def defined do else elsif end ensure for if in module next not or redo rescue retry return self super then undef unless until when while yield require attr_reader attr_accessor"),
    constants: words("true false nil"),
    lineComments: ["#"],
    quotes: ['"', "'"],
    multiline: [],
  },
  shell: {
    keywords: words("if then else elif fi for while until do done case esac function in return local export declare readonly set unset exit echo cd source alias shift trap"),
    constants: words("true false"),
    lineComments: ["#"],
    quotes: ['"', "'"],
    multiline: [],
    variables: true,
  },
  sql: {
    keywords: words(
      "select from where insert into values update set delete create table alter drop join left right inner outer full cross on group by order having limit offset as and or not is in exists distinct union all primary key foreign references index view with case when then else end begin commit rollback returning default unique check",
    ),
    constants: words("null true false"),
    lineComments: ["--"],
    blockComment: ["/*", "*/"],
    quotes: ["'", '"'],
    multiline: [],
    caseInsensitive: true,
  },
  json: { keywords: new Set(), constants: words("true false null"), lineComments: ["//"], quotes: ['"'], multiline: [], keys: false },
  yaml: { keywords: new Set(), constants: words("true false null yes no on off ~"), lineComments: ["#"], quotes: ['"', "'"], multiline: [], keys: true },
};
RULES.php = { ...RULES.c, variables: true, lineComments: ["//", "#"] };

const ALIASES: Record<string, string> = {
  javascript: "js", jsx: "js", mjs: "js", cjs: "js", ts: "js", typescript: "js", tsx: "js", mts: "js", node: "js",
  golang: "go", rs: "rust", py: "python", python3: "python", rb: "ruby",
  sh: "shell", bash: "shell", zsh: "shell", fish: "shell", console: "shell", shellscript: "shell",
  cpp: "c", "c++": "c", cc: "c", h: "c", hpp: "c", java: "c", cs: "c", csharp: "c", kotlin: "c", kt: "c", swift: "c", scala: "c", dart: "c", zig: "c", "objective-c": "c",
  jsonc: "json", json5: "json", yml: "yaml", toml: "yaml", ini: "yaml", psql: "sql", mysql: "sql", sqlite: "sql", postgresql: "sql",
};

/** Block-comment or string state carried from one line to the next. */
type Carry = { kind: "comment" } | { kind: "string"; quote: string } | undefined;

/** Colours a code block's lines; `lang` is the fence's info word (any case, common aliases known). */
export function highlightCode(code: string, lang: string, theme: Theme): string[] {
  const lines = code.split("\n");
  const name = lang.toLowerCase();
  if (!theme.color) return lines;
  if (name === "diff" || name === "patch") return lines.map((line) => highlightDiffLine(line, theme));
  if (name === "html" || name === "xml" || name === "svg" || name === "vue") return lines.map((line) => highlightMarkup(line, theme));
  const rules = RULES[ALIASES[name] ?? name];
  if (!rules) return lines;
  let carry: Carry;
  return lines.map((line) => {
    const [out, next] = highlightLine(line, rules, theme, carry);
    carry = next;
    return out;
  });
}

function highlightDiffLine(line: string, theme: Theme): string {
  if (line.startsWith("+++") || line.startsWith("---")) return theme.bold(line);
  if (line.startsWith("+")) return theme.code.added(line);
  if (line.startsWith("-")) return theme.code.removed(line);
  if (line.startsWith("@@")) return theme.accent(line);
  return line;
}

function highlightMarkup(line: string, theme: Theme): string {
  return line.replace(/(<\/?)([\w:-]+)([^>]*?)(\/?>)|<!--.*?-->/g, (whole, open, tag, attrs, close) => {
    if (whole.startsWith("<!--")) return theme.code.comment(whole);
    const styledAttrs = String(attrs).replace(/([\w:-]+)(=)("[^"]*"|'[^']*')?/g, (_m, name, eq, value) => theme.code.type(name) + eq + (value ? theme.code.string(value) : ""));
    return open + theme.code.keyword(tag) + styledAttrs + close;
  });
}

const IDENTIFIER = /[A-Za-z_$][\w$]*/y;
const NUMBER = /(?:0[xX][\da-fA-F_]+|0[bB][01_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)[a-zA-Z]*/y;

function highlightLine(line: string, rules: Rules, theme: Theme, carry: Carry): [string, Carry] {
  const code = theme.code;
  let out = "";
  let at = 0;
  if (carry?.kind === "comment" && rules.blockComment) {
    const end = line.indexOf(rules.blockComment[1]);
    if (end === -1) return [code.comment(line), carry];
    at = end + rules.blockComment[1].length;
    out = code.comment(line.slice(0, at));
  } else if (carry?.kind === "string") {
    const end = closingQuote(line, 0, carry.quote);
    if (end === -1) return [code.string(line), carry];
    at = end;
    out = code.string(line.slice(0, at));
  }
  if (rules.keys) {
    const key = /^(\s*-?\s*)([\w."'-]+)(\s*[:=])/.exec(line.slice(at));
    if (key && at === 0) {
      out += key[1] + code.type(key[2]) + key[3];
      at = key[0].length;
    }
  }
  while (at < line.length) {
    const rest = line.slice(at, at + 3);
    const comment = rules.lineComments.find((marker) => line.startsWith(marker, at) && (marker !== "#" || at === 0 || /\s/.test(line[at - 1])));
    if (comment) return [out + code.comment(line.slice(at)), undefined];
    if (rules.blockComment && line.startsWith(rules.blockComment[0], at)) {
      const end = line.indexOf(rules.blockComment[1], at + rules.blockComment[0].length);
      if (end === -1) return [out + code.comment(line.slice(at)), { kind: "comment" }];
      out += code.comment(line.slice(at, end + rules.blockComment[1].length));
      at = end + rules.blockComment[1].length;
      continue;
    }
    const quote = rules.quotes.find((mark) => rest.startsWith(mark));
    if (quote) {
      const end = closingQuote(line, at + quote.length, quote);
      if (end === -1) {
        const open = rules.multiline.includes(quote);
        return [out + code.string(line.slice(at)), open ? { kind: "string", quote } : undefined];
      }
      const text = line.slice(at, end);
      const isKey = !rules.keywords.size && /^\s*:/.test(line.slice(end));
      out += isKey ? code.type(text) : code.string(text);
      at = end;
      continue;
    }
    if (rules.variables && line[at] === "$" && /[\w{]/.test(line[at + 1] ?? "")) {
      const match = /\$(?:\{[^}]*\}|\w+)/y;
      match.lastIndex = at;
      const variable = match.exec(line)?.[0] ?? "$";
      out += code.type(variable);
      at += variable.length;
      continue;
    }
    NUMBER.lastIndex = at;
    const number = /\d/.test(line[at]) && !/[\w$]/.test(line[at - 1] ?? "") ? NUMBER.exec(line) : null;
    if (number) {
      out += code.number(number[0]);
      at += number[0].length;
      continue;
    }
    IDENTIFIER.lastIndex = at;
    const identifier = /[A-Za-z_$]/.test(line[at]) ? IDENTIFIER.exec(line) : null;
    if (identifier) {
      out += styleIdentifier(identifier[0], line, at + identifier[0].length, rules, theme);
      at += identifier[0].length;
      continue;
    }
    out += line[at];
    at++;
  }
  return [out, undefined];
}

function styleIdentifier(word: string, line: string, after: number, rules: Rules, theme: Theme): string {
  const lookup = rules.caseInsensitive ? word.toLowerCase() : word;
  if (rules.keywords.has(lookup)) return theme.code.keyword(word);
  if (rules.constants.has(lookup)) return theme.code.number(word);
  if (line[after] === "(") return theme.code.function(word);
  if (/^[A-Z][a-z0-9]\w*$/.test(word) && rules.keywords.size > 0) return theme.code.type(word);
  return word;
}

/** Index just past the closing quote (a backslash escapes, except in shell single quotes), or -1. */
function closingQuote(line: string, from: number, quote: string): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === "\\" && quote !== "'''") {
      i++;
      continue;
    }
    if (line.startsWith(quote, i)) return i + quote.length;
  }
  return -1;
}
