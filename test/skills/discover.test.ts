// Skill discovery on real folders: built-ins always, disk skills only with --with-skills, the
// search order (project, then user, then built-in), and warnings for broken or shadowed files.
// One test compiles a binary to prove the built-in skill is embedded, not read from disk; another
// that the build parsed each built-in SKILL.md exactly as the parser reads it.
import { afterAll, beforeEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILTIN_SKILLS, loadSkills, SKILL_MAX_BYTES, skillSearchDirs } from "../../src/skills/discover.ts";
import { parseSkillFile } from "../../src/skills/frontmatter.ts";
import { COMPILE_FLAGS } from "../../scripts/compile-flags.ts";

const root = mkdtempSync(join(tmpdir(), "zot-skills-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let cwd: string;
let home: string;
let userHome: string;
let run = 0;
beforeEach(() => {
  const base = join(root, `case-${run++}`);
  cwd = join(base, "project");
  home = join(base, "zot-home");
  userHome = join(base, "user");
  for (const dir of [cwd, home, userHome]) mkdirSync(dir, { recursive: true });
});

function skillText(name: string, description: string, body = `Instructions of ${name}.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;
}

/** Writes <dir>/<folder>/SKILL.md and returns its path. */
function writeSkill(dir: string, folder: string, text: string): string {
  mkdirSync(join(dir, folder), { recursive: true });
  const file = join(dir, folder, "SKILL.md");
  writeFileSync(file, text);
  return file;
}

function load(withUserSkills = true) {
  return loadSkills({ cwd, home, userHome, withUserSkills });
}

test("the built-in write-zot-extension skill is always there, with valid frontmatter and no warnings", () => {
  const { skills, warnings } = load(false);
  expect(warnings).toEqual([]);
  const skill = skills.find((s) => s.name === "write-zot-extension");
  expect(skill).toBeDefined();
  expect(skill!.source).toBe("builtin");
  expect(skill!.path).toBe("builtin:write-zot-extension");
  expect(skill!.description).toContain("zot extension");
  expect(skill!.body.length).toBeGreaterThan(2000);
  expect(skill!.body.startsWith("---")).toBe(false);
  expect(skills.length).toBe(BUILTIN_SKILLS.length);
});

test("without --with-skills no folder on disk is read, broken or not", () => {
  writeSkill(join(cwd, ".zot", "skills"), "review", skillText("review", "Review code."));
  writeSkill(join(home, "skills"), "broken", "no frontmatter at all");
  writeSkill(join(userHome, ".claude", "skills"), "write-zot-extension", skillText("write-zot-extension", "Mine."));
  const { skills, warnings } = load(false);
  expect(skills.map((s) => s.name)).toEqual(["init", "write-zot-extension"]);
  expect(skills.every((s) => s.source === "builtin")).toBe(true);
  expect(warnings).toEqual([]);

  // The same folders with the flag on: proof the files above are found when asked for.
  const on = load(true);
  expect(on.skills.map((s) => s.name)).toEqual(["init", "review", "write-zot-extension"]);
  expect(on.warnings.length).toBe(2);
});

test("by default the user's folders load, and the project's only in a trusted folder", () => {
  writeSkill(join(cwd, ".claude", "skills"), "deploy", skillText("deploy", "Ship it."));
  writeSkill(join(userHome, ".claude", "skills"), "standup", skillText("standup", "My standup."));
  const untrusted = loadSkills({ cwd, home, userHome, withUserSkills: false, byDefault: { projectTrusted: false } });
  expect(untrusted.skills.map((s) => s.name)).toEqual(["init", "standup", "write-zot-extension"]);
  // What stays shut is said, so /deploy going to the model as text is no mystery.
  expect(untrusted.warnings).toEqual([`this folder's skills (${join(cwd, ".claude", "skills")}) are not loaded until you trust it (zot trust), or for one run with --with-skills`]);
  // Run from home, the folder's skills are the user's own: nothing is said.
  expect(loadSkills({ cwd: userHome, home, userHome, withUserSkills: false, byDefault: { projectTrusted: false } }).warnings).toEqual([]);
  const trusted = loadSkills({ cwd, home, userHome, withUserSkills: false, byDefault: { projectTrusted: true } });
  expect(trusted.warnings).toEqual([]);
  expect(trusted.skills.map((s) => [s.name, s.source])).toEqual([
    ["deploy", "project"],
    ["init", "builtin"],
    ["standup", "user"],
    ["write-zot-extension", "builtin"],
  ]);
});

test("search order: project .zot, .claude, .agents, .codex, .pi, then $ZOT_HOME, ~/.claude, ~/.agents, Codex's and pi's; first wins", () => {
  const dirs = [
    join(cwd, ".zot", "skills"),
    join(cwd, ".claude", "skills"),
    join(cwd, ".agents", "skills"),
    join(cwd, ".codex", "skills"),
    join(cwd, ".pi", "skills"),
    join(home, "skills"),
    join(userHome, ".claude", "skills"),
    join(userHome, ".agents", "skills"),
    join(userHome, ".codex", "skills"),
    join(userHome, ".pi", "agent", "skills"),
  ];
  expect(skillSearchDirs({ cwd, home, userHome }).map((d) => d.dir)).toEqual(dirs);
  const files = dirs.map((dir, i) => writeSkill(dir, "review", skillText("review", `copy ${i}`)));

  for (let i = 0; i < dirs.length; i++) {
    const { skills, warnings } = load();
    const review = skills.find((s) => s.name === "review")!;
    expect(review.path).toBe(files[i]);
    expect(review.description).toBe(`copy ${i}`);
    expect(review.source).toBe(i < 5 ? "project" : "user");
    // Every later, different copy is named in a warning as ignored.
    expect(warnings.length).toBe(dirs.length - 1 - i);
    for (const later of files.slice(i + 1)) {
      expect(warnings.some((w) => w.includes(later) && w.includes("is ignored") && w.includes(files[i]))).toBe(true);
    }
    rmSync(join(dirs[i], "review"), { recursive: true });
  }
});

test("identical copies and symlinks of one skill load once, without a warning", () => {
  const text = skillText("review", "Review code.");
  writeSkill(join(userHome, ".claude", "skills"), "review", text);
  writeSkill(join(home, "skills"), "review", text);
  mkdirSync(join(userHome, ".agents", "skills"), { recursive: true });
  symlinkSync(join(userHome, ".claude", "skills", "review"), join(userHome, ".agents", "skills", "review"));
  const { skills, warnings } = load();
  expect(warnings).toEqual([]);
  expect(skills.filter((s) => s.name === "review").length).toBe(1);
  // $ZOT_HOME comes before ~/.claude.
  expect(skills.find((s) => s.name === "review")!.path).toBe(join(home, "skills", "review", "SKILL.md"));
});

test("a symlinked skill folder is followed", () => {
  const shared = join(root, `shared-${run}`);
  writeSkill(shared, "linked", skillText("linked", "Linked in."));
  mkdirSync(join(cwd, ".agents", "skills"), { recursive: true });
  symlinkSync(join(shared, "linked"), join(cwd, ".agents", "skills", "linked"));
  const linked = load().skills.find((s) => s.name === "linked");
  expect(linked?.source).toBe("project");
});

test("a user skill with a built-in's name replaces it, with a warning naming the file", () => {
  const file = writeSkill(join(home, "skills"), "write-zot-extension", skillText("write-zot-extension", "My own version."));
  const { skills, warnings } = load();
  const skill = skills.find((s) => s.name === "write-zot-extension")!;
  expect(skill.source).toBe("user");
  expect(skill.path).toBe(file);
  expect(skill.description).toBe("My own version.");
  expect(warnings).toEqual([`skill "write-zot-extension" in ${file} replaces the built-in skill of the same name`]);
});

test("a malformed SKILL.md becomes a warning naming the file; the other skills still load", () => {
  const dir = join(cwd, ".zot", "skills");
  const noFrontmatter = writeSkill(dir, "aaa", "# Just a heading\n");
  const badName = writeSkill(dir, "bbb", skillText("Bad_Name", "x"));
  const noDescription = writeSkill(dir, "ccc", "---\nname: ccc\n---\nbody\n");
  writeSkill(dir, "good", skillText("good", "Fine."));
  writeSkill(join(userHome, ".claude", "skills"), "other", skillText("other", "Also fine."));

  const { skills, warnings } = load();
  expect(skills.map((s) => s.name)).toEqual(["good", "init", "other", "write-zot-extension"]);
  expect(warnings.length).toBe(3);
  expect(warnings[0]).toContain(noFrontmatter);
  expect(warnings[1]).toContain(badName);
  expect(warnings[1]).toContain("lowercase letters, digits and hyphens");
  expect(warnings[2]).toContain(noDescription);
});

test("disable-model-invocation and user-invocable are kept on the skill; a value zot cannot read skips the skill with a warning naming the file", () => {
  const dir = join(cwd, ".claude", "skills");
  writeSkill(dir, "deploy", "---\nname: deploy\ndescription: Deploy\ndisable-model-invocation: true\n---\nDeploy.\n");
  writeSkill(dir, "style", "---\nname: style\ndescription: House style\nuser-invocable: \"false\"\n---\nStyle.\n");
  writeSkill(dir, "plain", "---\nname: plain\ndescription: Plain\ndisable-model-invocation: false\n---\nPlain.\n");
  const odd = writeSkill(dir, "odd", "---\nname: odd\ndescription: Odd\ndisable-model-invocation: yes\n---\nOdd.\n");
  const { skills, warnings } = load();
  const byName = Object.fromEntries(skills.map((s) => [s.name, s]));
  expect(byName.deploy).toMatchObject({ modelInvocable: false });
  expect(byName.deploy!.userInvocable).toBeUndefined();
  expect(byName.style).toMatchObject({ userInvocable: false });
  expect(byName.style!.modelInvocable).toBeUndefined();
  expect("modelInvocable" in byName.plain! || "userInvocable" in byName.plain!).toBe(false);
  expect(byName.odd).toBeUndefined();
  expect(warnings).toEqual([`skill skipped: ${odd}: "disable-model-invocation: yes" is invalid: write true (only the user starts the skill, by typing its /name) or false`]);
});

test("front matter arguments: is kept as the skill's argument names; a name that cannot follow $ is a warning naming the file, the skill still loads", () => {
  const dir = join(cwd, ".claude", "skills");
  writeSkill(dir, "fix", "---\nname: fix\ndescription: Fix\narguments: [issue, branch]\n---\nFix $issue.\n");
  const odd = writeSkill(dir, "odd", "---\nname: odd\ndescription: Odd\narguments: issue-id\n---\nOdd.\n");
  const { skills, warnings } = load();
  const byName = Object.fromEntries(skills.map((s) => [s.name, s]));
  expect(byName.fix!.argumentNames).toEqual(["issue", "branch"]);
  expect(byName.odd!.argumentNames).toBeUndefined();
  expect(warnings).toEqual([`${odd}: "arguments:" has "issue-id", which cannot be written after $ (use letters, digits and _, not starting with a digit); it is left out`]);
});

test("front matter model: and argument-hint: are kept, as a command's are (a [file] hint read as a list is text again)", () => {
  const dir = join(cwd, ".claude", "skills");
  writeSkill(dir, "quick", "---\nname: quick\ndescription: Quick\nargument-hint: [file]\nmodel: haiku\n---\nSummarise $ARGUMENTS.\n");
  writeSkill(dir, "plain", "---\nname: plain\ndescription: Plain\n---\nPlain.\n");
  const byName = Object.fromEntries(load().skills.map((s) => [s.name, s]));
  expect(byName.quick).toMatchObject({ argumentHint: "[file]", model: "haiku" });
  expect(byName.plain!.argumentHint).toBeUndefined();
  expect(byName.plain!.model).toBeUndefined();
});

test("folders without SKILL.md, stray files and missing search folders are not errors", () => {
  const dir = join(home, "skills");
  mkdirSync(join(dir, "scripts-only"), { recursive: true });
  writeFileSync(join(dir, "scripts-only", "run.sh"), "echo hi\n");
  writeFileSync(join(dir, "README.md"), "not a skill folder\n");
  const { skills, warnings } = load();
  expect(warnings).toEqual([]);
  expect(skills.map((s) => s.name)).toEqual(["init", "write-zot-extension"]);
});

test("the name comes from the frontmatter, else the folder; the list is sorted by name", () => {
  const dir = join(cwd, ".zot", "skills");
  writeSkill(dir, "zeta", "---\ndescription: Folder-named.\n---\nbody\n");
  writeSkill(dir, "folder-a", skillText("alpha", "Frontmatter-named."));
  const { skills, warnings } = load();
  expect(warnings).toEqual([]);
  expect(skills.map((s) => s.name)).toEqual(["alpha", "init", "write-zot-extension", "zeta"]);
});

test("an oversized SKILL.md is skipped with a warning", () => {
  const file = writeSkill(join(cwd, ".zot", "skills"), "huge", skillText("huge", "Big.", "x".repeat(SKILL_MAX_BYTES + 1)));
  const { skills, warnings } = load();
  expect(skills.some((s) => s.name === "huge")).toBe(false);
  expect(warnings.length).toBe(1);
  expect(warnings[0]).toContain(file);
  expect(warnings[0]).toContain("limit");
});

test("run from the home directory, <cwd>/.claude and ~/.claude are searched once", () => {
  const dirs = skillSearchDirs({ cwd: userHome, home, userHome }).map((d) => d.dir);
  expect(new Set(dirs).size).toBe(dirs.length);
  expect(dirs.length).toBe(7);
  // As the user's own: they load in a home the user never trusted as a project.
  writeSkill(join(userHome, ".claude", "skills"), "standup", skillText("standup", "My standup."));
  const fromHome = loadSkills({ cwd: userHome, home, userHome, withUserSkills: false, byDefault: { projectTrusted: false } });
  expect(fromHome.skills.map((s) => [s.name, s.source])).toContainEqual(["standup", "user"]);
});

test("the compiled binary carries the built-in skills (no SKILL.md on disk needed)", async () => {
  const dir = mkdtempSync(join(root, "compile-"));
  const entry = join(dir, "entry.ts");
  writeFileSync(
    entry,
    `import { loadSkills } from ${JSON.stringify(join(import.meta.dir, "../../src/skills/discover.ts"))};\n` +
      `const { skills, warnings } = loadSkills({ cwd: process.cwd(), home: process.cwd(), withUserSkills: false });\n` +
      `console.log(JSON.stringify({ names: skills.map((s) => s.name), sizes: skills.map((s) => s.body.length), warnings }));\n`,
  );
  const outfile = join(dir, "skills-probe");
  // The flags of scripts/build.ts, so the embedding is checked the way the release is built.
  const build = Bun.spawnSync([process.execPath, "build", ...COMPILE_FLAGS, entry, "--outfile", outfile], { stdout: "pipe", stderr: "pipe" });
  expect(build.exitCode, build.stderr.toString()).toBe(0);
  // Run from an empty folder far from the source tree.
  const elsewhere = mkdtempSync(join(tmpdir(), "zot-skills-run-"));
  try {
    const probe = Bun.spawnSync([outfile], { cwd: elsewhere, stdout: "pipe", stderr: "pipe" });
    expect(probe.exitCode, probe.stderr.toString()).toBe(0);
    const out = JSON.parse(probe.stdout.toString());
    expect(out.names).toEqual(["init", "write-zot-extension"]);
    for (const size of out.sizes) expect(size).toBeGreaterThan(2000);
    expect(out.warnings).toEqual([]);
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
}, 60_000);

test("each built-in skill is its SKILL.md as the parser reads it (parsed when the code is built)", () => {
  expect(BUILTIN_SKILLS.length).toBeGreaterThan(0);
  for (const skill of BUILTIN_SKILLS) {
    const file = join(import.meta.dir, "../../src/skills/builtin", skill.folder, "SKILL.md");
    const parsed = parseSkillFile(readFileSync(file, "utf8"), file, skill.folder);
    if (!parsed.ok) throw new Error(parsed.error);
    expect({ name: skill.name, description: skill.description, body: skill.body }).toEqual({
      name: parsed.value.name,
      description: parsed.value.description,
      body: parsed.value.body,
    });
  }
});

test("a repository's .agents/skills is found from any folder inside it, nearest first (as Codex and pi read them); $CODEX_HOME and $PI_CODING_AGENT_DIR move theirs", () => {
  const repo = join(cwd, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  const pkg = join(repo, "packages", "api");
  mkdirSync(pkg, { recursive: true });
  writeSkill(join(repo, ".agents", "skills"), "release", skillText("release", "The repository's."));
  writeSkill(join(pkg, ".agents", "skills"), "local", skillText("local", "The package's."));
  const codexHome = join(userHome, "codex-elsewhere");
  writeSkill(join(codexHome, "skills"), "triage", skillText("triage", "Codex's."));
  writeSkill(join(userHome, "pi-dir", "skills"), "pi-skill", skillText("pi-skill", "pi's."));
  const found = loadSkills({ cwd: pkg, home, userHome, codexHome, piAgentDir: join(userHome, "pi-dir"), withUserSkills: false, byDefault: { projectTrusted: true } });
  expect(found.skills.map((s) => s.name)).toEqual(["init", "local", "pi-skill", "release", "triage", "write-zot-extension"]);
  const dirs = skillSearchDirs({ cwd: pkg, home, userHome }).map((d) => d.dir);
  expect(dirs.indexOf(join(pkg, ".agents", "skills"))).toBeLessThan(dirs.indexOf(join(repo, ".agents", "skills")));
  expect(dirs).not.toContain(join(cwd, ".agents", "skills")); // nothing above the repository
});
