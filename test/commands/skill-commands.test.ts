// The skills as slash commands: one per skill the user may start (not Claude Code's
// `user-invocable: false`), a skill only the user starts (`disable-model-invocation: true`)
// among them, none where a command has the name; the prompt is the body filled in as Claude Code
// fills a skill's: `$0` is the first argument, `${CLAUDE_SKILL_DIR}` its folder, `!` commands run.
import { expect, test } from "bun:test";
import { skillCommands, skillPrompt } from "../../src/commands/skill-commands.ts";
import type { Skill } from "../../src/skills/discover.ts";

const skill = (name: string, more: Partial<Skill> = {}): Skill => ({ name, description: `${name} things`, body: `Do ${name} $ARGUMENTS.`, path: `/p/.claude/skills/${name}/SKILL.md`, source: "project", ...more });

test("a skill with user-invocable: false is no command; one with disable-model-invocation: true is", () => {
  const commands = skillCommands([skill("deploy", { modelInvocable: false }), skill("house-style", { userInvocable: false }), skill("review")], new Set());
  expect(commands.map((command) => command.name)).toEqual(["deploy", "review"]);
  expect(commands[0]).toMatchObject({ description: "deploy things (skill)", body: "Do deploy $ARGUMENTS.", skill: { dir: "/p/.claude/skills/deploy" }, scope: "project" });
});

test("a skill's command carries its folder (none for a built-in) and its arguments: names", () => {
  const [mine, builtin] = skillCommands([skill("fix", { argumentNames: ["issue", "branch"] }), skill("write-zot-extension", { source: "builtin", path: "builtin:write-zot-extension" })], new Set());
  expect(mine).toMatchObject({ skill: { dir: "/p/.claude/skills/fix" }, argumentNames: ["issue", "branch"] });
  expect(builtin!.skill).toEqual({});
});

test("a skill's command carries its model: and argument-hint:, as a Markdown command's does", () => {
  const [quick] = skillCommands([skill("quick", { model: "haiku", argumentHint: "[file]" })], new Set());
  expect(quick).toMatchObject({ model: "haiku", argumentHint: "[file]" });
});

test("a name a command has already is left to the command; the skill is still /skill:<name>, as pi starts one", () => {
  expect(skillCommands([skill("review"), skill("deploy")], new Set(["review"])).map((command) => [command.name, command.alias])).toEqual([
    ["skill:review", undefined],
    ["deploy", "skill:deploy"],
  ]);
});

test("the prompt is the body with the words for $ARGUMENTS, or after it", async () => {
  expect(await skillPrompt("Do deploy $ARGUMENTS.", " staging ")).toBe("Do deploy staging.");
  expect(await skillPrompt("Deploy.\n", "now")).toBe("Deploy.\n\nnow");
});

test("in a skill $0 is the first argument and $1 the second (Claude Code's skills count from 0); $ARGUMENTS[N], named arguments and ${CLAUDE_SKILL_DIR} are filled", async () => {
  const body = "Fix $issue on $branch (first=$0 second=$1 third=[$2] index=$ARGUMENTS[1]).\nRun ${CLAUDE_SKILL_DIR}/scripts/check.sh in ${CLAUDE_SESSION_ID}.";
  const text = await skillPrompt(body, '42 "hotfix auth"', { argumentNames: ["issue", "branch"], skillDir: "/p/.claude/skills/fix", sessionId: "s-1" });
  expect(text).toBe("Fix 42 on hotfix auth (first=42 second=hotfix auth third=[] index=hotfix auth).\nRun /p/.claude/skills/fix/scripts/check.sh in s-1.");
});

test("a skill's !`cmd` lines and ```! blocks run through the runner, and are named as not run without one; what the user typed is never run or expanded", async () => {
  const ran: string[] = [];
  const runShell = async (command: string) => {
    ran.push(command);
    return { output: `<${command}>\n` };
  };
  const body = "Branch: !`git branch --show-current`\n```!\necho $0\n```\nFor $ARGUMENTS[0].";
  expect(await skillPrompt(body, '"!`touch x`" $1', { runShell })).toBe("Branch: <git branch --show-current>\n<echo !`touch x`>\nFor !`touch x`.");
  expect(ran).toEqual(["git branch --show-current", "echo !`touch x`"]);
  const refused = await skillPrompt(body, "a", {});
  expect(refused).toContain("Branch: (the command `git branch --show-current` was not run: this folder is not trusted; zot trust runs such commands)");
  expect(refused).toContain("(the command `echo a` was not run: this folder is not trusted");
});

test("a skill typed as /name attaches the files the user's words name, never those its body or its ! output name, and says its prompt is read for @mentions no more", async () => {
  const { mkdtempSync, writeFileSync, realpathSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { tmpdir } = await import("node:os");
  const { MarkdownCommandSource } = await import("../../src/commands/command-source.ts");
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "zot-skill-attach-")));
  writeFileSync(join(cwd, "mine.txt"), "TYPED-FILE");
  writeFileSync(join(cwd, "secret.txt"), "SECRET-FILE");
  const [triage] = skillCommands([skill("triage", { body: "Triage @secret.txt: !`echo see @secret.txt` $ARGUMENTS", path: join(cwd, ".claude/skills/triage/SKILL.md") })], new Set());
  const source = new MarkdownCommandSource([triage!], { cwd, projectTrusted: true, runBang: async (line) => ({ output: line.replace(/^echo /, "") }) });
  const result = await source.runCommand("triage", "@mine.txt", new AbortController().signal);
  expect(result).toMatchObject({ action: "prompt", attached: true });
  const text = (result as { text: string }).text;
  expect(text).toContain("TYPED-FILE");
  expect(text).not.toContain("SECRET-FILE");
});
