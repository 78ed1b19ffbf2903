// The skills as slash commands: one per skill the user may start (not Claude Code's
// `user-invocable: false`), a skill only the user starts (`disable-model-invocation: true`)
// among them, none where a command has the name; the prompt is the body with the words.
import { expect, test } from "bun:test";
import { skillCommands, skillPrompt } from "../../src/commands/skill-commands.ts";
import type { Skill } from "../../src/skills/discover.ts";

const skill = (name: string, more: Partial<Skill> = {}): Skill => ({ name, description: `${name} things`, body: `Do ${name} $ARGUMENTS.`, path: `/p/.claude/skills/${name}/SKILL.md`, source: "project", ...more });

test("a skill with user-invocable: false is no command; one with disable-model-invocation: true is", () => {
  const commands = skillCommands([skill("deploy", { modelInvocable: false }), skill("house-style", { userInvocable: false }), skill("review")], new Set());
  expect(commands.map((command) => command.name)).toEqual(["deploy", "review"]);
  expect(commands[0]).toMatchObject({ description: "deploy things (skill)", body: "Do deploy $ARGUMENTS.", plain: true, scope: "project" });
});

test("a name a command has already is left to the command", () => {
  expect(skillCommands([skill("review"), skill("deploy")], new Set(["review"])).map((command) => command.name)).toEqual(["deploy"]);
});

test("the prompt is the body with the words for $ARGUMENTS, or after it", () => {
  expect(skillPrompt("Do deploy $ARGUMENTS.", " staging ")).toBe("Do deploy staging.");
  expect(skillPrompt("Deploy.\n", "now")).toBe("Deploy.\n\nnow");
});
