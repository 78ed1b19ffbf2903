// Finding a program on PATH as Bun.which does, without its throw for a name no file can have.
import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findProgram } from "../../src/process/find-program.ts";
import { tempDir } from "../support/zot.ts";

test("a program on the PATH given is found; a relative PATH entry is relative to the cwd given; a name longer than a path may be is not there", () => {
  const dir = tempDir();
  mkdirSync(join(dir, "bin"));
  const tool = join(dir, "bin", "zot-test-tool");
  writeFileSync(tool, "#!/bin/sh\n");
  chmodSync(tool, 0o755);
  expect(findProgram("zot-test-tool", join(dir, "bin"))).toBe(tool);
  expect(findProgram("zot-test-tool", "bin", dir)).toBe(tool);
  expect(findProgram("zot-test-tool", "/nonexistent")).toBeUndefined();
  expect(findProgram("x".repeat(10_000), join(dir, "bin"))).toBeUndefined();
});
