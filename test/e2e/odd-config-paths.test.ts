// What zot looks for at start (memory files, skills, settings, MCP and extension folders) where
// something odd stands in its place: a file where a folder should be, a link that loops. Each is
// absent, or a note naming it; the run goes on and answers.
import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, zot } from "../support/zot.ts";

function script(): string {
  const file = join(tempDir("zot-odd-script-"), "turns.json");
  writeFileSync(file, JSON.stringify([{ text: "answered" }]));
  return file;
}

test("a file where ~/.claude, ~/.codex, the folder's .claude or .zot should be is no folder: the run answers", async () => {
  const userHome = tempDir("zot-odd-user-");
  const cwd = tempDir("zot-odd-cwd-");
  for (const file of [join(userHome, ".claude"), join(userHome, ".codex"), join(cwd, ".claude"), join(cwd, ".zot")]) writeFileSync(file, "");
  for (const mode of [["-p", "go"], ["--json", "go"]]) {
    const run = await zot([...mode, "--provider", "scripted", "--script", script()], { cwd, env: { HOME: userHome } });
    expect([mode[0], run.code, run.stderr]).toEqual([mode[0], 0, expect.not.stringContaining("ENOTDIR")]);
    expect(run.stdout).toContain("answered");
  }
});

test("links that loop where a memory file, SYSTEM.md, a settings file or .mcp.json should be: the run answers, and each file it would have read is named", async () => {
  const userHome = tempDir("zot-odd-user-");
  const cwd = tempDir("zot-odd-cwd-");
  const home = tempDir("zot-odd-home-");
  mkdirSync(join(userHome, ".claude"));
  for (const file of [join(userHome, ".claude", "settings.json"), join(userHome, ".claude", "CLAUDE.md"), join(cwd, "CLAUDE.md"), join(cwd, ".mcp.json"), join(home, "AGENTS.md"), join(home, "settings.json"), join(home, "SYSTEM.md")]) {
    symlinkSync(file, file);
  }
  const run = await zot(["-p", "go", "--provider", "scripted", "--script", script()], { cwd, home, env: { HOME: userHome } });
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("answered\n");
  expect(run.stderr).not.toContain("ELOOP: ");
  expect(run.stderr).not.toContain("(ELOOP)");
  expect(run.stderr).toContain(`cannot read ${join(cwd, ".mcp.json")} (it is a link that loops)`);
  expect(run.stderr).toContain("~/.claude/settings.json: cannot be read (it is a link that loops); its hooks do not run");
  // A memory file or SYSTEM.md that is there and cannot be read is said, not dropped without a word.
  expect(run.stderr).toContain(`${join(cwd, "CLAUDE.md")} cannot be read (it is a link that loops); it is left out of the system prompt`);
  expect(run.stderr).toContain(`${join(home, "SYSTEM.md")} cannot be read (it is a link that loops); zot's own identity is used instead`);
});
