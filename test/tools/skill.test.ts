// The `skill` tool: the exact result text, details, forgiving name matching, and the error that
// lists the available names.
import { expect, test } from "bun:test";
import type { TextBlock } from "../../src/protocol/messages.ts";
import type { Skill } from "../../src/skills/discover.ts";
import { loadSkills } from "../../src/skills/discover.ts";
import { createSkillTool } from "../../src/tools/skill.ts";

const ctx = { cwd: "/", signal: new AbortController().signal, onProgress() {} };

const skills: Skill[] = [
  { name: "code-review", description: "Review a diff.", body: "1. Read the diff.\n2. Comment.", path: "/p/.zot/skills/code-review/SKILL.md", source: "project" },
  { name: "test-fix", description: "Fix failing tests.", body: "Run the tests first.", path: "/h/skills/test-fix/SKILL.md", source: "user" },
];

async function call(tool: ReturnType<typeof createSkillTool>, args: Record<string, unknown>) {
  const result = await tool.execute(args, ctx);
  const text = result.content.map((b) => (b as TextBlock).text).join("");
  return { ...result, text };
}

test("advertises a name argument as a required string", () => {
  const tool = createSkillTool(skills);
  expect(tool.name).toBe("skill");
  expect(tool.parameters).toMatchObject({ type: "object", properties: { name: { type: "string" } }, required: ["name"] });
  expect(tool.description).toContain("system prompt");
});

test("returns # Skill: <name>, the description, a rule and the body", async () => {
  const r = await call(createSkillTool(skills), { name: "code-review" });
  expect(r.is_error).toBe(false);
  expect(r.text).toBe("# Skill: code-review\n\nReview a diff.\n\n---\n\n1. Read the diff.\n2. Comment.");
  expect(r.details).toEqual({ skill: "code-review", path: "/p/.zot/skills/code-review/SKILL.md", source: "project" });
});

test("tolerates a slash, surrounding space, other case and a `skill` key", async () => {
  const tool = createSkillTool(skills);
  for (const args of [{ name: "/test-fix" }, { name: "  Test-Fix " }, { skill: "test-fix" }]) {
    const r = await call(tool, args);
    expect(r.is_error).toBe(false);
    expect(r.text.startsWith("# Skill: test-fix\n")).toBe(true);
  }
});

test("an unknown name is an error that lists the available skills", async () => {
  const r = await call(createSkillTool(skills), { name: "deploy" });
  expect(r.is_error).toBe(true);
  expect(r.text).toBe('skill: there is no skill named "deploy"; available skills: code-review, test-fix');
});

test("with thousands of skills, the unknown-name error lists as many as fit in 6,000 characters and counts the rest", async () => {
  const many: Skill[] = Array.from({ length: 5_000 }, (_, i) => ({ name: `skill-number-${i}`, description: "d", body: "b", path: `/s/${i}/SKILL.md`, source: "user" as const }));
  const r = await call(createSkillTool(many), { name: "deploy" });
  expect(r.text.length).toBeLessThan(6_200);
  expect(r.text).toMatch(/available skills: skill-number-0, skill-number-1, .* … and \d+ more$/);
});

test("with no skills at all the error says so", async () => {
  const r = await call(createSkillTool([]), { name: "anything" });
  expect(r.is_error).toBe(true);
  expect(r.text).toContain("no skills are available");
});

test("a missing or empty name is an argument error naming the field", async () => {
  const tool = createSkillTool(skills);
  const missing = await call(tool, {});
  expect(missing.is_error).toBe(true);
  expect(missing.text).toContain('skill: "name" is required');
  const empty = await call(tool, { name: "" });
  expect(empty.is_error).toBe(true);
  expect(empty.text).toContain('"name" must not be empty');
});

test("serves the built-in skill end to end from loadSkills", async () => {
  const { skills: loaded } = loadSkills({ cwd: "/nonexistent", home: "/nonexistent", withUserSkills: false });
  const r = await call(createSkillTool(loaded), { name: "write-zot-extension" });
  expect(r.is_error).toBe(false);
  expect(r.text.startsWith("# Skill: write-zot-extension\n\n")).toBe(true);
  expect(r.text).toContain("\n\n---\n\n# Writing a zot extension");
  expect(r.details?.path).toBe("builtin:write-zot-extension");
});

test("a skill only the user may start (disable-model-invocation: true) is refused by name, its body withheld, and not listed as available", async () => {
  const deploy: Skill = { name: "deploy", description: "Deploy.", body: "DEPLOY BODY", path: "/p/.claude/skills/deploy/SKILL.md", source: "project", modelInvocable: false };
  const tool = createSkillTool([...skills, deploy]);
  for (const name of ["deploy", "/deploy", "Deploy"]) {
    const r = await call(tool, { name });
    expect(r.is_error).toBe(true);
    expect(r.text).toBe('skill: the skill "deploy" is not for the model to load: it can be started only by the user, who types /deploy; if it is needed, ask the user to run /deploy');
    expect(r.text).not.toContain("DEPLOY BODY");
  }
  const unknown = await call(tool, { name: "nope" });
  expect(unknown.text).toBe('skill: there is no skill named "nope"; available skills: code-review, test-fix');
  // Off for both: said as such, still no body.
  const off = await call(createSkillTool([{ ...deploy, userInvocable: false }]), { name: "deploy" });
  expect(off.is_error).toBe(true);
  expect(off.text).toContain("disable-model-invocation: true");
  expect(off.text).not.toContain("DEPLOY BODY");
  // One only the model may load is served as any other.
  const style = await call(createSkillTool([{ ...skills[0]!, userInvocable: false }]), { name: "code-review" });
  expect(style.is_error).toBe(false);
});
