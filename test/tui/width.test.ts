import { describe, expect, test } from "bun:test";
import { expandTabs, graphemes, padToWidth, truncateToWidth, visibleWidth, wrapText } from "../../src/tui/width.ts";

const widths = (rows: string[]) => rows.map(visibleWidth);

describe("visibleWidth", () => {
  test("CJK and emoji take two columns, escapes none", () => {
    expect(visibleWidth("日本語")).toBe(6);
    expect(visibleWidth("🚀")).toBe(2);
    expect(visibleWidth("👨‍👩‍👧‍👦")).toBe(2);
    expect(visibleWidth("\x1b[31mred\x1b[0m")).toBe(3);
    expect(visibleWidth("\x1b]8;;https://x.y\x1b\\link\x1b]8;;\x1b\\")).toBe(4);
  });
});

describe("graphemes", () => {
  test("an emoji family and a combining accent are one each", () => {
    expect(graphemes("e\u0301👨‍👩‍👧‍👦日a")).toEqual(["e\u0301", "👨‍👩‍👧‍👦", "日", "a"]);
  });
});

describe("truncateToWidth", () => {
  test("cuts by columns, never through a wide character, with the ellipsis inside the width", () => {
    expect(truncateToWidth("日本語テキスト", 5)).toBe("日本…");
    expect(truncateToWidth("日本語テキスト", 6, "")).toBe("日本語");
    expect(truncateToWidth("short", 10)).toBe("short");
    expect(visibleWidth(truncateToWidth("a🚀b🚀c🚀", 4))).toBeLessThanOrEqual(4);
    // a wide character the cut falls in the middle of stays out: an even width over CJK is never one column over
    for (let width = 1; width <= 8; width++) expect(visibleWidth(truncateToWidth("中文中文中文中文", width))).toBeLessThanOrEqual(width);
    expect(truncateToWidth("中文中文中文中文", 6)).toBe("中文…");
  });

  test("keeps styles and closes them", () => {
    const cut = truncateToWidth("\x1b[31mred text here\x1b[0m", 6);
    expect(cut.startsWith("\x1b[31m")).toBe(true);
    expect(Bun.stripANSI(cut)).toBe("red t…");
  });
});

describe("padToWidth", () => {
  test("pads wide text to the exact width", () => {
    expect(padToWidth("日本", 5)).toBe("日本 ");
    expect(visibleWidth(padToWidth("🚀 go", 8))).toBe(8);
    expect(padToWidth("toolong", 4)).toBe("too…");
  });
});

describe("expandTabs", () => {
  test("tabs go to the next stop, counting columns not characters", () => {
    expect(expandTabs("a\tb")).toBe("a   b");
    expect(expandTabs("日\tb")).toBe("日  b");
    expect(expandTabs("\x1b[1mab\x1b[0m\tc")).toBe("\x1b[1mab\x1b[0m  c");
  });
});

describe("wrapText", () => {
  test("breaks at spaces, no row wider than the width", () => {
    expect(wrapText("the quick brown fox jumps over", 10)).toEqual(["the quick", "brown fox", "jumps over"]);
  });

  test("CJK breaks between characters; emoji are never split", () => {
    const rows = wrapText("日本語のテキストはここにあります", 7);
    expect(rows.join("")).toBe("日本語のテキストはここにあります");
    for (const width of widths(rows)) expect(width).toBeLessThanOrEqual(7);
    expect(wrapText("a 🚀🚀🚀🚀 b", 5)).toEqual(["a", "🚀🚀", "🚀🚀", "b"]);
  });

  test("a word longer than the width is cut hard", () => {
    expect(wrapText("see https://example.com/aaaaaaaa", 10)).toEqual(["see", "https://ex", "ample.com/", "aaaaaaaa"]);
  });

  test("continuation rows keep the row's indentation", () => {
    expect(wrapText("    indented words wrap here", 14)).toEqual(["    indented", "    words wrap", "    here"]);
  });

  test("styles are closed at each cut and reopened on the next row", () => {
    const rows = wrapText("\x1b[1mbold \x1b[31mred text\x1b[39m more\x1b[22m", 6);
    expect(rows.map(Bun.stripANSI)).toEqual(["bold", "red", "text", "more"]);
    expect(rows[1]).toStartWith("\x1b[1m");
    expect(rows[2]).toStartWith("\x1b[1;31m");
    // "more" is still bold (Bun.wrapAnsi loses this one).
    expect(rows[3]).toStartWith("\x1b[1m");
    for (const row of rows.slice(0, 3)) expect(row).toEndWith("\x1b[0m");
  });

  test("a hyperlink stays a hyperlink on every row it wraps to", () => {
    const rows = wrapText("\x1b]8;;https://x.y\x1b\\link text here\x1b]8;;\x1b\\", 5);
    expect(rows.map(Bun.stripANSI)).toEqual(["link", "text", "here"]);
    for (const row of rows) expect(row).toContain("\x1b]8;;https://x.y\x1b\\");
  });

  test("newlines and empty lines are kept; fitting rows are returned as they are", () => {
    expect(wrapText("a\n\nb", 10)).toEqual(["a", "", "b"]);
    const styled = "\x1b[32mfits\x1b[39m";
    expect(wrapText(styled, 10)).toEqual([styled]);
  });
});
