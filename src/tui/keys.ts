// What one complete input sequence means as a key press: legacy bytes, CSI/SS3 cursor and
// function keys with xterm modifiers, xterm modifyOtherKeys (`CSI 27;mod;code~`) and the Kitty
// keyboard protocol (`CSI code;mod u`). Rule: pure tables, no I/O; the same key reads the same
// whatever encoding the terminal used, and a sequence we do not know decodes to undefined (dropped),
// never to stray text in the editor.

export interface Key {
  /** "a", "enter", "up", "f5", …; a printable key's name is the character itself ("A", "?", "日"). */
  readonly name: string;
  readonly ctrl: boolean;
  readonly alt: boolean;
  readonly shift: boolean;
  /** What the key types, for printable keys without Ctrl or Alt. */
  readonly text?: string;
  /**
   * Read at the start, before zot had the terminal: typed at the shell (`zot⏎/model haiku⏎`), where
   * the cooked terminal made Enter a line feed, so this Ctrl+J was an Enter. Only the prompt editor
   * reads it so; a question (the trust question, a confirmation) takes it as the Ctrl+J it is.
   */
  readonly typedAhead?: true;
}

/** "ctrl+a", "alt+enter", "shift+tab", "ctrl+alt+left", "x": one string to switch on. */
export function keyId(key: Key): string {
  return [key.ctrl && "ctrl", key.alt && "alt", key.shift && "shift", key.name].filter(Boolean).join("+");
}

function key(name: string, mods: { ctrl?: boolean; alt?: boolean; shift?: boolean } = {}): Key {
  return { name, ctrl: mods.ctrl ?? false, alt: mods.alt ?? false, shift: mods.shift ?? false };
}

function textKey(text: string): Key {
  return { name: text, ctrl: false, alt: false, shift: false, text };
}

/** Single bytes with a name of their own. */
const CONTROL_BYTES: Record<string, Key> = {
  "\r": key("enter"),
  "\n": key("j", { ctrl: true }),
  "\t": key("tab"),
  "\x7f": key("backspace"),
  // ^H: what Backspace sends on some terminals; read as Backspace so a word is never lost by surprise.
  "\x08": key("backspace"),
  "\x1b": key("escape"),
  "\x00": key("space", { ctrl: true }),
  "\x1c": key("\\", { ctrl: true }),
  "\x1d": key("]", { ctrl: true }),
  "\x1e": key("^", { ctrl: true }),
  "\x1f": key("_", { ctrl: true }),
};

/** Final byte of `CSI [1;mod] X` and `SS3 X`. */
const LETTER_KEYS: Record<string, string> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  E: "clear",
  P: "f1",
  Q: "f2",
  R: "f3",
  S: "f4",
};

/** First parameter of `CSI n [;mod] ~`. */
const TILDE_KEYS: Record<number, string> = {
  1: "home",
  2: "insert",
  3: "delete",
  4: "end",
  5: "pageup",
  6: "pagedown",
  7: "home",
  8: "end",
  11: "f1",
  12: "f2",
  13: "f3",
  14: "f4",
  15: "f5",
  17: "f6",
  18: "f7",
  19: "f8",
  20: "f9",
  21: "f10",
  23: "f11",
  24: "f12",
};

/** Code points the Kitty protocol and modifyOtherKeys report for keys that have a name. */
const CODE_KEYS: Record<number, string> = { 9: "tab", 13: "enter", 27: "escape", 32: "space", 127: "backspace", 8: "backspace" };

/** Kitty's private-use codes for keys that legacy encodings send as CSI/SS3. */
const KITTY_FUNCTIONAL: Record<number, string> = {
  57399: "0",
  57414: "enter",
  57417: "left",
  57418: "right",
  57419: "up",
  57420: "down",
  57421: "pageup",
  57422: "pagedown",
  57423: "home",
  57424: "end",
  57425: "insert",
  57426: "delete",
};

/** The xterm modifier parameter: 1 + shift(1) + alt(2) + ctrl(4) (+ super 8, ignored). */
function modifiers(parameter: number | undefined): { ctrl: boolean; alt: boolean; shift: boolean } {
  const bits = parameter && parameter > 1 ? parameter - 1 : 0;
  return { shift: (bits & 1) !== 0, alt: (bits & 2) !== 0, ctrl: (bits & 4) !== 0 };
}

/** A code point with modifiers, as modifyOtherKeys and the Kitty protocol report it. */
function codeKey(code: number, mods: { ctrl: boolean; alt: boolean; shift: boolean }): Key | undefined {
  // Shift+Space types a space (Shift held for capitals); with Ctrl or Alt it is a key of its own.
  if (code === 32 && !mods.ctrl && !mods.alt) return textKey(" ");
  const named = CODE_KEYS[code] ?? KITTY_FUNCTIONAL[code];
  if (named) return key(named, mods);
  if (code < 32 || (code >= 57344 && code <= 63743)) return undefined;
  const char = String.fromCodePoint(code);
  if (!mods.ctrl && !mods.alt) return textKey(char);
  // Ctrl/Alt with a letter: the letter's own name, shift as a flag (Ctrl+Shift+A reads "ctrl+shift+a").
  const lower = char.toLowerCase();
  return key(lower, { ...mods, shift: mods.shift || (lower !== char && char.toUpperCase() === char) });
}

/** Decodes one complete sequence (as InputParser splits them). */
export function decodeKey(sequence: string): Key | undefined {
  if (sequence.length === 0) return undefined;
  const control = CONTROL_BYTES[sequence];
  if (control) return control;
  if (sequence.startsWith("\x1b[")) return decodeCsi(sequence.slice(2));
  if (sequence.startsWith("\x1bO") && sequence.length === 3) {
    const name = LETTER_KEYS[sequence[2]];
    return name ? key(name) : undefined;
  }
  // OSC, DCS, APC, PM strings are replies and markers, not keys.
  if (sequence.length > 2 && sequence[0] === "\x1b" && "]P_^".includes(sequence[1])) return undefined;
  if (sequence[0] === "\x1b") {
    // ESC as a prefix: Alt held with the key that follows (Alt+Enter is "\x1b\r").
    const inner = decodeKey(sequence.slice(1));
    if (!inner) return undefined;
    if (inner.text !== undefined) return codeKey(inner.text.codePointAt(0)!, { ctrl: false, alt: true, shift: false });
    return { ...inner, alt: true };
  }
  const code = sequence.codePointAt(0)!;
  if (code >= 1 && code <= 26) return key(String.fromCharCode(code + 96), { ctrl: true });
  if (code < 32) return undefined;
  return textKey(sequence);
}

function decodeCsi(body: string): Key | undefined {
  const final = body[body.length - 1];
  const params = body.slice(0, -1);
  if (params.startsWith("?") || params.startsWith(">") || params.startsWith("<")) return undefined;
  // Kitty: code[:shifted[:base]];mods[:event];text — event 3 is a release, which nothing here wants.
  const fields = params.split(";");
  const numbers = fields.map((field) => Number(field.split(":")[0] || "1"));
  const event = Number(fields[1]?.split(":")[1] ?? "1");
  if (final === "u") {
    if (event === 3) return undefined;
    return codeKey(numbers[0], modifiers(numbers[1]));
  }
  if (final === "~") {
    if (event === 3) return undefined;
    if (numbers[0] === 27 && numbers.length >= 3) return codeKey(numbers[2], modifiers(numbers[1]));
    const name = TILDE_KEYS[numbers[0]];
    return name ? key(name, modifiers(numbers[1])) : undefined;
  }
  if (final === "Z") return key("tab", { shift: true });
  const name = LETTER_KEYS[final];
  if (!name || event === 3) return undefined;
  return key(name, modifiers(fields.length > 1 ? numbers[1] : undefined));
}
