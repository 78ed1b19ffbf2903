// readSafe, the read of git's small files zot looks at for the jail's protected paths: a file far
// larger than any of them (a sparse .gitmodules of gigabytes in an archive) is not read.
import { expect, test } from "bun:test";
import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSafe } from "../../src/config/quiet-fs.ts";

test("a file past the limit reads as none; one within it reads whole", () => {
  const dir = mkdtempSync(join(tmpdir(), "zot-read-safe-"));
  const big = join(dir, ".gitmodules");
  writeFileSync(big, "");
  truncateSync(big, 64 * 1024 * 1024);
  expect(readSafe(big)).toBeUndefined();
  const small = join(dir, "config");
  writeFileSync(small, '[submodule "lib"]\n\tpath = lib\n');
  expect(readSafe(small)).toBe('[submodule "lib"]\n\tpath = lib\n');
});
