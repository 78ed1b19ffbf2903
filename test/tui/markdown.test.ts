import { describe, expect, test } from "bun:test";
import { highlightCode } from "../../src/tui/highlight.ts";
import { Markdown, extractFences, renderMarkdown } from "../../src/tui/markdown.ts";
import { withoutColor } from "../../src/tui/sgr-state.ts";
import { createTheme } from "../../src/tui/theme.ts";
import { visibleWidth } from "../../src/tui/width.ts";

const color = createTheme({ color: true });
const plain = createTheme({ color: false });
const strip = (rows: string[]) => rows.map((row) => Bun.stripANSI(row));

describe("renderMarkdown", () => {
  test("escapes in the model's text are dropped whole, the same in a paragraph and in a code block", () => {
    const line = "A \x1b[2J B \x1b[31mred\x1b[0m C \x1b]52;c;aGk=\x07 D \x1bc E \x9b2J F \x07 G";
    const rows = renderMarkdown(`${line}\n\n\`\`\`\n${line}\n\`\`\`\n`, 80, color);
    const words = strip(rows).filter((row) => row.trim() !== "").map((row) => row.trim().split(/\s+/).join(" "));
    expect(words).toEqual(["A B red C D E F G", "A B red C D E F G"]);
    for (const row of rows) expect(row).not.toMatch(/\x1b(?!\[[\d;]*m)|[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f]/);
  });

  test("an OSC or DCS without its end drops itself alone: the rest of the answer is shown", () => {
    const source = "answer start \x1b] answer middle\n\nanswer \x1bP end\n\n```\ncode \x1b]8;;x\nmore code\n```\n\nlast";
    const rows = strip(renderMarkdown(source, 80, color)).map((row) => row.trim()).filter((row) => row !== "");
    expect(rows).toEqual(["answer start answer middle", "answer end", "code 8;;x", "more code", "last"]);
  });

  test("a tab in prose or in a table cell takes its columns in the layout: every row fits, nothing is cut", () => {
    const para = "Columns:\tname\tsize\tmodified\towner\tgroup\tmode\tlinks\tinode\tEND_OF_ROW";
    const table = "| key | value |\n|---|---|\n| a\tb\tc\td | a value long enough to bring this table close to the width TABLE_CELL_END |";
    const rows = renderMarkdown(`${para}\n\n${table}\n\n\tindented\tcode\n`, 80, color);
    for (const row of rows) {
      expect(row).not.toContain("\t");
      expect(visibleWidth(row)).toBeLessThanOrEqual(80);
    }
    const text = strip(rows).join("\n");
    for (const word of ["END_OF_ROW", "TABLE_CELL_END", "indented    code"]) expect(text).toContain(word);
    // the table's rows keep their right border
    const plainRows = strip(rows);
    const tableRows = plainRows.slice(plainRows.findIndex((row) => row.startsWith("┌")), plainRows.findIndex((row) => row.startsWith("└")));
    expect(tableRows.length).toBeGreaterThan(3);
    for (const row of tableRows) expect(row.trimEnd()).toMatch(/[│┐┤]$/);
  });

  test("a table too wide for the width is stacked as key/value rows, parted by a rule; one that fits keeps its grid", () => {
    const head = `| ${Array.from({ length: 10 }, (_, i) => `col${i + 1}`).join(" | ")} |`;
    const row = (n: number) => `| ${Array.from({ length: 10 }, (_, i) => `v${i + 1}.${n}`).join(" | ")} |`;
    const source = `before\n\n${head}\n|${"---|".repeat(10)}\n${row(1)}\n${row(2)}\n\n| a | b |\n|---|---|\n| **x** | \`y\` |\n\nafter`;
    const narrow = renderMarkdown(source, 40, color);
    for (const row of narrow) expect(visibleWidth(row)).toBeLessThanOrEqual(40);
    const text = strip(narrow).filter((row) => row.trim() !== "");
    expect(text.slice(0, 12)).toEqual(["before", ...Array.from({ length: 10 }, (_, i) => `col${i + 1}: v${i + 1}.1`), "─".repeat(40)]);
    expect(text.slice(12, 22)).toEqual(Array.from({ length: 10 }, (_, i) => `col${i + 1}: v${i + 1}.2`));
    // the narrow table keeps its grid, its cells their styles
    expect(text.slice(22, 27)).toEqual(["┌─────┬─────┐", "│ a   │ b   │", "├─────┼─────┤", "│ x   │ y   │", "└─────┴─────┘"]);
    expect(text.at(-1)).toBe("after");
    expect(narrow.join("\n")).toContain("\x1b[1mcol1:");
    // at 80 columns the wide table fits: its grid, one row per row
    const wide = strip(renderMarkdown(source, 80, color));
    expect(wide.filter((row) => row.startsWith("│ v1.")).length).toBe(2);
  });

  test("headings, emphasis, code spans, lists, quotes and links are laid out", () => {
    const rows = renderMarkdown("# Title\n\nSome **bold**, *italic* and `code`, see [docs](https://bun.sh).\n\n- one\n- two\n\n1. first\n2. second\n\n> quoted", 60, color);
    const text = strip(rows);
    expect(text[0]).toBe("Title");
    expect(text).toContain("Some bold, italic and code, see docs (https://bun.sh).");
    expect(text.some((row) => /^\s+• one$/.test(row))).toBe(true);
    expect(text.some((row) => /^\s+2\. second$/.test(row))).toBe(true);
    expect(text.some((row) => /quoted$/.test(row) && row.includes("│"))).toBe(true);
    const body = rows.find((row) => row.includes("bold"));
    expect(body).toContain("\x1b[1mbold");
    expect(body).toContain("\x1b[3mitalic");
  });

  test("a link whose text is its address (bare URL, <autolink>, [url](url), bare e-mail, www.) shows the address once; [text](url) keeps its (url)", () => {
    const source = [
      "A: see https://example.com for details.",
      "B: <https://example.org/x>",
      "C: [https://example.net](https://example.net)",
      "D: email me@example.com and www.example.com",
      "E: [link](https://example.com) and [me@x.org](mailto:me@x.org)",
    ].join("\n\n");
    const rows = renderMarkdown(source, 100, color);
    expect(strip(rows).filter((row) => row !== "")).toEqual([
      "A: see https://example.com for details.",
      "B: https://example.org/x",
      "C: https://example.net",
      "D: email me@example.com and www.example.com",
      "E: link (https://example.com) and me@x.org",
    ]);
    // Still drawn as a link: the style Bun gives [link](…) .
    const linkStyle = rows.find((row) => row.includes("link"))!.match(/(\x1b\[[0-9;]*m)+(?=link)/)![0];
    expect(rows.find((row) => row.startsWith("A:"))).toContain(`${linkStyle}https://example.com`);
    // A URL column in a table is as wide as the URL, not twice that.
    const table = strip(renderMarkdown("| url | n |\n|---|---|\n| https://example.com/a/b | 1 |", 80, color));
    expect(table.find((row) => row.includes("https://"))).toMatch(/^│ https:\/\/example\.com\/a\/b │ 1 +│$/);
  });

  test("addresses inside code spans, images, link destinations, reference definitions and HTML stay as written", () => {
    const text = (source: string) => strip(renderMarkdown(source, 100, plain)).join("\n");
    expect(text("`<https://x.com>` and ``a ` [https://y.com](https://y.com)``")).toBe("<https://x.com> and a ` [https://y.com](https://y.com)");
    expect(text("[see https://x.com](https://y.com) and [t](https://en.wikipedia.org/wiki/Foo_(bar))")).toBe(
      "see https://x.com (https://y.com) and t (https://en.wikipedia.org/wiki/Foo_(bar))",
    );
    expect(text('[https://x.com](<https://x.com> "title") and **https://b.com**, (https://c.com/a).')).toBe("https://x.com and https://b.com, (https://c.com/a).");
    expect(text('Hi <a href="https://x.com">x</a>\n\n[ref]: https://r.com')).toBe('Hi <a href="https://x.com">x</a>');
  });

  test("addresses inside code blocks (fenced with a blank line, ~~~, indented) and HTML blocks stay as written", () => {
    const text = (source: string) => strip(renderMarkdown(source, 100, plain)).join("\n");
    for (const source of [
      "```sh\ncurl https://example.com/a\n\necho https://b.example\n```",
      "~~~\nhttps://f.example\n\nx\n~~~",
      "text\n\n    indented https://example.com/c",
      "<div>\nhttps://e.example\n</div>",
    ]) {
      expect(text(source)).not.toContain("\\");
      expect(text(source)).not.toContain("[https");
    }
    expect(text("```sh\ncurl https://example.com/a\n\necho\n```")).toContain("curl https://example.com/a");
    // Prose after the block still shows its address once.
    expect(text("~~~\nhttps://f.example\n~~~\n\nsee https://g.example")).toEndWith("see https://g.example");
    expect(text("~~~\nhttps://f.example\n~~~\n\nsee https://g.example")).not.toContain("(https://g.example)");
  });

  test("a table keeps its columns aligned with CJK and emoji in the cells", () => {
    const rows = strip(renderMarkdown("| name | value |\n|---|---|\n| 日本語 | 🚀 |\n| ascii | x |", 40, color));
    const table = rows.filter((row) => row.startsWith("│"));
    expect(table.length).toBe(3);
    const borders = table.map((row) => {
      const cells: number[] = [];
      let column = 0;
      for (const char of row) {
        if (char === "│") cells.push(column);
        column += visibleWidth(char);
      }
      return cells.join(",");
    });
    expect(new Set(borders).size).toBe(1);
  });

  test("fenced code is highlighted in languages Bun leaves plain", () => {
    const rows = renderMarkdown("```python\ndef f(x):\n    return 'a'  # note\n```", 60, color);
    expect(strip(rows)).toEqual(["  def f(x):", "      return 'a'  # note"]);
    expect(rows[0]).toContain(color.code.keyword("def"));
    expect(rows[1]).toContain(color.code.string("'a'"));
    expect(rows[1]).toContain(color.code.comment("# note"));
  });

  test("an unclosed fence while streaming renders as code, the same as once it closes", () => {
    const open = "Here:\n\n```ts\nconst a = 1;\nconst b = 2;";
    const streaming = renderMarkdown(open, 40, color);
    expect(strip(streaming)).toEqual(["Here:", "", "  const a = 1;", "  const b = 2;"]);
    expect(renderMarkdown(`${open}\n\`\`\``, 40, color)).toEqual(streaming);
    // Every prefix of a streamed answer renders without throwing and within the width.
    const answer = "# Plan\n\n1. Run:\n\n   ```bash\n   ls -la | wc -l\n   ```\n\n2. Then **check** the `output`.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
    for (let end = 1; end <= answer.length; end++) {
      for (const row of renderMarkdown(answer.slice(0, end), 30, color)) expect(visibleWidth(row)).toBeLessThanOrEqual(30);
    }
  });

  test("a fence inside a list item stays in the item, indented with it", () => {
    const rows = strip(renderMarkdown("1. Install:\n\n   ```bash\n   bun install\n   ```\n\n2. Run", 40, color));
    const code = rows.find((row) => row.includes("bun install")) ?? "";
    const item = rows.find((row) => row.includes("Install:")) ?? "";
    expect(code.indexOf("bun")).toBeGreaterThan(item.indexOf("Install"));
    expect(rows.some((row) => /^\s+2\. Run$/.test(row))).toBe(true);
  });

  test("no row is wider than the width: long code lines and headings wrap", () => {
    const rows = renderMarkdown(`# ${"A very long heading ".repeat(5)}\n\n\`\`\`js\nconst x = ${"veryLongIdentifier + ".repeat(8)}1;\n\`\`\``, 40, color);
    for (const row of rows) expect(visibleWidth(row)).toBeLessThanOrEqual(40);
    expect(strip(rows).join(" ")).toContain("veryLongIdentifier");
  });

  test("NO_COLOR: no colour codes, emphasis kept", () => {
    const rows = renderMarkdown("# T\n\n**bold** and `code`\n\n```js\nconst a = 1;\n```", 40, plain);
    const all = rows.join("\n");
    expect(all).not.toMatch(/\x1b\[(3\d|9\d|38|4\d|10\d)[;m]/);
    expect(all).toContain("\x1b[1mbold");
    expect(strip(rows)).toContain("  const a = 1;");
  });

  test("extractFences: ~~~ fences, longer closing fences, and text around them", () => {
    const { text, fences } = extractFences("a\n~~~\nx\n~~~~\nb\n````md\n```\ninner\n```\n````");
    expect(fences).toEqual([
      { lang: "", code: "x" },
      { lang: "md", code: "```\ninner\n```" },
    ]);
    expect(text.split("\n").filter((line) => /[ab]/.test(line))).toEqual(["a", "b"]);
  });
});

describe("Markdown component", () => {
  test("renders again only when its text or the width changes", () => {
    const md = new Markdown("hello", color);
    const first = md.render(40);
    expect(md.render(40)).toBe(first);
    md.append(" **world**");
    const second = md.render(40);
    expect(second).not.toBe(first);
    expect(strip(second)).toEqual(["hello world"]);
    expect(md.render(20)).not.toBe(second);
  });

  test("an empty text is no rows", () => expect(new Markdown("  ", color).render(40)).toEqual([]));
});

describe("highlightCode", () => {
  const langs: [string, string, string][] = [
    ["go", 'func main() { fmt.Println("hi") }', "func"],
    ["rust", "fn main() { let x = 5; }", "fn"],
    ["bash", 'for f in *.ts; do echo "$f"; done', "for"],
    ["sql", "SELECT id FROM users WHERE id = 1", "SELECT"],
    ["ts", "const a: number = 42;", "const"],
  ];
  for (const [lang, code, keyword] of langs) {
    test(`${lang}: keywords coloured, text unchanged`, () => {
      const [line] = highlightCode(code, lang, color);
      expect(Bun.stripANSI(line)).toBe(code);
      expect(line).toContain(color.code.keyword(keyword));
    });
  }

  test("json keys, strings and numbers", () => {
    const [line] = highlightCode('{"name": "zot", "n": 3, "ok": true}', "json", color);
    expect(line).toContain(color.code.type('"name"'));
    expect(line).toContain(color.code.string('"zot"'));
    expect(line).toContain(color.code.number("3"));
  });

  test("diff lines coloured by their sign", () => {
    const lines = highlightCode("@@ -1 +1 @@\n-old\n+new\n same", "diff", color);
    expect(lines[1]).toBe(color.code.removed("-old"));
    expect(lines[2]).toBe(color.code.added("+new"));
    expect(lines[3]).toBe(" same");
  });

  test("a block comment or multi-line string colours the lines after it", () => {
    const lines = highlightCode('/* start\nstill comment */ const a = 1;\nx = """doc\nmore"""', "js", color);
    expect(lines[1]).toStartWith(color.code.comment("still comment */"));
    const py = highlightCode('x = """doc\nmore"""\ny = 1', "python", color);
    expect(py[1]).toBe(color.code.string('more"""'));
    expect(py[2]).toContain(color.code.number("1"));
  });

  test("an unknown language and colour off leave the text alone", () => {
    expect(highlightCode("if x then y", "klingon", color)).toEqual(["if x then y"]);
    expect(highlightCode("const a = 1;", "js", plain)).toEqual(["const a = 1;"]);
  });
});

describe("withoutColor", () => {
  test("drops colours (16, 256, truecolor) and keeps attributes", () => {
    expect(withoutColor("\x1b[1;31mA\x1b[38;5;215mB\x1b[48;2;1;2;3;4mC\x1b[39;22m")).toBe("\x1b[1mAB\x1b[4mC\x1b[22m");
    expect(withoutColor("\x1b[0mreset")).toBe("\x1b[0mreset");
  });
});
