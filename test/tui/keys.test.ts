import { describe, expect, test } from "bun:test";
import { InputParser, sequenceLength } from "../../src/tui/input-parser.ts";
import { decodeKey, keyId } from "../../src/tui/keys.ts";

const id = (sequence: string) => {
  const key = decodeKey(sequence);
  return key ? keyId(key) : undefined;
};

describe("decodeKey", () => {
  // One key, every encoding a terminal may use for it.
  const table: [string, string[]][] = [
    ["up", ["\x1b[A", "\x1bOA"]],
    ["down", ["\x1b[B", "\x1bOB"]],
    ["right", ["\x1b[C", "\x1bOC"]],
    ["left", ["\x1b[D", "\x1bOD"]],
    ["home", ["\x1b[H", "\x1bOH", "\x1b[1~", "\x1b[7~"]],
    ["end", ["\x1b[F", "\x1bOF", "\x1b[4~", "\x1b[8~"]],
    ["pageup", ["\x1b[5~"]],
    ["pagedown", ["\x1b[6~"]],
    ["delete", ["\x1b[3~", "\x1b[57426u"]],
    ["insert", ["\x1b[2~"]],
    ["f1", ["\x1bOP", "\x1b[11~"]],
    ["f5", ["\x1b[15~"]],
    ["f12", ["\x1b[24~"]],
    ["enter", ["\r", "\x1b[13u"]],
    ["tab", ["\t", "\x1b[9u"]],
    ["backspace", ["\x7f", "\x08", "\x1b[127u"]],
    ["escape", ["\x1b", "\x1b[27u"]],
    ["shift+tab", ["\x1b[Z", "\x1b[9;2u"]],
    ["shift+enter", ["\x1b[13;2u", "\x1b[27;2;13~"]],
    ["alt+enter", ["\x1b\r", "\x1b[13;3u", "\x1b[27;3;13~"]],
    ["ctrl+enter", ["\x1b[13;5u", "\x1b[27;5;13~"]],
    ["alt+backspace", ["\x1b\x7f", "\x1b[127;3u"]],
    ["ctrl+backspace", ["\x1b[127;5u"]],
    ["ctrl+a", ["\x01", "\x1b[97;5u", "\x1b[27;5;97~"]],
    ["ctrl+c", ["\x03", "\x1b[99;5u"]],
    ["ctrl+w", ["\x17", "\x1b[119;5u"]],
    ["ctrl+j", ["\n", "\x1b[106;5u"]],
    ["ctrl+shift+a", ["\x1b[97;6u", "\x1b[27;6;65~"]],
    ["alt+b", ["\x1bb", "\x1b[98;3u", "\x1b[27;3;98~"]],
    ["alt+shift+b", ["\x1bB"]],
    ["ctrl+alt+x", ["\x1b\x18", "\x1b[120;7u"]],
    ["alt+.", ["\x1b."]],
    ["ctrl+left", ["\x1b[1;5D"]],
    ["ctrl+right", ["\x1b[1;5C"]],
    ["alt+left", ["\x1b[1;3D", "\x1b\x1b[D"]],
    ["shift+up", ["\x1b[1;2A"]],
    ["ctrl+shift+end", ["\x1b[1;6F"]],
    ["ctrl+delete", ["\x1b[3;5~"]],
    ["shift+pagedown", ["\x1b[6;2~"]],
    ["ctrl+space", ["\x00", "\x1b[32;5u"]],
    [" ", ["\x1b[32u", "\x1b[32;2u", "\x1b[27;2;32~"]],
    ["shift+backspace", ["\x1b[127;2u"]],
    ["shift+delete", ["\x1b[3;2~"]],
    ["ctrl+shift+-", ["\x1b[45;6u"]],
    ["a", ["a", "\x1b[97u"]],
    ["A", ["A", "\x1b[65u", "\x1b[27;2;65~"]],
    ["日", ["日"]],
    ["🚀", ["🚀"]],
  ];
  for (const [expected, sequences] of table) {
    for (const sequence of sequences) {
      test(`${JSON.stringify(sequence)} is ${expected}`, () => expect(id(sequence)).toBe(expected));
    }
  }

  test("printable keys carry the text they type; keys with Ctrl or Alt do not", () => {
    expect(decodeKey("x")?.text).toBe("x");
    expect(decodeKey("\x1b[65u")?.text).toBe("A");
    expect(decodeKey("\x1b[27;2;65~")?.text).toBe("A");
    expect(decodeKey("\x01")?.text).toBeUndefined();
    expect(decodeKey("\x1bx")?.text).toBeUndefined();
    expect(decodeKey("\r")?.text).toBeUndefined();
  });

  test("Kitty key releases and unknown sequences decode to nothing (never stray text)", () => {
    expect(decodeKey("\x1b[97;1:3u")).toBeUndefined();
    expect(decodeKey("\x1b[13;2:3u")).toBeUndefined();
    expect(decodeKey("\x1b[1;1:3A")).toBeUndefined();
    expect(decodeKey("\x1b[99~")).toBeUndefined();
    expect(decodeKey("\x1b[<64;10;5M")).toBeUndefined();
    expect(decodeKey("\x1b[57444u")).toBeUndefined(); // a Kitty modifier key pressed alone
  });

  test("Kitty key repeats read as presses", () => expect(id("\x1b[97;5:2u")).toBe("ctrl+a"));
});

describe("InputParser", () => {
  const keys = (parser: InputParser, data: string) =>
    parser.push(data).map((event) => (event.type === "key" ? keyId(event.key) : event.type === "paste" ? `paste:${event.text}` : `reply:${event.reply.kind}`));

  test("a chunk splits into its keys", () => {
    expect(keys(new InputParser(), "ab\x1b[A\r\x1b\r\x01日")).toEqual(["a", "b", "up", "enter", "alt+enter", "ctrl+a", "日"]);
  });

  test("an escape sequence cut across chunks waits for its end", () => {
    const parser = new InputParser();
    expect(keys(parser, "x\x1b[1;")).toEqual(["x"]);
    expect(parser.pending).toBe("sequence");
    expect(keys(parser, "5C")).toEqual(["ctrl+right"]);
    expect(parser.pending).toBeUndefined();
  });

  test("a lone ESC is the Escape key only once the caller's timeout flushes it", () => {
    const parser = new InputParser();
    expect(keys(parser, "\x1b")).toEqual([]);
    expect(parser.pending).toBe("sequence");
    expect(parser.flush().map((event) => event.type === "key" && keyId(event.key))).toEqual(["escape"]);
    expect(parser.pending).toBeUndefined();
  });

  test("Escape pressed twice flushes as two Escapes", () => {
    const parser = new InputParser();
    expect(keys(parser, "\x1b\x1b")).toEqual([]);
    expect(parser.flush().map((event) => event.type === "key" && keyId(event.key))).toEqual(["escape", "escape"]);
  });

  test("a bracketed paste is one event, escape sequences inside it included, even across chunks", () => {
    const parser = new InputParser();
    expect(keys(parser, "a\x1b[200~line 1\r\nline \x1b[A2")).toEqual(["a"]);
    expect(parser.pending).toBe("paste");
    expect(keys(parser, "\tend\x1b[20")).toEqual([]);
    expect(keys(parser, "1~b")).toEqual(["paste:line 1\r\nline \x1b[A2\tend", "b"]);
  });

  test("a paste whose end marker never comes is delivered by flush", () => {
    const parser = new InputParser();
    parser.push("\x1b[200~abc");
    expect(parser.flush()).toEqual([{ type: "paste", text: "abc" }]);
  });

  test("replies to the keyboard query are told apart from keys", () => {
    expect(keys(new InputParser(), "\x1b[?1u\x1b[?62;22c\x1b[?1;2c")).toEqual(["reply:kitty-flags", "reply:device-attributes", "reply:device-attributes"]);
  });

  test("OSC replies are consumed whole and produce no keys", () => {
    expect(keys(new InputParser(), "\x1b]11;rgb:0000/0000/0000\x07x\x1b]11;rgb:ffff/ffff/ffff\x1b\\y")).toEqual(["x", "y"]);
  });

  test("sequenceLength", () => {
    expect(sequenceLength("\x1b[1;5Cx")).toBe(6);
    expect(sequenceLength("\x1bOAx")).toBe(3);
    expect(sequenceLength("\x1b[")).toBe(0);
    expect(sequenceLength("\x1bO")).toBe(0);
    expect(sequenceLength("🚀x")).toBe(2);
    expect(sequenceLength("\x1b🚀")).toBe(3);
    expect(sequenceLength("\x1b\x1b[A")).toBe(4);
  });
});
