// The skills an extension ships (its manifest's `skills`): found in listed directories at any depth
// or as listed SKILL.md files, named `<extension>:<skill>`, never from outside the extension's
// directory, the first of a name kept; every problem a warning naming the file.
import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extensionSkills, skillNamespace } from "../../src/extensions/ext-skills.ts";
import type { Manifest } from "../../src/extensions/manifest.ts";
import { tempDir } from "../support/zot.ts";

function skill(dir: string, name: string, description = `${name} things`): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n\nDo ${name}.\n`);
}

const manifest = (name: string, skills: string[]): Manifest => ({ name, skills, enabled: true, priority: 0, protocol: "zot" }) as Manifest;

test("directories are searched at any depth, files taken as listed; names are <kebab extension>:<skill>", () => {
  const dir = tempDir("zot-ext-skills-");
  skill(join(dir, "skills", "commits"), "commits");
  skill(join(dir, "skills", "deep", "er", "review"), "review");
  skill(join(dir, "skills", "node_modules", "x"), "hidden-dep");
  skill(join(dir, "skills", ".cache", "y"), "hidden-dot");
  skill(join(dir, "extra"), "extra");
  const found = extensionSkills([{ manifest: manifest("Git_Tools", ["skills", "extra/SKILL.md"]), dir }]);
  expect(found.warnings).toEqual([]);
  expect(found.skills.map((s) => [s.name, s.source])).toEqual([
    ["git-tools:commits", "extension"],
    ["git-tools:review", "extension"],
    ["git-tools:extra", "extension"],
  ]);
  expect(found.skills[0].body).toContain("Do commits.");
  expect(skillNamespace("My.Ext__2")).toBe("my-ext-2");
});

test("a path out of the extension (.., absolute, a symlink out), a missing one, a file that is no SKILL.md and a broken SKILL.md are warnings", () => {
  const root = tempDir("zot-ext-skills-");
  const dir = join(root, "ext");
  skill(join(root, "outside"), "outside");
  mkdirSync(dir);
  symlinkSync(join(root, "outside"), join(dir, "linked"));
  writeFileSync(join(dir, "notes.txt"), "x");
  mkdirSync(join(dir, "broken"));
  writeFileSync(join(dir, "broken", "SKILL.md"), "no frontmatter");
  skill(join(dir, "ok"), "fine");
  const found = extensionSkills([{ manifest: manifest("e", ["../outside", join(root, "outside"), "linked", "missing", "notes.txt", "broken", "ok"]), dir }]);
  expect(found.skills.map((s) => s.name)).toEqual(["e:fine"]);
  const text = found.warnings.join("\n");
  expect(text).toContain('extension "e": skills entry "../outside" leaves the extension\'s directory');
  expect(text).toContain(`skills entry "${join(root, "outside")}" leaves the extension's directory`);
  expect(text).toContain('skills entry "linked" leaves the extension\'s directory');
  expect(text).toContain(`skills entry "missing": ${join(dir, "missing")} does not exist`);
  expect(text).toContain('skills entry "notes.txt" is neither a directory nor a SKILL.md file');
  expect(text).toContain(`skill skipped: ${join(dir, "broken", "SKILL.md")}`);
});

test("two extensions whose names give the same namespace: the first one's skill wins, with a warning", () => {
  const a = tempDir("zot-ext-skills-");
  const b = tempDir("zot-ext-skills-");
  skill(join(a, "s"), "same");
  skill(join(b, "s"), "same");
  const found = extensionSkills([
    { manifest: manifest("tools", ["s"]), dir: a },
    { manifest: manifest("Tools", ["s"]), dir: b },
  ]);
  expect(found.skills.map((s) => s.path)).toEqual([join(a, "s", "SKILL.md")]);
  expect(found.warnings).toEqual([`skill "tools:same" in ${join(b, "s", "SKILL.md")} is ignored: ${join(a, "s", "SKILL.md")} has the same name and comes first`]);
});

test("an extension's skill keeps its disable-model-invocation and user-invocable", () => {
  const dir = tempDir("zot-ext-skills-");
  mkdirSync(join(dir, "deploy"), { recursive: true });
  writeFileSync(join(dir, "deploy", "SKILL.md"), "---\nname: deploy\ndescription: Deploy\ndisable-model-invocation: true\n---\nDeploy.\n");
  mkdirSync(join(dir, "style"), { recursive: true });
  writeFileSync(join(dir, "style", "SKILL.md"), "---\nname: style\ndescription: Style\nuser-invocable: false\n---\nStyle.\n");
  const found = extensionSkills([{ manifest: manifest("ops", ["deploy", "style"]), dir }]);
  expect(found.warnings).toEqual([]);
  expect(found.skills.map((s) => [s.name, s.modelInvocable, s.userInvocable])).toEqual([
    ["ops:deploy", false, undefined],
    ["ops:style", undefined, false],
  ]);
});
