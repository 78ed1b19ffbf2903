// The @ file picker shows a folder's file names and an MCP server's resource names with their
// controls as marks: a cloned repository's file named with a concealing SGR (ESC[8m) or an OSC 52
// is listed, never obeyed by the terminal.
import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FilePicker } from "../../src/modes/interactive/file-picker.ts";
import { createTheme } from "../../src/tui/theme.ts";

test("file and resource names with escapes are shown with marks, and none of their escapes reaches the rows", () => {
  const cwd = mkdtempSync(join(tmpdir(), "zot-picker-"));
  writeFileSync(join(cwd, "a\x1b[8mhidden.txt"), "");
  writeFileSync(join(cwd, "b\x1b]52;c;ZWNobw==\x07.txt"), "");
  const picker = new FilePicker(createTheme({ color: false }), cwd, () => [{ mention: "@srv:\x1b[8mdoc", name: "doc\x1b[8m", server: "srv", uri: "x://doc" } as never]);
  picker.update("");
  const files = picker.render(80).join("\n");
  // The picker's own bold stays; the names' escapes do not.
  expect(files).not.toContain("\x1b[8m");
  expect(files).not.toContain("\x1b]");
  expect(files).toContain("a\u241b[8mhidden.txt");
  expect(files).toContain("b\u241b]52;c;ZWNobw==\u2407.txt");
  picker.update("srv");
  const resources = picker.render(80).join("\n");
  expect(resources).not.toContain("\x1b[8m");
  expect(resources).toContain(":\u241b[8mdoc");
  expect(resources).toContain("  doc\u241b[8m");
});
