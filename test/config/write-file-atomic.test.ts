// zot's state files written whole; a link in a file's place (a dotfiles repository's copy) is
// written through, never replaced by a plain file.
import { expect, test } from "bun:test";
import { lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../src/config/write-file-atomic.ts";
import { tempDir } from "../support/zot.ts";

test("a plain file is replaced whole with the mode given, and no temporary is left", () => {
  const dir = tempDir();
  const file = join(dir, "mcp.json");
  writeFileSync(file, "old");
  writeFileAtomic(file, "new", 0o600);
  expect(readFileSync(file, "utf8")).toBe("new");
  expect(lstatSync(file).mode & 0o777).toBe(0o600);
  expect(readdirSync(dir)).toEqual(["mcp.json"]);
});

test("a link is written through: it stays a link, and the file it names has the new content", () => {
  const dotfiles = tempDir();
  const home = tempDir();
  const real = join(dotfiles, "mcp.json");
  writeFileSync(real, '{"mcpServers":{}}');
  const link = join(home, "mcp.json");
  symlinkSync(real, link);
  writeFileAtomic(link, '{"mcpServers":{"s":{}}}', 0o600);
  expect(lstatSync(link).isSymbolicLink()).toBe(true);
  expect(readFileSync(real, "utf8")).toBe('{"mcpServers":{"s":{}}}');
  expect(readdirSync(home)).toEqual(["mcp.json"]);
  expect(readdirSync(dotfiles)).toEqual(["mcp.json"]);
});

test("a link to nothing is refused, saying so, and left as it is", () => {
  const home = tempDir();
  const link = join(home, "trust.json");
  symlinkSync(join(home, "gone", "trust.json"), link);
  expect(() => writeFileAtomic(link, "{}", 0o600)).toThrow(`${link} is a link to ${join(home, "gone", "trust.json")}, which is not there; nothing was written`);
  expect(lstatSync(link).isSymbolicLink()).toBe(true);
});
