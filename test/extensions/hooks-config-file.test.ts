// $ZOT_HOME/hooks.json that holds no hooks object: said, never passed over without a word.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadHooksConfig } from "../../src/extensions/hooks-config.ts";
import { tempDir } from "../support/zot.ts";

test("a hooks.json that is a list, or whose hooks is not an object, is a warning naming the file; nothing runs", () => {
  for (const [text, warning] of [
    ["[1, 2]", 'must be a JSON object, {"hooks": {"processes": {…}}}; its hooks are not loaded'],
    ['{"hooks": "x"}', '"hooks" must be an object, {"processes": {…}}; its hooks are not loaded'],
  ] as const) {
    const home = tempDir("zot-hooksfile-");
    writeFileSync(join(home, "hooks.json"), text);
    const loaded = loadHooksConfig({ cwd: tempDir("zot-hooksfile-cwd-"), home, env: {}, projectTrusted: false });
    expect(loaded.specs).toEqual([]);
    expect(loaded.warnings).toEqual([`${join(home, "hooks.json")}: ${warning}`]);
  }
});
