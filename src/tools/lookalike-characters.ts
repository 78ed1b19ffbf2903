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

/**
 * When a line of old_text is in the file but for look-alike characters, which ones differ and on
 * which line of the file; undefined when none is.
 */
export function lookalikeHint(fileLines: readonly string[], wanted: readonly string[]): string | undefined {
  // Only a text that has such a character somewhere is looked at, and each file line folded once.
  if (!mayHaveLookalikes(wanted.join("\n")) && !mayHaveLookalikes(fileLines.join("\n"))) return undefined;
  let foldedFile: string[] | undefined;
  for (const line of wanted.filter((line) => line.trim()).slice(0, 20)) {
    // A line that is in the file as written is not where old_text differs.
    if (fileLines.some((fileLine) => fileLine.includes(line))) continue;
    const folded = fold(line);
    foldedFile ??= fileLines.map(fold);
    const at = fileLines.findIndex((_, i) => foldedFile?.[i].includes(folded));
    if (at < 0) continue;
    const inFile = new Set([...fileLines[at]].filter(isLookalike));
    const inOld = new Set([...line].filter(isLookalike));
    // The file line's own look-alikes only where old_text has what they are taken as (not from the rest of the line).
    const fileOnly = [...inFile].filter((char) => !inOld.has(char) && (fold(char) === "" || folded.includes(fold(char))));
    const oldOnly = [...inOld].filter((char) => !inFile.has(char));
    if (fileOnly.length === 0 && oldOnly.length === 0) continue;
    const sides = [
      fileOnly.length > 0 ? `the file has ${fileOnly.map(describe).join(", ")}` : "",
      oldOnly.length > 0 ? `old_text has ${oldOnly.map(describe).join(", ")}` : "",
    ].filter(Boolean);
    return (
      `Its line ${JSON.stringify(line.trim().slice(0, 80))} is the file's line ${at + 1} but for characters that look alike: ` +
      `${sides.join(", and ")}. Write them as the file has them (in JSON, \\u escapes such as \\u2019 work).`
    );
  }
  return undefined;
}
