// Discovery: --ext first, then the project's .zot/extensions, then $ZOT_HOME/extensions, each
// sorted by directory name; broken directories reported, not skipped; the first of a name wins and
// later ones come back shadowed; --no-ext keeps only the explicit paths.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DiscoveredExtension, discoverExtensions, extensionSearchDirs } from "../../src/extensions/discover.ts";

const root = mkdtempSync(join(tmpdir(), "zot-discover-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
function layout() {
  const base = join(root, `case-${++count}`);
  const cwd = join(base, "project");
  const home = join(base, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  return { base, cwd, home, project: join(cwd, ".zot", "extensions"), global: join(home, "extensions") };
}

function extension(dir: string, manifest: Record<string, unknown> | string | null): string {
  mkdirSync(dir, { recursive: true });
  if (manifest !== null) {
    writeFileSync(join(dir, "extension.json"), typeof manifest === "string" ? manifest : JSON.stringify(manifest));
  }
  return dir;
}

/** The parts of an entry worth comparing, by directory. */
function summary(entries: DiscoveredExtension[]) {
  return entries.map((e) => ({
    source: e.source,
    dir: e.dir,
    name: e.manifest?.name,
    ...(e.error ? { error: e.error } : {}),
    ...(e.shadowedBy ? { shadowedBy: e.shadowedBy } : {}),
  }));
}

describe("discoverExtensions", () => {
  test("precedence: --ext, then project, then global; each sorted by directory name", async () => {
    const { base, cwd, home, project, global } = layout();
    const flagDir = extension(join(base, "elsewhere", "flagged"), { name: "flagged", exec: "./f" });
    const flagFile = join(extension(join(base, "elsewhere", "by-file"), { name: "by-file", exec: "./f" }), "extension.json");
    const p1 = extension(join(project, "zeta"), { name: "zeta", exec: "./z" });
    const p2 = extension(join(project, "alpha"), { name: "alpha", exec: "./a" });
    const g1 = extension(join(global, "middle"), { name: "middle", exec: "./m" });
    const g2 = extension(join(global, "Beta"), { name: "Beta", exec: "./b" });
    // Not extensions: a plain file, and a hidden directory (install stages copies there).
    writeFileSync(join(project, "README.md"), "notes");
    extension(join(project, ".alpha.installing-1"), { name: "alpha", exec: "./a" });

    const found = await discoverExtensions({ cwd, home, explicit: [flagDir, flagFile], noDiscovery: false, projectTrusted: true });
    expect(summary(found)).toEqual([
      { source: "flag", dir: flagDir, name: "flagged" },
      { source: "flag", dir: join(base, "elsewhere", "by-file"), name: "by-file" },
      { source: "project", dir: p2, name: "alpha" },
      { source: "project", dir: p1, name: "zeta" },
      { source: "global", dir: g2, name: "Beta" },
      { source: "global", dir: g1, name: "middle" },
    ]);
    expect(found[0].manifestFile).toBe(join(flagDir, "extension.json"));
    expect(found[1].manifestFile).toBe(flagFile);
  });

  test("relative --ext paths are resolved against cwd", async () => {
    const { cwd, home } = layout();
    const dir = extension(join(cwd, "exts", "mine"), { name: "mine", exec: "./m" });
    expect(summary(await discoverExtensions({ cwd, home, explicit: ["exts/mine"], noDiscovery: true, projectTrusted: true }))).toEqual([
      { source: "flag", dir, name: "mine" },
    ]);
  });

  test("a name already taken comes back shadowed by the winner's directory; a disabled winner still holds it", async () => {
    const { base, cwd, home, project, global } = layout();
    const flagged = extension(join(base, "dev", "guard"), { name: "guard", exec: "./g" });
    const projectGuard = extension(join(project, "guard"), { name: "guard", exec: "./g" });
    // Same manifest name under a different directory name: still the same extension name.
    const globalGuard = extension(join(global, "guard-copy"), { name: "guard", exec: "./g" });
    const projectTool = extension(join(project, "tool"), { name: "tool", exec: "./t", enabled: false });
    const globalTool = extension(join(global, "tool"), { name: "tool", exec: "./t" });

    const found = await discoverExtensions({ cwd, home, explicit: [flagged], noDiscovery: false, projectTrusted: true });
    expect(summary(found)).toEqual([
      { source: "flag", dir: flagged, name: "guard" },
      { source: "project", dir: projectGuard, name: "guard", shadowedBy: flagged },
      { source: "project", dir: projectTool, name: "tool" },
      { source: "global", dir: globalGuard, name: "guard", shadowedBy: flagged },
      { source: "global", dir: globalTool, name: "tool", shadowedBy: projectTool },
    ]);
    expect(found[2].manifest?.enabled).toBe(false);
  });

  test("broken entries are reported with a reason, and do not hold a name", async () => {
    const { base, cwd, home, project, global } = layout();
    // A folder with files but no manifest is reported; an empty one is no extension (skipped without a word).
    const empty = extension(join(project, "empty"), null);
    writeFileSync(join(empty, "main.py"), "print('hi')\n");
    mkdirSync(join(project, "nothing-yet"));
    const bad = extension(join(project, "bad"), '{"name": "bad"}');
    const notJson = extension(join(project, "garbled"), "{ nope");
    const good = extension(join(global, "bad"), { name: "bad", exec: "./b" });
    const missing = join(base, "not-there");
    const script = join(base, "ext.py");
    writeFileSync(script, "print('hi')\n");

    const found = await discoverExtensions({ cwd, home, explicit: [missing, script], noDiscovery: false, projectTrusted: true });
    expect(summary(found)).toEqual([
      { source: "flag", dir: missing, name: undefined, error: `--ext ${missing}: ${missing} does not exist` },
      {
        source: "flag",
        dir: base,
        name: undefined,
        error: `--ext ${script}: ${script} is not a directory or a manifest; give the extension's directory (with extension.json in it) or its extension.json`,
      },
      { source: "project", dir: bad, name: undefined, error: `${join(bad, "extension.json")}: "exec" is required (a string)` },
      { source: "project", dir: empty, name: undefined, error: `no extension.json in ${empty}` },
      { source: "project", dir: notJson, name: undefined, error: expect.stringContaining(`${join(notJson, "extension.json")}: not valid JSON (`) },
      { source: "global", dir: good, name: "bad" },
    ]);
    expect(found[3].manifestFile).toBe(join(empty, "extension.json"));
  });

  test("--no-ext keeps only the explicit paths", async () => {
    const { base, cwd, home, project, global } = layout();
    const flagged = extension(join(base, "x"), { name: "x", exec: "./x" });
    extension(join(project, "p"), { name: "p", exec: "./p" });
    extension(join(global, "g"), { name: "g", exec: "./g" });
    expect(summary(await discoverExtensions({ cwd, home, explicit: [flagged], noDiscovery: true, projectTrusted: true }))).toEqual([
      { source: "flag", dir: flagged, name: "x" },
    ]);
    expect(await discoverExtensions({ cwd, home, explicit: [], noDiscovery: true, projectTrusted: true })).toEqual([]);
  });

  test("missing search directories are simply empty; the same directory twice is one extension", async () => {
    const { cwd, home, project } = layout();
    expect(await discoverExtensions({ cwd, home, explicit: [], noDiscovery: false, projectTrusted: true })).toEqual([]);

    const dir = extension(join(project, "once"), { name: "once", exec: "./o" });
    // --ext pointing at a discovered directory, and ZOT_HOME being the project's .zot.
    const found = await discoverExtensions({ cwd, home: join(cwd, ".zot"), explicit: [dir], noDiscovery: false, projectTrusted: true });
    expect(summary(found)).toEqual([{ source: "flag", dir, name: "once" }]);
  });

  test("a symlinked extension directory counts", async () => {
    const { base, cwd, home, global } = layout();
    const real = extension(join(base, "checkout"), { name: "linked", exec: "./l" });
    mkdirSync(global, { recursive: true });
    symlinkSync(real, join(global, "linked"));
    expect(summary(await discoverExtensions({ cwd, home, explicit: [], noDiscovery: false, projectTrusted: true }))).toEqual([
      { source: "global", dir: join(global, "linked"), name: "linked" },
    ]);
  });

  test("an extensions path that is a file is reported", async () => {
    const { cwd, home } = layout();
    mkdirSync(join(cwd, ".zot"), { recursive: true });
    writeFileSync(join(cwd, ".zot", "extensions"), "oops");
    const found = await discoverExtensions({ cwd, home, explicit: [], noDiscovery: false, projectTrusted: true });
    expect(summary(found)).toEqual([
      {
        source: "project",
        dir: join(cwd, ".zot", "extensions"),
        name: undefined,
        error: `${join(cwd, ".zot", "extensions")} is a file; extensions live in subdirectories of a directory there`,
      },
    ]);
  });

  test("extensionSearchDirs names the two directories", async () => {
    expect(extensionSearchDirs({ cwd: "/work/p", home: "/h/zot" })).toEqual({
      project: "/work/p/.zot/extensions",
      global: "/h/zot/extensions",
    });
  });
});
