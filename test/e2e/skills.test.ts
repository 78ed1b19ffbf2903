// Skills as a user meets them: the built-in skill is offered by default, --with-skills adds the
// project's, --no-skill removes them all, and the model loads one through the skill tool.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { tempDir, zot } from "../support/zot.ts";

let mock: MockLlm;
afterEach(() => mock?.stop());

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];
const toolNames = (body: any) => (body.tools ?? []).map((t: any) => t.name);
const systemText = (body: any) => body.system.map((b: any) => b.text).join("\n");

function projectWithSkill(): string {
  const cwd = tempDir("zot-skills-");
  mkdirSync(`${cwd}/.zot/skills/deploy`, { recursive: true });
  Bun.write(`${cwd}/.zot/skills/deploy/SKILL.md`, "---\nname: deploy\ndescription: How to ship this project\n---\nRun `make ship`, then tag the release.\n");
  return cwd;
}

test("by default the built-in skills are listed and the skill tool is offered; project skills need --with-skills", async () => {
  const cwd = projectWithSkill();
  mock = startMockLlm([{ text: "a" }, { text: "b" }]);
  await zot(["-p", "hi", ...anthropic(mock)], { cwd });
  const first = mock.requests[0].body;
  expect(toolNames(first)).toContain("skill");
  expect(systemText(first)).toContain("write-zot-extension");
  expect(systemText(first)).not.toContain("How to ship this project");

  await zot(["-p", "hi", ...anthropic(mock), "--with-skills"], { cwd });
  expect(systemText(mock.requests[1].body)).toContain("How to ship this project");
});

test("the model loads a skill's body through the skill tool", async () => {
  const cwd = projectWithSkill();
  mock = startMockLlm([{ tool_calls: [{ name: "skill", args: { name: "deploy" } }] }, { text: "done" }]);
  const run = await zot(["-p", "ship it", ...anthropic(mock), "--with-skills"], { cwd });
  expect(run.code).toBe(0);
  const result = mock.requests[1].body.messages.at(-1).content[0];
  expect(result.is_error).toBeFalsy();
  expect(JSON.stringify(result.content)).toContain("Run `make ship`, then tag the release.");
});

test("--no-skill removes the tool and the list; --tools decides whether skill is offered", async () => {
  mock = startMockLlm([{ text: "a" }, { text: "b" }, { text: "c" }]);
  await zot(["-p", "hi", ...anthropic(mock), "--no-skill"]);
  expect(toolNames(mock.requests[0].body)).not.toContain("skill");
  expect(systemText(mock.requests[0].body)).not.toContain("write-zot-extension");

  await zot(["-p", "hi", ...anthropic(mock), "--tools", "read"]);
  expect(toolNames(mock.requests[1].body)).toEqual(["read"]);

  await zot(["-p", "hi", ...anthropic(mock), "--tools", "read,skill"]);
  expect(toolNames(mock.requests[2].body)).toEqual(["read", "skill"]);
});
