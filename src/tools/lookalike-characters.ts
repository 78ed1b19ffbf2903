// Characters that look alike and are not the same: a curly quote and a straight one, a no-break
// space and a space, a zero-width space and nothing, é and e + ◌́ (NFC and NFD). An old_text a model
// retyped from what it read often differs from the file only in these, and "copy the text exactly"
// does not say which. Rule: the hint names each such character by its code point, so the next call
// can write it as the file has it.

/** What each look-alike is taken as when texts are compared; a mark or an invisible one is nothing. */
function fold(text: string): string {
  return text
    .normalize("NFC")
    .replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
    .replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, " ")
    .replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, "");
}

const NAMES: Readonly<Record<string, string>> = {
  "\u2018": "left single quotation mark",
  "\u2019": "right single quotation mark",
  "\u201A": "single low quotation mark",
  "\u201B": "single high-reversed quotation mark",
  "\u2032": "prime",
  "\u201C": "left double quotation mark",
  "\u201D": "right double quotation mark",
  "\u201E": "double low quotation mark",
  "\u201F": "double high-reversed quotation mark",
  "\u2033": "double prime",
  "\u00A0": "no-break space",
  "\u202F": "narrow no-break space",
  "\u2007": "figure space",
  "\u2009": "thin space",
  "\u3000": "ideographic space",
  "\u200B": "zero-width space",
  "\u200C": "zero-width non-joiner",
  "\u200D": "zero-width joiner",
  "\u2060": "word joiner",
  "\uFEFF": "zero-width no-break space",
  "\u00AD": "soft hyphen",
};

const LOOKALIKE = /[\u2018-\u201F\u2032\u2033\u00A0\u00AD\u2000-\u200D\u202F\u205F\u2060\u3000\uFEFF\p{M}]/u;

/** Whether a text holds any character fold() or NFD would change (a cheap test before the per-line work). */
function mayHaveLookalikes(text: string): boolean {
  return LOOKALIKE.test(text) || text.normalize("NFD") !== text;
}

/** A character that may differ unseen: one fold changes, a combining mark, or one NFD splits. */
function isLookalike(char: string): boolean {
  return fold(char) !== char || /\p{M}/u.test(char) || char.normalize("NFD") !== char;
}

function describe(char: string): string {
  const code = `U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`;
  const name = NAMES[char];
  if (name) return `${code} (${name})`;
  if (/\p{M}/u.test(char)) return `${code} (a combining mark: that text is decomposed, NFD)`;
  return `${code} (${char}, composed: NFC)`;
}

/** A text folded (fold()), with each folded character's place in the text: [from, to) of what it came from. */
interface FoldedText {
  text: string;
  from: number[];
  to: number[];
}

/** Folded a grapheme at a time (a character with its marks, a Hangul syllable's jamo), so each folded character maps back to the text. */
function foldMapped(text: string): FoldedText {
  const out: FoldedText = { text: "", from: [], to: [] };
  for (const { segment, index } of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)) {
    const folded = fold(segment);
    for (let i = 0; i < folded.length; i++) {
      out.from.push(index);
      out.to.push(index + segment.length);
    }
    out.text += folded;
  }
  return out;
}

/** Files larger than this get no look-alike hint: folding them character by character would take seconds. */
const MAX_FOLDED = 2_000_000;

/**
 * When old_text (or, failing that, one of its lines) is in the file but for look-alike characters:
 * which of them differ, in the part of the file it matches, and on which line; undefined when none do.
 */
export function lookalikeHint(fileText: string, oldText: string): string | undefined {
  if (fileText.length > MAX_FOLDED || (!mayHaveLookalikes(oldText) && !mayHaveLookalikes(fileText))) return undefined;
  const file = foldMapped(fileText);
  // The whole of old_text first: its lines are where they are together, which a line alone may not say.
  const wanted = [oldText, ...oldText.split("\n").filter((line) => line.trim() && line !== oldText).slice(0, 20)];
  for (const text of wanted) {
    const folded = fold(text);
    if (!folded.trim()) continue;
    // A line alone that is in the file as written is not where old_text differs (the block may be).
    if (text !== oldText && fileText.includes(text)) continue;
    // Each place it matches once folded, until one differs in look-alikes (the first may be the text as written).
    for (let at = file.text.indexOf(folded); at >= 0; at = file.text.indexOf(folded, at + 1)) {
      const span = fileText.slice(file.from[at], file.to[at + folded.length - 1]);
      const hint = differing(span, text);
      if (hint === undefined) continue;
      const line = fileText.slice(0, file.from[at]).split("\n").length;
      const block = text === oldText && text.includes("\n");
      const subject = block ? `It is the file's text from line ${line}` : `Its line ${JSON.stringify(text.trim().slice(0, 80))} is the file's line ${line}`;
      return `${subject} but for characters that look alike: ${hint}. Write them as the file has them (in JSON, \\u escapes such as \\u2019 work).`;
    }
  }
  return undefined;
}

/** The look-alikes one side has and the other does not, in words; undefined when they have the same. */
function differing(span: string, text: string): string | undefined {
  const inFile = new Set([...span].filter(isLookalike));
  const inOld = new Set([...text].filter(isLookalike));
  const fileOnly = [...inFile].filter((char) => !inOld.has(char));
  const oldOnly = [...inOld].filter((char) => !inFile.has(char));
  if (fileOnly.length === 0 && oldOnly.length === 0) return undefined;
  return [
    fileOnly.length > 0 ? `the file has ${fileOnly.map(describe).join(", ")}` : "",
    oldOnly.length > 0 ? `old_text has ${oldOnly.map(describe).join(", ")}` : "",
  ]
    .filter(Boolean)
    .join(", and ");
}
