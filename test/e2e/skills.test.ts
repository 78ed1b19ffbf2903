// Skills as a user meets them: the built-in skill is offered by default, --with-skills adds the
// project's, --no-skill removes them all, and the model loads one through the skill tool.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";

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

test("--no-ext, --tools without skill and --no-tools leave your Markdown commands and your skills' /names (they are neither extensions nor the model's tools); --no-skill turns the skills off", async () => {
  const userHome = tempDir("zot-skills-user-");
  mkdirSync(`${userHome}/.claude/commands`, { recursive: true });
  await Bun.write(`${userHome}/.claude/commands/hello.md`, "COMMAND BODY: greet $ARGUMENTS\n");
  mkdirSync(`${userHome}/.claude/skills/summarize`, { recursive: true });
  await Bun.write(`${userHome}/.claude/skills/summarize/SKILL.md`, "---\ndescription: Summarise a file\n---\nSKILL BODY: summarise $ARGUMENTS\n");
  const runs: [string, string[], string][] = [
    ["/hello Bob", ["--no-ext"], "COMMAND BODY: greet Bob"],
    ["/summarize notes.txt", ["--no-ext"], "SKILL BODY: summarise notes.txt"],
    ["/summarize notes.txt", ["--tools", "read,bash"], "SKILL BODY: summarise notes.txt"],
    ["/summarize notes.txt", ["--no-tools"], "SKILL BODY: summarise notes.txt"],
    ["/summarize notes.txt", ["--no-skill"], "/summarize notes.txt"],
  ];
  mock = startMockLlm(runs.map(() => ({ text: "ok" })));
  for (const [i, [prompt, flags, expected]] of runs.entries()) {
    const run = await zot(["-p", prompt, ...anthropic(mock), ...flags], { env: { HOME: userHome } });
    expect(run.code).toBe(0);
    const user = mock.requests[i].body.messages.at(-1).content.find((b: any) => b.type === "text").text;
    expect(`${flags.join(" ")}: ${user}`).toBe(`${flags.join(" ")}: ${expected}`);
  }
  // Without the skill tool the model is not told of the skills.
  expect(toolNames(mock.requests[2].body)).toEqual(["bash", "read"]);
  expect(systemText(mock.requests[2].body)).not.toContain("Summarise a file");
});

test("Claude Code's disable-model-invocation: true keeps a skill from the model (not listed, refused by the tool) while /deploy runs it; user-invocable: false keeps one from the slash commands, not from the model", async () => {
  const cwd = tempDir("zot-skills-who-");
  mkdirSync(`${cwd}/.claude/skills/deploy`, { recursive: true });
  mkdirSync(`${cwd}/.claude/skills/house-style`, { recursive: true });
  await Bun.write(`${cwd}/.claude/skills/deploy/SKILL.md`, "---\nname: deploy\ndescription: Ship the service to production\ndisable-model-invocation: true\n---\nRun ./ship.sh $ARGUMENTS now. DEPLOY-BODY\n");
  await Bun.write(`${cwd}/.claude/skills/house-style/SKILL.md`, "---\nname: house-style\ndescription: The house style for prose\nuser-invocable: \"false\"\n---\nSTYLE-BODY\n");
  const where = { cwd, env: { HOME: tempDir("zot-skills-user-") } };
  const flags = (m: MockLlm) => [...anthropic(m), "--with-skills"];
  const lastResult = (body: any) => body.messages.at(-1).content[0];
  mock = startMockLlm([
    { tool_calls: [{ name: "skill", args: { name: "deploy" } }] },
    { text: "refused" },
    { tool_calls: [{ name: "skill", args: { name: "house-style" } }] },
    { text: "styled" },
    { text: "deployed" },
    { text: "as text" },
  ]);

  // The model is not told of deploy, and the skill tool will not hand it over.
  expect((await zot(["-p", "the tests pass; anything else?", ...flags(mock)], where)).code).toBe(0);
  const system = systemText(mock.requests[0].body);
  expect(system).toContain("- house-style (");
  expect(system).toContain("The house style for prose");
  expect(system).not.toContain("Ship the service to production");
  expect(system).not.toContain("skills/deploy");
  expect(JSON.stringify(mock.requests[0].body.tools)).not.toContain("deploy");
  const refused = lastResult(mock.requests[1].body);
  expect(refused.is_error).toBe(true);
  expect(JSON.stringify(refused.content)).toContain("it can be started only by the user, who types /deploy");
  expect(JSON.stringify(mock.requests[1].body)).not.toContain("DEPLOY-BODY");

  // The model loads house-style as any skill.
  expect((await zot(["-p", "write the notes", ...flags(mock)], where)).code).toBe(0);
  const loaded = lastResult(mock.requests[3].body);
  expect(loaded.is_error).toBeFalsy();
  expect(JSON.stringify(loaded.content)).toContain("STYLE-BODY");

  // The user's /deploy still runs it; /house-style is no command, so it reaches the model as typed.
  expect((await zot(["-p", "/deploy staging", ...flags(mock)], where)).code).toBe(0);
  expect(JSON.stringify(mock.requests[4].body.messages)).toContain("Run ./ship.sh staging now. DEPLOY-BODY");
  expect((await zot(["-p", "/house-style now", ...flags(mock)], where)).code).toBe(0);
  const typed = JSON.stringify(mock.requests[5].body.messages);
  expect(typed).toContain("/house-style now");
  expect(typed).not.toContain("STYLE-BODY");

  // The commands a front end offers (the TUI's popup and /help list the same): deploy, not house-style.
  const rpc = await zot(["rpc", ...flags(mock)], { ...where, stdin: `${JSON.stringify({ id: "1", type: "get_commands" })}\n` });
  const names = (ndjson(rpc.stdout).find((line) => line.id === "1")?.data?.commands as { name: string }[]).map((command) => command.name);
  expect(names).toContain("deploy");
  expect(names).not.toContain("house-style");
});

test("with no skill left for the model (the built-in replaced by one only the user starts) there is no skill tool and no list; the user's /name still runs it", async () => {
  const cwd = tempDir("zot-skills-user-only-");
  mkdirSync(`${cwd}/.zot/skills/write-zot-extension`, { recursive: true });
  await Bun.write(`${cwd}/.zot/skills/write-zot-extension/SKILL.md`, "---\nname: write-zot-extension\ndescription: Mine\ndisable-model-invocation: true\n---\nMY-OWN-BODY $ARGUMENTS\n");
  mock = startMockLlm([{ text: "ok" }]);
  const run = await zot(["-p", "/write-zot-extension now", ...anthropic(mock), "--with-skills"], { cwd, env: { HOME: tempDir("zot-skills-user-") } });
  expect(run.code).toBe(0);
  const body = mock.requests[0].body;
  expect(toolNames(body)).not.toContain("skill");
  expect(systemText(body)).not.toContain("# Skills");
  expect(JSON.stringify(body.messages)).toContain("MY-OWN-BODY now");
});

test("a skill only the user starts whose name a command has is said: nothing would start it", async () => {
  const cwd = tempDir("zot-skills-shadowed-");
  for (const name of ["deploy", "help"]) {
    mkdirSync(`${cwd}/.claude/skills/${name}`, { recursive: true });
    await Bun.write(`${cwd}/.claude/skills/${name}/SKILL.md`, `---\nname: ${name}\ndescription: Mine\ndisable-model-invocation: true\n---\nBODY\n`);
  }
  mkdirSync(`${cwd}/.claude/commands`, { recursive: true });
  await Bun.write(`${cwd}/.claude/commands/deploy.md`, "Deploy the command's way.\n");
  mock = startMockLlm([{ text: "ok" }]);
  // A prompt naming a command reads the commands (one naming none reads no command file).
  const run = await zot(["-p", "/deploy", ...anthropic(mock), "--with-skills"], { cwd, env: { HOME: tempDir("zot-skills-user-") } });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain("the skill deploy is only for the user to start (disable-model-invocation: true), but /deploy is the command ");
  expect(run.stderr).toContain("/.claude/commands/deploy.md, which comes first; /skill:deploy starts the skill");
  expect(run.stderr).toContain("but /help is a built-in command of zot, which comes first; /skill:help starts the skill");
});

test("a folder not trusted: its command does not take the /name of your own skill, which runs, the folder's file named in a warning; trusted, the command comes first and the skill's lost /name is said", async () => {
  const userHome = tempDir("zot-skills-user-");
  mkdirSync(`${userHome}/.claude/skills/review`, { recursive: true });
  await Bun.write(`${userHome}/.claude/skills/review/SKILL.md`, "---\nname: review\ndescription: My own checklist\n---\nMY OWN REVIEW SKILL: $ARGUMENTS\n");
  const cwd = tempDir("zot-skills-clone-");
  mkdirSync(`${cwd}/.claude/commands`, { recursive: true });
  await Bun.write(`${cwd}/.claude/commands/review.md`, "CLONED REPO TEXT: run ./setup.sh for $ARGUMENTS\n");
  mock = startMockLlm([{ text: "ok" }, { text: "ok" }, { text: "ok" }]);
  const untrusted = await zot(["-p", "/review src/", ...anthropic(mock)], { cwd, env: { HOME: userHome } });
  expect(untrusted.code).toBe(0);
  expect(JSON.stringify(mock.requests[0].body.messages)).toContain("MY OWN REVIEW SKILL: src/");
  expect(JSON.stringify(mock.requests[0].body.messages)).not.toContain("CLONED REPO TEXT");
  expect(untrusted.stderr).toContain("/.claude/commands/review.md: /review is not this folder's while the folder is not trusted: your own skill ");
  const trusted = await zot(["-p", "/review src/", ...anthropic(mock), "--trust"], { cwd, env: { HOME: userHome } });
  expect(trusted.code).toBe(0);
  expect(JSON.stringify(mock.requests[1].body.messages)).toContain("CLONED REPO TEXT");
  expect(trusted.stderr).toContain("/.claude/skills/review/SKILL.md: /review is the command ");
  expect(trusted.stderr).toContain("which comes first; /skill:review starts the skill (the model may still load it)");
  const bySkill = await zot(["-p", "/skill:review src/", ...anthropic(mock), "--trust"], { cwd, env: { HOME: userHome } });
  expect(bySkill.code).toBe(0);
  expect(JSON.stringify(mock.requests[2].body.messages)).toContain("MY OWN REVIEW SKILL: src/");
});

test("/init, a built-in skill only the user starts, asks the model to write the project's AGENTS.md; the system prompt does not offer it to the model", async () => {
  mock = startMockLlm([{ text: "wrote it" }, { tool_calls: [{ name: "skill", args: { name: "init" } }] }, { text: "done" }]);
  const run = await zot(["-p", "/init stress the test commands", ...anthropic(mock)], { cwd: tempDir("zot-init-") });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("wrote it");
  const body = mock.requests[0].body;
  const prompt = JSON.stringify(body.messages);
  expect(prompt).toContain("# Write the project's agent instructions");
  expect(prompt).toContain("stress the test commands"); // the words typed, after the instructions
  expect(systemText(body)).not.toMatch(/^- init/m);
  // Asked for by the model, it is refused without its instructions.
  await zot(["-p", "set the project up", ...anthropic(mock)], { cwd: tempDir("zot-init-") });
  const refusal = JSON.stringify(mock.requests[2].body.messages.at(-1).content);
  expect(refusal).toContain("/init");
  expect(refusal).not.toContain("Learn the project first");
});

test("pi's /skill:<name> starts a skill; Codex's ~/.codex/prompts/<name>.md is /prompts:<name>, its $1 filled", async () => {
  const userHome = tempDir("zot-migrant-home-");
  mkdirSync(`${userHome}/.agents/skills/deploy`, { recursive: true });
  await Bun.write(`${userHome}/.agents/skills/deploy/SKILL.md`, "---\nname: deploy\ndescription: Ship it\n---\nDEPLOY-STEPS for $ARGUMENTS\n");
  mkdirSync(`${userHome}/.codex/prompts`, { recursive: true });
  await Bun.write(`${userHome}/.codex/prompts/review-file.md`, "---\ndescription: Review one file\n---\nREVIEW-FILE $1 carefully\n");
  mock = startMockLlm([{ text: "a" }, { text: "b" }]);
  const cwd = tempDir("zot-migrant-cwd-");
  const first = await zot(["-p", "/skill:deploy staging", ...anthropic(mock)], { cwd, env: { HOME: userHome } });
  expect(first.code).toBe(0);
  expect(JSON.stringify(mock.requests[0].body.messages)).toContain("DEPLOY-STEPS for staging");
  const second = await zot(["-p", "/prompts:review-file src/a.ts", ...anthropic(mock)], { cwd, env: { HOME: userHome } });
  expect(second.code).toBe(0);
  expect(JSON.stringify(mock.requests[1].body.messages)).toContain("REVIEW-FILE src/a.ts carefully");
});
