// Preloaded before every test file (bunfig.toml): removes the temp directories a test file made
// (test/support/zot.ts tempDir) once that file is over, and what is left when the run ends.
// Rule: a file's directories outlive its tests and its own afterAll hooks (which may still stop
// processes working in them) and are gone before the next file's first test.
import { afterAll, beforeEach } from "bun:test";
import { removeTempDirs } from "./temp-dirs.ts";

let running: string | undefined;

beforeEach(() => {
  if (Bun.main === running) return;
  running = Bun.main;
  removeTempDirs(running);
});

afterAll(() => {
  removeTempDirs();
});
