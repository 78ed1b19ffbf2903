// Untrusted text made fit for rows: styles kept, everything else that could reach the terminal dropped.
import { describe, expect, test } from "bun:test";
import { printable } from "../../src/protocol/printable.ts";
import { styledRow, styledRows } from "../../src/tui/styled-row.ts";

describe("styledRow", () => {
  test("plain text and SGR styles pass unchanged; OSC 8 links are kept", () => {
    expect(styledRow("plain – 日本")).toBe("plain – 日本");
    expect(styledRow("\x1b[1;32mok\x1b[0m")).toBe("\x1b[1;32mok\x1b[0m");
    const link = "\x1b]8;;https://example.com\x1b\\site\x1b]8;;\x1b\\";
    expect(styledRow(link)).toBe(link);
  });

  test("cursor moves, screen clears, mode changes, titles, APC markers and C0 controls are dropped; tabs become spaces", () => {
    expect(styledRow("a\x1b[2Jb\x1b[3;4Hc\x1b[?25ld\x1b]0;title\x07e\x1b_zot:cursor\x1b\\f\x1bPq\x1b\\g")).toBe("abcdefg");
    expect(styledRow("a\rb\bc\x07d\x00e\x7ff\x1b")).toBe("abcdef");
    expect(styledRow("\tx")).toBe("    x");
    // C1 controls, which a terminal may read as CSI and OSC.
    expect(styledRow("a\x9b2Jb\x9d52;c;x\x9cc")).toBe("a2Jb52;c;xc");
  });

  test("links: false drops hyperlinks and keeps their text and the colours", () => {
    expect(styledRow("see \x1b]8;;https://evil.example\x1b\\docs.python.org\x1b]8;;\x1b\\ \x1b[32mok\x1b[0m", { links: false })).toBe("see docs.python.org \x1b[32mok\x1b[0m");
  });

  test("styledRows: one row per line, CRLF or LF", () => {
    expect(styledRows("one\r\ntwo\nthree")).toEqual(["one", "two", "three"]);
  });
});

describe("printable (stderr notes)", () => {
  test("every escape and control is dropped, styles too; newlines and tabs stay", () => {
    expect(printable("a\x1b]52;c;ZWNobw==\x07b\x1b[1A\x1b[2K\rc\x1b[31md\x9b2Je\x1bPq\x1b\\f")).toBe("abcdef");
    expect(printable("one\n\ttwo – 日本")).toBe("one\n\ttwo – 日本");
  });
});
