// The Markdown commands and skills as one command source (runtime/project-config.ts): which of a
// name's claimants answers to /name, and what is said about the others.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { markdownCommandSource } from "../../src/runtime/project-config.ts";
import type { Skill } from "../../src/skills/discover.ts";
import { tempDir } from "../support/zot.ts";

function write(file: string, text: string): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
}

/** The user's own skill `name`, as loadSkills gives it. */
const userSkill = (name: string, userHome: string): Skill => ({ name, description: "Mine", body: `MY ${name.toUpperCase()} SKILL`, path: join(userHome, ".claude", "skills", name, "SKILL.md"), source: "user" });

async function source(options: { cwd: string; userHome: string; trust: boolean; skills: Skill[] }) {
  return markdownCommandSource({
    cwd: options.cwd,
    home: tempDir("zot-pc-home-"),
    env: { HOME: options.userHome },
    trust: options.trust,
    runBang: async () => ({ notRun: "not in this test" }),
    skills: options.skills,
  });
}

async function expansion(found: Awaited<ReturnType<typeof source>>, name: string): Promise<string> {
  const result = await found.source!.runCommand(name, "", new AbortController().signal);
  return "text" in result ? result.text : result.action;
}

describe("a folder's command and the user's own skill of the same name", () => {
  test("while the folder is not trusted the skill answers to /name, and the folder's file is named in a warning; a subfolder's command keeps its folder's name", async () => {
    const cwd = tempDir("zot-pc-clone-");
    const userHome = tempDir("zot-pc-user-");
    write(join(cwd, ".claude", "commands", "review.md"), "CLONED REVIEW\n");
    write(join(cwd, ".claude", "commands", "team", "lint.md"), "CLONED LINT\n");
    const found = await source({ cwd, userHome, trust: false, skills: [userSkill("review", userHome), userSkill("lint", userHome)] });
    expect(await expansion(found, "review")).toBe("MY REVIEW SKILL");
    expect(await expansion(found, "lint")).toBe("MY LINT SKILL");
    expect(await expansion(found, "team:lint")).toBe("CLONED LINT");
    expect(found.warnings).toEqual([
      `${join(cwd, ".claude", "commands", "review.md")}: /review is not this folder's while the folder is not trusted: your own skill ${join(userHome, ".claude", "skills", "review", "SKILL.md")} has the name and comes first (zot trust, or --trust for one run)`,
    ]);
  });

  test("once the folder is trusted the command comes first, and the skill's lost /name is said", async () => {
    const cwd = tempDir("zot-pc-repo-");
    const userHome = tempDir("zot-pc-user-");
    write(join(cwd, ".claude", "commands", "review.md"), "THE REPO'S REVIEW\n");
    const found = await source({ cwd, userHome, trust: true, skills: [userSkill("review", userHome)] });
    expect(await expansion(found, "review")).toBe("THE REPO'S REVIEW");
    expect(found.warnings).toEqual([
      `${join(userHome, ".claude", "skills", "review", "SKILL.md")}: /review is the command ${join(cwd, ".claude", "commands", "review.md")}, which comes first; /skill:review starts the skill (the model may still load it)`,
    ]);
  });

  test("the user's own subfolder command that takes a skill's /name is said too", async () => {
    const userHome = tempDir("zot-pc-user-");
    write(join(userHome, ".claude", "commands", "team", "review.md"), "TEAM REVIEW\n");
    const found = await source({ cwd: tempDir("zot-pc-cwd-"), userHome, trust: false, skills: [userSkill("review", userHome)] });
    expect(await expansion(found, "review")).toBe("TEAM REVIEW");
    expect(found.warnings).toHaveLength(1);
    expect(found.warnings[0]).toContain("/review is the command ");
  });
});
