// The look-alike hint names the characters that keep old_text from matching, on the line where
// they are, and no others.
import { expect, test } from "bun:test";
import { lookalikeHint } from "../../src/tools/lookalike-characters.ts";

test("a line that is in the file as written is not blamed, though another line matches it but for look-alikes", () => {
  expect(lookalikeHint(["It\u2019s here", "It's here", "end"], ["It's here", "a missing line"])).toBeUndefined();
});

test("only the look-alikes of the part old_text covers are named, not those of the rest of the file line", () => {
  const hint = lookalikeHint(["He said \u201Chi\u201D and it\u2019s done"], ["it's done"]);
  expect(hint).toContain("the file has U+2019 (right single quotation mark)");
  expect(hint).not.toContain("U+201C");
  expect(hint).not.toContain("U+201D");
  const accents = lookalikeHint(["Caf\u00e9 and na\u00efve and \u2019"], ["na\u00efve and '"]);
  expect(accents).toContain("U+2019");
  expect(accents).not.toContain("U+00E9");
});
