// The skills as slash commands, as Claude Code offers them: `/deploy staging` sends the skill's
// instructions filled in as Claude Code fills a skill's (template-substitution.ts: `$ARGUMENTS`,
// `$ARGUMENTS[0]`, `$0`… counted from 0, its `arguments:` names, `${CLAUDE_SESSION_ID}`,
// `${CLAUDE_SKILL_DIR}`, and `` !`cmd` `` and ```` ```! ```` blocks run as a command's are), so a
// user need not ask the model to load it. Rule: a Markdown command of the same name comes first
// (the skill is then only the model's, said in a warning), except a folder's command while the
// folder is not trusted, which does not take the user's own skill's name (project-config.ts); only
// the user's `/name` fills a skill in and runs its `!`
// commands: the model's `skill` tool hands over the body as written. A skill with Claude Code's
// `user-invocable: false` is no command at all (only the model loads it); one with
// `disable-model-invocation: true` is one as any.
import path from "node:path";
import { type Skill, userInvocable } from "../skills/discover.ts";
import type { MarkdownCommand } from "./markdown-commands.ts";
import { fillTemplate, type ShellRunner } from "./template-substitution.ts";

/** A command for each skill the user may start whose name no command in `taken` has. */
export function skillCommands(skills: readonly Skill[], taken: ReadonlySet<string>): MarkdownCommand[] {
  return skills
    .filter((skill) => userInvocable(skill) && !taken.has(`skill:${skill.name}`.toLowerCase()))
    .map((skill) => ({
      // pi starts a skill as /skill:<name>: that runs it too, and is its only name where a command has the plain one.
      ...(taken.has(skill.name.toLowerCase()) ? { name: `skill:${skill.name}` } : { name: skill.name, alias: `skill:${skill.name}` }),
      description: `${skill.description} (skill)`,
      body: skill.body,
      file: skill.path,
      scope: skill.source === "project" ? "project" : "user",
      // A built-in skill has no folder on disk: its ${CLAUDE_SKILL_DIR} stays as written.
      skill: skill.source === "builtin" ? {} : { dir: path.dirname(skill.path) },
      // Claude Code's skill `allowed-tools`: what `/<skill>`'s prompt may run unasked, as a command's.
      ...(skill.allowedTools ? { allowedTools: skill.allowedTools } : {}),
      ...(skill.argumentNames ? { argumentNames: skill.argumentNames } : {}),
      // Claude Code's skill `argument-hint` and `model`, as a command's.
      ...(skill.argumentHint ? { argumentHint: skill.argumentHint } : {}),
      ...(skill.model ? { model: skill.model } : {}),
    }));
}

export interface SkillPromptOptions {
  /** the folder holding the SKILL.md: `${CLAUDE_SKILL_DIR}` */
  skillDir?: string;
  /** front matter `arguments:`: `$name` is the argument in its place */
  argumentNames?: readonly string[];
  /** `${CLAUDE_SESSION_ID}` */
  sessionId?: string;
  /** runs one `!` command; undefined = `!` commands are not allowed here (each is named as not run) */
  runShell?: ShellRunner;
}

/** A skill's prompt: its body filled in with `args`, or with them after it when the body has no place for them. */
export async function skillPrompt(body: string, args: string, options: SkillPromptOptions = {}): Promise<string> {
  const words = args.trim();
  const { text, usedArguments } = await fillTemplate(
    body,
    {
      args: words,
      positionalBase: 0,
      ...(options.argumentNames ? { argumentNames: options.argumentNames } : {}),
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
      ...(options.skillDir !== undefined ? { skillDir: options.skillDir } : {}),
    },
    options.runShell,
  );
  return !usedArguments && words ? `${text.trimEnd()}\n\n${words}` : text;
}
