// The look-alike hint names the characters that keep old_text from matching, in the part of the
// file it matches, and no others.
import { expect, test } from "bun:test";
import { lookalikeHint } from "../../src/tools/lookalike-characters.ts";

test("a text that is in the file as written is not blamed, though another place matches it but for look-alikes", () => {
  expect(lookalikeHint("It\u2019s here\nIt's here\nend\n", "It's here\na missing line")).toBeUndefined();
});

test("old_text is matched as a block: a line of it that is also elsewhere as written does not hide where the block differs", () => {
  const hint = lookalikeHint("It\u2019s here\nnext line\n\nIt's here\nother\n", "It's here\nnext line");
  expect(hint).toBe(
    "It is the file's text from line 1 but for characters that look alike: the file has U+2019 (right single quotation mark). Write them as the file has them (in JSON, \\u escapes such as \\u2019 work).",
  );
});

test("only the look-alikes of the part old_text matches are named, not those of the rest of the file line", () => {
  const hint = lookalikeHint("He said \u2018hi\u2019 and \u201Cit\u2019s\u201D done\u200B!\n", "it's done");
  expect(hint).toBeUndefined();
  const quoted = lookalikeHint("He said \u201Chi\u201D and it\u2019s done\n", "it's done");
  expect(quoted).toContain("the file has U+2019 (right single quotation mark)");
  expect(quoted).not.toContain("U+201C");
  const accents = lookalikeHint("Caf\u00e9 and na\u00efve and \u2019 \u2018x\u2018\n", "na\u00efve and '");
  expect(accents).toContain("U+2019");
  expect(accents).not.toContain("U+00E9");
  expect(accents).not.toContain("U+2018");
});

test("decomposed (NFD) Hangul in the file against composed old_text is named, syllable by syllable", () => {
  const hint = lookalikeHint("\uD55C\uAD6D\uC5B4 text\n".normalize("NFD"), "\uD55C\uAD6D\uC5B4 text");
  expect(hint).toContain("is the file's line 1 but for characters that look alike");
});
