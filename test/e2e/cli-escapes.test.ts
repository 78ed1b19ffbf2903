// What the trust and extension commands print about a folder: its path and its extensions' names
// and manifest fields are the folder's (an archive's top folder, a cloned repository's directory
// names), shown with every escape as a mark, never written to the terminal (an OSC 52 there would
// set the user's clipboard).
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { trustDir } from "../support/trust.ts";
import { tempDir, zot } from "../support/zot.ts";

const OSC52 = "\x1b]52;c;ZWNobyBwd25lZA==\x07";

test("zot trust, trust --list, untrust, ext list and ext doctor in a folder whose names hold an OSC 52: no escape reaches the terminal, its marks do", async () => {
  const home = tempDir("zot-cli-esc-home-");
  const cwd = join(tempDir("zot-cli-esc-"), `proj${OSC52}`);
  const ext = join(cwd, ".zot", "extensions", `fmt${OSC52}`);
  mkdirSync(ext, { recursive: true });
  writeFileSync(join(ext, "extension.json"), JSON.stringify({ name: "fmt", version: `1.0${OSC52}`, exec: "true" }));
  const runs = [await zot(["ext", "list"], { home, cwd }), await zot(["ext", "doctor"], { home, cwd })];
  trustDir(home, cwd);
  runs.push(await zot(["ext", "doctor"], { home, cwd }), await zot(["trust"], { home, cwd }), await zot(["trust", "--list"], { home, cwd }), await zot(["untrust"], { home, cwd }));
  for (const run of runs) {
    expect(`${run.stdout}${run.stderr}`).not.toContain("\x1b");
    expect(`${run.stdout}${run.stderr}`).not.toContain("\x07");
  }
  const said = runs.map((run) => `${run.stdout}${run.stderr}`).join("");
  expect(said).toContain("proj\u241b]52;c;ZWNobyBwd25lZA==\u2407");
  expect(runs[3]!.stdout).toContain("fmt\u241b]52;c;ZWNobyBwd25lZA==\u2407");
  expect(runs[2]!.stdout).toContain("1.0\u241b]52;c;ZWNobyBwd25lZA==\u2407");
});

test("a folder whose name holds a newline adds no row of its own to zot trust --list, trust or untrust", async () => {
  const home = tempDir("zot-cli-esc-home-");
  const cwd = join(tempDir("zot-cli-esc-"), "evil\nrefused   2026-11-28  /somewhere/else");
  mkdirSync(cwd, { recursive: true });
  const trusted = await zot(["trust"], { home, cwd });
  expect(trusted.stdout.trim().split("\n")).toHaveLength(1);
  expect(trusted.stdout).toContain("evil\u240arefused");
  const listed = await zot(["trust", "--list"], { home, cwd });
  expect(listed.stdout.trim().split("\n")).toHaveLength(1);
  expect(listed.stdout).toStartWith("trusted ");
  const forgot = await zot(["untrust"], { home, cwd });
  expect(forgot.stdout.trim().split("\n")).toHaveLength(1);
});
