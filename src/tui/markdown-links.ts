// Links whose text already is their address, shown once. Bun.markdown.ansi prints every link as
// `text (url)`, so a bare URL, a `<url>` autolink, a `[url](url)` link, a bare e-mail or a www.
// address came out twice (`https://x (https://x)`, `me@x.org (mailto:me@x.org)`), doubling every
// URL a model writes and the width of a table column holding URLs. Bun prints a link with an
// empty destination as its text alone, still styled as a link, so before Bun lays the text out
// each such link is rewritten as `[url]()`. Rule: only a link whose text is its address (allowing
// for the `mailto:` and `http://` the parser adds) loses its `(url)`; `[text](url)` keeps it, and
// nothing inside a code block (fenced ones are cut out before: markdown.ts), an HTML block, a code
// span, a link's destination, a reference definition or an HTML tag changes.

/** ASCII punctuation a backslash may escape (CommonMark). */
const PUNCTUATION = "!\"#$%&'()*+,\\-./:;<=>?@[\\\\\\]^_`{|}~";
const EMAIL = "[a-zA-Z0-9._+-]+@[a-zA-Z0-9-]+(?:\\.[a-zA-Z0-9_-]+)+";
const DESTINATION = "(?:[^()\\s]|\\([^()\\s]*\\))*";

/**
 * One pass over the text, first alternative that matches wins: what must stay as it is (escapes,
 * code spans, lone backtick runs, explicit links, reference definitions, and after the `<url>`
 * autolinks the HTML tags) is matched before the bare addresses, so an address inside one of them
 * is never taken for a bare URL.
 */
const TOKEN = new RegExp(
  [
    `(?<escape>\\\\[${PUNCTUATION}])`,
    "(?<code>(?<ticks>`+)(?:(?!\\n[ \\t]*\\n)[\\s\\S])*?[^`]\\k<ticks>(?!`))",
    "(?<lone>`+)",
    `(?<link>(?<bang>!?)\\[(?<text>[^\\[\\]\\n]*)\\]\\([ \\t]*(?:<(?<bracketed>[^<>\\n]*)>|(?<target>${DESTINATION}))(?:[ \\t]+(?:"[^"\\n]*"|'[^'\\n]*'))?[ \\t]*\\))`,
    "(?<definition>^[ ]{0,3}\\[[^\\[\\]\\n]+\\]:.*$)",
    `(?<angle><(?<address>[a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\\s<>]*|${EMAIL})>)`,
    "(?<tag></?[a-zA-Z][^<>\\n]*>)",
    `(?<bare>(?<=^|[\\s*_~]|(?<!\\])\\()(?:(?:https?|ftp)://[^\\s<>|]+|www\\.[^\\s<>|]+|${EMAIL}))`,
  ].join("|"),
  "gm",
);

/** A line of an indented code block (or of a list item's deeper content: left as it is either way). */
const INDENTED = /^(?: {4}|\t)/;
/** The first line of an HTML block: a tag, a comment or a declaration at the line's start. */
const HTML_BLOCK = /^ {0,3}<(?:[a-zA-Z][a-zA-Z0-9-]*(?:[\s/>]|$)|\/[a-zA-Z]|!--|![A-Z]|\?)/;

/**
 * The source with every link whose text is its address written as `[address]()`, outside indented
 * code and HTML blocks. Fenced code never reaches here: renderMarkdown cuts it out first
 * (markdown.ts extractFences).
 */
export function linksShownOnce(source: string): string {
  const out: string[] = [];
  let prose: string[] = [];
  const flush = () => {
    if (prose.length > 0) out.push(rewriteProse(prose.join("\n")));
    prose = [];
  };
  let html = false;
  for (const line of source.split("\n")) {
    const opensHtml: boolean = !html && HTML_BLOCK.test(line);
    if (html || opensHtml || INDENTED.test(line)) {
      flush();
      out.push(line);
      // An HTML block runs to the next blank line.
      html = (html || opensHtml) && line.trim() !== "";
    } else {
      prose.push(line);
    }
  }
  flush();
  return out.join("\n");
}

function rewriteProse(source: string): string {
  return source.replace(TOKEN, (match, ...args) => {
    const groups = args.at(-1) as Record<string, string | undefined>;
    if (groups.link !== undefined) {
      if (groups.bang) return match;
      const text = withoutEscapes(groups.text ?? "");
      const target = groups.bracketed ?? groups.target ?? "";
      return text !== "" && isAddressOf(text, target) ? asLink(text) : match;
    }
    if (groups.angle !== undefined) return asLink(groups.address ?? "");
    if (groups.bare !== undefined) {
      const address = withoutTrailingPunctuation(match);
      return asLink(address) + match.slice(address.length);
    }
    return match;
  });
}

/** Whether a link reading `text` goes to `target`: the same, or what the parser makes of a bare e-mail or www. address. */
function isAddressOf(text: string, target: string): boolean {
  return target === text || target === `mailto:${text}` || target === `http://${text}`;
}

/** A link Bun prints as its text alone: the text escaped so none of it reads as emphasis or code. */
function asLink(text: string): string {
  return `[${text.replace(new RegExp(`[${PUNCTUATION}]`, "g"), "\\$&")}]()`;
}

function withoutEscapes(text: string): string {
  return text.replace(new RegExp(`\\\\([${PUNCTUATION}])`, "g"), "$1");
}

/** GFM's end of a bare URL: not the sentence's punctuation after it, nor a `)` it did not open. */
function withoutTrailingPunctuation(url: string): string {
  let end = url;
  for (;;) {
    if (/[?!.,:*_~'"]$/.test(end)) end = end.slice(0, -1);
    else if (end.endsWith(")") && count(end, "(") < count(end, ")")) end = end.slice(0, -1);
    else if (/&[a-zA-Z0-9]+;$/.test(end)) end = end.replace(/&[a-zA-Z0-9]+;$/, "");
    else return end;
  }
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}
