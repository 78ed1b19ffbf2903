// The system prompt's skills section: every skill's name and description, where file skills live,
// the instruction to use the `skill` tool, and nothing at all when there are no skills.
import { expect, test } from "bun:test";
import type { Skill } from "../../src/skills/discover.ts";
import { skillsPromptSection } from "../../src/skills/prompt.ts";

const skills: Skill[] = [
  { name: "code-review", description: "Review a diff\n  before merging.", body: "SECRET BODY", path: "/p/.zot/skills/code-review/SKILL.md", source: "project" },
  { name: "write-zot-extension", description: "Write a zot extension.", body: "BUILTIN BODY", path: "builtin:write-zot-extension", source: "builtin" },
];

test("lists every skill with its description on one line, and tells the model to call the skill tool", () => {
  const section = skillsPromptSection(skills);
  expect(section).toContain("- code-review (/p/.zot/skills/code-review/SKILL.md): Review a diff before merging.");
  expect(section).toContain("- write-zot-extension: Write a zot extension.");
  expect(section).toContain("`skill` tool");
  expect(section.startsWith("# Skills\n")).toBe(true);
});

test("bodies stay out of the prompt until the tool loads them", () => {
  const section = skillsPromptSection(skills);
  expect(section).not.toContain("SECRET BODY");
  expect(section).not.toContain("BUILTIN BODY");
  expect(section).not.toContain("builtin:");
});

test("no skills, no section", () => {
  expect(skillsPromptSection([])).toBe("");
});

test("a skill only the user may start (disable-model-invocation: true) is not named; one only the model may load is", () => {
  const section = skillsPromptSection([
    ...skills,
    { name: "deploy", description: "Deploy to production.", body: "DEPLOY BODY", path: "/p/.claude/skills/deploy/SKILL.md", source: "project", modelInvocable: false },
    { name: "house-style", description: "The house style.", body: "STYLE BODY", path: "/p/.claude/skills/house-style/SKILL.md", source: "project", userInvocable: false },
  ]);
  expect(section).not.toContain("deploy");
  expect(section).not.toContain("Deploy to production.");
  expect(section).toContain("- house-style (/p/.claude/skills/house-style/SKILL.md): The house style.");
  expect(section).toContain("- code-review");
  // No skill left for the model: no section at all.
  expect(skillsPromptSection([{ name: "deploy", description: "d", body: "b", path: "/p/x/SKILL.md", source: "project", modelInvocable: false }])).toBe("");
});

test("bounded however many skills: a description is cut at 1,024 characters, and past 16,000 characters of lines the rest are named only, then counted", () => {
  const many: Skill[] = Array.from({ length: 300 }, (_, i) => ({
    name: `skill-${i}`,
    description: `Skill ${i}: ${"does a particular thing ".repeat(200)}`,
    body: "",
    path: `/p/.zot/skills/skill-${i}/SKILL.md`,
    source: "project" as const,
  }));
  const section = skillsPromptSection(many);
  expect(section.length).toBeLessThan(16_000 + 4_000 + 1_000);
  const lines = section.split("\n").filter((line) => line.startsWith("- skill-"));
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line.length).toBeLessThan(1_024 + 80);
  expect(section).toContain(`${300 - lines.length} more skills, named only (their descriptions would not fit): skill-${lines.length}, skill-${lines.length + 1}`);
  // The few a real project has are all listed whole.
  expect(skillsPromptSection(many.slice(0, 3)).split("\n").filter((line) => line.startsWith("- skill-"))).toHaveLength(3);
});

test("a description cut at its limit never splits an emoji: a lone surrogate would make the API refuse every request", () => {
  const description = `${"x".repeat(1022)}😀 and more`;
  const section = skillsPromptSection([{ name: "emoji", description, body: "", path: "/p/SKILL.md", source: "project" }]);
  expect(section).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  expect(section).toContain("…");
});
