// SKILL.md parsing: frontmatter keys, quotes, CRLF, lists and block scalars, and the sentences a
// broken file produces (each naming the file).
import { expect, test } from "bun:test";
import { parseFrontmatter, parseSkillFile } from "../../src/skills/frontmatter.ts";

const FILE = "/p/.zot/skills/demo/SKILL.md";

function ok<T>(result: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!result.ok) throw new Error(`expected success, got: ${result.error}`);
  return result.value;
}
function err(result: { ok: boolean; error?: string }): string {
  expect(result.ok).toBe(false);
  return result.error ?? "";
}

test("reads name, description, other keys and the trimmed body", () => {
  const text = "---\nname: demo\ndescription: Does demo things.\nlicense: MIT\n---\n\n# Demo\n\nStep one.\n\n";
  const value = ok(parseSkillFile(text, FILE, "demo"));
  expect(value.name).toBe("demo");
  expect(value.description).toBe("Does demo things.");
  expect(value.attributes.license).toBe("MIT");
  expect(value.body).toBe("# Demo\n\nStep one.");
});

test("accepts CRLF line ends, a BOM, leading blank lines and quoted values", () => {
  const text = '\uFEFF\r\n---\r\nname: "demo"\r\ndescription: \'It\'\'s for "demos": really.\'\r\n---\r\nBody line\r\nsecond\r\n';
  const value = ok(parseSkillFile(text, FILE, "demo"));
  expect(value.name).toBe("demo");
  expect(value.description).toBe('It\'s for "demos": really.');
  expect(value.body).toBe("Body line\nsecond");
  expect(value.body).not.toContain("\r");
});

test("a value may contain colons; comments and blank lines in the frontmatter are skipped", () => {
  const text = "---\n# a comment\n\nname: demo  # trailing note\ndescription: Use when: the user says so\n---\nx";
  const value = ok(parseSkillFile(text, FILE, "demo"));
  expect(value.name).toBe("demo");
  expect(value.description).toBe("Use when: the user says so");
});

test("lists (inline and indented) and folded / literal blocks", () => {
  const text = [
    "---",
    "name: demo",
    "description: >",
    "  Folded across",
    "  two lines.",
    "allowed-tools: [read, 'bash']",
    "tags:",
    "  - one",
    '  - "two"',
    "notes: |",
    "  line a",
    "  line b",
    "---",
    "body",
  ].join("\n");
  const { attributes } = ok(parseFrontmatter(text, FILE));
  expect(attributes.description).toBe("Folded across two lines.");
  expect(attributes["allowed-tools"]).toEqual(["read", "bash"]);
  expect(attributes.tags).toEqual(["one", "two"]);
  expect(attributes.notes).toBe("line a\nline b");
});

test("the name defaults to the folder name", () => {
  const value = ok(parseSkillFile("---\ndescription: d\n---\nbody", FILE, "from-folder"));
  expect(value.name).toBe("from-folder");
});

test("a file without frontmatter is an error naming the file", () => {
  const message = err(parseSkillFile("# Just markdown\n\nNo frontmatter here.", FILE, "demo"));
  expect(message).toContain(FILE);
  expect(message).toContain("no frontmatter");
});

test("an unclosed frontmatter is an error naming the file and the line", () => {
  const message = err(parseSkillFile("---\nname: demo\ndescription: d\nbody without a closing marker", FILE, "demo"));
  expect(message).toContain(FILE);
  expect(message).toContain("never closed");
  expect(message).toContain("line 1");
});

test("a line that is not key: value is an error with its line number", () => {
  const message = err(parseSkillFile("---\nname: demo\nthis is not yaml\ndescription: d\n---\nbody", FILE, "demo"));
  expect(message).toContain(FILE);
  expect(message).toContain("line 3");
});

test("a missing or empty description is an error saying what to add", () => {
  expect(err(parseSkillFile("---\nname: demo\n---\nbody", FILE, "demo"))).toContain('no "description:" line');
  expect(err(parseSkillFile('---\nname: demo\ndescription: ""\n---\nbody', FILE, "demo"))).toContain('"description" is empty');
  expect(err(parseSkillFile("---\nname: demo\ndescription:\n  - a\n---\nbody", FILE, "demo"))).toContain("not a list");
});

test("names must be lowercase letters, digits and hyphens", () => {
  for (const bad of ["Demo", "my_skill", "has space", "ünï"]) {
    const message = err(parseSkillFile(`---\nname: ${bad}\ndescription: d\n---\nbody`, FILE, "demo"));
    expect(message).toContain(FILE);
    expect(message).toContain("lowercase letters, digits and hyphens");
  }
  expect(ok(parseSkillFile("---\nname: a-1-b\ndescription: d\n---\nbody", FILE, "x")).name).toBe("a-1-b");
  // The folder name is held to the same rule when it stands in for a missing name.
  expect(err(parseSkillFile("---\ndescription: d\n---\nbody", FILE, "My Skill"))).toContain('folder name "My Skill"');
});

test("an empty body is an error: a skill with no instructions is a mistake", () => {
  expect(err(parseSkillFile("---\nname: demo\ndescription: d\n---\n\n  \n", FILE, "demo"))).toContain("no instructions");
});

test("a plain value continued on indented lines folds into one line", () => {
  const text = "---\nname: demo\ndescription: Use this when the user\n  asks for a demo,\n  or a tour.\n---\nbody";
  expect(ok(parseSkillFile(text, FILE, "demo")).description).toBe("Use this when the user asks for a demo, or a tour.");
  expect(err(parseSkillFile('---\nname: demo\ndescription: "quoted\n  and continued"\n---\nbody', FILE, "demo"))).toContain("line 3");
});

test("disable-model-invocation and user-invocable read true or false in any case, quoted or not; absent, everyone may start the skill", () => {
  const plain = ok(parseSkillFile("---\nname: demo\ndescription: d\n---\nbody", FILE, "demo"));
  expect(plain.modelInvocable).toBe(true);
  expect(plain.userInvocable).toBe(true);
  for (const yes of ["true", "True", '"true"', "'TRUE'", "true  # only by hand"]) {
    const value = ok(parseSkillFile(`---\nname: demo\ndescription: d\ndisable-model-invocation: ${yes}\nuser-invocable: ${yes}\n---\nbody`, FILE, "demo"));
    expect(value.modelInvocable).toBe(false);
    expect(value.userInvocable).toBe(true);
  }
  for (const no of ["false", "False", '"false"']) {
    const value = ok(parseSkillFile(`---\nname: demo\ndescription: d\ndisable-model-invocation: ${no}\nuser-invocable: ${no}\n---\nbody`, FILE, "demo"));
    expect(value.modelInvocable).toBe(true);
    expect(value.userInvocable).toBe(false);
  }
});

test("a disable-model-invocation or user-invocable zot cannot read is an error quoting it and saying what to write", () => {
  const model = err(parseSkillFile("---\nname: demo\ndescription: d\ndisable-model-invocation: yes\n---\nbody", FILE, "demo"));
  expect(model).toBe(`${FILE}: "disable-model-invocation: yes" is invalid: write true (only the user starts the skill, by typing its /name) or false`);
  const user = err(parseSkillFile("---\nname: demo\ndescription: d\nuser-invocable: 0\n---\nbody", FILE, "demo"));
  expect(user).toBe(`${FILE}: "user-invocable: 0" is invalid: write false (only the model loads the skill; it is no slash command) or true`);
  expect(err(parseSkillFile("---\nname: demo\ndescription: d\nuser-invocable: [false]\n---\nbody", FILE, "demo"))).toContain('"user-invocable" must be true or false, not a list');
});
