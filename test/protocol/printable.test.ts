// printable (text to be read: sequences dropped) and printableVerbatim (text that runs or is
// written: every character kept, controls shown as marks).
import { describe, expect, test } from "bun:test";
import { hasControls, printable, printableVerbatim } from "../../src/protocol/printable.ts";

describe("printable", () => {
  test("drops whole sequences: CSI, OSC ended by BEL or ST, DCS and APC ended by ST, lone controls", () => {
    expect(printable("a\x1b[31mred\x1b[0m b")).toBe("ared b");
    expect(printable("x\x1b]52;c;ZWNobw==\x07y\x1b]0;title\x1b\\z")).toBe("xyz");
    expect(printable("x\x1bPq#0;1\x1b\\y\x1b_app\x1b\\z")).toBe("xyz");
    expect(printable("a\x07b\x00c\x85d\te\nf")).toBe("abcd\te\nf");
    // the 8-bit forms a terminal may read as CSI and OSC
    expect(printable("a\x9b2Jb\x9d0;title\x9cc")).toBe("abc");
  });

  test("an OSC or DCS without its end drops only itself, never the text after it", () => {
    expect(printable("answer start \x1b] answer middle\n\nanswer end")).toBe("answer start  answer middle\n\nanswer end");
    expect(printable("ls \x1bP; touch PWNED")).toBe("ls ; touch PWNED");
    // an end on a later line does not make one sequence of the lines between
    expect(printable("one \x1b]\ntwo\nthree\x07 four")).toBe("one \ntwo\nthree four");
    expect(printable("one \x1bP\ntwo\x1b\\ three")).toBe("one \ntwo three");
  });

  test("a string sequence longer than the bound is not one: its text shows", () => {
    const long = "x".repeat(5000);
    expect(printable(`a\x1b]0;${long}\x07b`)).toBe(`a0;${long}b`);
  });
});

describe("printableVerbatim", () => {
  test("keeps every character, and shows each control as a mark", () => {
    expect(printableVerbatim("ls \x1b]; touch PWNED #\x07-la")).toBe("ls ␛]; touch PWNED #␇-la");
    expect(printableVerbatim("a\rb\x00c\x7fd\x9be")).toBe("a␍b␀c␡d\\x9be");
    expect(printableVerbatim("one\n\ttwo")).toBe("one\n\ttwo");
    expect(printableVerbatim("file\u202Etxt.exe")).toBe("file\\u202etxt.exe");
  });

  test("hasControls says whether there is anything to mark", () => {
    expect(hasControls("plain text\twith a tab\n")).toBe(false);
    expect(hasControls("a \x1b] b")).toBe(true);
    expect(hasControls("a \u2066 b")).toBe(true);
  });
});
